/**
 * The no-tutor control of a run in the page: the silent tutor on exactly the run's student and
 * conditions (core/engine/control.ts), found among the stored runs by the key the CLI's control
 * cache hashes (`controlKeyText`), so each student's control runs once and is reused by every run
 * of that student, and by a re-opened run. Pure: the Lab (lab.svelte.ts) starts the control
 * through the run library like any other run and shows what these functions say.
 * Definitions: docs/analyses.md ("Value added over no tutor").
 */
import { CONTROL_TUTOR, ENGINE_VERSION, controlKeyText, recordFromTrace, withControl, errorMessage, type RunRecord, type ScoreReport, type TraceEvent, type VoiceSpec } from '../../core/index';
import type { StoredRun } from '../../adapters/browser/run-store';

/** What the page can do about a run's control. */
export type ControlPlan =
  /** The run is itself the no-tutor control. */
  | { kind: 'self' }
  /** No control can be run for it: the reason, said as it is (never a default number). */
  | { kind: 'unscored'; reason: string }
  /** The stored control (done), reused. */
  | { kind: 'found'; control: StoredRun }
  /** The control is running in this tab. */
  | { kind: 'running'; key: string }
  /**
   * Not run yet: the record to run. `ask` is set when running it costs something (an LLM student
   * voice): the page then waits for a click instead of starting it on its own.
   */
  | { kind: 'needed'; key: string; record: RunRecord; ask: string | null; failed: string | null };

/** What the plan reads of the page. */
export interface ControlContext {
  /** The stored runs (newest first, as the run library lists them). */
  runs: readonly StoredRun[];
  /** True when a stored run is live in this tab. */
  isLive: (key: string) => boolean;
  /** Controls started from this page that may not be listed yet: control key → storage key. */
  started: ReadonlyMap<string, string>;
  /** Null when a student voice can be run here; else why not (e.g. no such provider in LLM settings). */
  voiceProblem: (voice: VoiceSpec) => string | null;
}

/** The record a stored run was run from: its own, or its trace's run_start (imported runs). */
export function runRecordOf(run: StoredRun, events: readonly TraceEvent[]): RunRecord {
  return run.record ?? recordFromTrace(events, run.key);
}

/** The cache key of a record's control (the text the CLI hashes for its control cache file). */
export const controlKey = (r: RunRecord): string => controlKeyText(r);

/**
 * What can be done about the control of a finished run, given its trace (`events`, at least its
 * run_start and run_end): itself the control, unscored with the reason, found, running, or needed.
 */
export function planControl(run: StoredRun, events: readonly TraceEvent[], ctx: ControlContext): ControlPlan {
  const start = events[0];
  if (!start || start.type !== 'run_start') return { kind: 'unscored', reason: 'the run has no trace to read (no run_start)' };
  if (start.tutor.name === CONTROL_TUTOR) return { kind: 'self' };
  if ((start.learner as { kind?: unknown }).kind === 'real') return { kind: 'unscored', reason: 'a field run (a real student) has no simulated no-tutor control' };
  if (start.engine !== ENGINE_VERSION) return { kind: 'unscored', reason: `the run was written by engine ${start.engine}; this page runs ${ENGINE_VERSION}, so its no-tutor control would be another student` };
  const end = events.at(-1);
  if (!end || end.type !== 'run_end' || (end.reason !== 'horizon_reached' && end.reason !== 'ended_by_tutor')) return { kind: 'unscored', reason: `the run did not finish (${end?.type === 'run_end' ? end.reason : 'no run_end'}): value added is measured on a finished run` };
  let record: RunRecord;
  try {
    record = runRecordOf(run, events);
  } catch (e) {
    return { kind: 'unscored', reason: `its run record cannot be read: ${errorMessage(e)}` };
  }
  const key = controlKey(record);
  // The newest stored silent run on exactly this student and conditions, on this engine.
  let failed: string | null = null;
  for (const r of ctx.runs) {
    if (r.record?.tutor.name !== CONTROL_TUTOR || r.seed !== start.scenario.seed || (r.digest?.engine ?? ENGINE_VERSION) !== ENGINE_VERSION) continue;
    if (controlKey(r.record) !== key) continue;
    // Live in this tab, or running in another tab of this browser: it is on its way.
    if (ctx.isLive(r.key) || r.status === 'running') return { kind: 'running', key: r.key };
    if (r.status === 'done' && r.endReason === 'horizon_reached') return { kind: 'found', control: r };
    failed ??= `the no-tutor control run ${r.runId} ${r.status === 'failed' ? `failed (${r.error ?? r.endReason ?? 'no reason stored'})` : `is ${r.status}`}`;
  }
  const startedKey = ctx.started.get(key);
  if (startedKey !== undefined && ctx.isLive(startedKey)) return { kind: 'running', key: startedKey };
  const voiceProblem = ctx.voiceProblem(record.voice);
  if (voiceProblem) return { kind: 'unscored', reason: `its no-tutor control needs the run's student voice: ${voiceProblem}` };
  const ask = record.voice.kind === 'llm' ? `the control uses the run's LLM student voice (${record.voice.model} at ${record.voice.provider}): its calls cost what a run's student calls cost` : null;
  return { kind: 'needed', key, record, ask, failed };
}

