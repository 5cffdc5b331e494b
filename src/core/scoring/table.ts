import type { ScoreReport } from './report';
import { ACTION_KINDS } from '../trace/types';

const pct = (x: number | null, digits = 1) => (x === null ? 'n/a' : `${(x * 100).toFixed(digits)}%`);
const pp = (x: number | null) => (x === null ? 'n/a' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)} pp/day`);

/** A plain-text axis table for one or more runs (columns = runs). "unscored" marks judged axes without a verdict. */
export function formatAxisTable(reports: readonly ScoreReport[]): string {
  const rows: [string, (r: ScoreReport) => string][] = [
    ['run', (r) => `${r.tutor} s${r.seed}`],
    ['I learning gain (Δ solve rate)', (r) => pp(r.learningGain)],
    ['  solve rate day 0 → last', (r) => (r.curve.length ? `${pct(r.curve[0]!.solveRate, 0)} → ${pct(r.curve[r.curve.length - 1]!.solveRate, 0)}` : 'n/a')],
    ['II responsiveness', (r) => `${pct(r.responsiveness)} (${r.details.responsiveness.answered as number}/${r.details.responsiveness.requests as number})`],
    ['answer leakage', (r) => `${pct(r.leakage)} (${r.details.leakage.leakingTurns as number}/${r.details.leakage.tutorTurns as number} turns)`],
    ['next-turn independence', (r) => `${pct(r.independence)} (${r.details.independence.withStep as number}/${r.details.independence.learnerTurns as number})`],
    ['III helpfulness', (r) => (r.judged.helpfulness === null ? 'unscored' : r.judged.helpfulness.toFixed(2))],
    ['IVa Gagné', (r) => (r.judged.gagne === null ? 'unscored' : r.judged.gagne.toFixed(2))],
    ['IVb Rosenshine', (r) => (r.judged.rosenshine === null ? 'unscored' : r.judged.rosenshine.toFixed(2))],
    ...ACTION_KINDS.map((k) => [`actions: ${k}`, (r: ScoreReport) => String(r.actions[k])] as [string, (r: ScoreReport) => string]),
    ['end', (r) => (r.endReason ?? 'incomplete')],
  ];
  const cells = rows.map(([label, f]) => [label, ...reports.map(f)]);
  const widths = cells[0]!.map((_, c) => Math.max(...cells.map((row) => row[c]!.length)));
  return cells.map((row) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')).join('\n');
}
