/**
 * A sweep from files: loads and validates every scenario first (all problems reported together,
 * with file, field and line), plans tutor × scenario × seed run records, runs them, and optionally
 * writes <out>/traces/<runId>.jsonl (appended as each run goes), <out>/summary.json and
 * <out>/summary.txt. summary.json and summary.txt depend only on the inputs (no wall-clock times);
 * timings go to <out>/timing.json.
 *
 * Two kinds of runs, run side by side: CPU-bound runs (a built-in tutor with the template voice)
 * go to worker threads (`threads`, pool.ts); runs that wait on a model (an LLM tutor or the LLM
 * voice) run as async runs in this process (`concurrency` at once, async-runs.ts), sharing one
 * concurrency limit and request pacing per provider.
 *
 * Jobs are handed out longest first (core/sweep/cost.ts: the expected number of graded answers),
 * so the sweep's last minutes are not one slow run alone; results come back in the plan's order.
 *
 * With `resume`, a job whose trace is complete (it reached its horizon) is not run again (its
 * summary is read from the trace), a partial trace is resumed, and a missing one is run; a trace
 * that another sweep wrote (other options, an edited scenario, another engine) is refused, naming
 * what differs.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ENGINE_VERSION, ScenarioError, longestFirst, TUTORS, effectiveScenario, errorMessage, formatSweepSummary, planSweep, summarizeRun, summarizeSweep, tutorEntryIn, tutorLabel, type EventOf, type RunRecord, type RunSummary, type Scenario, type SweepBase, type SweepJob, type SweepSummary, type VoiceSpec, voiceLabel } from '../../../core/index';
import { loadScenarioFile, writeFileAtomic } from '../files';
import { readStoredTrace } from '../trace-file';
import { runJobs, type JobResult } from './pool';
import { runAsyncJobs } from './async-runs';

/** A tutor of a sweep: a registered name and its config (an LLM tutor: harness, model, provider). */
export interface SweepTutor {
  name: string;
  config: Record<string, unknown>;
}

/** Default number of async runs at once (runs that wait on a model). */
export const DEFAULT_LLM_CONCURRENCY = 8;

export interface NodeSweepOptions {
  files: readonly string[];
  /** The voice and overrides every run shares, and the tutor when `tutors` is not given. */
  base: Omit<SweepBase, 'tutor'> & Partial<Pick<SweepBase, 'tutor'>>;
  /** Several tutors: every tutor × scenario × seed (tutor-major). Default: [base.tutor]. */
  tutors?: readonly SweepTutor[];
  /**
   * Several student voices (e.g. one LLM student per model): every tutor × voice × scenario × seed,
   * and the summary reports each tutor once per voice ("<tutor> · <voice>"). Default: [base.voice].
   */
  voices?: readonly VoiceSpec[];
  /** null: each scenario's own seed. */
  seeds: readonly number[] | null;
  /** Worker threads for CPU-bound runs (built-in tutors with the template voice). */
  threads: number;
  /** Async runs at once for runs that wait on a model (default DEFAULT_LLM_CONCURRENCY). */
  concurrency?: number;
  /** Output directory; null writes nothing (summaries only). */
  outDir: string | null;
  /** Keep complete traces in outDir, resume partial ones, run missing ones. */
  resume?: boolean;
  llmConfig?: string[];
  signal?: AbortSignal;
  onResult?: (r: JobResult, done: number, total: number) => void;
  /** The pool's worker module (PoolOptions.workerFile): for tests and custom workers. */
  workerFile?: string | URL;
  /**
   * The order jobs are handed out in: 'longest-first' (the default: by estimateRunCost, largest
   * first, so the sweep does not end on its slowest runs) or 'file' (the plan's order). Results,
   * traces and summaries are the same either way, and in the plan's order.
   */
  dispatch?: 'longest-first' | 'file';
}

export interface NodeSweepResult {
  jobs: SweepJob[];
  results: JobResult[];
  runs: RunSummary[];
  summary: SweepSummary;
  wallMs: number;
}

export function loadScenarios(files: readonly string[]): { scenario: Scenario; source: string }[] {
  const out: { scenario: Scenario; source: string }[] = [];
  const problems: string[] = [];
  for (const f of files) {
    try {
      out.push({ scenario: loadScenarioFile(f), source: relative(process.cwd(), f) || f });
    } catch (e) {
      problems.push(e instanceof ScenarioError ? e.message : `${f}: ${(e as Error).message}`);
    }
  }
  if (problems.length) throw new Error(`${problems.length} scenario file${problems.length === 1 ? '' : 's'} invalid; nothing was run:\n${problems.join('\n')}`);
  return out;
}

