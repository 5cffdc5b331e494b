/**
 * What the run library can say about a stored run without reading its events: tutor, harness,
 * model, scenario, persona, schedule, voice, tracer, status, date (the "facts"), and the pure
 * filter, sort and group functions the library panel uses over them. Plain TypeScript (no runes,
 * no DOM), so it is unit-tested and timed by `npm run bench:library` outside a browser.
 *
 * Facts come from the StoredRun and, when present, its run record. Imported runs (and runs stored
 * before records existed) have none: what the label and the scenario id give is used, and the rest
 * is "unknown" (never a guess). A fact that does not apply (the model of a rule-based tutor) is "n/a".
 */
import { PERSONA_PRESET_NAMES, SCHEDULE_PRESET_NAMES, TUTORS, effectiveScenario, scenarioLabel } from '../../core/index';
import type { StoredRun } from '../../adapters/browser/run-store';

export const UNKNOWN = 'unknown';
export const NOT_APPLICABLE = 'n/a';

/** Every fact a run is filtered, sorted or grouped by. */
export const FACT_KEYS = ['tutor', 'model', 'harness', 'provider', 'scenario', 'persona', 'schedule', 'ability', 'days', 'voice', 'tracer', 'seed', 'status', 'date', 'batch'] as const;
export type FactKey = (typeof FACT_KEYS)[number];

export const FACT_LABELS: Record<FactKey, string> = {
  tutor: 'Tutor',
  model: 'Model',
  harness: 'Harness',
  provider: 'Provider',
  scenario: 'Scenario',
  persona: 'Persona',
  schedule: 'Schedule',
  ability: 'Ability',
  days: 'Days',
  voice: 'Voice',
  tracer: 'Learner model',
  seed: 'Seed',
  status: 'Status',
  date: 'Date',
  batch: 'Sweep / benchmark',
};

/** The facets the filter bar offers (and the group-by choices). */
export const FILTER_FACTS: readonly FactKey[] = ['tutor', 'model', 'harness', 'scenario', 'persona', 'schedule', 'voice', 'tracer', 'status', 'date', 'batch'];
/** Facts a row shows when they differ within its group (what tells it from its neighbours). */
export const ROW_DIFF_FACTS: readonly FactKey[] = ['tracer', 'voice', 'harness', 'model', 'provider', 'persona', 'schedule', 'ability', 'days', 'date'];

/**
 * How a run stands, as the list shows it. Only `done` (and an imported run that reached its last
 * day) has results; everything else is partial: its scores cover part of the run.
 */
export type StatusKind = 'done' | 'running' | 'running-elsewhere' | 'interrupted' | 'failed' | 'imported' | 'imported-incomplete' | 'imported-ended-early';
export const STATUS_LABELS: Record<StatusKind, string> = {
  done: 'done',
  running: 'running',
  'running-elsewhere': 'running in another tab',
  interrupted: 'interrupted',
  failed: 'failed',
  imported: 'imported',
  'imported-incomplete': 'imported, incomplete',
  'imported-ended-early': 'imported, ended early',
};

export interface RunFacts {
  key: string;
  /** The stored label (tutorLabel: name/harness/model for LLM tutors; the name alone for imported runs). */
  label: string;
  seed: number;
  scenarioTitle: string;
  createdAt: number;
  status: StatusKind;
  /** The status as a badge says it, with the end reason for runs that ended early. */
  statusText: string;
  /** The run did not reach its last day (or has not yet): its scores are not results. */
  partial: boolean;
  /** Learning gain (pp/day × 0.01) of the stored report, null when there is none. */
  gain: number | null;
  events: number;
  error: string | null;
  values: Record<FactKey, string>;
  /** Lower-cased text the search box matches against. */
  haystack: string;
}

export interface FactContext {
  /** The run is live in this tab (a "running" run that is not is live in another tab). */
  liveHere?: (key: string) => boolean;
}

const presetPersonas: ReadonlySet<string> = new Set(PERSONA_PRESET_NAMES);
const presetSchedules: ReadonlySet<string> = new Set(SCHEDULE_PRESET_NAMES);

