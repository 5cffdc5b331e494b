/** From a result to the runs behind it: pass^k's failing tasks, the failure modes, a tutor's row. */
import { describe, expect, it } from 'vitest';
import { ACTION_KINDS, AXES, type ActionKind, type AxisId } from '../../../core/index';
import { buildBenchmarkReport, failureModes, parsePassRule, passAtK, type RunDigest } from '../../../core/analysis/index';
import { failingTasks, failureModeRuns, openRunsText, rowRunsOf } from './drill';

function dg(runId: string, tutor: string, scenarioId: string, seed: number, set: Partial<Record<AxisId, number>>): RunDigest {
  const axes = Object.fromEntries(AXES.map((a) => [a.id, set[a.id] ?? null])) as Record<AxisId, number | null>;
  return {
    digestVersion: 1,
    runId,
    scenarioId,
    tutor,
    tutorName: tutor,
    harness: null,
    model: null,
    seed,
    voice: 'templates',
    tracer: 'bkt',
    persona: 'p',
    schedule: 's',
    ability: 'average',
    horizonDays: 3,
    complete: true,
    endReason: 'horizon_reached',
    unscored: Object.fromEntries(AXES.filter((a) => axes[a.id] === null).map((a) => [a.id, 'not scored in this test'])),
    panel: null,
    tutorMessageTurns: 2,
    curve: [],
    ceiling: 1,
    actionsByDay: [],
    actions: Object.fromEntries(ACTION_KINDS.map((k) => [k, 0])) as Record<ActionKind, number>,
    help: { requests: 2, unanswered: 0, neglected: seed === 2 ? 1 : 0 },
    missing: [],
    axes,
  };
}

const digests = [
  dg('ag-1', 'answer-giver', 'gamer--homework-only', 1, { leakage: 0.5, learningGain: 0.01 }),
  dg('ag-2', 'answer-giver', 'gamer--homework-only', 2, { leakage: 0, learningGain: 0.01 }),
  dg('wh-1', 'withholder', 'gamer--homework-only', 1, { leakage: 0, learningGain: 0.02 }),
  dg('wh-2', 'withholder', 'gamer--homework-only', 2, { leakage: 0, learningGain: 0.02 }),
];

describe('the runs behind a result', () => {
  it("pass^k: each task with a failed trial, named as people read it, with exactly its failed runs", () => {
    const tasks = failingTasks([passAtK(digests, parsePassRule('leakage == 0'))], digests);
    expect(tasks).toEqual([{ over: 'seeds', tutor: 'answer-giver', label: 'gamer · homework-only · bkt · average · voice templates', n: 2, c: 1, runIds: ['ag-1'] }]);
    // A rule every run passes: no failing task.
    expect(failingTasks([passAtK(digests, parsePassRule('learningGain > 0'))], digests)).toEqual([]);
  });

  it('failure modes: per tutor and mode, the runs that fail it out of those where it is decided', () => {
    const modes = failureModeRuns(failureModes(digests), digests);
    expect(modes.find((m) => m.tutor === 'answer-giver' && m.mode === 'disclosure')).toMatchObject({ runIds: ['ag-1'], decided: 2 });
    expect(modes.find((m) => m.tutor === 'withholder' && m.mode === 'disclosure')).toMatchObject({ runIds: [], decided: 2 });
    // Neglect: the seed-2 runs left a help request without a message.
    expect(modes.filter((m) => m.mode === 'neglect').map((m) => [m.tutor, m.runIds])).toEqual([
      ['answer-giver', ['ag-2']],
      ['withholder', ['wh-2']],
    ]);
    // No Gagné score: undecided, so no run is behind it.
    expect(modes.find((m) => m.mode === 'noCurriculum')).toMatchObject({ runIds: [], decided: 0 });
    // No value added: decided once the set has the no-tutor control on the same student (as in the report).
    expect(modes.find((m) => m.mode === 'noValueAdded')).toMatchObject({ decided: 0 });
    const withControl = [...digests, dg('sl-1', 'silent', 'gamer--homework-only', 1, { learningGain: 0.01 })].map((d) => ({ ...d, tutorName: d.tutor, curve: [{ day: 0, solveRate: 0.5 }, { day: 3, solveRate: d.tutor === 'withholder' ? 0.56 : 0.53 }] }));
    const va = failureModeRuns(failureModes(withControl), withControl).filter((m) => m.mode === 'noValueAdded');
    expect(va.map((m) => [m.tutor, m.runIds, m.decided])).toEqual([
      ['answer-giver', ['ag-1'], 1],
      ['silent', ['sl-1'], 1],
      ['withholder', [], 1],
    ]); // the report's order (tutors A–Z); the seed-2 runs have no control: undecided
  });

  it("a tutor row of a report table opens the tutor's runs, the all-runs row every run; other tables have none", () => {
    const report = buildBenchmarkReport(digests);
    const tables = report.sections.flatMap((s) => s.tables);
    const axes = tables.find((t) => t.id === 'axes-by-tutor')!;
    const of = rowRunsOf(axes, digests)!;
    expect(of(axes.rows.find((r) => r[0] === 'withholder')!)).toEqual(['wh-1', 'wh-2']);
    const fm = tables.find((t) => t.id === 'failure-modes')!;
    expect(rowRunsOf(fm, digests)!(fm.rows.find((r) => r[0] === 'all runs')!)).toEqual(['ag-1', 'ag-2', 'wh-1', 'wh-2']);
    const corr = tables.find((t) => t.id === 'axis-correlations')!;
    expect(rowRunsOf(corr, digests)).toBeNull();
    expect(rowRunsOf(tables.find((t) => t.csvOnly)!, digests)).toBeNull();
  });
});

describe('openRunsText', () => {
  it('names one run or counts several, failed trials said as such', () => {
    expect([openRunsText(1), openRunsText(3), openRunsText(1, true), openRunsText(2, true)]).toEqual(['Open the run', 'Open 3 runs', 'Open the failed run', 'Open the 2 failed runs']);
  });
});
