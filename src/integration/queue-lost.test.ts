/**
 * Issue 36: a Redis restarted without persistence in the middle of a queue-backed sweep emptied
 * the queue, and the waiting `sweep --queue` showed "0 runs" and waited forever, `sweep --status`
 * said "0 runs" with no word of why. Now the waiting sweep ends naming the runs the queue lost and
 * the fix (the same command again: the runs are enqueued again, the traces already written kept),
 * `sweep --status` on an empty queue says it may have been lost and how the Redis keeps its data,
 * and the sweep warns at enqueue time when the Redis keeps nothing across a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MINI_PATH } from '../testing/fixtures';
import { startTestRedis, type TestRedis } from '../testing/redis-server';

const run = promisify(execFile);
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const QUEUE = 'educlaw-lost';
let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis({ appendfsync: 'none' });
}, 30_000);
afterAll(async () => {
  await redis?.stop();
});

const cli = async (args: string[]) => {
  const r = await run(process.execPath, [...CLI, ...args], { timeout: 60_000 }).catch((e: { code?: number; stdout: string; stderr: string }) => e);
  return { code: (r as { code?: number }).code ?? 0, out: `${r.stdout}${r.stderr}` };
};

describe('a queue that lost its runs (Redis restarted without persistence)', () => {
  it('the waiting sweep ends naming the lost runs and the fix; --status says the queue may have been lost; the same command enqueues them again', async () => {
    const out = mkdtempSync(join(tmpdir(), 'educlaw-lost-'));
    const sweep = ['sweep', '--queue', redis.url, '--queue-name', QUEUE, '--scenarios', MINI_PATH, '--tutor', 'planner', '--seeds', '1-2', '--horizon', '1', '--out', out, '--quiet'];
    const enq = await cli([...sweep, '--no-wait']);
    expect(enq.code, enq.out).toBe(0);
    expect(enq.out).toContain('2 runs on queue educlaw-lost: 2 enqueued');
    expect(enq.out).toMatch(/warning: the Redis at redis:\/\/127\.0\.0\.1:\d+ keeps no data across a restart \(up \d+ s, appendonly no, no snapshots: a restart empties it\)/);

    // The same command waits (no worker is running); Redis restarts empty under it.
    const child = spawn(process.execPath, [...CLI, ...sweep], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const t0 = Date.now();
    while (!text.includes('already there (kept)')) {
      if (Date.now() - t0 > 30_000) throw new Error(`the waiting sweep did not start: ${text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await redis.restart();
    // It ends by itself (before the fix it waited forever at "0 runs").
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000))]);
    if (code === 'hung') child.kill('SIGKILL');
    expect(code, text).not.toBe('hung');
    expect(code, text).not.toBe(0);
    expect(text).toMatch(/queue educlaw-lost lost 2 of the 2 runs this sweep enqueued \(mini-3day__planner__s1, mini-3day__planner__s2\): they are no longer in Redis \(up \d+ s, appendonly no, no snapshots: a restart empties it\)/);
    expect(text).toContain('run the same `sweep --queue …` command again: it enqueues the missing runs again, and the workers keep the traces already in --out');

    // --status: an empty queue says it may have lost its runs, with the fix.
    const st = await cli(['sweep', '--status', '--queue', redis.url, '--queue-name', QUEUE]);
    expect(st.code, st.out).toBe(0);
    expect(st.out).toContain('0 runs: 0 completed');
    expect(st.out).toMatch(/no runs in this queue: no sweep enqueued runs under this name \(--queue-name\), or Redis lost them \(up \d+ s, appendonly no, no snapshots: a restart empties it\)\. If a sweep used it, run the same `sweep --queue …` command again/);

    // The fix works: the same command enqueues both runs again.
    const again = await cli([...sweep, '--no-wait']);
    expect(again.out).toContain('2 runs on queue educlaw-lost: 2 enqueued');
    const st2 = await cli(['sweep', '--status', '--queue', redis.url, '--queue-name', QUEUE]);
    expect(st2.out).toContain('2 runs: 0 completed, 0 running, 2 waiting');
    expect(st2.out).not.toContain('no runs in this queue');
  }, 120_000);
});
