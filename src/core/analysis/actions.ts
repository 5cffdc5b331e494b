/**
 * How often a tutor takes each of the five action kinds: per run (mean count, 95% t-interval over
 * runs, and how many runs used the kind at all) and per tutoring day (mean count that day over the
 * runs that reached it and have their trace). Counts are the score report's: successful calls of
 * the kind, a turn with no action counting as stay_silent. The paper found adjust_level never used.
 */
import { ACTION_KINDS, type ActionKind } from '../trace/types';
import type { AxisStat } from '../scoring/axes';
import type { RunDigest } from './digest';
import { groupBy, stat } from './stats';

export interface KindStat {
  perRun: AxisStat;
  /** Runs with at least one action of the kind. */
  runsUsing: number;
  total: number;
}

export interface TutorActions {
  tutor: string;
  runs: number;
  kinds: Record<ActionKind, KindStat>;
  /** Kinds no run of the tutor used. */
  neverUsed: ActionKind[];
  /** Per day (1..): the mean count of each kind over the runs that reached the day (n). */
  perDay: { day: number; n: number; kinds: Record<ActionKind, AxisStat> }[];
  /** Runs without per-day counts (no trace). */
  noDays: number;
}

export function actionFrequencies(digests: readonly RunDigest[]): TutorActions[] {
  return [...groupBy(digests, (d) => d.tutor)].map(([tutor, runs]) => {
    const kinds = Object.fromEntries(
      ACTION_KINDS.map((k) => {
        const xs = runs.map((r) => r.actions[k]);
        return [k, { perRun: stat(xs), runsUsing: xs.filter((x) => x > 0).length, total: xs.reduce((a, b) => a + b, 0) }];
      }),
    ) as Record<ActionKind, KindStat>;
    const withDays = runs.filter((r) => r.actionsByDay !== null);
    const maxDay = Math.max(0, ...withDays.flatMap((r) => r.actionsByDay!.map((x) => x.day)));
    const perDay: TutorActions['perDay'] = [];
    for (let day = 1; day <= maxDay; day++) {
      const rows = withDays.flatMap((r) => r.actionsByDay!.filter((x) => x.day === day));
      if (rows.length === 0) continue;
      perDay.push({ day, n: rows.length, kinds: Object.fromEntries(ACTION_KINDS.map((k) => [k, stat(rows.map((x) => x.counts[k]))])) as Record<ActionKind, AxisStat> });
    }
    return { tutor, runs: runs.length, kinds, neverUsed: ACTION_KINDS.filter((k) => kinds[k].runsUsing === 0), perDay, noDays: runs.length - withDays.length };
  });
}