/** Local calendar day of a wall-clock time, YYYY-MM-DD. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Local time of day, HH:MM. */
export function timeOf(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

export function statusKind(r: StoredRun, ctx: FactContext = {}): StatusKind {
  switch (r.status) {
    case 'running':
      return ctx.liveHere && !ctx.liveHere(r.key) ? 'running-elsewhere' : 'running';
    case 'imported':
      return r.endReason === null ? 'imported-incomplete' : r.endReason === 'horizon_reached' ? 'imported' : 'imported-ended-early';
    default:
      return r.status;
  }
}

function statusText(kind: StatusKind, r: StoredRun): string {
  if (kind === 'failed') return `failed: ${r.endReason ?? 'error'}`;
  if (kind === 'imported-ended-early') return `imported, ended early: ${r.endReason}`;
  return STATUS_LABELS[kind];
}

/** The sweep or benchmark a run belongs to (the store's field has had both names). */
function batchOf(r: StoredRun): string {
  const x = r as { benchmark?: { name?: unknown }; sweep?: { label?: unknown } };
  const name = x.benchmark?.name ?? x.sweep?.label;
  return typeof name === 'string' && name ? name : 'none';
}

export function runFacts(r: StoredRun, ctx: FactContext = {}): RunFacts {
  const rec = r.record;
  const labelParts = r.tutor.split('/');
  const tutor = rec?.tutor.name ?? labelParts[0] ?? (r.runId.split('__')[1] || UNKNOWN);
  const needsLlm = TUTORS.get(tutor)?.needs.includes('llm');
  const config = rec?.tutor.config ?? {};
  // An LLM tutor's label is name/harness/model (the model may itself contain "/").
  const fromConfig = (k: 'harness' | 'model' | 'provider'): string => {
    const v = config[k];
    if (typeof v === 'string' && v) return v;
    if (needsLlm === false) return NOT_APPLICABLE;
    if (needsLlm && labelParts.length >= 3) {
      if (k === 'harness') return labelParts[1]!;
      if (k === 'model') return labelParts.slice(2).join('/');
    }
    return UNKNOWN;
  };
  let persona = UNKNOWN;
  let schedule = UNKNOWN;
  let ability = UNKNOWN;
  let days = UNKNOWN;
  let voice = UNKNOWN;
  if (rec) {
    const s = effectiveScenario(rec);
    persona = s.learner.persona.preset ?? s.learner.persona.name;
    schedule = s.schedule.name;
    ability = s.learner.ability;
    days = String(s.horizonDays);
    // A voice that also writes the graded attempts (coupling student-attempts) says so: its runs are not comparable with the others'.
    voice = rec.voice.kind === 'templates' ? 'templates' : `llm: ${rec.voice.model}${s.learner.coupling === 'student-attempts' ? ' (writes its attempts)' : ''}`;
  } else {
    // A library scenario's id is <persona>--<schedule>.
    const m = /^(.+)--(.+)$/.exec(r.scenarioId);
    if (m && presetPersonas.has(m[1]!)) persona = m[1]!;
    if (m && presetSchedules.has(m[2]!)) schedule = m[2]!;
  }
  const kind = statusKind(r, ctx);
  const values: Record<FactKey, string> = {
    tutor,
    model: fromConfig('model'),
    harness: fromConfig('harness'),
    provider: fromConfig('provider'),
    scenario: scenarioLabel(r.scenarioId),
    persona,
    schedule,
    ability,
    days,
    voice,
    tracer: r.tracer || UNKNOWN,
    seed: String(r.seed),
    status: STATUS_LABELS[kind],
    date: dayOf(r.createdAt),
    batch: batchOf(r),
  };
  const text = statusText(kind, r);
  return {
    key: r.key,
    label: r.tutor,
    seed: r.seed,
    scenarioTitle: r.scenarioTitle,
    createdAt: r.createdAt,
    status: kind,
    statusText: text,
    partial: r.endReason !== 'horizon_reached',
    gain: r.report?.learningGain ?? null,
    events: r.events,
    error: r.error,
    values,
    haystack: [r.tutor, r.scenarioTitle, r.runId, text, ...Object.values(values)].join(' ').toLowerCase(),
  };
}

// ---- filter ----

export interface RunFilter {
  /** Words that must all appear in a run's facts (case-insensitive). */
  text: string;
  /** One value per fact ("" or absent: any). */
  facets: Partial<Record<FactKey, string>>;
}

export const NO_FILTER: RunFilter = { text: '', facets: {} };

export function isFiltering(f: RunFilter): boolean {
  return f.text.trim() !== '' || Object.values(f.facets).some((v) => v !== undefined && v !== '');
}

export function filterRuns(facts: readonly RunFacts[], f: RunFilter): RunFacts[] {
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
  const facets = (Object.entries(f.facets) as [FactKey, string | undefined][]).filter(([, v]) => v !== undefined && v !== '') as [FactKey, string][];
  if (words.length === 0 && facets.length === 0) return [...facts];
  return facts.filter((x) => facets.every(([k, v]) => x.values[k] === v) && words.every((w) => x.haystack.includes(w)));
}

/** The values a fact takes among the runs, with how many runs have each (most frequent first, then by name). */
export function factValues(facts: readonly RunFacts[], key: FactKey): { value: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const x of facts) counts.set(x.values[key], (counts.get(x.values[key]) ?? 0) + 1);
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => (key === 'date' ? b.value.localeCompare(a.value) : b.count - a.count || a.value.localeCompare(b.value)));
}

