/**
 * Paired head-to-heads: for every two tutors run on the same students (same scenario, seed, voice,
 * learner model, ability and horizon: `pairKey`), per axis, the differences A − B. Runs of one
 * student are not independent (several voices of one drawn student, or, on engines where a seed
 * fixes the student across scenarios, every scenario of a seed), so the differences are first
 * averaged per student: one difference per independent student. Over those: the mean with its
 * 95% t-interval, d_z, wins/ties/losses (A better / equal / B better in the axis's direction), the
 * Wilcoxon signed-rank p, and how many students 80% power at α = 0.05 needs for the observed
 * difference (and how many seeds that is, at this set's students per seed). A ranking per axis says
 * which neighbours are distinguishable from noise. Definitions: docs/analyses.md ("Head to head").
 */
import { AXES, axisById, type AnyAxis, type AxisId } from '../scoring/axes';
import { pairedSummary, pairsNeeded, type PairedSummary } from '../stats/paired';
import type { RunDigest } from './digest';
import { studentOf } from './digest';
import { pairKey } from './value-added';
import { byText, groupBy } from './stats';

export interface HeadToHead {
  a: string;
  b: string;
  axis: AxisId;
  /** Matched run pairs that scored the axis on both sides. */
  pairs: number;
  /** Independent students behind them (the n of `summary`). */
  students: number;
  /** Seeds the pairs span. */
  seeds: number;
  /** Over per-student mean differences A − B (stored units); wins/losses in the axis's better direction. */
  summary: PairedSummary;
  /** Students needed to detect the observed mean difference with 80% power at α = 0.05 (two-sided paired t); null when it is 0 or has no spread. */
  studentsNeeded: number | null;
  /** The same in seeds, at this comparison's students per seed; null with studentsNeeded. */
  seedsNeeded: number | null;
  /** Whether the 95% interval of the difference excludes 0. */
  distinguishable: boolean;
}

export interface AxisRanking {
  axis: AxisId;
  /** Tutors best first by their mean on the axis over all their runs; `vsNext`: the head-to-head with the next one down, when they share students. */
  rows: { tutor: string; mean: number | null; n: number; vsNext: HeadToHead | null }[];
}

export interface HeadToHeadResult {
  comparisons: HeadToHead[];
  rankings: AxisRanking[];
}

/** Axes a head-to-head compares: every axis of AXES with a direction. */
export const H2H_AXES: readonly AnyAxis[] = AXES.filter((a) => a.better !== null);

export function headToHead(digests: readonly RunDigest[], a: string, b: string, axis: AxisId): HeadToHead | null {
  const ax = axisById(axis)!;
  const sign = ax.better === 'lower' ? -1 : 1;
  const bByKey = new Map(digests.filter((d) => d.tutor === b).map((d) => [pairKey(d), d]));
  const perStudent = new Map<string, number[]>();
  const seeds = new Set<number>();
  let pairs = 0;
  for (const da of digests) {
    if (da.tutor !== a) continue;
    const db = bByKey.get(pairKey(da));
    const va = da.axes[axis];
    const vb = db?.axes[axis];
    if (!db || va === null || va === undefined || vb === null || vb === undefined) continue;
    pairs++;
    seeds.add(da.seed);
    const s = studentOf(da);
    perStudent.set(s, [...(perStudent.get(s) ?? []), va - vb]);
  }
  if (pairs === 0) return null;
  const diffs = [...perStudent.values()].map((xs) => xs.reduce((x, y) => x + y, 0) / xs.length);
  const summary = pairedSummary(diffs);
  const oriented = sign === 1 ? summary : { ...summary, wins: summary.losses, losses: summary.wins };
  const studentsNeeded = summary.mean !== null && summary.sd !== null ? pairsNeeded(summary.mean, summary.sd) : null;
  const perSeed = diffs.length / seeds.size;
  return {
    a,
    b,
    axis,
    pairs,
    students: diffs.length,
    seeds: seeds.size,
    summary: oriented,
    studentsNeeded,
    seedsNeeded: studentsNeeded === null ? null : Math.ceil(studentsNeeded / perSeed),
    distinguishable: summary.lo !== null && summary.hi !== null && (summary.lo > 0 || summary.hi < 0),
  };
}

/** Every pair of tutors (in name order, A before B), on every directed axis both scored on shared students. */
export function headToHeads(digests: readonly RunDigest[], axes: readonly AnyAxis[] = H2H_AXES): HeadToHeadResult {
  const tutors = [...groupBy(digests, (d) => d.tutor).keys()];
  const comparisons: HeadToHead[] = [];
  for (const ax of axes)
    for (let i = 0; i < tutors.length; i++)
      for (let j = i + 1; j < tutors.length; j++) {
        const h = headToHead(digests, tutors[i]!, tutors[j]!, ax.id);
        if (h) comparisons.push(h);
      }
  const rankings = axes.flatMap((ax): AxisRanking[] => {
    const sign = ax.better === 'lower' ? 1 : -1;
    const means = tutors
      .map((t) => {
        const xs = digests.filter((d) => d.tutor === t).map((d) => d.axes[ax.id]).filter((v): v is number => v !== null && v !== undefined);
        return { tutor: t, mean: xs.length ? xs.reduce((x, y) => x + y, 0) / xs.length : null, n: xs.length };
      })
      .filter((r) => r.mean !== null)
      .sort((x, y) => sign * (x.mean! - y.mean!) || byText(x.tutor, y.tutor));
    if (means.length < 2) return [];
    return [{ axis: ax.id, rows: means.map((r, i) => ({ ...r, vsNext: i + 1 < means.length ? (headToHead(digests, r.tutor, means[i + 1]!.tutor, ax.id) ?? null) : null })) }];
  });
  return { comparisons, rankings };
}
