/**
 * Statistics for results a researcher can trust: a mean whose interval is clustered by student,
 * paired comparisons (mean paired difference with its t-interval, d_z, wins/ties/losses, the
 * Wilcoxon signed-rank p) and the sample size a paired difference needs. Definitions in plain words:
 * docs/analyses.md ("Students, pairs and intervals"). Each is checked against a worked example
 * computed independently with numpy/scipy (scripts/fixtures/paired-stats.py -> fixtures/).
 *
 * Libraries: the t quantile is @stdlib/stats-base-dists-t-quantile and the Wilcoxon signed-rank
 * test is @stdlib/stats-wilcoxon (exact distribution for at most 50 non-zero differences without
 * ties, else the normal approximation with tie and continuity corrections, as R's wilcox.test).
 * Means and standard deviations are simple-statistics. The clustered (CR1 sandwich) variance of a
 * mean is four lines of arithmetic that no installed library offers, so it is written here.
 */
import { mean, sampleStandardDeviation } from 'simple-statistics';
import tQuantileLib from '@stdlib/stats-base-dists-t-quantile';
import wilcoxonLib from '@stdlib/stats-wilcoxon';

/** The p-quantile of Student's t with df degrees of freedom (df > 0). */
export function tQuantile(p: number, df: number): number {
  if (!(df > 0)) throw new Error(`t quantile: degrees of freedom must be positive (got ${df})`);
  return tQuantileLib(p, df);
}

export interface ClusteredMean {
  mean: number | null;
  lo: number | null;
  hi: number | null;
  /** Values (runs). */
  n: number;
  /** Independent clusters (students) behind the values. */
  clusters: number;
  /** The clustered standard error of the mean; null with fewer than 2 clusters. */
  se: number | null;
  /** Degrees of freedom of the interval: clusters − 1. */
  df: number | null;
}

/**
 * The mean of the values with a 95% interval clustered by `clusters[i]` (the student each value
 * belongs to): the CR1 sandwich variance of an intercept-only regression,
 * SE² = G/(G−1) · Σ_g (Σ_{i∈g} (x_i − x̄))² / N², with a Student-t quantile on G − 1 degrees of
 * freedom. With every value its own cluster this is the ordinary t-interval. Null interval with
 * fewer than 2 clusters; a values/clusters length mismatch is an error.
 */
export function clusteredMeanCi95(values: readonly number[], clusters: readonly string[]): ClusteredMean {
  if (values.length !== clusters.length) throw new Error(`clustered mean: ${values.length} values but ${clusters.length} cluster labels`);
  const n = values.length;
  const g = new Set(clusters).size;
  if (n === 0) return { mean: null, lo: null, hi: null, n: 0, clusters: 0, se: null, df: null };
  const m = mean(values as number[]);
  if (g < 2) return { mean: m, lo: null, hi: null, n, clusters: g, se: null, df: null };
  const sums = new Map<string, number>();
  values.forEach((x, i) => sums.set(clusters[i]!, (sums.get(clusters[i]!) ?? 0) + (x - m)));
  let meat = 0;
  for (const s of sums.values()) meat += s * s;
  const se = Math.sqrt(((g / (g - 1)) * meat) / (n * n));
  const half = tQuantile(0.975, g - 1) * se;
  return { mean: m, lo: m - half, hi: m + half, n, clusters: g, se, df: g - 1 };
}

/** Differences whose magnitude is at most this are ties (float noise between identical runs). */
export const TIE_TOLERANCE = 1e-12;

export interface WilcoxonResult {
  /** Two-sided p. */
  p: number;
  /** W+: the sum of the ranks of the positive differences (zeros dropped, tied magnitudes given mean ranks). */
  wPlus: number;
  /** Non-zero differences the test used. */
  n: number;
  method: 'exact' | 'normal approximation';
}

/**
 * The two-sided Wilcoxon signed-rank test of paired differences against 0 (zeros dropped first;
 * exact below 51 non-zero differences without tied magnitudes, else the normal approximation with
 * tie and continuity corrections). Null when every difference is 0 (nothing to rank).
 */
