/**
 * Sweeps that are interrupted and continued (runNodeSweep, in-process; the CLI side is in
 * src/cli/sweep-cli.test.ts): `resume` keeps complete traces, resumes partial ones and runs missing
 * ones, ending byte for byte where a fresh sweep ends; traces another sweep wrote are refused; a
 * worker thread that dies is that run's error, never a silent gap.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINI_PATH } from '../../../testing/fixtures';
import { runNodeSweep, type NodeSweepOptions } from './run-sweep';

const SEEDS = [1, 2, 3, 4];
const base: NodeSweepOptions['base'] = { tutor: { name: 'planner', config: {} } };
const id = (seed: number) => `mini-3day__planner__s${seed}`;
const tracePath = (dir: string, seed: number) => join(dir, 'traces', `${id(seed)}.jsonl`);
const sweep = (outDir: string, extra: Partial<NodeSweepOptions> = {}) => runNodeSweep({ files: [MINI_PATH], base, seeds: SEEDS, threads: 2, outDir, ...extra });

let fresh: string;
beforeAll(async () => {
  fresh = mkdtempSync(join(tmpdir(), 'educlaw-sweep-fresh-'));
  const r = await sweep(fresh);
  expect(r.results.map((x) => x.error)).toEqual([null, null, null, null]);
}, 60_000);

describe('sweep --resume', () => {
  it('keeps complete traces, resumes a partial one, runs a missing one, and ends equal to a fresh sweep', async () => {
    const out = mkdtempSync(join(tmpdir(), 'educlaw-sweep-resume-'));
    await sweep(out);
    // Damage it: seed 1's trace is gone, seed 2's was cut mid-line (a killed worker), 3 and 4 are complete.
    rmSync(tracePath(out, 1));
    const full2 = readFileSync(tracePath(out, 2));
    const cutAt = Math.floor(full2.length / 2);
    expect(full2[cutAt - 1]).not.toBe(0x0a);
    truncateSync(tracePath(out, 2), cutAt);
    const completeLines = full2.subarray(0, cutAt).toString('utf8').split('\n').length - 1;
    rmSync(join(out, 'summary.json'));

    const r = await sweep(out, { resume: true });
    const by = new Map(r.results.map((x) => [x.job.record.seed, x]));
    expect(by.get(3)).toMatchObject({ skipped: true, error: null, replayed: 0 });
    expect(by.get(4)).toMatchObject({ skipped: true, error: null, replayed: 0 });
    expect(by.get(2)).toMatchObject({ error: null, replayed: completeLines });
    expect(by.get(2)!.skipped).toBeFalsy();
    expect(by.get(1)).toMatchObject({ error: null, replayed: 0 });
    expect(by.get(1)!.skipped).toBeFalsy();

    for (const seed of SEEDS) expect(readFileSync(tracePath(out, seed)).equals(readFileSync(tracePath(fresh, seed))), `trace of seed ${seed}`).toBe(true);
    // summary.json and summary.txt hold no timings: equal in full.
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toEqual(JSON.parse(readFileSync(join(fresh, 'summary.json'), 'utf8')));
    expect(readFileSync(join(out, 'summary.txt'), 'utf8')).toBe(readFileSync(join(fresh, 'summary.txt'), 'utf8'));
    const timing = JSON.parse(readFileSync(join(out, 'timing.json'), 'utf8')) as { runs: { runId: string; skipped?: boolean; replayed?: number }[] };
    expect(timing.runs.map((x) => [x.runId, x.skipped ?? false, x.replayed ?? 0])).toEqual([
      [id(1), false, 0],
      [id(2), false, completeLines],
      [id(3), true, 0],
      [id(4), true, 0],
    ]);
  }, 60_000);

  it('runs afresh a trace with no complete line (a worker killed while writing run_start)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'educlaw-sweep-early-'));
    mkdirSync(join(out, 'traces'));
    writeFileSync(tracePath(out, 1), readFileSync(tracePath(fresh, 1)).subarray(0, 3000));
    const r = await runNodeSweep({ files: [MINI_PATH], base, seeds: [1], threads: 1, outDir: out, resume: true });
    expect(r.results[0]).toMatchObject({ error: null, replayed: 0 });
    expect(readFileSync(tracePath(out, 1)).equals(readFileSync(tracePath(fresh, 1)))).toBe(true);
  }, 60_000);

  it('refuses to resume traces another sweep wrote (other options), naming what differs, and touches nothing', async () => {
    const before = readFileSync(tracePath(fresh, 1));
    await expect(sweep(fresh, { resume: true, base: { ...base, horizonDays: 2 } })).rejects.toThrow(/s1\.jsonl was written by a different sweep \(scenario\.horizonDays: 3 in the trace, 2 in this sweep\); resume with the options of the sweep that wrote it, or use another --out/);
    await expect(sweep(fresh, { resume: true, base: { ...base, tracer: 'akt' } })).rejects.toThrow(/scenario\.learner\.tracer: "bkt" in the trace, "akt" in this sweep/);
    expect(readFileSync(tracePath(fresh, 1)).equals(before)).toBe(true);
  });
});

describe('a sweep worker that dies', () => {
  it('records the death as that run\'s error, still writes summary.json listing it, and sweep --resume then completes the sweep', async () => {
    const out = mkdtempSync(join(tmpdir(), 'educlaw-sweep-dies-'));
    const r = await sweep(out, { workerFile: new URL('../../../testing/dying-sweep-worker.mjs', import.meta.url) });
    const by = new Map(r.results.map((x) => [x.job.record.seed, x]));
    expect(r.results).toHaveLength(4);
    expect(by.get(1)!.error).toBeNull();
    expect(by.get(4)!.error).toBeNull();
    expect(by.get(2)!.error).toMatch(/worker exited with code: 1/);
    expect(by.get(3)!.error).toMatch(/the worker crashed \(uncaught, from a timer\)/);
    expect(r.summary.failed).toEqual([
      { runId: id(2), endReason: null },
      { runId: id(3), endReason: null },
    ]);
    const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { runs: { runId: string }[]; errors: { runId: string; error: string }[]; summary: { failed: { runId: string }[] } };
    expect(json.runs.map((x) => x.runId)).toEqual([id(1), id(4)]);
    expect(json.errors.map((x) => x.runId)).toEqual([id(2), id(3)]);
    expect(json.errors[0]!.error).toMatch(/worker exited with code: 1/);
    expect(json.summary.failed.map((x) => x.runId)).toEqual([id(2), id(3)]);
    expect(readFileSync(join(out, 'summary.txt'), 'utf8')).toMatch(/runs that did not reach the horizon: .*s2 \(incomplete\).*s3 \(incomplete\)/);
    expect(existsSync(tracePath(out, 1)) && existsSync(tracePath(out, 4))).toBe(true);

    // The real worker picks up where the dead ones left off.
    const again = await sweep(out, { resume: true });
    expect(again.results.map((x) => [x.job.record.seed, x.error, x.skipped ?? false])).toEqual([
      [1, null, true],
      [2, null, false],
      [3, null, false],
      [4, null, true],
    ]);
    expect(again.summary.failed).toEqual([]);
    for (const seed of SEEDS) expect(readFileSync(tracePath(out, seed)).equals(readFileSync(tracePath(fresh, seed))), `trace of seed ${seed}`).toBe(true);
  }, 60_000);
});
