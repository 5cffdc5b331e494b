/** Results by student model (axes-by-tutor.ts axesByTutorVoice, the report's "Axes per student model"). */
import { describe, expect, it } from 'vitest';
import { ACTION_KINDS, type ActionKind } from '../trace/types';
import { AXES, type AxisId } from '../scoring/axes';
import { axesByTutorVoice, buildBenchmarkReport, type RunDigest } from './index';

let n = 0;
function dg(tutor: string, voice: string, seed: number, learningGain: number | null): RunDigest {
  const axes = Object.fromEntries(AXES.map((a) => [a.id, a.id === 'learningGain' ? learningGain : null])) as Record<AxisId, number | null>;
  const unscored = Object.fromEntries(AXES.filter((a) => axes[a.id] === null).map((a) => [a.id, 'test: not scored'])) as Partial<Record<AxisId, string>>;
  return {
    digestVersion: 1, runId: `r${++n}`, scenarioId: 'S', tutor, tutorName: tutor, harness: null, model: null, seed, voice, tracer: 'bkt', persona: 'p', schedule: 's', ability: 'low', horizonDays: 10,
    complete: true, endReason: 'horizon_reached', unscored, panel: null, tutorMessageTurns: 5, curve: [], ceiling: 1, actionsByDay: [],
    actions: Object.fromEntries(ACTION_KINDS.map((k) => [k, 0])) as Record<ActionKind, number>, help: { requests: 0, unanswered: 0, neglected: 0 }, missing: [], axes,
  };
}

describe('axes per tutor and student voice', () => {
  it('is empty with one voice, so the report has no such section', () => {
    const runs = [dg('A', 'templates', 1, 0.01), dg('A', 'templates', 2, 0.02)];
    expect(axesByTutorVoice(runs)).toEqual([]);
    expect(buildBenchmarkReport(runs).sections.map((s) => s.id)).not.toContain('by-voice');
  });

  it('with several voices: one row per tutor and voice (voices by name), each over its own runs', () => {
    const runs = [dg('A', 'llm:p/b', 1, 0.03), dg('A', 'llm:p/a', 1, 0.01), dg('A', 'llm:p/a', 2, 0.02), dg('B', 'llm:p/a', 1, null), dg('B', 'llm:p/b', 1, 0.05)];
    const rows = axesByTutorVoice(runs);
    expect(rows.map((r) => [r.tutor, r.voice, r.runs, r.axes.learningGain.stat.n, r.axes.learningGain.stat.mean])).toEqual([
      ['A', 'llm:p/a', 2, 2, 0.015],
      ['A', 'llm:p/b', 1, 1, 0.03],
      ['B', 'llm:p/a', 1, 0, null],
      ['B', 'llm:p/b', 1, 1, 0.05],
    ]);
    expect(rows[2]!.axes.learningGain.unscored).toEqual([{ reason: 'test: not scored', runs: 1 }]);
    const report = buildBenchmarkReport(runs);
    const section = report.sections.find((s) => s.id === 'by-voice')!;
    expect(section.tables[0]!.rows.map((r) => r.slice(0, 3))).toEqual([['A', 'llm:p/a', '2'], ['A', 'llm:p/b', '1'], ['B', 'llm:p/a', '1'], ['B', 'llm:p/b', '1']]);
    expect(section.tables[0]!.csv.rows.filter((r) => r[2] === 'learningGain').map((r) => [r[0], r[1], r[5]])).toEqual([['A', 'llm:p/a', 0.015], ['A', 'llm:p/b', 0.03], ['B', 'llm:p/a', null], ['B', 'llm:p/b', 0.05]]);
  });
});
