/**
 * A run reduced, once, to what the analyses read (`RunDigest`): who and what it was, every axis of
 * `AXES` with the reason when unscored, the probe curve, what the steady-learning reference needs,
 * action counts per day and the help requests left unanswered for the rest of their day. Digest
 * each run as it is loaded (its events can then be dropped): a benchmark of 1,000 runs is analysed
 * from 1,000 small digests, never 1,000 traces at once. Definitions: docs/analyses.md.
 *
 * A run given without its events (a stored score report, a sweep's run summary) digests too; what
 * only the trace can tell (the persona's answering habits, actions per day, neglect, the student
 * voice) is then null, and each analysis counts such runs as "needs the trace", never a default.
 */
import type { ActionKind, RunStartEvent, TerminationReason, TraceEvent } from '../trace/types';
import { ACTION_KINDS } from '../trace/types';
import { scoreTrace, type ScoreReport } from '../scoring/report';
import { AXES, type AxisId } from '../scoring/axes';
import { helpRequests } from '../scoring/metrics';
import { tutorLabel } from '../trace/tutor-label';
import type { RunWarningCode } from '../scoring/warnings';
import { NO_CONTROL } from '../scoring/value-added';
import type { RunSummary } from '../sweep/summary';
import { TUTORS } from '../registry';
import { externalParts } from '../tutors/external/protocol';

/** Bumped when a field's meaning changes (digests may be stored by callers). */
export const DIGEST_VERSION = 1;

/**
 * One run as a caller has it: the trace's events (everything can be computed; the report is scored
 * from them), or a stored score report (and the sweep's run summary, for persona, schedule, ability
 * and tracer) without them.
 */
export interface AnalysisRun {
  report?: ScoreReport;
  summary?: RunSummary;
  events?: readonly TraceEvent[];
}

export type ActionCounts = Record<ActionKind, number>;

export interface RunDigest {
  digestVersion: typeof DIGEST_VERSION;
  runId: string;
  scenarioId: string;
  /** tutorLabel(run_start.tutor): "planner", "llm/reactive/gpt-4.1-mini", "human/Ms Rivera"; a field run's label ends in FIELD_SUFFIX. */
  tutor: string;
  /** A field run (a real student in a classroom study: run_start.learner.kind "real"); absent in digests stored before field runs existed. */
  field?: boolean;
  /** The registry name ("llm", "planner", "human"). */
  tutorName: string;
  /** LLM tutors: the harness and the model from the tutor config; external agents: "mcp:<agent>"/"http:<name>" and the model they report; null otherwise (or unknown). */
  harness: string | null;
  model: string | null;
  seed: number;
  /** "templates" or "llm:<provider>/<model>" (run_start.voice); null: unknown (no trace). */
  voice: string | null;
  tracer: string | null;
  persona: string | null;
  schedule: string | null;
  ability: string | null;
  /** The run's horizon (run_start.scenario.horizonDays, or the report's daily curve length − 1). */
  horizonDays: number | null;
  complete: boolean;
  endReason: TerminationReason | null;
  /** Every axis of AXES, read from the score report with the axis's own `value`. */
  axes: Record<AxisId, number | null>;
  /** Why each null axis is null. */
  unscored: Partial<Record<AxisId, string>>;
  /** The judge panel that judged the run; null: none. */
  panel: string | null;
  /** Tutor turns with messages (the leakage denominator); 0: the tutor never sent a message. */
  tutorMessageTurns: number | null;
  /** Probe solve rate by probe day, ascending. */
  curve: { day: number; solveRate: number }[];
  /**
   * The persona's probe ceiling: the probe solve rate with P(correct) = 1 from knowledge on every
   * probe item, under its answering habits: (1 − guessProb)(1 − carelessness) + guessProb × guessAccuracy
   * (the formula of SimulatedLearner.probe). Null without the trace's run_start.
   */
  ceiling: number | null;
  /** Successful action calls per tutoring day (implicit silences count as stay_silent), days 1..last day reached; null without the trace. */
  actionsByDay: { day: number; counts: ActionCounts }[] | null;
  /** Action totals of the score report. */
  actions: ActionCounts;
  /**
   * Help requests (the responsiveness ones), those unanswered by responsiveness' rule, and those
   * neglected: no tutor message at all after them before the end of their day. Null without the trace.
   */
  help: { requests: number; unanswered: number; neglected: number } | null;
  /** What could not be derived because the events were not given. */
  missing: string[];
  /** The run's set-up warnings (scoring/warnings.ts) by code; null: unknown (a stored report from before warnings). Absent in digests stored before them. */
  warnings?: RunWarningCode[] | null;
  /** run_start.engine (the engine's behaviour version); null without the trace. Absent in digests stored before it was added. */
  engine?: string | null;
  /**
   * The independent student this run's learner is (studentKey): runs with the same key share a
   * student, so their results are not independent; intervals are clustered by it. Absent in
   * digests stored before it was added (then computed from the other fields).
   */
  student?: string;
  /** Set by the analyses (value-added.ts) when a no-tutor control in the set gave the value added: its run and its gain over the same days. */
  controlRunId?: string;
  controlGain?: number | null;
  /** Set by the analyses (value-added.ts, attachReferences) when the set has the oracle's run on the same student: its curve is the run's steady-learning reference (curves.ts). */
  reference?: { runId: string; curve: { day: number; solveRate: number }[] };
}