export function wilcoxonSignedRank(diffs: readonly number[]): WilcoxonResult | null {
  const d = diffs.map((x) => (Math.abs(x) <= TIE_TOLERANCE ? 0 : x));
  const nz = d.filter((x) => x !== 0);
  if (nz.length === 0) return null;
  // @stdlib refuses fewer than two values (before dropping zeros); one non-zero difference has p = 1.
  if (d.length < 2) return { p: 1, wPlus: nz[0]! > 0 ? 1 : 0, n: 1, method: 'exact' };
  const r = wilcoxonLib(d, { zeroMethod: 'wilcox', correction: true, alternative: 'two-sided' });
  const mags = nz.map(Math.abs);
  const tied = new Set(mags).size !== mags.length;
  const zeros = nz.length < d.length;
  // The library returns W+ as its statistic in the exact case and the z score otherwise; W+ is recomputed the same way for both.
  const order = mags.map((_, i) => i).sort((a, b) => mags[a]! - mags[b]!);
  const ranks = new Array<number>(mags.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && mags[order[j + 1]!] === mags[order[i]!]) j++;
    for (let k = i; k <= j; k++) ranks[order[k]!] = (i + j) / 2 + 1;
    i = j + 1;
  }
  const wPlus = nz.reduce((s, x, i) => s + (x > 0 ? ranks[i]! : 0), 0);
  return { p: Math.min(1, r.pValue), wPlus, n: nz.length, method: nz.length > 50 || tied || zeros ? 'normal approximation' : 'exact' };
}

export interface PairedSummary {
  /** Pairs (independent units: one difference per student). */
  n: number;
  mean: number | null;
  lo: number | null;
  hi: number | null;
  /** Standard deviation of the differences (n ≥ 2). */
  sd: number | null;
  /** d_z = mean / sd of the differences: the paired effect size (null when sd is 0 or n < 2). */
  dz: number | null;
  wins: number;
  ties: number;
  losses: number;
  wilcoxon: WilcoxonResult | null;
}

/**
 * A paired comparison of A against B from the differences A − B, one per independent unit: the
 * mean difference with its 95% t-interval, the standard deviation, d_z, wins (A − B > 0), ties
 * (|A − B| ≤ TIE_TOLERANCE) and losses, and the Wilcoxon signed-rank p.
 */
export function pairedSummary(diffs: readonly number[]): PairedSummary {
  const n = diffs.length;
  const wins = diffs.filter((x) => x > TIE_TOLERANCE).length;
  const losses = diffs.filter((x) => x < -TIE_TOLERANCE).length;
  const base = { n, wins, losses, ties: n - wins - losses };
  if (n === 0) return { ...base, mean: null, lo: null, hi: null, sd: null, dz: null, wilcoxon: null };
  const m = mean(diffs as number[]);
  if (n < 2) return { ...base, mean: m, lo: null, hi: null, sd: null, dz: null, wilcoxon: wilcoxonSignedRank(diffs) };
  const sd = sampleStandardDeviation(diffs as number[]);
  const half = (tQuantile(0.975, n - 1) * sd) / Math.sqrt(n);
  return { ...base, mean: m, lo: m - half, hi: m + half, sd, dz: sd > TIE_TOLERANCE ? m / sd : null, wilcoxon: wilcoxonSignedRank(diffs) };
}

/**
 * The fewest independent pairs for a two-sided paired t-test at level `alpha` to detect a true
 * mean difference of `delta` with power `power`, given the standard deviation `sd` of the
 * differences: the smallest n ≥ 2 with |delta|·√n / sd ≥ t(1 − α/2; n − 1) + t(power; n − 1)
 * (the noncentral t approximated by a shifted central t; it matches the exact noncentral-t answer
 * in the fixture for d_z from 0.2 to 2). Null when delta is 0 or sd is not positive; capped search
 * at `max` (null beyond it).
 */
export function pairsNeeded(delta: number, sd: number, opts: { alpha?: number; power?: number; max?: number } = {}): number | null {
  const alpha = opts.alpha ?? 0.05;
  const power = opts.power ?? 0.8;
  const max = opts.max ?? 1_000_000;
  if (!(sd > 0) || !Number.isFinite(delta) || delta === 0) return null;
  const dz = Math.abs(delta) / sd;
  const ok = (n: number) => dz * Math.sqrt(n) >= tQuantile(1 - alpha / 2, n - 1) + tQuantile(power, n - 1);
  // Start from the normal-theory answer and walk to the exact smallest n.
  const z = 1.959963984540054 + 0.8416212335729143;
  let n = Math.max(2, Math.floor((z / dz) ** 2) - 2);
  if (n > max) return null;
  while (n > 2 && ok(n - 1)) n--;
  while (!ok(n)) {
    n++;
    if (n > max) return null;
  }
  return n;
}