/** Where `have` (a trace) and `want` (this sweep) differ, one "path: … in the trace, … in this sweep" each, key order ignored; at most `max`. */
function differences(have: unknown, want: unknown, path: string, out: string[], max = 3): string[] {
  if (out.length >= max) return out;
  if (have !== null && want !== null && typeof have === 'object' && typeof want === 'object' && Array.isArray(have) === Array.isArray(want)) {
    const h = have as Record<string, unknown>;
    const w = want as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(h), ...Object.keys(w)])]) differences(h[k], w[k], path ? `${path}.${k}` : k, out, max);
  } else if (JSON.stringify(have) !== JSON.stringify(want)) {
    const show = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v).slice(0, 60));
    out.push(`${path || 'run_start'}: ${show(have)} in the trace, ${show(want)} in this sweep`);
  }
  return out;
}

/** What in a stored run_start differs from the run this sweep would start for `record` (empty: the same run). */
export function startMismatch(start: EventOf<'run_start'>, record: RunRecord): string[] {
  const want = {
    engine: ENGINE_VERSION,
    scenario: effectiveScenario(record),
    tutor: { name: record.tutor.name, config: tutorEntryIn(TUTORS, record.tutor.name).parseConfig(record.tutor.config) },
    voice: record.voice.kind === 'llm' ? `llm:${record.voice.provider}/${record.voice.model}` : undefined,
  };
  const have = { engine: start.engine, scenario: start.scenario, tutor: start.tutor, voice: start.voice };
  return differences(have, want, '', []);
}

/**
 * What sweep --resume finds for a job: a complete trace (its summary), a partial one (resume), or
 * nothing. A trace that another sweep wrote (other options, an edited scenario, another engine
 * version) is refused: keeping it would mix runs, and resuming it would diverge at once.
 */
function stored(path: string, job: SweepJob): { complete: RunSummary } | { partial: true } | null {
  if (!existsSync(path)) return null;
  let events;
  try {
    events = readStoredTrace(path).events;
  } catch (e) {
    throw new Error(`sweep --resume: ${errorMessage(e)}; move the file away to run ${job.runId} afresh`);
  }
  if (events.length === 0) return null; // stopped while writing its first line: run it afresh
  const diff = startMismatch(events[0] as EventOf<'run_start'>, job.record);
  if (diff.length) throw new Error(`sweep --resume: ${path} was written by a different sweep (${diff.join('; ')}); resume with the options of the sweep that wrote it, or use another --out`);
  const end = events.find((e) => e.type === 'run_end');
  if (end?.type === 'run_end' && end.reason === 'horizon_reached') return { complete: summarizeRun(events, job.record.source) };
  return { partial: true };
}

/** A run waits on a model (an LLM tutor or the LLM voice) or an external agent (the http tutor): it runs as an async run, not in a thread. */
export const needsModelClient = (record: { tutor: { name: string }; voice: RunRecord['voice'] }): boolean => record.voice.kind === 'llm' || tutorEntryIn(TUTORS, record.tutor.name).needs.some((n) => n === 'llm' || n === 'http');

/** The label RunSummary.tutor gives a tutor ("planner", "llm/reactive/gpt-4.1-mini"): its config as a trace records it. */
const labelOf = (t: SweepTutor): string => tutorLabel({ name: t.name, config: tutorEntryIn(TUTORS, t.name).parseConfig(t.config) });

/**
 * Every tutor × scenario × seed (tutor-major), indexed in that order. Identical tutors count once;
 * run ids must differ (they are file names: compared ignoring case).
 */
export function planTutorSweep(scenarios: readonly { scenario: Scenario; source: string }[], base: NodeSweepOptions['base'], tutors: readonly SweepTutor[], seeds: readonly number[] | null, voices?: readonly VoiceSpec[]): SweepJob[] {
  const seen = new Set<string>();
  const distinct = tutors.filter((t) => {
    const k = JSON.stringify([t.name, tutorEntryIn(TUTORS, t.name).parseConfig(t.config)]);
    return seen.has(k) ? false : (seen.add(k), true);
  });
  const vs = voices?.length ? voices : [base.voice ?? { kind: 'templates' as const }];
  const jobs = distinct.flatMap((tutor) => vs.flatMap((voice) => planSweep(scenarios, { ...base, tutor, voice }, seeds))).map((j, index) => ({ ...j, index }));
  const ids = new Map<string, SweepJob>();
  for (const j of jobs) {
    const prev = ids.get(j.runId.toLowerCase());
    if (prev) throw new Error(`two runs of this sweep would have the run id ${j.runId} (tutors ${labelOf(prev.record.tutor)} and ${labelOf(j.record.tutor)}): their trace files would collide; give models whose names differ in more than case and punctuation`);
    ids.set(j.runId.toLowerCase(), j);
  }
  return jobs;
}

/**
 * The summary of a sweep's results, and (with outDir) summary.json and summary.txt: shared by the
 * local sweep and the queue-backed one (adapters/node/queue), so both write the same files.
 */
