/**
 * Per-day probe solve-rate curves per tutor (mean and 95% t-interval over the runs probed that
 * day), with the steady-learning reference and two measures of how far short of it a run falls:
 *
 * - Reference, per run: R(d) = S(0) + max(0, C − S(0)) · d / H for 0 ≤ d ≤ H, where S(0) is the
 *   day-0 probe solve rate, H the run's horizon and C the persona's probe ceiling (RunDigest.ceiling:
 *   the solve rate with P(correct) = 1 from knowledge on every probe item, under the persona's
 *   guessing and slips). It is the straight line of a learner who closes the whole gap to that
 *   ceiling in equal daily steps by the last day. It is a yardstick of pace, not a prediction: the
 *   knowledge tracer's own ceiling (BKT: 1 − slip; AKT: where its predictions saturate) is not in
 *   the trace and is not taken into account, so no tutor need be able to reach it.
 *   A tutor's reference is the mean of its runs' R(d) at each day.
 * - Share of the reference gain: (S(dₙ) − S(0)) / (R(dₙ) − S(0)) at the run's last probe day dₙ
 *   (= the share of the gap to the ceiling closed, for a run that reached its horizon); null when
 *   R(dₙ) = S(0) (no headroom).
 * - Plateau day: the first probe day d ≥ 1 with S(d) − S(0) ≥ 0.9 · (S(dₙ) − S(0)), for runs with a
 *   positive final gain (null otherwise). A steady learner's is 0.9·H.
 */
import type { AxisStat } from '../scoring/axes';
import type { RunDigest } from './digest';
import { reasonCounts, type ReasonCount } from './axes-by-tutor';
import { groupBy, present, stat } from './stats';

export const PLATEAU_SHARE = 0.9;

/** A run's reference line, or why it has none. */
export function runReference(d: RunDigest): { s0: number; ceiling: number; horizon: number } | { reason: string } {
  const s0 = d.curve.find((p) => p.day === 0)?.solveRate;
  if (s0 === undefined) return { reason: 'no day-0 probe' };
  if (d.ceiling === null) return { reason: "needs the trace (the persona's answering habits are in run_start)" };
  if (d.horizonDays === null || d.horizonDays < 1) return { reason: 'no horizon' };
  return { s0, ceiling: d.ceiling, horizon: d.horizonDays };
}

/** R(day) of a run; null outside 0..H or without a reference. */
export function referenceAt(d: RunDigest, day: number): number | null {
  const r = runReference(d);
  if ('reason' in r || day < 0 || day > r.horizon) return null;
  return r.s0 + (Math.max(0, r.ceiling - r.s0) * day) / r.horizon;
}

/** A run's share of the reference gain at its last probe day (see the header). */
export function referenceShare(d: RunDigest): number | null {
  const last = d.curve[d.curve.length - 1];
  const r = runReference(d);
  if (!last || last.day === 0 || 'reason' in r) return null;
  const ref = referenceAt(d, Math.min(last.day, r.horizon));
  if (ref === null || ref - r.s0 <= 0) return null;
  return (last.solveRate - r.s0) / (ref - r.s0);
}

/** The first probe day reaching 90% of the final gain; null without a positive final gain. */
export function plateauDay(d: RunDigest): number | null {
  const first = d.curve[0];
  const last = d.curve[d.curve.length - 1];
  if (!first || !last || first.day !== 0 || last.day === 0) return null;
  const gain = last.solveRate - first.solveRate;
  if (!(gain > 0)) return null;
  // A tolerance for rounding: 0.58 − 0.4 must count as reaching 0.9 × 0.2.
  return d.curve.find((p) => p.day >= 1 && p.solveRate - first.solveRate >= PLATEAU_SHARE * gain - 1e-9)!.day;
}

export interface CurvePointStat {
  day: number;
  /** Over the runs with a probe that day (n). */
  solveRate: AxisStat;
  /** Mean R(day) over the runs with a reference covering the day. */
  reference: { mean: number | null; n: number };
}

export interface TutorCurve {
  tutor: string;
  runs: number;
  points: CurvePointStat[];
  /** S(0), S at each run's last probe day, and the persona ceiling C. */
  start: AxisStat;
  end: AxisStat;
  ceiling: AxisStat;
  referenceShare: AxisStat;
  plateauDay: AxisStat;
  /** Runs without a reference line, by reason. */
  noReference: ReasonCount[];
  /** Runs with no positive final gain (no plateau day). */
  noPositiveGain: number;
}

export function solveRateCurves(digests: readonly RunDigest[]): TutorCurve[] {
  return [...groupBy(digests, (d) => d.tutor)].map(([tutor, runs]) => {
    const days = new Set<number>();
    for (const r of runs) for (const p of r.curve) days.add(p.day);
    for (const r of runs) {
      const ref = runReference(r);
      if (!('reason' in ref)) for (let d = 0; d <= ref.horizon; d++) days.add(d);
    }
    const points = [...days]
      .sort((a, b) => a - b)
      .map((day) => {
        const refs = present(runs.map((r) => referenceAt(r, day)));
        return {
          day,
          solveRate: stat(present(runs.map((r) => r.curve.find((p) => p.day === day)?.solveRate))),
          reference: { mean: refs.length ? refs.reduce((a, b) => a + b, 0) / refs.length : null, n: refs.length },
        };
      });
    const lastRate = (r: RunDigest) => (r.curve.length && r.curve[r.curve.length - 1]!.day > 0 ? r.curve[r.curve.length - 1]!.solveRate : null);
    const plateaus = runs.map(plateauDay);
    return {
      tutor,
      runs: runs.length,
      points,
      start: stat(present(runs.map((r) => r.curve.find((p) => p.day === 0)?.solveRate))),
      end: stat(present(runs.map(lastRate))),
      ceiling: stat(present(runs.map((r) => r.ceiling))),
      referenceShare: stat(present(runs.map(referenceShare))),
      plateauDay: stat(present(plateaus)),
      noReference: reasonCounts(present(runs.map((r) => {
        const ref = runReference(r);
        return 'reason' in ref ? ref.reason : null;
      }))),
      noPositiveGain: plateaus.filter((p) => p === null).length,
    };
  });
}