/**
 * Engine versions in which a seed fixes one student for every scenario of a sweep (the same draws
 * whatever the persona and schedule): on their traces a sweep of S scenarios × N seeds has N
 * independent students, not S × N.
 */
export const SHARED_STUDENT_ENGINES: readonly string[] = ['educlaw-lab-engine-1', 'educlaw-lab-engine-2'];

/**
 * The independent unit a run's learner is, as a key: a field run's participant; on an engine whose
 * seed draws the student independently per (persona, schedule) pair, that pair and the seed; on an
 * engine where a seed fixes the student across scenarios (SHARED_STUDENT_ENGINES), or when the
 * engine is unknown (no trace), the seed alone (the cautious choice: fewer, larger clusters). The
 * student voice, tutor, learner model and ability are not part of it: the same drawn student under
 * another voice or tutor is the same unit (that is what pairs them).
 */
export function studentKey(d: { engine?: string | null; seed: number; persona: string | null; schedule: string | null; scenarioId: string; field?: boolean; participant?: string | null }): string {
  if (d.field) return `field ${d.participant ?? d.scenarioId} · seed ${d.seed}`;
  if (!d.engine || SHARED_STUDENT_ENGINES.includes(d.engine)) return `seed ${d.seed}`;
  return `${d.persona ?? d.scenarioId} · ${d.schedule ?? '?'} · seed ${d.seed}`;
}

/** The digest's student (stored digests without the field compute it). */
export const studentOf = (d: RunDigest): string => d.student ?? studentKey(d);

/**
 * Appended to a field run's tutor label, so that every analysis shows field and simulated runs of
 * one tutor side by side as two rows ("planner" and "planner (field)"); the field comparison pairs them.
 */
export const FIELD_SUFFIX = ' (field)';

/** Whether a run is a field run: its run_start says the learner is real; without the trace, a field study's scenario id. */
export function isFieldRun(start: RunStartEvent | null, scenarioId: string): boolean {
  return start ? (start.learner as { kind?: unknown }).kind === 'real' : scenarioId.startsWith('field-');
}

/** A digest or the run to digest. */
export type AnalysisInput = AnalysisRun | RunDigest;

export const isDigest = (x: AnalysisInput): x is RunDigest => (x as RunDigest).digestVersion === DIGEST_VERSION;

const zeroCounts = (): ActionCounts => Object.fromEntries(ACTION_KINDS.map((k) => [k, 0])) as ActionCounts;

