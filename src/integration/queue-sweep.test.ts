/**
 * A queue-backed sweep end to end, as users run it: its own redis-server (append-only file on), the
 * scripted chat server (counting the requests in flight), `sweep --queue … --no-wait` enqueueing
 * LLM runs, Redis killed and restarted (the runs survive), three `worker` processes, one of them
 * SIGKILLed in the middle of a run, and `sweep --queue` waiting and collecting the summary. Checked:
 * every run completed exactly once (the workers' own lines), each trace byte for byte the trace of
 * a single-process sweep of the same runs, the killed run resumed rather than restarted (the model
 * calls the server saw), the provider's maxConcurrency held across the three workers (and reached),
 * and a poisoned run (its model always refused) failed after its attempts, with its reason, without
 * holding up the others. Without redis-server installed this fails, naming the package.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINI_PATH } from '../testing/fixtures';
import { policyReply, type MockServer, startMockOpenAi } from '../testing/mock-openai-server';
import { startTestRedis, type TestRedis } from '../testing/redis-server';
import { runNodeSweep } from '../adapters/node/sweep/run-sweep';
import { enqueueRuns, queueStatus } from '../adapters/node/queue/sweep';

const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const DELAY_MS = 15;
const LIMIT = 2;
const SEEDS = [1, 2, 3, 4];
const GOOD = SEEDS.map((s) => `mini-3day__llm-reactive-m1__s${s}`);
const POISONED = 'mini-3day__llm-reactive-poison__s1';
const QUEUE = 'educlaw-test';

let redis: TestRedis | null = null;
/** No redis-server: the test fails with this (naming the package), it is not skipped. */
let missing: Error | null = null;
let srv: MockServer;
let inFlight = 0;
let peak = 0;
const procs: ChildProcess[] = [];

beforeAll(async () => {
  redis = await startTestRedis().catch((e: Error) => ((missing = e), null));
  srv = await startMockOpenAi(async (body) => {
    // The poisoned model is always refused (400: not retried by the client, so each attempt ends at once).
    if (body.model === 'poison') return { kind: 'status', status: 400, body: { error: { message: 'this model is poisoned', type: 'invalid_request_error' } } };
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((r) => setTimeout(r, DELAY_MS));
    inFlight--;
    const r = policyReply(body);
    return r.kind === 'chat' && r.toolCalls ? { ...r, toolCalls: r.toolCalls.map((c, i) => ({ ...c, id: `call_${body.messages.length}_${i}` })) } : r;
  });
}, 30_000);

afterAll(async () => {
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await redis?.stop();
  await srv?.close();
});

