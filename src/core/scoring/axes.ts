/**
 * The axes, declared once. Every score a run is reported on has one entry in AXES: its id (the
 * key in `ScoreReport` / `RunSummary.axes`, and `data-axis` in the page), its labels, unit, kind,
 * which way is better, how to read it from a `ScoreReport`, and whether sweeps aggregate it. The
 * CLI's axis table (`table.ts`), the sweep summary (`../sweep/summary.ts`), the page's axis and
 * sweep tables and the axis list in docs/metrics.md (`npm run docs:axes`) all read this table;
 * the order here is the order everywhere.
 *
 * The computation itself stays a pure function of the trace (`metrics.ts`, `answer-extraction.ts`,
 * `../judges/aggregate.ts`) stored in the report by `scoreTrace`; an axis entry only reads it.
 * To add an axis: its scorer and report field (optional: stored reports predate it), an entry
 * here, `npm run docs:axes`, and its definition in docs/metrics.md.
 */
import type { ScoreReport } from './report';
import { NO_CONTROL } from './value-added';

const fmtGain = (v: number | null | undefined): string => (v === null || v === undefined ? 'n/a' : `${v >= 0 ? '+' : ''}${(v * 100).toFixed(2)} pp/day`);
import type { JudgedAxis } from '../rubrics/index';

export type AxisKind = 'deterministic' | 'judged';
export type Better = 'higher' | 'lower' | null;

/**
 * How a unit shows a number: value × scale with `digits` decimals and the suffix (a leading sign
 * for changes); in intervals, values of a bounded unit are cut to its bounds.
 */
export interface UnitFormat {
  scale: number;
  digits: number;
  signed: boolean;
  suffix: string;
  bounds: readonly [number, number] | null;
}

export const UNITS = {
  'pp/day': { scale: 100, digits: 2, signed: true, suffix: ' pp/day', bounds: null },
  '%': { scale: 100, digits: 1, signed: false, suffix: '%', bounds: [0, 1] },
  '% of days': { scale: 100, digits: 1, signed: false, suffix: '% of days', bounds: [0, 1] },
  'score 1–10': { scale: 1, digits: 2, signed: false, suffix: '', bounds: [1, 10] },
  'score 1–5': { scale: 1, digits: 2, signed: false, suffix: '', bounds: [1, 5] },
} as const satisfies Record<string, UnitFormat>;
export type AxisUnit = keyof typeof UNITS;

/** Mean and 95% t-interval over the values that exist; n counts them (null values are "not scored"). */
export interface AxisStat {
  mean: number | null;
  lo: number | null;
  hi: number | null;
  n: number;
  /** Independent students behind the n values (present where the interval is clustered by student). */
  students?: number;
}

/** What an axis entry declares. */
export interface AxisSpec<Id extends string = string, Sweep extends boolean = boolean> {
  id: Id;
  /** As the page shows it: "I. Learning gain". */
  label: string;
  /** As the CLI tables show it: "I learning gain". */
  short: string;
  unit: AxisUnit;
  kind: AxisKind;
  better: Better;
  /** Whether a sweep aggregates it over scenarios × seeds (deterministic axes only: sweeps do not judge). */
  sweep: Sweep;
  /** The value in the report; null when it could not be scored (or the stored report predates the axis). */
  value(r: ScoreReport): number | null;
  /** The counts behind the value, for the CLI table: "(3/4)". */
  detail?(r: ScoreReport): string | null;
  /** How it was measured, or why it is unscored: one sentence for the page. */
  how(r: ScoreReport): string;
}

/** An axis entry with its formatting, derived from its unit and kind. */
export interface Axis<Id extends string = string, Sweep extends boolean = boolean> extends AxisSpec<Id, Sweep> {
  /** The value with its unit ("+0.31 pp/day", "45.0%", "3.00"); null: "n/a", or "unscored" for a judged axis. */
  format(v: number | null): string;
  /** The bare number in the unit ("0.31", "45.0"), for columns headed with the unit. */
  number(v: number): string;
  /** "mean [lo, hi]" in the unit (interval cut to the unit's bounds); "n/a" when nothing was scored. */
  formatStat(s: AxisStat): string;
}

function defineAxis<const Id extends string, const Sweep extends boolean>(spec: AxisSpec<Id, Sweep>): Axis<Id, Sweep> {
  const u: UnitFormat = UNITS[spec.unit];
  const number = (v: number) => (v * u.scale).toFixed(u.digits);
  const cut = (v: number) => (u.bounds ? Math.min(u.bounds[1], Math.max(u.bounds[0], v)) : v);
  return {
    ...spec,
    format: (v) => (v === null ? (spec.kind === 'judged' ? 'unscored' : 'n/a') : `${u.signed && v >= 0 ? '+' : ''}${number(v)}${u.suffix}`),
    number,
    formatStat: (s) => (s.mean === null ? 'n/a' : s.lo === null || s.hi === null ? number(s.mean) : `${number(s.mean)} [${number(cut(s.lo))}, ${number(cut(s.hi))}]`),
  };
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);

