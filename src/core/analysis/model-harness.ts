/**
 * LLM tutors as base model × harness: each cell is the mean (95% t-interval, n runs) of one axis
 * over the runs of that model on that harness; models are ranked within each harness column
 * (1 = best, by the axis's better direction; ties share the mean rank), and every two columns'
 * rankings are compared over the models both have: Spearman's rho and Kendall's tau-b (n ≥ 3),
 * and the pairs of models the two columns order oppositely (n ≥ 2). The same is done transposed
 * (harnesses ranked within each model), which is the paper's "no harness leads on more than one
 * base model". LLM tutors are the runs whose tutor config names a harness and a model.
 */
import { axisById, type AxisId, type AxisStat, type Better } from '../scoring/axes';
import type { RunDigest } from './digest';
import { MIN_CORRELATION_N, averageRanks, byText, kendallTauB, pairCounts, present, spearmanRho, stat } from './stats';

export interface RankPair {
  a: string;
  b: string;
  /** Rows (models, or harnesses) with a value in both columns. */
  n: number;
  rho: number | null;
  tau: number | null;
  /** Pairs of rows ordered the same way / oppositely by the two columns (ties neither). */
  concordant: number;
  discordant: number;
  /** Why rho and tau are null. */
  reason: string | null;
}

export interface RankTable {
  rowKind: 'model' | 'harness';
  colKind: 'harness' | 'model';
  rows: string[];
  cols: string[];
  /** cells[row][col]: the axis over the runs of that pair (n 0: no runs, or none scored). */
  cells: Record<string, Record<string, AxisStat>>;
  /** ranks[col][row]: the row's rank within the column; null without a value. */
  ranks: Record<string, Record<string, number | null>>;
  /** The best row(s) of each column. */
  leaders: Record<string, string[]>;
  pairs: RankPair[];
}

export interface ModelHarness {
  axis: AxisId;
  /** LLM runs used, and runs of an LLM tutor left out because the harness or model is unknown. */
  runs: number;
  unknown: number;
  /** Rows model, columns harness. */
  byHarness: RankTable;
  /** Rows harness, columns model. */
  byModel: RankTable;
}

function rankTable(runs: readonly RunDigest[], axis: AxisId, better: Better, rowOf: (d: RunDigest) => string, colOf: (d: RunDigest) => string, rowKind: RankTable['rowKind'], colKind: RankTable['colKind']): RankTable {
  const rows = [...new Set(runs.map(rowOf))].sort(byText);
  const cols = [...new Set(runs.map(colOf))].sort(byText);
  const cells: Record<string, Record<string, AxisStat>> = {};
  for (const r of rows) {
    cells[r] = {};
    for (const c of cols) cells[r]![c] = stat(present(runs.filter((d) => rowOf(d) === r && colOf(d) === c).map((d) => d.axes[axis])));
  }
  const ranks: Record<string, Record<string, number | null>> = {};
  const leaders: Record<string, string[]> = {};
  for (const c of cols) {
    const have = rows.filter((r) => cells[r]![c]!.mean !== null);
    const rk = averageRanks(have.map((r) => cells[r]![c]!.mean!), better);
    ranks[c] = Object.fromEntries(rows.map((r) => [r, have.includes(r) ? rk[have.indexOf(r)]! : null]));
    const best = Math.min(...rk);
    leaders[c] = have.filter((_, i) => rk[i] === best);
  }
  const pairs: RankPair[] = [];
  for (let i = 0; i < cols.length; i++) {
    for (let j = i + 1; j < cols.length; j++) {
      const a = cols[i]!;
      const b = cols[j]!;
      const shared = rows.filter((r) => cells[r]![a]!.mean !== null && cells[r]![b]!.mean !== null);
      const xa = shared.map((r) => cells[r]![a]!.mean!);
      const xb = shared.map((r) => cells[r]![b]!.mean!);
      const pc = pairCounts(xa, xb);
      const rho = spearmanRho(xa, xb);
      const tau = kendallTauB(xa, xb);
      const reason = shared.length < MIN_CORRELATION_N ? `fewer than ${MIN_CORRELATION_N} ${rowKind === 'model' ? 'models' : 'harnesses'} in both` : rho === null || tau === null ? 'no variation in one ranking' : null;
      pairs.push({ a, b, n: shared.length, rho, tau, concordant: pc.concordant, discordant: pc.discordant, reason });
    }
  }
  return { rowKind, colKind, rows, cols, cells, ranks, leaders, pairs };
}

export function modelHarness(digests: readonly RunDigest[], axis: AxisId = 'learningGain'): ModelHarness {
  const a = axisById(axis);
  if (!a) throw new Error(`unknown axis "${axis}"`);
  const llm = digests.filter((d) => d.harness !== null && d.model !== null);
  const unknown = digests.filter((d) => (d.harness === null) !== (d.model === null) || (d.tutorName === 'llm' && (d.harness === null || d.model === null))).length;
  return {
    axis,
    runs: llm.length,
    unknown,
    byHarness: rankTable(llm, axis, a.better, (d) => d.model!, (d) => d.harness!, 'model', 'harness'),
    byModel: rankTable(llm, axis, a.better, (d) => d.harness!, (d) => d.model!, 'harness', 'model'),
  };
}