/** Why an axis is null in a report: the report's own reason, or for judged axes what the panel did. */
function unscoredReason(r: ScoreReport, id: AxisId): string {
  const axis = AXES.find((a) => a.id === id)!;
  if (axis.kind === 'judged') {
    const j = r.details.judged;
    if (!j?.panel) return 'no judge panel has judged the run';
    const d = j.detail?.[id as keyof typeof j.detail];
    if (!d) return `the panel (${j.panel.id}) did not score this axis`;
    return d.reason ?? 'no verdict scored a day';
  }
  if (id === 'valueAdded') return r.valueAdded?.reason ?? NO_CONTROL;
  if (id === 'extraction' && !r.details.extraction) return 'not in this stored report (scored before the axis existed); re-score the trace';
  const det = (r.details as unknown as Record<string, { reason?: unknown } | undefined>)[id];
  return typeof det?.reason === 'string' ? det.reason : 'not scored';
}

/** Actions per day: the current day is the last `day_start`'s day (day 0 before the first). */
export function actionsByDay(events: readonly TraceEvent[]): { day: number; counts: ActionCounts }[] {
  const byDay = new Map<number, ActionCounts>();
  let day = 0;
  let last = 0;
  const at = (d: number) => {
    let c = byDay.get(d);
    if (!c) byDay.set(d, (c = zeroCounts()));
    return c;
  };
  for (const e of events) {
    if (e.type === 'lms_event' && e.kind === 'day_start') {
      day = e.day;
      last = Math.max(last, day);
    } else if (e.type === 'tool_call' && e.result.ok && (ACTION_KINDS as readonly string[]).includes(e.tool)) at(day)[e.tool as ActionKind]++;
    else if (e.type === 'turn_end' && e.implicitSilence) at(day).stay_silent++;
  }
  const out: { day: number; counts: ActionCounts }[] = [];
  if (byDay.has(0)) out.push({ day: 0, counts: byDay.get(0)! });
  for (let d = 1; d <= last; d++) out.push({ day: d, counts: byDay.get(d) ?? zeroCounts() });
  return out;
}

/**
 * Neglect, per request: a help request (as responsiveness finds them) is neglected when no tutor
 * message at all follows it before its day ends (the `end_of_day` event, or the next `day_start`).
 * A request still open when the trace ends without ending its day (a run cut short) is not counted.
 */
export function helpNeglect(events: readonly TraceEvent[]): { requests: number; unanswered: number; neglected: number } {
  const reqs = helpRequests(events);
  const unansweredSeqs = new Set(reqs.filter((r) => r.answeredBy === null).map((r) => r.seq));
  let pending = 0;
  let neglected = 0;
  for (const e of events) {
    if (e.type === 'message' && e.from === 'learner' && unansweredSeqs.has(e.seq)) pending++;
    else if (e.type === 'message' && e.from === 'tutor') pending = 0;
    else if (e.type === 'lms_event' && (e.kind === 'end_of_day' || e.kind === 'day_start')) {
      neglected += pending;
      pending = 0;
    }
  }
  return { requests: reqs.length, unanswered: unansweredSeqs.size, neglected };
}

/** The persona's probe ceiling (see RunDigest.ceiling). */
export function probeCeiling(start: RunStartEvent): number {
  const p = start.scenario.learner.persona;
  // run_start holds the parsed scenario, so these are present; the fallbacks are PersonaSchema's defaults.
  const g = p.guessProb ?? 0;
  const c = p.carelessness ?? 0;
  const a = p.guessAccuracy ?? 0.1;
  return g > 0 || c > 0 ? (1 - g) * (1 - c) + g * a : 1;
}

/**
 * Harness and model of an LLM tutor: from its config, or (no trace) from its label name/harness/model.
 * An external agent is a harness: "mcp:<agent>" or "http:<name>", its model what it reported (label "mcp/<agent>/<model>").
 */