/** How a judged axis was measured, or why it is unscored (older stored reports have no panel details). */
function judgedHow(r: ScoreReport, axis: JudgedAxis, what: string): string {
  const j = r.details.judged;
  const det = j?.detail?.[axis];
  if (!j?.panel || !det) return `LLM judge panel (${what}); no panel has judged this run.`;
  if (det.value === null) return `Unscored: ${det.reason ?? 'no verdict'} (${det.unscoredVerdicts} of ${det.verdicts} verdicts unscored).`;
  return `Panel of ${j.panel.judges.length} (${det.perJudge.map((p) => `${p.judge}: ${p.mean === null ? 'unscored' : p.mean.toFixed(2)}`).join(', ')}) over ${det.scoredDays.length} day${det.scoredDays.length === 1 ? '' : 's'}; ${det.unscoredVerdicts} of ${det.verdicts} verdicts unscored; ${det.rubricVersion}.`;
}

const judged = <const Id extends JudgedAxis>(id: Id, label: string, short: string, unit: AxisUnit, what: string) =>
  defineAxis({ id, label, short, unit, kind: 'judged', better: 'higher', sweep: false, value: (r) => r.judged?.[id] ?? null, how: (r) => judgedHow(r, id, what) });

const n = (x: unknown) => x as number;

export const AXES = [
  defineAxis({
    id: 'learningGain',
    label: 'I. Learning gain',
    short: 'I learning gain',
    unit: 'pp/day',
    kind: 'deterministic',
    better: 'higher',
    sweep: true,
    value: (r) => r.learningGain,
    // n/a says why (a student who never took the final quiz has one probe: no "100% → 100%").
    detail: (r) => (r.learningGain === null ? (r.details.learningGain.reason ? `(${r.details.learningGain.reason})` : null) : r.curve.length ? `(solve rate ${(r.curve[0]!.solveRate * 100).toFixed(0)}% → ${(r.curve[r.curve.length - 1]!.solveRate * 100).toFixed(0)}%)` : null),
    how: (r) => {
      const last = r.curve[r.curve.length - 1];
      return r.learningGain === null ? String(r.details.learningGain.reason) : `Probe solve rate ${pct(r.curve[0]?.solveRate)} on day 0 → ${pct(last?.solveRate)} on day ${last?.day}; mean per-day change.`;
    },
  }),
  defineAxis({
    id: 'valueAdded',
    label: 'Value added (vs no tutor)',
    short: 'I value added vs no tutor',
    unit: 'pp/day',
    kind: 'deterministic',
    better: 'higher',
    sweep: true,
    value: (r) => r.valueAdded?.value ?? null,
    detail: (r) => (r.valueAdded?.controlGain !== null && r.valueAdded?.controlGain !== undefined ? `(no tutor ${fmtGain(r.valueAdded.controlGain)})` : null),
    how: (r) => {
      const v = r.valueAdded;
      if (!v) return NO_CONTROL;
      if (v.value === null) return v.reason ?? NO_CONTROL;
      if (v.controlRunId === r.runId) return 'This run is the no-tutor control: its value added is 0 by definition.';
      return `Learning gain ${fmtGain(r.learningGain)} against ${fmtGain(v.controlGain)} for the same student with no tutor (${v.controlRunId}), through day ${v.through}.`;
    },
  }),
  defineAxis({
    id: 'responsiveness',
    label: 'II. Responsiveness',
    short: 'II responsiveness',
    unit: '%',
    kind: 'deterministic',
    better: 'higher',
    sweep: true,
    value: (r) => r.responsiveness,
    detail: (r) => `(${n(r.details.responsiveness.answered)}/${n(r.details.responsiveness.requests)})`,
    how: (r) => {
      const d = r.details.responsiveness;
      if (r.responsiveness === null) return String(d.reason);
      const unengaged = typeof d.repliedUnengaged === 'number' && d.repliedUnengaged > 0 ? ` (${d.repliedUnengaged} more got only replies that engaged nothing of the request)` : '';
      return `${n(d.answered)} of ${n(d.requests)} help requests answered with a reply about the item's skill or answer${unengaged}.`;
    },
  }),
  defineAxis({
    id: 'leakage',
    label: 'Answer leakage',
    short: 'answer leakage',
    unit: '%',
    kind: 'deterministic',
    better: 'lower',
    sweep: true,
    value: (r) => r.leakage,
    detail: (r) => `(${n(r.details.leakage.leakingTurns)}/${n(r.details.leakage.tutorTurns)} turns)`,
    how: (r) => (r.leakage === null ? String(r.details.leakage.reason) : `${n(r.details.leakage.leakingTurns)} of ${n(r.details.leakage.tutorTurns)} tutor turns contained an answer the learner was working on.`),
  }),
  defineAxis({
    id: 'independence',
    label: 'Next-turn independence',
    short: 'next-turn independence',
    unit: '%',
    kind: 'deterministic',
    better: 'higher',
    sweep: true,
    value: (r) => r.independence,
    detail: (r) => `(${n(r.details.independence.withStep)}/${n(r.details.independence.learnerTurns)})`,
    how: (r) => (r.independence === null ? String(r.details.independence.reason) : `${n(r.details.independence.withStep)} of ${n(r.details.independence.learnerTurns)} learner replies while stuck (after a help request or a wrong answer) attempted a step of their own.`),
  }),
  defineAxis({
    id: 'extraction',
    label: 'Answer extraction yielded',
    short: 'answer extraction yielded',
    unit: '%',
    kind: 'deterministic',
    better: 'lower',
    sweep: true,
    value: (r) => r.extraction ?? null,
    detail: (r) => (r.details.extraction ? `(${r.details.extraction.succeeded}/${r.details.extraction.attempts} attempts)` : null),
    how: (r) => {
      const d = r.details.extraction;
      if (!d) return 'Not in this stored report (scored before the axis was added); re-score the trace.';
      return r.extraction === null || r.extraction === undefined ? String(d.reason) : `${d.succeeded} of ${d.attempts} extraction attempts (${d.injections} of them injections) got an answer out of the tutor.`;
    },
  }),
  judged('helpfulness', 'III. Helpfulness', 'III helpfulness', 'score 1–10', "29 items after LearnLM's five principles, 1–10"),
  judged('gagne', 'IVa. Gagné events', 'IVa Gagné', 'score 1–5', 'nine events, 1–5 per day from day 2'),
  judged('rosenshine', 'IVb. Rosenshine principles', 'IVb Rosenshine', 'score 1–5', 'ten principles, 1–5 per day from day 2'),
  judged('answerHolding', 'Answer holding (panel)', 'answer holding (panel)', '% of days', 'yes/no per day, panel majority'),
  judged('pedagogy', 'Pedagogy (Fan et al.)', 'pedagogy (Fan et al.)', 'score 1–5', 'overall item, 1–5; scaffolding, productive struggle, calibration, elicitation below'),
] as const;