// ---- sort ----

export const SORTS = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  'gain-desc': 'Learning gain, highest first',
  'gain-asc': 'Learning gain, lowest first',
  tutor: 'Tutor (A–Z)',
  scenario: 'Scenario (A–Z)',
  seed: 'Seed',
  status: 'Status',
} as const;
export type SortKey = keyof typeof SORTS;

const STATUS_ORDER: StatusKind[] = ['running', 'running-elsewhere', 'interrupted', 'failed', 'imported-incomplete', 'imported-ended-early', 'imported', 'done'];

/**
 * Sorted copy (stable; ties keep the newest first). Sorting by gain puts results first and
 * partial runs after them, whatever their partial scores: those are not results.
 */
export function sortRuns(facts: readonly RunFacts[], by: SortKey): RunFacts[] {
  const newest = (a: RunFacts, b: RunFacts) => b.createdAt - a.createdAt || a.key.localeCompare(b.key);
  const text = (k: FactKey) => (a: RunFacts, b: RunFacts) => a.values[k].localeCompare(b.values[k]) || newest(a, b);
  const gain = (dir: 1 | -1) => (a: RunFacts, b: RunFacts) => {
    const rank = (x: RunFacts) => (x.partial ? 2 : x.gain === null ? 1 : 0);
    return rank(a) - rank(b) || (a.gain !== null && b.gain !== null ? dir * (a.gain - b.gain) : 0) || newest(a, b);
  };
  const cmp: Record<SortKey, (a: RunFacts, b: RunFacts) => number> = {
    newest,
    oldest: (a, b) => -newest(a, b),
    'gain-desc': gain(-1),
    'gain-asc': gain(1),
    tutor: (a, b) => a.label.localeCompare(b.label) || newest(a, b),
    scenario: text('scenario'),
    seed: (a, b) => a.seed - b.seed || newest(a, b),
    status: (a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) || newest(a, b),
  };
  return [...facts].sort(cmp[by]);
}

// ---- group ----

export type GroupBy = FactKey | 'none';

export interface RunGroup {
  /** The fact's value shared by the group ("" when not grouping). */
  value: string;
  runs: RunFacts[];
  /** Facts of ROW_DIFF_FACTS that differ within the group: each row shows its own value of these. */
  differing: FactKey[];
  /** Facts every run of the group shares (for the group's heading). */
  shared: FactKey[];
}

