import type { ScoreReport } from './report';
import { AXES } from './axes';
import { ACTION_KINDS } from '../trace/types';

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);

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

type Row = [string, (r: ScoreReport) => string];

/** One row per axis of AXES, in its order: the value in its unit, then the counts behind it. */
const axisRows: Row[] = AXES.map((a) => [
  a.short,
  (r: ScoreReport) => {
    const detail = a.detail?.(r);
    return detail ? `${a.format(a.value(r))} ${detail}` : a.format(a.value(r));
  },
]);

/** A plain-text axis table for one or more runs (columns = runs). "unscored" marks judged axes without a verdict. */
export function formatAxisTable(reports: readonly ScoreReport[]): string {
  const rows: Row[] = [
    // A field run is named by its participant (its run id ends "__p-<code>"), a simulated one by its seed.
    ['run', (r) => `${r.tutor} ${/__p-([A-Z0-9]+)$/.exec(r.runId)?.[1] ?? `s${r.seed}`}`],
    ...axisRows,
    ['judge panel', (r) => (r.details.judged.panel ? `${r.details.judged.panel.judges.length} judges, ${r.details.judged.panel.days.length} days` : 'none')],
    ...ACTION_KINDS.map((k): Row => [`actions: ${k}`, (r) => String(r.actions[k])]),
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