interface Proc {
  child: ChildProcess;
  lines: string[];
  stderr(): string;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function start(args: string[], onLine?: (line: string) => void): Proc {
  const child = spawn(process.execPath, [...CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  procs.push(child);
  const lines: string[] = [];
  let stdout = '';
  let stderr = '';
  let pending = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    pending += d.toString();
    const parts = pending.split('\n');
    pending = parts.pop()!;
    for (const l of parts) {
      if (process.env.DEBUG_QUEUE_TEST) console.error(`${args[0]}: ${l}`);
      lines.push(l);
      onLine?.(l);
    }
  });
  child.stderr!.on('data', (d: Buffer) => {
    if (process.env.DEBUG_QUEUE_TEST) console.error(`${args[0]} (stderr): ${d.toString()}`);
    stderr += d.toString();
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((r) => child.once('exit', (code) => r({ code, stdout, stderr })));
  return { child, lines, stderr: () => stderr, exited };
}

const cli = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((r) =>
    execFile(process.execPath, [...CLI, ...args], (e, stdout, stderr) => r({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr })),
  );

const modelCalls = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l.includes('"type":"model_call"')).length;
const until = async (what: string, ok: () => boolean, ms = 40_000) => {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('a queue-backed sweep (BullMQ on Redis) with three worker processes', () => {
  it('runs every run exactly once, the traces of a single-process sweep, a SIGKILLed worker\'s run resumed, one provider limit for all workers, a poisoned run failed with its reason', async () => {
    if (missing) throw missing;
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-queue-'));
    const cfg = join(dir, 'llm.yaml');
    writeFileSync(cfg, `providers:\n  - name: local\n    baseURL: ${srv.url}\n    maxConcurrency: ${LIMIT}\n    backoffMs: 10\n`);
    const m1Calls = () => srv.requests.filter((r) => r.body.model === 'm1').length;

    // The same runs in one process: the reference traces, and the calls they take.
    const ref = join(dir, 'ref');
    const before = m1Calls();
    const local = await runNodeSweep({ files: [MINI_PATH], base: { horizonDays: 2 }, tutors: [{ name: 'llm', config: { harness: 'reactive', model: 'm1', provider: 'local' } }], seeds: SEEDS, threads: 1, concurrency: 4, outDir: ref, llmConfig: [cfg] });
    expect(local.summary.failed).toEqual([]);
    const freshCalls = m1Calls() - before;

    const shared = join(dir, 'shared');
    const sweepArgs = ['sweep', '--queue', redis!.url, '--queue-name', QUEUE, '--scenarios', MINI_PATH, '--tutor', 'llm', '--model', 'm1', '--model', 'poison', '--provider', 'local', '--seeds', '1-4', '--horizon', '2', '--llm-config', cfg, '--out', shared, '--attempts', '2', '--backoff-ms', '200', '--quiet'];
    // Enqueue only; then Redis dies and comes back: the runs are still there (append-only file).
    const enq = await cli([...sweepArgs, '--no-wait']);
    if (process.env.DEBUG_QUEUE_TEST) console.error('enqueue:', enq);
    expect(enq.stderr).toContain('8 runs on queue educlaw-test: 8 enqueued');
    await redis!.restart();
    expect((await queueStatus({ url: redis!.url, name: QUEUE })).counts.waiting).toBe(8);

    // Three workers, two runs at a time each (six runs could call at once; the provider allows 2 across all).
    peak = 0;
    const callsBefore = m1Calls();
    const started = new Map<string, string>(); // good run → the worker that started it first
    const workers = ['w1', 'w2', 'w3'].map((name) =>
      start(['worker', '--queue', redis!.url, '--queue-name', QUEUE, '--out', shared, '--llm-config', cfg, '--concurrency', '2', '--lock-ms', '3000', '--lease-ms', '1500', '--name', name, '--status-port', '0'], (line) => {
        const m = /^\[(w\d)\] started (\S+)/.exec(line);
        if (m && GOOD.includes(m[2]!) && !started.has(m[2]!)) started.set(m[2]!, m[1]!);
      }),
    );
    // The same sweep command again: adds nothing, waits, collects.
    const waiting = start(sweepArgs);

    // Kill the first worker found in the middle of a good run: at least 4 model calls in its partial trace.
    let victim: { worker: string; runId: string } | null = null;
    await until('a run under way', () => {
      for (const [runId, worker] of started) {
        const p = join(shared, 'partial', `${runId}.jsonl`);
        if (existsSync(p) && modelCalls(p) >= 4) return (victim = { worker, runId }), true;
      }
      return false;
    });
    const killed = workers[Number(victim!.worker.slice(1)) - 1]!;
    killed.child.kill('SIGKILL');
    await killed.exited;
    const partial = join(shared, 'partial', `${victim!.runId}.jsonl`);
    expect(existsSync(partial)).toBe(true);
    const recorded = modelCalls(partial);
    // The killed worker's good runs under way: each had at most one call in flight.
    const done = (w: Proc, id: string) => w.lines.some((l) => l.includes(`completed ${id}`));
    const underWay = GOOD.filter((id) => killed.lines.some((l) => new RegExp(`(started|resuming) ${id}\\b`).test(l)) && !done(killed, id));
    expect(underWay).toContain(victim!.runId);

    const res = await waiting.exited;
    expect(res.code, res.stderr).toBe(3); // the poisoned run failed
    expect(res.stderr).toContain('8 runs on queue educlaw-test: 0 enqueued, 8 already there (kept)');
    // A survivor's status endpoint: what sweep --status prints, as JSON.
    const survivor = workers.find((w) => w !== killed)!;
    const statusUrl = /the queue's progress at (\S+)/.exec(survivor.stderr())![1]!;
    const js = (await (await fetch(statusUrl)).json()) as { counts: Record<string, number>; failed: { runId: string; reason: string }[] };
    expect([js.counts.completed, js.counts.failed]).toEqual([4, 4]);
    expect(js.failed.find((f) => f.runId === POISONED)!.reason).toMatch(/poisoned/);
    for (const w of workers) if (w !== killed) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));

    // Every good run completed exactly once, by the workers' own account; the victim by another worker, resumed.
    const completions = workers.flatMap((w) => w.lines.filter((l) => / completed /.test(l)));
    for (const id of GOOD) expect(completions.filter((l) => l.includes(`completed ${id}`)), id).toHaveLength(1);
    const resumedLine = completions.find((l) => l.includes(`completed ${victim!.runId}`))!;
    expect(resumedLine).toMatch(/resumed after \d+ events/);
    expect(resumedLine.startsWith(`[${victim!.worker}]`)).toBe(false);
    // Traces byte for byte those of the single-process sweep; no partial trace left.
    for (const id of GOOD) expect(readFileSync(join(shared, 'traces', `${id}.jsonl`)).equals(readFileSync(join(ref, 'traces', `${id}.jsonl`))), id).toBe(true);
    expect(readdirSync(join(shared, 'partial')).filter((f) => GOOD.some((id) => f.startsWith(id)))).toEqual([]);
    // Resumed, not restarted: the calls the server saw are the fresh sweep's plus at most the ones in flight when the worker died (a restart would repeat `recorded`).
    const seen = m1Calls() - callsBefore;
    expect(seen).toBeGreaterThanOrEqual(freshCalls);
    expect(seen).toBeLessThanOrEqual(freshCalls + underWay.length);
    expect(recorded).toBeGreaterThan(underWay.length);
    // One limit for the three workers, and it was reached.
    expect(peak).toBe(LIMIT);

    // The summary a local sweep writes, with the poisoned run failed and its reason.
    const sum = JSON.parse(readFileSync(join(shared, 'summary.json'), 'utf8')) as { runs: { runId: string }[]; errors: { runId: string; error: string }[] };
    const refSum = JSON.parse(readFileSync(join(ref, 'summary.json'), 'utf8')) as { runs: { runId: string }[] };
    expect(sum.runs.filter((r) => GOOD.includes(r.runId))).toEqual(refSum.runs);
    expect(sum.errors.map((e) => e.runId).sort()).toEqual(SEEDS.map((s) => `mini-3day__llm-reactive-poison__s${s}`));
    expect(sum.errors.find((e) => e.runId === POISONED)!.error).toMatch(/llm_error.*poisoned/);
    const timing = JSON.parse(readFileSync(join(shared, 'timing.json'), 'utf8')) as { runs: { runId: string; worker?: string; replayed?: number }[] };
    expect(timing.runs.find((r) => r.runId === victim!.runId)).toMatchObject({ replayed: expect.any(Number) });

    // The same run ids with another run record (another sweep's options) are refused, and nothing is added.
    const other = local.jobs.map((j) => ({ ...j, record: { ...j.record, horizonDays: 3 } }));
    await expect(enqueueRuns({ url: redis!.url, name: QUEUE }, other)).rejects.toThrow(/already holds a different run with the id mini-3day__llm-reactive-m1__s1/);

    // sweep --status: the counts and the failed runs with their reasons.
    const st = await cli(['sweep', '--status', '--queue', redis!.url, '--queue-name', QUEUE]);
    expect(st.stdout).toContain('8 runs: 4 completed, 0 running, 0 waiting, 0 waiting to retry, 4 failed');
    expect(st.stdout).toMatch(new RegExp(`FAILED {3}${POISONED} after 2 attempts: run ended "llm_error".*poisoned`));
  }, 90_000);
});
