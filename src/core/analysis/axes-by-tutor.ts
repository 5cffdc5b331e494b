/**
 * Every axis of AXES per tutor: the mean over the tutor's runs that scored the axis (each run, i.e.
 * each scenario × seed × voice, is one value; n counts them) with a 95% interval clustered by
 * student (runs of one student are not independent; stat.students counts the students), the reasons
 * runs left it unscored. A judged axis no panel scored is "unscored" with that reason, never a number.
 * Note the unit: runs, not the sweep summary's per-seed means (docs/analyses.md, "Axes per tutor").
 */
import { AXES, type AxisId, type AxisStat } from '../scoring/axes';
import { studentOf, type RunDigest } from './digest';
import { clusteredStat, groupBy } from './stats';

export interface ReasonCount {
  reason: string;
  runs: number;
}

export interface AxisCell {
  stat: AxisStat;
  /** Runs of the tutor (the cell's n counts those that scored the axis). */
  runs: number;
  /** Why the other runs left the axis unscored, most frequent first. */
  unscored: ReasonCount[];
}

export interface TutorAxes {
  tutor: string;
  runs: number;
  axes: Record<AxisId, AxisCell>;
}

export function reasonCounts(reasons: readonly string[]): ReasonCount[] {
  const m = new Map<string, number>();
  for (const r of reasons) m.set(r, (m.get(r) ?? 0) + 1);
  return [...m].map(([reason, runs]) => ({ reason, runs })).sort((a, b) => b.runs - a.runs || (a.reason < b.reason ? -1 : 1));
}

/** The cell of one axis: mean over the runs that scored it, the interval clustered by student (stat.students). */
export function axisCell(runs: readonly RunDigest[], id: AxisId): AxisCell {
  const scored = runs.filter((r) => r.axes[id] !== null && r.axes[id] !== undefined);
  return {
    stat: clusteredStat(scored.map((r) => r.axes[id]!), scored.map(studentOf)),
    runs: runs.length,
    unscored: reasonCounts(runs.flatMap((r) => (r.axes[id] === null || r.axes[id] === undefined ? [r.unscored[id] ?? 'not scored'] : []))),
  };
}

export function axesByTutor(digests: readonly RunDigest[]): TutorAxes[] {
  return [...groupBy(digests, (d) => d.tutor)].map(([tutor, runs]) => ({
    tutor,
    runs: runs.length,
    axes: Object.fromEntries(AXES.map((a) => [a.id, axisCell(runs, a.id)])) as Record<AxisId, AxisCell>,
  }));
}

/** One tutor with one student voice (student model): its runs' axes. */
export interface TutorVoiceAxes extends TutorAxes {
  /** "templates" or "llm:<provider>/<model>" (run_start.voice); "unknown" for runs without their trace. */
  voice: string;
}

/**
 * Every axis per tutor and student voice: the results broken down by student model (the paper ran
 * each tutor against several LLM students). Empty when the runs have one voice (the per-tutor table
 * says it all). Rows: tutors in first-seen order, and per tutor its voices by name.
 */
export function axesByTutorVoice(digests: readonly RunDigest[]): TutorVoiceAxes[] {
  if (new Set(digests.map((d) => d.voice ?? 'unknown')).size < 2) return [];
  return [...groupBy(digests, (d) => d.tutor)].flatMap(([tutor, rs]) =>
    [...groupBy(rs, (d) => d.voice ?? 'unknown')]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([voice, runs]) => ({ tutor, voice, runs: runs.length, axes: Object.fromEntries(AXES.map((a) => [a.id, axisCell(runs, a.id)])) as Record<AxisId, AxisCell> })),
  );
}
