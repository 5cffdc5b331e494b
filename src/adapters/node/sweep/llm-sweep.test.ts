/**
 * Sweeps of LLM tutors as async runs in one process (runNodeSweep; the CLI side is in
 * src/cli/sweep-cli.test.ts), against the scripted server answering after a delay: the runs do
 * overlap (calls in flight at the server reach the lower of --concurrency and the provider's
 * maxConcurrency) and never exceed the provider's limit across runs; the traces do not depend on
 * the concurrency; a sweep stopped by its signal leaves partial traces that `resume` completes to
 * the fresh sweep's, asking the server only for what the traces do not hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINI_PATH } from '../../../testing/fixtures';
import { policyReply, type MockServer, startMockOpenAi } from '../../../testing/mock-openai-server';
import { resumeFile } from '../trace-file';
import { loadScenarios, planTutorSweep, runNodeSweep, type NodeSweepOptions } from './run-sweep';

const DELAY_MS = 10;
let srv: MockServer;
let inFlight = 0;
let peak = 0;
/** Called with the number of requests received so far (the stop test aborts from here). */
let onRequest: (n: number) => void = () => {};
beforeAll(async () => {
  srv = await startMockOpenAi(async (body, n) => {
    onRequest(n + 1);
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((r) => setTimeout(r, DELAY_MS));
    inFlight--;
    // Tool-call ids from the conversation, not the server's counter: the same conversation gets the same reply whichever run asks first.
    const r = policyReply(body);
    return r.kind === 'chat' && r.toolCalls ? { ...r, toolCalls: r.toolCalls.map((c, i) => ({ ...c, id: `call_${body.messages.length}_${i}` })) } : r;
  });
});
afterAll(() => srv?.close());

/** A provider file; the provider is always "local" on this server (traces name it), with this maxConcurrency. */
function providerFile(maxConcurrency: number): string {
  const f = join(mkdtempSync(join(tmpdir(), 'educlaw-llm-cfg-')), 'llm.yaml');
  writeFileSync(f, `providers:\n  - name: local\n    baseURL: ${srv.url}\n    maxConcurrency: ${maxConcurrency}\n    backoffMs: 10\n`);
  return f;
}

const TUTORS: NodeSweepOptions['tutors'] = [
  { name: 'llm', config: { harness: 'reactive', model: 'm1', provider: 'local' } },
  { name: 'llm', config: { harness: 'notes', model: 'm2', provider: 'local' } },
];
const IDS = ['mini-3day__llm-reactive-m1__s1', 'mini-3day__llm-reactive-m1__s2', 'mini-3day__llm-notes-m2__s1', 'mini-3day__llm-notes-m2__s2'];
const sweep = (outDir: string, maxConcurrency: number, concurrency: number, extra: Partial<NodeSweepOptions> = {}) =>
  runNodeSweep({ files: [MINI_PATH], base: { horizonDays: 2 }, tutors: TUTORS, seeds: [1, 2], threads: 1, concurrency, outDir, llmConfig: [providerFile(maxConcurrency)], ...extra });
const trace = (dir: string, id: string) => readFileSync(join(dir, 'traces', `${id}.jsonl`));
/** Resolves once the server has had no request in flight and no new one for 200 ms. */
async function quiet(): Promise<void> {
  for (let seen = -1, still = 0; still < 4; ) {
    await new Promise((r) => setTimeout(r, 50));
    still = srv.requests.length === seen && inFlight === 0 ? still + 1 : 0;
    seen = srv.requests.length;
  }
}

let fresh: string;
let freshCalls: number;