/** Facts (of `keys`) that take more than one value among the runs. */
export function differingFacts(runs: readonly RunFacts[], keys: readonly FactKey[] = ROW_DIFF_FACTS): FactKey[] {
  return keys.filter((k) => {
    const first = runs[0]?.values[k];
    return runs.some((x) => x.values[k] !== first);
  });
}

/**
 * Groups sorted runs by a fact; groups come in the order of their first run, so the sort orders
 * groups too (newest group first under "newest first"), and runs keep their order inside.
 */
export function groupRuns(sorted: readonly RunFacts[], by: GroupBy): RunGroup[] {
  const groups = new Map<string, RunFacts[]>();
  for (const x of sorted) {
    const v = by === 'none' ? '' : x.values[by];
    const g = groups.get(v);
    if (g) g.push(x);
    else groups.set(v, [x]);
  }
  return [...groups].map(([value, runs]) => {
    const differing = differingFacts(runs);
    return { value, runs, differing, shared: ROW_DIFF_FACTS.filter((k) => k !== by && !differing.includes(k) && runs.length > 1) };
  });
}

/** Filter, sort and group in one step (what the panel shows). */
export function arrangeRuns(facts: readonly RunFacts[], opts: { filter: RunFilter; sort: SortKey; group: GroupBy }): { groups: RunGroup[]; matched: number } {
  const matched = filterRuns(facts, opts.filter);
  return { groups: groupRuns(sortRuns(matched, opts.sort), opts.group), matched: matched.length };
}

/** The first `limit` runs of the groups, in order (a pager shows more); groups past the limit are left out. */
export function firstRuns(groups: readonly RunGroup[], limit: number): { group: RunGroup; runs: RunFacts[] }[] {
  const out: { group: RunGroup; runs: RunFacts[] }[] = [];
  let left = limit;
  for (const g of groups) {
    if (left <= 0) break;
    const runs = g.runs.slice(0, left);
    out.push({ group: g, runs });
    left -= runs.length;
  }
  return out;
}

// ---- display ----

/** Learning gain as the list shows it: a result, a partial value (greyed, labelled), or nothing. */
export function gainCell(x: RunFacts): { text: string; partial: boolean; title: string } {
  if (x.gain === null) return { text: '—', partial: x.partial, title: x.partial ? 'no score: the run did not reach its last day' : 'not scored' };
  const v = `${x.gain >= 0 ? '+' : ''}${(x.gain * 100).toFixed(2)}`;
  if (!x.partial) return { text: v, partial: false, title: `learning gain ${v} pp/day` };
  return { text: v, partial: true, title: `partial: ${v} pp/day over the days it ran; not a result` };
}

/** A fact as a row's chip says it ("tracer bkt", "model gpt-4.1-mini", "2026-05-01"). */
export function factChip(x: RunFacts, k: FactKey): string {
  const v = x.values[k];
  if (k === 'date') return `${v} ${timeOf(x.createdAt)}`;
  if (k === 'days') return `${v} days`;
  if (k === 'voice') return `voice ${v}`;
  if (k === 'tracer') return `learner ${v}`;
  return `${k} ${v}`;
}

/**
 * The stem of every exported file named after a benchmark or report (its zip, summary JSON, HTML
 * and Markdown report): lower case, runs of anything but a-z and 0-9 become one "-", at most 80
 * characters; `fallback` when nothing is left. One rule, so a benchmark's files sort together.
 */
export function fileStem(name: string, fallback = 'report'): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 80).replace(/^-+|-+$/g, '') || fallback;
}

/** The file name an exported trace gets: scenario, tutor with harness and model, seed. */
export function exportFileName(r: Pick<StoredRun, 'runId' | 'scenarioId' | 'tutor' | 'seed'>): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'run';
  const tutor = safe(r.tutor.split('/').join('-'));
  return `${safe(r.scenarioId)}__${tutor}__s${r.seed}.jsonl`;
}

/** Bytes as a person reads them (decimal units, as browsers report quotas): "740 kB", "3.4 MB", "12 GB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return 'unknown';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[i]}`;
}
