/**
 * The statistics the analyses share: mean with a 95% t-interval (n ≥ 2), average ranks, Spearman's
 * rho and Kendall's tau-b (n ≥ 3), concordant/discordant pairs, and the unbiased pass^k estimator.
 */
import { sampleRankCorrelation } from 'simple-statistics';
import { meanCi95 } from '../stats/index';
import { clusteredMeanCi95 } from '../stats/paired';
import type { AxisStat, Better } from '../scoring/axes';

/** Mean and 95% t-interval of the values (null values are left out first by callers); no values: all null, n 0. */
export function stat(xs: readonly number[]): AxisStat {
  if (xs.length === 0) return { mean: null, lo: null, hi: null, n: 0 };
  const c = meanCi95(xs);
  return { mean: c.mean, lo: c.lo, hi: c.hi, n: c.n };
}

/**
 * Mean and 95% interval clustered by student (`students[i]` is the student of `xs[i]`): the CR1
 * interval on (students − 1) degrees of freedom (stats/paired.ts); `students` says how many
 * independent students stand behind the number. With one run per student it is the t-interval.
 */
export function clusteredStat(xs: readonly number[], students: readonly string[]): AxisStat {
  if (xs.length === 0) return { mean: null, lo: null, hi: null, n: 0, students: 0 };
  const c = clusteredMeanCi95(xs, students);
  return { mean: c.mean, lo: c.lo, hi: c.hi, n: c.n, students: c.clusters };
}

export const present = <T>(xs: readonly (T | null | undefined)[]): T[] => xs.filter((x): x is T => x !== null && x !== undefined);

/** Fewest pairs a rank correlation is reported for. */
export const MIN_CORRELATION_N = 3;

/**
 * Ranks of the values, 1 = best (the highest when `better` is "higher" or null, the lowest when
 * "lower"); tied values share the mean of the ranks they span.
 */
export function averageRanks(values: readonly number[], better: Better = 'higher'): number[] {
  const sign = better === 'lower' ? 1 : -1;
  const idx = values.map((_, i) => i).sort((a, b) => sign * (values[a]! - values[b]!));
  const ranks = new Array<number>(values.length);
  let i = 0;
  while (i < idx.length) {
    let j = i;
    while (j + 1 < idx.length && values[idx[j + 1]!] === values[idx[i]!]) j++;
    for (let k = i; k <= j; k++) ranks[idx[k]!] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}

/** Spearman's rho (Pearson's r on average ranks); null with fewer than 3 pairs or no variation in either. */
export function spearmanRho(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length || a.length < MIN_CORRELATION_N) return null;
  const rho = sampleRankCorrelation([...a], [...b]);
  return Number.isFinite(rho) ? rho : null;
}

/** Pairs (i < j) ordered the same way (concordant), oppositely (discordant), and tied in a, in b. */
export function pairCounts(a: readonly number[], b: readonly number[]): { concordant: number; discordant: number; tiedA: number; tiedB: number; pairs: number } {
  let concordant = 0;
  let discordant = 0;
  let tiedA = 0;
  let tiedB = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const s = Math.sign(a[i]! - a[j]!) * Math.sign(b[i]! - b[j]!);
      if (a[i] === a[j]) tiedA++;
      if (b[i] === b[j]) tiedB++;
      if (s > 0) concordant++;
      else if (s < 0) discordant++;
    }
  }
  return { concordant, discordant, tiedA, tiedB, pairs: (a.length * (a.length - 1)) / 2 };
}

/**
 * Kendall's tau-b: (concordant − discordant) / √((n0 − tiesA)(n0 − tiesB)), n0 = n(n−1)/2; null with
 * fewer than 3 pairs or when either side is all ties.
 */
export function kendallTauB(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length || a.length < MIN_CORRELATION_N) return null;
  const c = pairCounts(a, b);
  const den = Math.sqrt((c.pairs - c.tiedA) * (c.pairs - c.tiedB));
  return den > 0 ? (c.concordant - c.discordant) / den : null;
}

/**
 * The unbiased estimator of pass^k for one task from n trials with c passes (tau-bench):
 * C(c, k) / C(n, k), the chance that k trials drawn without replacement all pass. Null when k > n.
 */
export function passHatK(n: number, c: number, k: number): number | null {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || k < 1 || c < 0 || c > n) throw new Error(`pass^k needs integers 0 ≤ c ≤ n and k ≥ 1 (n ${n}, c ${c}, k ${k})`);
  if (k > n) return null;
  let p = 1;
  for (let i = 0; i < k; i++) p *= (c - i) / (n - i);
  return Math.max(0, p);
}

/** Stable string order for labels (tutors, scenarios): plain code-unit order, so every caller sorts alike. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Items grouped by a key, groups in key order (byText). */
export function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const g = m.get(k);
    if (g) g.push(x);
    else m.set(k, [x]);
  }
  return new Map([...m].sort((a, b) => byText(a[0], b[0])));
}
