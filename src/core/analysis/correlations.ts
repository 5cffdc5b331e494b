/**
 * Spearman's rank correlation between every two axes of AXES, over runs: over all runs, and over
 * each tutor's runs. A pair uses the runs that scored both axes (n); rho is null with fewer than 3
 * such runs or when either axis does not vary over them (the reason says which).
 */
import { AXES, type AxisId } from '../scoring/axes';
import type { RunDigest } from './digest';
import { MIN_CORRELATION_N, groupBy, spearmanRho } from './stats';
import { ALL_RUNS } from './failure-modes';

export interface AxisPair {
  group: string;
  a: AxisId;
  b: AxisId;
  n: number;
  rho: number | null;
  reason: string | null;
}

function pairs(runs: readonly RunDigest[], group: string): AxisPair[] {
  const out: AxisPair[] = [];
  for (let i = 0; i < AXES.length; i++) {
    for (let j = i + 1; j < AXES.length; j++) {
      const a = AXES[i]!.id;
      const b = AXES[j]!.id;
      const both = runs.filter((r) => r.axes[a] !== null && r.axes[b] !== null);
      const rho = spearmanRho(both.map((r) => r.axes[a]!), both.map((r) => r.axes[b]!));
      out.push({ group, a, b, n: both.length, rho, reason: rho !== null ? null : both.length < MIN_CORRELATION_N ? `fewer than ${MIN_CORRELATION_N} runs scored both` : 'an axis does not vary over these runs' });
    }
  }
  return out;
}

/** Pairs over all runs first, then per tutor. */
export function axisCorrelations(digests: readonly RunDigest[]): AxisPair[] {
  return [...pairs(digests, ALL_RUNS), ...[...groupBy(digests, (d) => d.tutor)].flatMap(([t, rs]) => pairs(rs, t))];
}
