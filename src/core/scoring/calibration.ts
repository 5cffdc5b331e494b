/**
 * Calibration of simulated runs (after EduClaw's check): for every (run, day) with graded
 * attempts the learner worked out, the predicted accuracy (mean of the tracer's P(correct),
 * raised by any instruction boost, over that day's attempts) against the observed accuracy
 * (share correct). Pairs are binned by prediction; ECE (10 bins, weighted by pairs) and Brier
 * (mean squared difference over pairs) summarise them. Only attempts the learner worked out
 * count (source "own", graded as submitted, so a persona's slips show); copied answers and
 * guesses are left out unless `includeAll`, because they do not come from what the learner knows.
 */
import type { TraceEvent } from '../trace/types';
import { reliability, type ReliabilityBin } from '../stats/index';

export interface CalibrationReport {
  runs: number;
  pairs: number;
  attempts: number;
  ece: number | null;
  brier: number | null;
  bins: ReliabilityBin[];
}

export function dayPairs(events: readonly TraceEvent[], includeAll = false): { pred: number; obs: number; n: number }[] {
  const byDay = new Map<number, { sp: number; so: number; n: number }>();
  for (const e of events) {
    if (e.type !== 'attempt' || (!includeAll && e.source !== 'own')) continue;
    const d = Math.floor(e.t / 1440);
    const acc = byDay.get(d) ?? { sp: 0, so: 0, n: 0 };
    acc.sp += e.p + (1 - e.p) * e.boost;
    acc.so += e.correct ? 1 : 0;
    acc.n++;
    byDay.set(d, acc);
  }
  return [...byDay.values()].map((a) => ({ pred: a.sp / a.n, obs: a.so / a.n, n: a.n }));
}

export function calibration(traces: readonly (readonly TraceEvent[])[], includeAll = false): CalibrationReport {
  const pairs = traces.flatMap((t) => dayPairs(t, includeAll));
  const pred = pairs.map((p) => p.pred);
  const obs = pairs.map((p) => p.obs);
  const bins = reliability(pred, obs, 10);
  const n = pairs.length;
  let ece: number | null = null;
  let brier: number | null = null;
  if (n > 0) {
    ece = bins.reduce((s, b) => s + (b.count ? (b.count / n) * Math.abs(b.meanPred - b.meanObs) : 0), 0);
    brier = pairs.reduce((s, p) => s + (p.pred - p.obs) ** 2, 0) / n;
  }
  return { runs: traces.length, pairs: n, attempts: pairs.reduce((s, p) => s + p.n, 0), ece, brier, bins };
}