/** The control's report as value added reads it (its stored report; a digest's curve when the report was not stored). */
function controlScored(c: StoredRun): { runId: string; learningGain: number | null; curve: readonly { day: number; solveRate: number }[] } | null {
  if (c.report) return c.report;
  if (c.digest) return { runId: c.runId, learningGain: c.digest.axes.learningGain ?? null, curve: c.digest.curve };
  return null;
}

/** The run's report with its value added over the control as far as the plan goes (the axis table shows it). */
export function reportWithControl(report: ScoreReport, plan: ControlPlan, progress: string | null = null): ScoreReport {
  const unscored = (reason: string): ScoreReport => ({ ...report, valueAdded: { value: null, controlRunId: null, controlGain: null, through: null, reason } });
  switch (plan.kind) {
    case 'self':
      return report;
    case 'unscored':
      return unscored(plan.reason);
    case 'running':
      return unscored(`the no-tutor control is running${progress ? ` (${progress})` : ''}`);
    case 'needed':
      return unscored(plan.failed ?? (plan.ask ? `the no-tutor control has not been run: ${plan.ask}` : 'the no-tutor control has not been run yet'));
    case 'found': {
      const c = controlScored(plan.control);
      return c ? withControl(report, c) : unscored(`the no-tutor control run ${plan.control.runId} has no stored score; open it once to score it`);
    }
  }
}

/** A gain per day as the axis table writes it: signed percentage points a day. */
export const ppDay = (v: number): string => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(2)} pp/day`;

/** The line the Lab shows beside the axis table, and its tone. */
export interface ValueAddedLine {
  tone: 'good' | 'bad' | 'neutral' | 'muted';
  text: string;
  /** Where the number comes from (the control run, or what happens next). */
  detail: string;
}

/** The value-added line of a run: the number with both gains and its direction, or why there is none. */
export function valueAddedLine(report: ScoreReport, plan: ControlPlan, opts: { progress?: string | null; starting?: boolean } = {}): ValueAddedLine {
  const progress = opts.progress ?? null;
  const shown = reportWithControl(report, plan, progress);
  const v = shown.valueAdded;
  if (plan.kind === 'self') {
    return {
      tone: 'neutral',
      text: `This run is the no-tutor control (the ${CONTROL_TUTOR} tutor): its value added is 0 by definition.`,
      detail: `Its learning gain${report.learningGain === null ? ' is unscored' : `, ${ppDay(report.learningGain)},`} is what this student learns with nobody tutoring; other tutors' value added on this student is measured against it.`,
    };
  }
  if (plan.kind === 'running') return { tone: 'muted', text: `Value added over no tutor: running the same student with no tutor${progress ? ` (${progress})` : ''}…`, detail: 'The control runs once per student and is stored in the run library; every run of this student reuses it.' };
  if (plan.kind === 'needed' && !plan.failed && !plan.ask) {
    if (opts.starting) return { tone: 'muted', text: 'Value added over no tutor: starting the same student with no tutor…', detail: 'The control runs once per student and is stored in the run library.' };
    return { tone: 'muted', text: 'Value added over no tutor: unscored: the same student has not been run with no tutor yet.', detail: `"Run the no-tutor control" runs it once (the ${CONTROL_TUTOR} tutor on the same scenario, schedule, seed, learner model and student voice), stores it in the run library and reuses it for every run of this student. Higher is better once it is scored.` };
  }
  if (!v || v.value === null) return { tone: 'muted', text: `Value added over no tutor: unscored: ${v?.reason ?? 'no control'}.`, detail: plan.kind === 'needed' ? 'Higher is better once it is scored: what the tutor added to what the same student learns with nobody tutoring.' : 'Value added needs the same student run with no tutor; it is never given a default number.' };
  const control = plan.kind === 'found' ? plan.control : null;
  return {
    tone: v.value > 0 ? 'good' : v.value < 0 ? 'bad' : 'neutral',
    text: `Value added over no tutor: ${ppDay(v.value)} (this run ${ppDay(report.learningGain!)}, the same student with no tutor ${ppDay(v.controlGain!)}, through day ${v.through}). Higher is better.`,
    detail: `The no-tutor control is the stored run ${control?.runId ?? v.controlRunId}: the ${CONTROL_TUTOR} tutor on the same scenario, schedule, seed, learner model and student voice, stored in the run library and reused by every run of this student. ${v.value > 0 ? 'The student learned faster with this tutor than alone.' : v.value < 0 ? 'The student learned more slowly with this tutor than alone on this draw.' : 'The student learned as fast as alone.'} One run is one draw.`,
  };
}
