/** Value added over the no-tutor control, and paired head-to-heads (value-added.ts, head-to-head.ts, their report sections). */
import { describe, expect, it } from 'vitest';
import { ACTION_KINDS, type ActionKind } from '../trace/types';
import { AXES, type AxisId } from '../scoring/axes';
import { pairedSummary } from '../stats/paired';
import fx from '../stats/fixtures/paired-stats.json';
import { allTables, attachControls, buildBenchmarkReport, headToHead, valueAddedByTutor, type RunDigest } from './index';

let n = 0;
function dg(tutor: string, seed: number, gain: number, p: Partial<RunDigest> = {}): RunDigest {
  const axes = Object.fromEntries(AXES.map((a) => [a.id, null])) as Record<AxisId, number | null>;
  axes.learningGain = gain;
  axes.leakage = tutor === 'silent' ? null : 0;
  const unscored = Object.fromEntries(AXES.filter((a) => axes[a.id] === null).map((a) => [a.id, 'test: not scored'])) as Partial<Record<AxisId, string>>;
  return {
    digestVersion: 1, runId: `r${++n}`, scenarioId: 'S', tutor, tutorName: tutor, harness: null, model: null, seed, voice: 'templates', tracer: 'akt', persona: 'p', schedule: 's', ability: 'average', horizonDays: 10,
    complete: true, endReason: 'horizon_reached', unscored, panel: null, tutorMessageTurns: tutor === 'silent' ? 0 : 5,
    curve: [{ day: 0, solveRate: 0.4 }, { day: 10, solveRate: 0.4 + gain * 10 }], ceiling: 1, actionsByDay: [],
    actions: Object.fromEntries(ACTION_KINDS.map((k) => [k, 0])) as Record<ActionKind, number>, help: { requests: 0, unanswered: 0, neglected: 0 }, missing: [], axes, engine: 'educlaw-lab-engine-3',
    ...p,
  };
}

describe('value added over the no-tutor control', () => {
  it('pairs each run with the silent run on the same student; a silent run is 0; no control: null with the reason', () => {
    const ds = attachControls([dg('planner', 1, 0.03), dg('silent', 1, 0.01), dg('planner', 2, 0.02), dg('planner', 1, 0.05, { voice: 'llm:p/m' })]);
    expect(ds.map((d) => d.axes.valueAdded)).toEqual([expect.closeTo(0.02, 12), 0, null, null]);
    expect(ds[0]!.controlRunId).toBe(ds[1]!.runId);
    expect(ds[2]!.unscored.valueAdded).toMatch(/no no-tutor control/);
    // the same student with another voice is not the same control
    expect(ds[3]!.unscored.valueAdded).toMatch(/no no-tutor control/);
  });
  it('per tutor: gain, control gain, value added over the paired runs, clustered by student', () => {
    const runs = [1, 2, 3].flatMap((seed) => [dg('planner', seed, 0.01 * seed + 0.02), dg('silent', seed, 0.01 * seed)]);
    const rows = valueAddedByTutor(attachControls(runs));
    const p = rows.find((r) => r.tutor === 'planner')!;
    expect(p).toMatchObject({ runs: 3, paired: 3, students: 3 });
    expect(p.added.mean).toBeCloseTo(0.02, 12);
    expect(p.control.mean).toBeCloseTo(0.02, 12);
    expect(p.gain.mean).toBeCloseTo(0.04, 12);
  });
});

describe('head to head', () => {
  it('pairs runs on the same students and matches the fixture (scipy) when each student has one pair', () => {
    const diffs = fx.pairedExact.diffs;
    const runs = diffs.flatMap((d, i) => [dg('A', i + 1, 0.01 + d / 100), dg('B', i + 1, 0.01)]);
    const h = headToHead(runs, 'A', 'B', 'learningGain')!;
    expect(h).toMatchObject({ pairs: 10, students: 10, seeds: 10 });
    expect(h.summary.mean! * 100).toBeCloseTo(fx.pairedExact.mean, 10);
    expect(h.summary.dz).toBeCloseTo(fx.pairedExact.dz, 8);
    expect(h.summary.wilcoxon!.p).toBeCloseTo(fx.pairedExact.wilcoxonP, 10);
    expect([h.summary.wins, h.summary.ties, h.summary.losses]).toEqual([fx.pairedExact.wins, fx.pairedExact.ties, fx.pairedExact.losses]);
    expect(h.distinguishable).toBe(true);
    expect(h.studentsNeeded).toBeGreaterThan(2);
    expect(h.seedsNeeded).toBe(h.studentsNeeded);
  });
  it('averages the pairs of one student first: scenarios of a seed share a student on engine 2', () => {
    const runs = ['S1', 'S2'].flatMap((scenarioId) => [1, 2, 3].flatMap((seed) => [dg('A', seed, 0.02 + seed * 0.001 + (scenarioId === 'S1' ? 0.01 : 0), { scenarioId, engine: 'educlaw-lab-engine-2' }), dg('B', seed, 0.02, { scenarioId, engine: 'educlaw-lab-engine-2' })]));
    const h = headToHead(runs, 'A', 'B', 'learningGain')!;
    expect(h).toMatchObject({ pairs: 6, students: 3, seeds: 3 });
    const perStudent = [1, 2, 3].map((s) => s * 0.001 + 0.005);
    const ref = pairedSummary(perStudent);
    expect(h.summary.mean).toBeCloseTo(ref.mean!, 12);
    expect(h.summary.lo).toBeCloseTo(ref.lo!, 12);
  });
  it('wins count in the axis direction: lower leakage is better', () => {
    const runs = [1, 2].flatMap((seed) => [dg('A', seed, 0.01, { axes: { ...dg('A', seed, 0.01).axes, leakage: 0 } }), dg('B', seed, 0.01, { axes: { ...dg('B', seed, 0.01).axes, leakage: 0.5 } })]);
    const h = headToHead(runs, 'A', 'B', 'leakage')!;
    expect(h.summary.mean).toBeCloseTo(-0.5, 12);
    expect([h.summary.wins, h.summary.losses]).toEqual([2, 0]);
  });
});

describe('the report sections', () => {
  const runs = () => [1, 2, 3, 4].flatMap((seed) => [dg('planner', seed, 0.03 + seed * 0.002), dg('withholder', seed, 0.02 + (seed % 2) * 0.004), dg('silent', seed, 0.01 + seed * 0.001)]);
  it('value added, yardsticks, head to head and ranking, each with a CSV; the silent tutor fails pass^k', () => {
    const r = buildBenchmarkReport(runs());
    const ids = allTables(r).map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining(['value-added', 'yardsticks', 'head-to-head', 'ranking', 'pass-k-seeds']));
    const pk = r.analyses.passK.find((p) => p.over === 'seeds')!;
    const silent = pk.tutors.find((t) => t.tutor === 'silent')!;
    expect(silent.undecided).toBe(0);
    expect(silent.byK[0]!.stat.mean).toBe(0);
    expect(pk.tutors.find((t) => t.tutor === 'planner')!.byK[0]!.stat.mean).toBe(1);
    const head = r.sections.find((s) => s.id === 'head-to-head')!;
    expect(head.paragraphs.join(' ')).toMatch(/planner vs silent: observed difference \+2\.\d+ pp\/day .* needs \d+ students?, \d+ seeds?/);
    const fm = r.analyses.failureModes.find((f) => f.group === 'silent')!;
    expect(fm.modes.noValueAdded).toMatchObject({ failed: 4, decided: 4 });
  });
});
