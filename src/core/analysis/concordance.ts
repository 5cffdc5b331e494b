/**
 * Kendall's coefficient of concordance W: how far m raters (here: scenarios, or seeds) agree on the
 * order of n items (here: tutors). W = 12·S / (m²(n³ − n) − m·T), where S is the sum of squared
 * deviations of the items' rank sums from their mean m(n + 1)/2, ranks are average ranks within
 * each rater (ties share the mean of the ranks they span), and T = Σ over raters and tie groups of
 * (t³ − t) corrects for ties (Kendall & Babington Smith 1939; Siegel & Castellan 1988, §9.4). W is
 * 0 when the raters' rank sums are all equal and 1 when every rater gives the same order; it is the
 * Friedman statistic scaled, χ²_F = m(n − 1)·W. Definitions and use: docs/validity.md ("Rankings").
 *
 * `concordanceTest` adds a permutation p-value (each rater's values shuffled independently, which
 * keeps its ties: the null that raters order the items at random) and a percentile bootstrap
 * interval over raters. Both draw from a seeded `Rng`, so the result is deterministic.
 */
import { Rng } from '../rng/index';
import { averageRanks } from './stats';

export interface Concordance {
  /** Null when every rater ties every item (nothing to agree on), with the reason. */
  w: number | null;
  /** Raters (m) and items (n). */
  raters: number;
  items: number;
  /** Σ (t³ − t) over raters and their tie groups (0 without ties). */
  ties: number;
  /** Rank sum per item, in the items' order. */
  rankSums: number[];
  reason: string | null;
}

export interface ConcordanceTest extends Concordance {
  /** Permutation p-value: (1 + #{W_perm ≥ W}) / (1 + permutations); null with w. */
  p: number | null;
  /** 95% percentile bootstrap interval over raters (resampled with replacement); null with w, or when some resample has no W. */
  lo: number | null;
  hi: number | null;
  permutations: number;
  resamples: number;
}

/** Rank sums, tie term, and W; `ranked` holds each rater's average ranks. */
function fromRanks(ranked: readonly (readonly number[])[], ties: readonly number[], n: number): { w: number | null; rankSums: number[]; ties: number } {
  const m = ranked.length;
  const rankSums = new Array<number>(n).fill(0);
  for (const r of ranked) for (let j = 0; j < n; j++) rankSums[j]! += r[j]!;
  const meanSum = (m * (n + 1)) / 2;
  let s = 0;
  for (const x of rankSums) s += (x - meanSum) ** 2;
  const t = ties.reduce((a, b) => a + b, 0);
  const den = m * m * (n * n * n - n) - m * t;
  // Rounding can leave S a hair off 0 or W a hair above 1; W's range is [0, 1].
  return { w: den > 1e-9 ? Math.min(1, Math.max(0, (12 * s) / den)) : null, rankSums, ties: t };
}

/** Σ (t³ − t) over the tie groups of one rater's values. */
function tieTerm(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let t = 0;
  for (const c of counts.values()) t += c * c * c - c;
  return t;
}

function check(ratings: readonly (readonly number[])[]): { m: number; n: number } {
  const m = ratings.length;
  if (m < 2) throw new Error(`Kendall's W needs at least 2 raters, got ${m}`);
  const n = ratings[0]!.length;
  if (n < 2) throw new Error(`Kendall's W needs at least 2 items, got ${n}`);
  ratings.forEach((row, i) => {
    if (row.length !== n) throw new Error(`Kendall's W: rater ${i} rates ${row.length} items, rater 0 rates ${n}; every rater must rate every item`);
    row.forEach((v, j) => {
      if (!Number.isFinite(v)) throw new Error(`Kendall's W: rater ${i}, item ${j} is ${v}, not a finite number`);
    });
  });
  return { m, n };
}

/**
 * Kendall's W with the tie correction. `ratings[i][j]` is rater i's score of item j (higher is
 * better; only the order within a rater matters). Throws on fewer than 2 raters or items, a ragged
 * matrix, or a value that is not a finite number.
 */
export function kendallW(ratings: readonly (readonly number[])[]): Concordance {
  const { m, n } = check(ratings);
  const r = fromRanks(
    ratings.map((row) => averageRanks(row)),
    ratings.map(tieTerm),
    n,
  );
  return { w: r.w, raters: m, items: n, ties: r.ties, rankSums: r.rankSums, reason: r.w === null ? 'every rater ties every item' : null };
}

/** Kendall's W with a permutation p-value and a bootstrap interval over raters (seeded, deterministic). */
export function concordanceTest(ratings: readonly (readonly number[])[], opts: { permutations?: number; resamples?: number; seed?: number } = {}): ConcordanceTest {
  const permutations = opts.permutations ?? 2000;
  const resamples = opts.resamples ?? 2000;
  const base = kendallW(ratings);
  const out: ConcordanceTest = { ...base, p: null, lo: null, hi: null, permutations, resamples };
  if (base.w === null) return out;
  const { raters: m, items: n } = base;
  const ranks = ratings.map((row) => averageRanks(row));
  const ties = ratings.map(tieTerm);
  const rng = new Rng(opts.seed ?? 20_261_203);
  const perm = rng.fork('permutation');
  let atLeast = 0;
  for (let k = 0; k < permutations; k++) {
    const w = fromRanks(ranks.map((r) => perm.shuffle(r)), ties, n).w;
    if (w !== null && w >= base.w - 1e-12) atLeast++;
  }
  out.p = (1 + atLeast) / (1 + permutations);
  const boot = rng.fork('bootstrap');
  const ws: number[] = [];
  for (let k = 0; k < resamples; k++) {
    const pick = Array.from({ length: m }, () => boot.int(0, m - 1));
    const w = fromRanks(pick.map((i) => ranks[i]!), pick.map((i) => ties[i]!), n).w;
    if (w === null) return out;
    ws.push(w);
  }
  ws.sort((a, b) => a - b);
  out.lo = quantileSorted(ws, 0.025);
  out.hi = quantileSorted(ws, 0.975);
  return out;
}

/** Linear-interpolated quantile of sorted values. */
function quantileSorted(xs: readonly number[], q: number): number {
  const pos = (xs.length - 1) * q;
  const i = Math.floor(pos);
  const f = pos - i;
  return i + 1 < xs.length ? xs[i]! * (1 - f) + xs[i + 1]! * f : xs[i]!;
}
