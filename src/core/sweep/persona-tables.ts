/**
 * The persona table: how the personas differ in what they do, measured from sweep runs
 * (`npm run cli -- personas`). Per persona, each measure is averaged over the persona's runs of one
 * seed (its schedules), then given as mean and 95% t-interval over seeds. Also the parameter
 * table of the built-in personas and the pre-tutor probe accuracy by ability level.
 */
import type { RunSummary } from './summary';
import { meanCi95 } from '../stats/index';
import { PERSONA_PRESETS, PERSONA_TRAITS } from '../scenario/personas';
import { PERSONA_PRESET_NAMES, type PersonaPresetName } from '../scenario/preset-names';
import { PERSONA_FIELDS } from '../scenario/library';

export interface PersonaMeasures {
  helpPerDay: number;
  activeMinutesPerDay: number;
  sessionsPerDay: number;
  /** Share of sessions that ended in giving up. */
  giveUpRate: number;
  extractionPerDay: number;
  attemptsPerDay: number;
  /** Shares of attempts. */
  guessShare: number;
  copiedShare: number;
  slipShare: number;
  preTutorSolveRate: number;
  preTutorKnowledgeRate: number;
  learningGain: number;
}

export const PERSONA_MEASURES: { key: keyof PersonaMeasures; label: string; fmt: (x: number) => string }[] = [
  { key: 'helpPerDay', label: 'help requests / day', fmt: (x) => x.toFixed(2) },
  { key: 'activeMinutesPerDay', label: 'active min / day', fmt: (x) => x.toFixed(1) },
  { key: 'attemptsPerDay', label: 'attempts / day', fmt: (x) => x.toFixed(1) },
  { key: 'giveUpRate', label: 'give-up rate (per session)', fmt: (x) => `${(x * 100).toFixed(1)}%` },
  { key: 'extractionPerDay', label: 'extraction attempts / day', fmt: (x) => x.toFixed(2) },
  { key: 'guessShare', label: 'guesses', fmt: (x) => `${(x * 100).toFixed(0)}%` },
  { key: 'slipShare', label: 'slips', fmt: (x) => `${(x * 100).toFixed(0)}%` },
  { key: 'preTutorSolveRate', label: 'pre-tutor probe accuracy', fmt: (x) => x.toFixed(3) },
  { key: 'learningGain', label: 'learning gain (pp/day)', fmt: (x) => (x * 100).toFixed(2) },
];

function measures(r: RunSummary): PersonaMeasures {
  const a = r.activity;
  const days = Math.max(1, a.days);
  const att = Math.max(1, a.attempts);
  return {
    helpPerDay: a.helpRequests / days,
    activeMinutesPerDay: a.activeMinutes / days,
    sessionsPerDay: a.sessions / days,
    giveUpRate: a.sessions ? a.giveUps / a.sessions : 0,
    extractionPerDay: (a.extractionRequests + a.injections) / days,
    attemptsPerDay: a.attempts / days,
    guessShare: a.guesses / att,
    copiedShare: a.copied / att,
    slipShare: a.slips / att,
    preTutorSolveRate: a.preTutorSolveRate ?? NaN,
    preTutorKnowledgeRate: a.preTutorKnowledgeRate ?? NaN,
    learningGain: r.axes.learningGain ?? NaN,
  };
}

export interface Ci {
  mean: number;
  lo: number | null;
  hi: number | null;
  n: number;
}

/** Groups runs by `key`, averages each measure within (group, seed), then over seeds with a 95% interval. */
export function aggregateBy(runs: readonly RunSummary[], key: (r: RunSummary) => string): Map<string, Record<keyof PersonaMeasures, Ci> & { runs: number }> {
  const groups = new Map<string, RunSummary[]>();
  for (const r of runs) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  const out = new Map<string, Record<keyof PersonaMeasures, Ci> & { runs: number }>();
  for (const [g, rs] of groups) {
    const seeds = [...new Set(rs.map((r) => r.seed))];
    const perSeed = seeds.map((s) => rs.filter((r) => r.seed === s).map(measures));
    const row = { runs: rs.length } as Record<keyof PersonaMeasures, Ci> & { runs: number };
    for (const k of Object.keys(measures(rs[0]!)) as (keyof PersonaMeasures)[]) {
      const xs = perSeed.map((ms) => ms.map((m) => m[k]).filter((v) => Number.isFinite(v))).filter((v) => v.length > 0).map((v) => v.reduce((a, b) => a + b, 0) / v.length);
      const c = meanCi95(xs);
      row[k] = { mean: c.mean, lo: c.lo, hi: c.hi, n: c.n };
    }
    out.set(g, row);
  }
  return out;
}

/** "mean [lo, hi]"; for quantities that cannot be negative the interval's lower end is shown cut at 0. */
const cell = (c: Ci, fmt: (x: number) => string, nonNegative = true) =>
  Number.isNaN(c.mean) ? 'n/a' : c.lo === null || c.hi === null ? fmt(c.mean) : `${fmt(c.mean)} [${fmt(nonNegative ? Math.max(0, c.lo) : c.lo)}, ${fmt(c.hi)}]`;

