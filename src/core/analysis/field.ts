/**
 * Field against simulation, as the EduClaw paper's field study compares them: for one tutor, the
 * field sessions' and the simulated runs' values on every axis both have, with their
 * distributions and a two-sided Mann–Whitney U test per axis.
 *
 * The U test is written here (about 40 lines) because no maintained package offers it: the
 * registry's `mann-whitney-utest` is an unmaintained single-file module and simple-statistics has
 * only the error function, which this uses (its tabulated normal CDF is too coarse for p-values). Small samples without ties use the exact distribution of U
 * (counted by recursion); otherwise the normal approximation with tie and continuity corrections.
 */
import { errorFunction, mean, median, sampleStandardDeviation } from 'simple-statistics';
import { AXES, type AxisId } from '../scoring/axes';
import { FIELD_SUFFIX, type RunDigest } from './digest';

export interface MannWhitney {
  u: number;
  /** Two-sided p-value. */
  p: number;
  method: 'exact' | 'normal';
}

/** Two-sided Mann–Whitney U test of x against y; null when either side has no values. */
export function mannWhitneyU(x: readonly number[], y: readonly number[]): MannWhitney | null {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) return null;
  const all = [...x.map((v) => ({ v, g: 0 })), ...y.map((v) => ({ v, g: 1 }))].sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[k] = r;
    const t = j - i + 1;
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  const r1 = all.reduce((a, e, i) => a + (e.g === 0 ? ranks[i]! : 0), 0);
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const u = Math.min(u1, n1 * n2 - u1);
  if (tieTerm === 0 && n1 + n2 <= 40) {
    // Exact: the number of arrangements with U ≤ u, over C(n1+n2, n1); doubled, capped at 1.
    const memo = new Map<string, number>();
    const count = (a: number, b: number, k: number): number => {
      if (k < 0) return 0;
      if (a === 0 || b === 0) return k >= 0 ? 1 : 0;
      const key = `${a},${b},${k}`;
      const m = memo.get(key);
      if (m !== undefined) return m;
      const c = count(a - 1, b, k - b) + count(a, b - 1, k);
      memo.set(key, c);
      return c;
    };
    let total = 1;
    for (let i = 1; i <= n1; i++) total = (total * (n2 + i)) / i;
    let cum = 0;
    for (let k = 0; k <= u; k++) cum += count(n1, n2, k) - count(n1, n2, k - 1);
    return { u, p: Math.min(1, (2 * cum) / total), method: 'exact' };
  }
  const n = n1 + n2;
  const mu = (n1 * n2) / 2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (sigma === 0) return { u, p: 1, method: 'normal' };
  const z = (Math.abs(u1 - mu) - 0.5) / sigma;
  // Two-sided: 2·(1 − Φ(z)) = 1 − erf(z/√2).
  return { u, p: Math.min(1, 1 - errorFunction(Math.max(0, z) / Math.SQRT2)), method: 'normal' };
}

export interface Distribution {
  n: number;
  mean: number | null;
  sd: number | null;
  median: number | null;
  values: number[];
}

const dist = (xs: number[]): Distribution => ({ n: xs.length, mean: xs.length ? mean(xs) : null, sd: xs.length >= 2 ? sampleStandardDeviation(xs) : null, median: xs.length ? median(xs) : null, values: xs });

export interface FieldAxisRow {
  axis: AxisId;
  label: string;
  field: Distribution;
  simulated: Distribution;
  test: MannWhitney | null;
  /** Why there is no test (an axis one side does not have). */
  reason: string | null;
}

/**
 * Per axis, the field runs' values against the simulated runs' (of the same tutor), on the axes
 * both have: a field run without tracer-predicted probabilities has no learning gain unless the
 * study took its probe set, and judged axes need a panel on both sides.
 */
export function fieldVsSimulated(field: readonly RunDigest[], simulated: readonly RunDigest[]): FieldAxisRow[] {
  return AXES.map((a) => {
    const f = field.map((d) => d.axes[a.id]).filter((v): v is number => v !== null && Number.isFinite(v));
    const s = simulated.map((d) => d.axes[a.id]).filter((v): v is number => v !== null && Number.isFinite(v));
    const reason = f.length === 0 ? 'no field run has this axis' : s.length === 0 ? 'no simulated run has this axis' : null;
    return { axis: a.id, label: a.label, field: dist(f), simulated: dist(s), test: reason ? null : mannWhitneyU(f, s), reason };
  });
}

export interface FieldComparison {
  /** The tutor (its simulated runs' label); the field runs carry FIELD_SUFFIX. */
  tutor: string;
  fieldRuns: number;
  simulatedRuns: number;
  rows: FieldAxisRow[];
}

/**
 * Every tutor with field runs, against the simulated runs of the same tutor label in the same set
 * (none: `simulatedRuns` 0 and every row says so).
 */
export function fieldComparisons(digests: readonly RunDigest[]): FieldComparison[] {
  const fieldTutors = [...new Set(digests.filter((d) => d.field).map((d) => d.tutor))].sort();
  return fieldTutors.map((ft) => {
    const tutor = ft.endsWith(FIELD_SUFFIX) ? ft.slice(0, -FIELD_SUFFIX.length) : ft;
    const f = digests.filter((d) => d.field && d.tutor === ft);
    const s = digests.filter((d) => !d.field && d.tutor === tutor);
    return { tutor, fieldRuns: f.length, simulatedRuns: s.length, rows: fieldVsSimulated(f, s) };
  });
}