export function sweepSummaryOutputs(o: { tutors: readonly SweepTutor[]; voices?: readonly VoiceSpec[]; seeds: readonly number[] | null; jobs: readonly SweepJob[]; results: readonly JobResult[]; outDir: string | null }): { runs: RunSummary[]; summary: SweepSummary } {
  const { tutors, jobs, results } = o;
  const byVoice = (o.voices?.length ?? 0) > 1;
  const summaryLabel = (record: RunRecord): string => (byVoice ? `${labelOf(record.tutor)} · ${voiceLabel(record.voice)}` : labelOf(record.tutor));
  // Several voices: the summary reports each tutor once per voice (results by student model).
  const runs = results.flatMap((r) => (r.summary ? [byVoice ? { ...r.summary, tutor: summaryLabel(r.job.record) } : r.summary] : []));
  const labels = byVoice ? jobs.map((j) => summaryLabel(j.record)) : tutors.map(labelOf);
  const summary = summarizeSweep(runs, { tutors: [...new Set(labels)], unfinished: results.filter((r) => !r.summary).map((r) => ({ runId: r.job.runId, tutor: summaryLabel(r.job.record) })) });
  if (o.outDir) {
    const errors = results.filter((r) => r.error).map((r) => ({ runId: r.job.runId, error: r.error }));
    const given = [...new Map(tutors.map((t) => [JSON.stringify([t.name, tutorEntryIn(TUTORS, t.name).parseConfig(t.config)]), { name: t.name, config: t.config }])).values()];
    writeFileAtomic(join(o.outDir, 'summary.json'), JSON.stringify({ ...(given.length === 1 ? { tutor: given[0] } : {}), tutors: given, ...(byVoice ? { voices: o.voices!.map(voiceLabel) } : {}), seeds: o.seeds, scenarios: [...new Set(jobs.map((j) => j.record.source))], summary, runs, errors }, null, 2) + '\n');
    writeFileAtomic(join(o.outDir, 'summary.txt'), formatSweepSummary(summary) + '\n');
  }
  return { runs, summary };
}

export async function runNodeSweep(o: NodeSweepOptions): Promise<NodeSweepResult> {
  if (o.resume && !o.outDir) throw new Error('sweep --resume needs the output directory of the sweep to resume (--out)');
  const tutors = o.tutors ?? (o.base.tutor ? [{ name: o.base.tutor.name, config: o.base.tutor.config ?? {} }] : []);
  if (tutors.length === 0) throw new Error('a sweep needs a tutor');
  const jobs = planTutorSweep(loadScenarios(o.files), o.base, tutors, o.seeds, o.voices);
  const traceDir = o.outDir ? join(o.outDir, 'traces') : null;
  if (traceDir) mkdirSync(traceDir, { recursive: true });
  const t0 = performance.now();
  const skipped: JobResult[] = [];
  const resume = new Set<number>();
  const todo: SweepJob[] = [];
  for (const job of jobs) {
    const s = o.resume && traceDir ? stored(join(traceDir, `${job.runId}.jsonl`), job) : null;
    if (s && 'complete' in s) skipped.push({ job, summary: s.complete, error: null, ms: 0, replayed: 0, skipped: true });
    else {
      if (s) resume.add(job.index);
      todo.push(job);
    }
  }
  let done = 0;
  for (const r of skipped) o.onResult?.(r, ++done, jobs.length);
  const onResult = (r: JobResult) => o.onResult?.(r, ++done, jobs.length);
  const common = { traceDir, resume, ...(o.llmConfig ? { llmConfig: o.llmConfig } : {}), ...(o.signal ? { signal: o.signal } : {}), onResult };
  const concurrency = Math.max(1, o.concurrency ?? DEFAULT_LLM_CONCURRENCY);
  if (o.dispatch !== 'file') todo.splice(0, todo.length, ...longestFirst(todo));
  const [inThreads, inAsync] = await Promise.all([
    runJobs(todo.filter((j) => !needsModelClient(j.record)), { ...common, threads: o.threads, ...(o.workerFile ? { workerFile: o.workerFile } : {}) }),
    runAsyncJobs(todo.filter((j) => needsModelClient(j.record)), { ...common, concurrency }),
  ]);
  const wallMs = performance.now() - t0;
  const results = [...skipped, ...inThreads, ...inAsync].sort((a, b) => a.job.index - b.job.index);
  const { runs, summary } = sweepSummaryOutputs({ tutors, ...(o.voices ? { voices: o.voices } : {}), seeds: o.seeds, jobs, results, outDir: o.outDir });
  if (o.outDir) {
    const asyncIds = new Set(inAsync.map((r) => r.job.index));
    writeFileAtomic(join(o.outDir, 'timing.json'), JSON.stringify({ threads: o.threads, concurrency, wallMs: Math.round(wallMs), runs: results.map((r) => ({ runId: r.job.runId, ms: Math.round(r.ms), ...(asyncIds.has(r.job.index) ? { async: true } : {}), ...(r.skipped ? { skipped: true } : {}), ...(r.replayed ? { replayed: r.replayed } : {}) })) }, null, 2) + '\n');
  }
  return { jobs, results, runs, summary, wallMs };
}