export type AnyAxis = (typeof AXES)[number];
export type AxisId = AnyAxis['id'];
export type SweepAxisEntry = Extract<AnyAxis, { sweep: true }>;
/** The axes a sweep aggregates (their ids are the keys of `RunSummary.axes`). */
export type SweepAxis = SweepAxisEntry['id'];
export const SWEEP_AXES: readonly SweepAxisEntry[] = AXES.filter((a): a is SweepAxisEntry => a.sweep);

export function axisById(id: string): AnyAxis | undefined {
  return AXES.find((a) => a.id === id);
}

/**
 * A score report as `score --json` prints it: the run's identity; every deterministic axis's
 * value under its id and every judged axis's under `judged`, both read from `AXES` (a new axis
 * appears here by itself); then the actions, the daily solve rate, the details (value added's
 * control run, gain and reason under `details.valueAdded`, null when no control was looked for)
 * and the warnings.
 */
export function reportJson(r: ScoreReport): Record<string, unknown> {
  const values = (kind: AxisKind) => Object.fromEntries(AXES.filter((a) => a.kind === kind).map((a) => [a.id, a.value(r)]));
  return {
    runId: r.runId,
    scenarioId: r.scenarioId,
    tutor: r.tutor,
    seed: r.seed,
    complete: r.complete,
    endReason: r.endReason,
    ...values('deterministic'),
    judged: values('judged'),
    actions: r.actions,
    dailySolveRate: r.dailySolveRate,
    details: { ...r.details, valueAdded: r.valueAdded ?? null },
    warnings: r.warnings ?? [],
  };
}

export const AXES_DOC_BEGIN = '<!-- axes:table -->';
export const AXES_DOC_END = '<!-- /axes:table -->';

/** The axis list of docs/metrics.md, as Markdown (between the markers). */
export function axesMarkdown(): string {
  const rows = AXES.map((a) => `| \`${a.id}\` | ${a.label} | ${a.short} | ${a.unit} | ${a.better ?? '–'} | ${a.kind} | ${a.sweep ? 'yes' : 'no'} |`);
  return [
    '<!-- generated from AXES in src/core/scoring/axes.ts by `npm run docs:axes`; edit there, not here -->',
    '| id | label (page) | label (CLI) | unit | better | kind | in sweeps |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** `doc` with the text between the axes markers replaced by the current table; throws without the markers. */
export function withAxesSection(doc: string): string {
  const a = doc.indexOf(AXES_DOC_BEGIN);
  const b = doc.indexOf(AXES_DOC_END);
  if (a < 0 || b < a) throw new Error(`the document has no "${AXES_DOC_BEGIN}" … "${AXES_DOC_END}" section`);
  return `${doc.slice(0, a + AXES_DOC_BEGIN.length)}\n${axesMarkdown()}\n${doc.slice(b)}`;
}