describe('LLM sweeps as async runs in one process', () => {
  it('runs 4 LLM runs at once; the provider\'s maxConcurrency (3) bounds the calls in flight across all of them, and is reached', async () => {
    fresh = mkdtempSync(join(tmpdir(), 'educlaw-llm-sweep-'));
    peak = 0;
    const before = srv.requests.length;
    const r = await sweep(fresh, 3, 4);
    expect(r.results.map((x) => [x.job.runId, x.error, x.summary?.endReason])).toEqual(IDS.map((id) => [id, null, 'horizon_reached']));
    expect(peak).toBe(3);
    freshCalls = srv.requests.length - before;
    // Every call reached the server once and is in a trace.
    expect(freshCalls).toBe(countCalls(fresh));
    expect(readdirSync(join(fresh, 'traces')).sort()).toEqual(IDS.map((id) => `${id}.jsonl`).sort());
    expect(r.summary.byTutor!.map((t) => [t.tutor, t.runs])).toEqual([['llm/reactive/m1', 2], ['llm/notes/m2', 2]]);
    const timing = JSON.parse(readFileSync(join(fresh, 'timing.json'), 'utf8')) as { concurrency: number; runs: { async?: boolean }[] };
    expect(timing.concurrency).toBe(4);
    expect(timing.runs.every((x) => x.async)).toBe(true);
  }, 60_000);

  it('with --concurrency 2 under a maxConcurrency of 8, 2 calls are in flight at most (one per run), and the traces are the same', async () => {
    const out = mkdtempSync(join(tmpdir(), 'educlaw-llm-sweep-c2-'));
    peak = 0;
    const r = await sweep(out, 8, 2);
    expect(r.summary.failed).toEqual([]);
    expect(peak).toBe(2);
    for (const id of IDS) expect(trace(out, id).equals(trace(fresh, id)), id).toBe(true);
  }, 60_000);

  it('a sweep stopped by its signal leaves partial traces (runs not started: cancelled); resume completes them to the fresh sweep, asking only for the calls the traces lack', async () => {
    const out = mkdtempSync(join(tmpdir(), 'educlaw-llm-sweep-stop-'));
    const ac = new AbortController();
    const start = srv.requests.length;
    onRequest = (n) => {
      if (n - start >= 30) ac.abort();
    };
    let stopped;
    try {
      stopped = await sweep(out, 2, 2, { signal: ac.signal });
    } finally {
      onRequest = () => {};
    }
    // Two runs were under way (partial traces ending in run_end "aborted"), two never started.
    expect(stopped.results.map((x) => x.error)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    const written = readdirSync(join(out, 'traces')).sort();
    expect(written).toEqual([`${IDS[0]}.jsonl`, `${IDS[1]}.jsonl`]);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).summary.failed.map((f: { runId: string }) => f.runId)).toEqual(IDS);
    let kept = 0;
    for (const f of written) {
      const t = resumeFile(join(out, 'traces', f));
      expect(t.stored.at(-1)).toMatchObject({ type: 'run_end', reason: 'aborted' });
      kept += t.stored.slice(0, t.keep).filter((e) => e.type === 'model_call' && e.response !== null).length;
    }
    expect(kept).toBeGreaterThan(0);

    // A call the stopped sweep sent just before the signal can reach this server (in this same
    // process) after the sweep returned: let it land before counting what the resume asks.
    await quiet();
    const before = srv.requests.length;
    const again = await sweep(out, 2, 2, { resume: true });
    expect(again.results.map((x) => [x.error, x.skipped ?? false, x.replayed > 0])).toEqual([
      [null, false, true],
      [null, false, true],
      [null, false, false],
      [null, false, false],
    ]);
    for (const id of IDS) expect(trace(out, id).equals(trace(fresh, id)), id).toBe(true);
    expect(srv.requests.length - before).toBe(freshCalls - kept);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).summary).toEqual(JSON.parse(readFileSync(join(fresh, 'summary.json'), 'utf8')).summary);

    // Everything complete now: a second resume keeps every trace and asks nothing.
    const asked = srv.requests.length;
    const third = await sweep(out, 2, 2, { resume: true });
    expect(third.results.every((x) => x.skipped)).toBe(true);
    expect(srv.requests.length).toBe(asked);
  }, 60_000);
});

/** Model calls recorded in a sweep's traces. */
function countCalls(dir: string): number {
  let n = 0;
  for (const f of readdirSync(join(dir, 'traces'))) for (const line of readFileSync(join(dir, 'traces', f), 'utf8').split('\n')) if (line.includes('"type":"model_call"')) n++;
  return n;
}

describe('planning several tutors', () => {
  const scen = () => loadScenarios([MINI_PATH]);
  it('tutor-major job order; identical tutors count once; run ids that would collide (as file names) are refused', () => {
    const jobs = planTutorSweep(scen(), {}, [{ name: 'planner', config: {} }, ...TUTORS!, { name: 'planner', config: {} }], [1]);
    expect(jobs.map((j) => [j.index, j.runId])).toEqual([
      [0, 'mini-3day__planner__s1'],
      [1, 'mini-3day__llm-reactive-m1__s1'],
      [2, 'mini-3day__llm-notes-m2__s1'],
    ]);
    const a = { name: 'llm', config: { harness: 'reactive', model: 'Org/M', provider: 'local' } };
    const b = { name: 'llm', config: { harness: 'reactive', model: 'org:m', provider: 'local' } };
    expect(() => planTutorSweep(scen(), {}, [a, b], [1])).toThrow(/two runs of this sweep would have the run id mini-3day__llm-reactive-org-m__s1 \(tutors llm\/reactive\/Org\/M and llm\/reactive\/org:m\)/);
  });
});
