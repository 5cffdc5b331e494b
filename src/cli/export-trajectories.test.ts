/**
 * `export-trajectories` over trace files on disk: a directory of traces (a sweep's layout) gives
 * one valid line per turn or per run; what is not a trace is skipped with the reason; and
 * --complete-only leaves out a run cut short.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrajectoryLineSchema, toJsonl } from '../core/index';
import { miniScenario, runWith } from '../testing/fixtures';
import { exportTrajectories } from './commands/export-trajectories';

describe('export-trajectories', () => {
  it('reads a directory of traces: per turn, per run, --complete-only; a file that is not a trace is skipped with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-traj-'));
    mkdirSync(join(dir, 'traces'));
    const a = await runWith(miniScenario(), 'planner', { seed: 1 });
    const b = await runWith(miniScenario(), 'withholder', { seed: 2 });
    writeFileSync(join(dir, 'traces', 'a.jsonl'), toJsonl(a.events));
    // b cut short after its first 60 events.
    writeFileSync(join(dir, 'traces', 'b.jsonl'), toJsonl(b.events.slice(0, 60)));
    writeFileSync(join(dir, 'traces', 'notes.jsonl'), '{"hello": "world"}\n');

    const lines: string[] = [];
    const res = exportTrajectories([dir], { per: 'turn' }, (l) => lines.push(l));
    const parsed = lines.map((l) => TrajectoryLineSchema.parse(JSON.parse(l)));
    const wakes = (ev: typeof a.events) => ev.filter((e) => e.type === 'wake').length;
    expect(res.runs).toBe(2);
    expect(res.lines).toBe(wakes(a.events) + wakes(b.events.slice(0, 60)));
    expect(parsed.filter((p) => p.run_id === a.runId)).toHaveLength(wakes(a.events));
    expect(res.skipped.map((s) => s.path.endsWith('notes.jsonl'))).toEqual([true]);

    const perRun: string[] = [];
    const r2 = exportTrajectories([join(dir, 'traces', 'a.jsonl'), join(dir, 'traces', 'b.jsonl')], { per: 'run', completeOnly: true }, (l) => perRun.push(l));
    expect(r2).toMatchObject({ runs: 1, lines: 1 });
    expect(r2.skipped).toEqual([{ path: join(dir, 'traces', 'b.jsonl'), why: 'did not reach its horizon (no run_end)' }]);
    const run = TrajectoryLineSchema.parse(JSON.parse(perRun[0]!));
    expect(run).toMatchObject({ kind: 'run', run_id: a.runId, signals: { run: { complete: true } } });
  });

  it('advantages across the files of an export (the runs of one simulated student compared); --form prompt-completion from the CLI', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-traj-'));
    const a = await runWith(miniScenario(), 'planner', { seed: 2 });
    const b = await runWith(miniScenario(), 'silent', { seed: 2 });
    writeFileSync(join(dir, 'a.jsonl'), toJsonl(a.events));
    writeFileSync(join(dir, 'b.jsonl'), toJsonl(b.events));
    const lines: string[] = [];
    exportTrajectories([dir], { per: 'run' }, (l) => lines.push(l));
    const runs = lines.map((l) => TrajectoryLineSchema.parse(JSON.parse(l)));
    expect(runs).toHaveLength(2);
    expect(runs.map((r) => r.group_size)).toEqual([2, 2]);
    expect(runs[0]!.return).not.toBe(runs[1]!.return);
    expect(runs.map((r) => Math.round(r.advantage * 1e9) / 1e9).sort()).toEqual([-1, 1]);
    expect(runs.find((r) => r.advantage > 0)!.return).toBe(Math.max(...runs.map((r) => r.return)));

    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'export-trajectories', dir, '--form', 'prompt-completion'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(cli.status, cli.stderr).toBe(0);
    const pc = cli.stdout.trim().split('\n').map((l) => TrajectoryLineSchema.parse(JSON.parse(l)));
    expect(pc.every((l) => l.kind === 'turn_pc' && l.prompt.length === 2 && l.completion.length >= 1 && l.label === l.advantage > 0)).toBe(true);
    const refused = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'export-trajectories', dir, '--form', 'prompt-completion', '--per', 'run'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/--form prompt-completion is one line per turn/);
  }, 60_000);
});
