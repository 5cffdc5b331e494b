/**
 * Per-day probe solve-rate curves per tutor (mean and 95% t-interval over the runs probed that
 * day), with the steady-learning reference and two measures of how far short of it a run falls:
 *
 * - Reference, per run: R(d) = the probe solve rate on day d of the oracle tutor's run on the same
 *   student (REFERENCE_TUTOR on the same scenario, seed, learner model, ability, voice and horizon;
 *   attachReferences in value-added.ts). The oracle plans on the learner's true knowledge, which no
 *   other tutor sees, so R is what informed planning attains inside this simulator: a ceiling that
 *   can be reached, not a line drawn to a level no tutor gets near (engine 2's reference, a straight
 *   line to the persona's probe ceiling, was reached at 24–27% by the best tutor and at 52% by a
 *   learner who answered every item right). It is a reference, not a bound: a tutor may beat the
 *   oracle's strategy (a share above 100%). A run without the oracle's run on its student has no
 *   reference (the reason says how to get it); an oracle run is its own. Field runs have none.
 *   A tutor's reference is the mean of its runs' R(d) at each day.
 * - Share of the reference gain: (S(dₙ) − S(0)) / (R(dₙ) − S(0)) at the run's last probe day dₙ;
 *   null when R(dₙ) ≤ S(0) (the oracle gained nothing by then: no headroom to share).
 * - Plateau day: the first probe day d ≥ 1 with S(d) − S(0) ≥ 0.9 · (S(dₙ) − S(0)), for runs with a
 *   positive final gain (null otherwise). A steady learner's is 0.9·H.
 */
import type { AxisStat } from '../scoring/axes';
import { REFERENCE_TUTOR } from '../scoring/value-added';
import type { RunDigest } from './digest';
import { reasonCounts, type ReasonCount } from './axes-by-tutor';
import { groupBy, present, stat } from './stats';

export const PLATEAU_SHARE = 0.9;

export const NO_REFERENCE = `no ${REFERENCE_TUTOR} run on the same student (the ${REFERENCE_TUTOR} tutor on the same scenario, seed, learner model, ability and voice; report --controls runs it)`;

/** A run's reference curve, or why it has none. */
export function runReference(d: RunDigest): { s0: number; curve: { day: number; solveRate: number }[]; runId: string } | { reason: string } {
  const s0 = d.curve.find((p) => p.day === 0)?.solveRate;
  if (s0 === undefined) return { reason: 'no day-0 probe' };
  if (d.field) return { reason: 'a field run (a real student) has no simulated reference' };
  if (d.tutorName === REFERENCE_TUTOR) return { s0, curve: d.curve, runId: d.runId };
  if (!d.reference) return { reason: NO_REFERENCE };
  return { s0, curve: d.reference.curve, runId: d.reference.runId };
}

/** R(day) of a run: the reference run's solve rate that day; null on a day it was not probed, or without a reference. */
export function referenceAt(d: RunDigest, day: number): number | null {
  const r = runReference(d);
  if ('reason' in r) return null;
  return r.curve.find((p) => p.day === day)?.solveRate ?? null;
}

/** A run's share of the reference gain at its last probe day (see the header). */
export function referenceShare(d: RunDigest): number | null {
  const last = d.curve[d.curve.length - 1];
  const r = runReference(d);
  if (!last || last.day === 0 || 'reason' in r) return null;
  const ref = referenceAt(d, last.day);
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
  /** S(0), S at each run's last probe day, and the reference R there. */
  start: AxisStat;
  end: AxisStat;
  referenceEnd: AxisStat;
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
      if (!('reason' in ref)) for (const p of ref.curve) days.add(p.day);
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
      referenceEnd: stat(present(runs.map((r) => (r.curve.length ? referenceAt(r, r.curve[r.curve.length - 1]!.day) : null)))),
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
