/**
 * Issue 36: the Redis password of a queue-backed sweep is never printed. `sweep --status` with a
 * wrong password exits at once, naming the server (password hidden), where it printed the AUTH
 * command with the password over and over and never exited; `sweep --queue --no-wait` prints the
 * workers' command with the password hidden.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MINI_PATH } from '../testing/fixtures';
import { startTestRedis, type TestRedis } from '../testing/redis-server';
import { redactRedisUrl, queueError } from '../adapters/node/queue/connection';

const run = promisify(execFile);
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const PASSWORD = 'pw-Zq81xk3v';
let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis({ password: PASSWORD });
}, 30_000);
afterAll(async () => {
  await redis?.stop();
});

const cli = async (args: string[]) => {
  const r = await run(process.execPath, [...CLI, ...args], { timeout: 30_000 }).catch((e: { code?: number; stdout: string; stderr: string; killed?: boolean }) => e);
  return { code: (r as { code?: number }).code ?? 0, out: `${r.stdout}${r.stderr}`, killed: (r as { killed?: boolean }).killed ?? false };
};

describe('the Redis password is never printed', () => {
  it('redactRedisUrl and queueError hide it', () => {
    expect(redactRedisUrl('redis://user:s3cret@h:6379/0')).toBe('redis://user:***@h:6379/0');
    expect(redactRedisUrl('redis://h:6379')).toBe('redis://h:6379');
    expect(queueError(new Error('ERR at redis://:s3cret@h'), 'redis://:s3cret@h:1').message).not.toContain('s3cret');
  });

  it('sweep --status with a wrong password exits non-zero at once, naming the server without the password', async () => {
    const wrong = redis.url.replace(encodeURIComponent(PASSWORD), 'wrong-pw-77aa');
    const t0 = Date.now();
    const r = await cli(['sweep', '--status', '--queue', wrong]);
    expect(r.killed).toBe(false);
    expect(Date.now() - t0).toBeLessThan(25_000);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ refused the credentials/);
    expect(r.out).not.toContain('wrong-pw-77aa');
    expect(r.out.split('\n').filter(Boolean).length).toBeLessThan(4);
  }, 40_000);

  it('sweep --queue prints the workers\' command with the password hidden', async () => {
    const out = mkdtempSync(join(tmpdir(), 'educlaw-qsec-'));
    const r = await cli(['sweep', '--scenarios', MINI_PATH, '--tutor', 'silent', '--seeds', '1', '--tracer', 'bkt', '--queue', redis.url, '--queue-name', 'secrets', '--out', out, '--no-wait']);
    expect(r.out).toMatch(/start workers with: npm run worker -- --queue redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(the password hidden: give yours\)/);
    expect(r.out).not.toContain(PASSWORD);
    expect(r.code).toBe(0);
  }, 60_000);
});
