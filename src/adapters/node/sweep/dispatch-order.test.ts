/**
 * Sweeps hand out the longest jobs first (core/sweep/cost.ts); the order changes when each run
 * starts, never what it writes: results in the plan's order, traces and summaries byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINI_PATH } from '../../../testing/fixtures';
import { runNodeSweep, type NodeSweepOptions } from './run-sweep';

describe('sweep dispatch order', () => {
  it('runs the longest jobs first and writes what the file order writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-dispatch-'));
    // A 1-day copy of the 3-day fixture, listed first: in file order its runs would go first.
    const short = join(dir, 'mini-1day.yaml');
    writeFileSync(short, readFileSync(MINI_PATH, 'utf8').replace(/^id: mini-3day$/m, 'id: mini-1day').replace(/^horizonDays: 3/m, 'horizonDays: 1'));
    const files = [short, MINI_PATH];
    const sweep = async (dispatch: NodeSweepOptions['dispatch']) => {
      const outDir = join(dir, dispatch!);
      const started: string[] = [];
      // One thread: runs complete in the order they were handed out.
      const r = await runNodeSweep({ files, base: { tutor: { name: 'planner', config: {} }, tracer: 'bkt' }, seeds: [1, 2], threads: 1, outDir, dispatch, onResult: (x) => started.push(x.job.runId) });
      return { r, outDir, started };
    };
    const file = await sweep('file');
    const longest = await sweep('longest-first');
    const ids = ['mini-1day__planner__s1', 'mini-1day__planner__s2', 'mini-3day__planner__s1', 'mini-3day__planner__s2'];
    expect(file.started).toEqual(ids);
    expect(longest.started).toEqual([ids[2], ids[3], ids[0], ids[1]]);
    for (const x of [file, longest]) {
      expect(x.r.results.map((r) => [r.job.runId, r.error])).toEqual(ids.map((id) => [id, null]));
      expect(x.r.runs.map((r) => r.runId)).toEqual(ids);
    }
    for (const f of ['summary.json', 'summary.txt', ...readdirSync(join(file.outDir, 'traces')).map((t) => join('traces', t))]) expect(readFileSync(join(longest.outDir, f)).equals(readFileSync(join(file.outDir, f))), f).toBe(true);
  }, 60_000);
});
