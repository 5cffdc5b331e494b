import type { ScoreReport } from './report';
import { ACTION_KINDS } from '../trace/types';

const pct = (x: number | null, digits = 1) => (x === null ? 'n/a' : `${(x * 100).toFixed(digits)}%`);
const pp = (x: number | null) => (x === null ? 'n/a' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)} pp/day`);

const tokens = (r: ScoreReport, role: 'tutor' | 'student' | 'judge') => {
  const u = r.details.llm?.[role];
  return !u || u.calls === 0 ? '-' : `${u.promptTokens}/${u.completionTokens} (${u.calls} calls)`;
};
const cost = (r: ScoreReport) => {
  const l = r.details.llm;
  if (!l) return '-';
  const roles = [l.tutor, l.student, l.judge];
  const priced = roles.filter((u) => u.cost !== null);
  const unpriced = roles.reduce((a, u) => a + u.unpricedCalls, 0);
  if (priced.length === 0) return 'unknown (no prices configured)';
  return `$${priced.reduce((a, u) => a + u.cost!, 0).toFixed(4)}${unpriced ? ` + ${unpriced} unpriced calls` : ''}`;
};

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
    ['answer holding (panel)', (r) => (r.judged.answerHolding === null ? 'unscored' : `${pct(r.judged.answerHolding)} of days`)],
    ['pedagogy (Fan et al.)', (r) => (r.judged.pedagogy === null ? 'unscored' : r.judged.pedagogy.toFixed(2))],
    ['judge panel', (r) => (r.details.judged.panel ? `${r.details.judged.panel.judges.length} judges, ${r.details.judged.panel.days.length} days` : 'none')],
    ...ACTION_KINDS.map((k) => [`actions: ${k}`, (r: ScoreReport) => String(r.actions[k])] as [string, (r: ScoreReport) => string]),
    ['LLM tokens in/out (tutor)', (r) => tokens(r, 'tutor')],
    ['LLM tokens in/out (student)', (r) => tokens(r, 'student')],
    ['LLM tokens in/out (judges)', (r) => tokens(r, 'judge')],
    ['LLM cost', (r) => cost(r)],
    ['student voice mismatch', (r) => (r.details.voice ? (r.details.voice.mismatchRate === null ? `n/a (0 of ${r.details.voice.replies} replies graded)` : `${pct(r.details.voice.mismatchRate)} (${r.details.voice.mismatches}/${r.details.voice.graded})`) : 'templates')],
    ['end', (r) => (r.endReason ?? 'incomplete')],
  ];
  const cells = rows.map(([label, f]) => [label, ...reports.map(f)]);
  const widths = cells[0]!.map((_, c) => Math.max(...cells.map((row) => row[c]!.length)));
  return cells.map((row) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')).join('\n');
}
