/**
 * Evaluation statistics for predicted probabilities against 0/1 outcomes. simple-statistics
 * covers means, quantiles and intervals; it has no ROC AUC or calibration error, so those live here.
 */
import { mean, sampleStandardDeviation, tTest } from 'simple-statistics';

export { mean };

/** ROC AUC by the rank-sum (Mann–Whitney) formula, ties given average ranks. */
export function rocAuc(pred: ArrayLike<number>, label: ArrayLike<number>): number {
  const n = pred.length;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => (pred[a] as number) - (pred[b] as number));
  let pos = 0;
  let rankSumPos = 0;
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && pred[idx[j + 1] as number] === pred[idx[i] as number]) j++;
    const avgRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (label[idx[k] as number]) {
        pos++;
        rankSumPos += avgRank;
      }
    }
    i = j + 1;
  }
  const neg = n - pos;
  if (pos === 0 || neg === 0) return NaN;
  return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

export function accuracy(pred: ArrayLike<number>, label: ArrayLike<number>, threshold = 0.5): number {
  let ok = 0;
  for (let i = 0; i < pred.length; i++) if (((pred[i] as number) >= threshold ? 1 : 0) === (label[i] ? 1 : 0)) ok++;
  return ok / pred.length;
}

export function brier(pred: ArrayLike<number>, label: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < pred.length; i++) s += ((pred[i] as number) - (label[i] ? 1 : 0)) ** 2;
  return s / pred.length;
}

export interface ReliabilityBin {
  lo: number;
  hi: number;
  count: number;
  meanPred: number;
  meanObs: number;
}

/** Equal-width reliability bins over [0, 1]. Empty bins are kept with count 0. */
export function reliability(pred: ArrayLike<number>, obs: ArrayLike<number>, nBins = 10): ReliabilityBin[] {
  const bins = Array.from({ length: nBins }, (_, b) => ({ lo: b / nBins, hi: (b + 1) / nBins, count: 0, sp: 0, so: 0 }));
  for (let i = 0; i < pred.length; i++) {
    const p = pred[i] as number;
    const b = bins[Math.min(nBins - 1, Math.max(0, Math.floor(p * nBins)))]!;
    b.count++;
    b.sp += p;
    b.so += obs[i] as number;
  }
  return bins.map((b) => ({ lo: b.lo, hi: b.hi, count: b.count, meanPred: b.count ? b.sp / b.count : NaN, meanObs: b.count ? b.so / b.count : NaN }));
}

/** Expected calibration error: bin-count-weighted |mean predicted − mean observed|. */
export function ece(pred: ArrayLike<number>, obs: ArrayLike<number>, nBins = 10): number {
  const bins = reliability(pred, obs, nBins);
  const n = pred.length;
  let e = 0;
  for (const b of bins) if (b.count) e += (b.count / n) * Math.abs(b.meanPred - b.meanObs);
  return e;
}

/** Mean and two-sided 95% t-interval; for n < 2 the interval is undefined (null). */
export function meanCi95(xs: readonly number[]): { mean: number; lo: number | null; hi: number | null; n: number } {
  const n = xs.length;
  if (n === 0) return { mean: NaN, lo: null, hi: null, n };
  const m = mean(xs as number[]);
  if (n < 2) return { mean: m, lo: null, hi: null, n };
  const sd = sampleStandardDeviation(xs as number[]);
  const t = tQuantile975(n - 1);
  const half = (t * sd) / Math.sqrt(n);
  return { mean: m, lo: m - half, hi: m + half, n };
}

/**
 * 97.5% quantile of Student's t with df degrees of freedom. simple-statistics has no t quantile;
 * this table (exact to 3 decimals) plus the normal limit covers every df.
 */
export function tQuantile975(df: number): number {
  const table = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];
  if (df < 1) return NaN;
  if (df <= 30) return table[df - 1] as number;
  return 1.96 + 2.4 / df; // within 0.003 of the exact value for df > 30
}

export { tTest };
export { clusteredMeanCi95, pairedSummary, pairsNeeded, tQuantile, wilcoxonSignedRank, TIE_TOLERANCE, type ClusteredMean, type PairedSummary, type WilcoxonResult } from './paired';