function llmParts(name: string, config: Record<string, unknown> | null, label: string): { harness: string | null; model: string | null } {
  if (config) return externalParts(name, config) ?? { harness: typeof config.harness === 'string' ? config.harness : null, model: typeof config.model === 'string' ? config.model : null };
  if (name === 'mcp' || name === 'http') {
    const [, agent, ...model] = label.split('/');
    return agent ? { harness: `${name}:${agent}`, model: model.length ? model.join('/') : null } : { harness: null, model: null };
  }
  if (!TUTORS.get(name)?.needs.includes('llm')) return { harness: null, model: null };
  const parts = label.split('/');
  // The model may itself contain "/" (an OpenRouter id): everything after the harness.
  return parts.length >= 3 ? { harness: parts[1]!, model: parts.slice(2).join('/') } : { harness: null, model: null };
}

/** A run's digest: from its events when given (scored afresh; a given report is then not used), else from its report. */
export function digestRun(run: AnalysisRun): RunDigest {
  const events = run.events && run.events.length ? run.events : null;
  const start = events?.[0]?.type === 'run_start' ? (events[0] as RunStartEvent) : null;
  if (events && !start) throw new Error('a trace starts with run_start');
  // With the events, the report is always re-scored from them (a stored report may predate an axis), so the page and the CLI agree.
  const report = events ? scoreTrace(events) : (run.report ?? null);
  if (!report) throw new Error('a run needs its events or its score report');
  const s = run.summary;
  const tutorName = start?.tutor.name ?? report.tutor.split('/')[0]!;
  const { harness, model } = llmParts(tutorName, start ? (start.tutor.config ?? {}) : null, report.tutor);
  const axes = Object.fromEntries(AXES.map((a) => [a.id, a.value(report)])) as Record<AxisId, number | null>;
  const unscored: Partial<Record<AxisId, string>> = {};
  for (const a of AXES) if (axes[a.id] === null) unscored[a.id] = unscoredReason(report, a.id);
  const missing = events ? [] : ['events'];
  const horizon = start?.scenario.horizonDays ?? (report.dailySolveRate.length > 0 ? report.dailySolveRate.length - 1 : null);
  const turns = (report.details.leakage as { tutorTurns?: unknown }).tutorTurns;
  const field = isFieldRun(start, report.scenarioId);
  const label = start ? tutorLabel(start.tutor) : report.tutor;
  const persona = start ? (start.scenario.learner.persona.preset ?? start.scenario.learner.persona.name) : (s?.persona ?? null);
  const schedule = start?.scenario.schedule.name ?? s?.schedule ?? null;
  const engine = start?.engine ?? null;
  const participant = start && (start.learner as { kind?: unknown }).kind === 'real' ? String((start.learner as { participant?: unknown }).participant ?? '') : null;
  return {
    digestVersion: DIGEST_VERSION,
    runId: report.runId,
    scenarioId: report.scenarioId,
    tutor: field ? `${label}${FIELD_SUFFIX}` : label,
    field,
    tutorName,
    harness,
    model,
    seed: report.seed,
    voice: start ? (start.voice ?? 'templates') : null,
    tracer: start?.scenario.learner.tracer ?? s?.tracer ?? null,
    persona,
    schedule,
    ability: start?.scenario.learner.ability ?? s?.ability ?? null,
    horizonDays: horizon,
    complete: report.endReason === 'horizon_reached',
    endReason: report.endReason,
    axes,
    unscored,
    panel: report.details.judged?.panel?.id ?? null,
    tutorMessageTurns: typeof turns === 'number' ? turns : null,
    curve: report.curve.map((p) => ({ day: p.day, solveRate: p.solveRate })).sort((a, b) => a.day - b.day),
    ceiling: start ? probeCeiling(start) : null,
    actionsByDay: events ? actionsByDay(events) : null,
    actions: { ...zeroCounts(), ...report.actions },
    help: events ? helpNeglect(events) : null,
    missing,
    warnings: (report.warnings ?? s?.warnings)?.map((w) => w.code) ?? (s ? [] : null),
    engine,
    student: studentKey({ engine, seed: report.seed, persona, schedule, scenarioId: report.scenarioId, field, participant }),
  };
}

/** Digests of the inputs (digests pass through). */
export function digestAll(inputs: readonly AnalysisInput[]): RunDigest[] {
  return inputs.map((x) => (isDigest(x) ? x : digestRun(x)));
}