/** Markdown table: one row per persona, the measures of PERSONA_MEASURES. */
export function personaTableMarkdown(runs: readonly RunSummary[]): string {
  const agg = aggregateBy(runs, (r) => r.persona);
  const names = [...PERSONA_PRESET_NAMES.filter((n) => agg.has(n)), ...[...agg.keys()].filter((k) => !(PERSONA_PRESET_NAMES as readonly string[]).includes(k)).sort()];
  const head = `| persona | runs | ${PERSONA_MEASURES.map((m) => m.label).join(' | ')} |`;
  const sep = `|---|---:|${PERSONA_MEASURES.map(() => '---:').join('|')}|`;
  const rows = names.map((n) => {
    const a = agg.get(n)!;
    return `| ${n} | ${a.runs} | ${PERSONA_MEASURES.map((m) => cell(a[m.key], m.fmt, m.key !== 'learningGain')).join(' | ')} |`;
  });
  return [head, sep, ...rows].join('\n');
}

/** Markdown table: pre-tutor probe accuracy by ability level (with and without the persona's habits). */
export function abilityTableMarkdown(runs: readonly RunSummary[]): string {
  const agg = aggregateBy(runs, (r) => r.ability);
  const order = ['low', 'average', 'high'].filter((a) => agg.has(a));
  const f3 = (x: number) => x.toFixed(3);
  const rows = order.map((a) => {
    const r = agg.get(a)!;
    return `| ${a} | ${r.runs} | ${cell(r.preTutorKnowledgeRate, f3)} | ${cell(r.preTutorSolveRate, f3)} |`;
  });
  return ['| ability | runs | pre-tutor probe accuracy, knowledge only | pre-tutor probe accuracy, with persona habits |', '|---|---:|---:|---:|', ...rows].join('\n');
}

const show = (v: unknown): string => {
  if (v === null) return '–';
  if (Array.isArray(v)) return v.length === 2 && typeof v[0] === 'number' ? `${v[0]}–${v[1]}` : v.join(', ');
  if (typeof v === 'object') {
    const e = Object.entries(v as Record<string, unknown>);
    return e.length ? e.map(([k, x]) => `${k}: ${show(x)}`).join('; ') : '–';
  }
  return String(v);
};

/** Markdown tables: what each schedule gives rise to (means over every persona and seed of the sweep), and the tutor wakes by LMS event. */
export function scheduleTablesMarkdown(runs: readonly RunSummary[]): string {
  const groups = new Map<string, RunSummary[]>();
  for (const r of runs) groups.set(r.schedule, [...(groups.get(r.schedule) ?? []), r]);
  const mean = (rs: RunSummary[], f: (r: RunSummary) => number) => rs.reduce((a, r) => a + f(r), 0) / rs.length;
  const days = (r: RunSummary) => Math.max(1, r.activity.days);
  const t1 = [
    '| schedule | runs | days with a login (of 30) | sessions / week | active min / day | homework posted | "due" reminders | completed | missed |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...[...groups.entries()].map(([name, rs]) => {
      const m = (f: (r: RunSummary) => number, d = 1) => mean(rs, f).toFixed(d);
      return `| ${name} | ${rs.length} | ${m((r) => r.activity.activeDays)} | ${m((r) => (r.activity.sessions / days(r)) * 7)} | ${m((r) => r.activity.activeMinutes / days(r))} | ${m((r) => r.activity.homeworkPosted)} | ${m((r) => r.activity.dueReminders)} | ${m((r) => r.activity.assignmentsCompleted)} | ${m((r) => r.activity.assignmentsMissed)} |`;
    }),
  ];
  const reasons = [...new Set(runs.flatMap((r) => Object.keys(r.activity.wakes)))].sort();
  const t2 = [
    `| schedule | ${reasons.join(' | ')} | all |`,
    `|---|${reasons.map(() => '---:').join('|')}|---:|`,
    ...[...groups.entries()].map(([name, rs]) => `| ${name} | ${reasons.map((k) => mean(rs, (r) => r.activity.wakes[k] ?? 0).toFixed(1)).join(' | ')} | ${mean(rs, (r) => Object.values(r.activity.wakes).reduce((a, b) => a + b, 0)).toFixed(1)} |`),
  ];
  return [...t1, '', 'Tutor wakes per run, by the LMS event that woke it:', '', ...t2].join('\n');
}

/** Markdown: the five dimensions per persona, then every parameter of every built-in persona (one column per persona). */
export function personaParameterMarkdown(): string {
  const names = PERSONA_PRESET_NAMES as readonly PersonaPresetName[];
  const traits = ['helpSeeking', 'persistence', 'affect', 'pace', 'honesty'] as const;
  const t1 = [
    `| persona | ${traits.map((t) => t.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)).join(' | ')} |`,
    `|---|${traits.map(() => '---').join('|')}|`,
    ...names.map((n) => `| ${n} | ${traits.map((t) => PERSONA_TRAITS[n][t]).join(' | ')} |`),
  ];
  const t2 = [
    `| parameter | meaning | ${names.join(' | ')} |`,
    `|---|---|${names.map(() => '---').join('|')}|`,
    ...PERSONA_FIELDS.map(({ key, note }) => `| \`${key}\` | ${note} | ${names.map((n) => show(PERSONA_PRESETS[n][key])).join(' | ')} |`),
  ];
  return [...t1, '', ...t2].join('\n');
}

/** Markdown: one section per built-in persona with its description. */
export function personaDescriptionsMarkdown(): string {
  return (PERSONA_PRESET_NAMES as readonly PersonaPresetName[]).map((n) => `### ${n}\n\n${PERSONA_PRESETS[n].description}`).join('\n\n');
}
