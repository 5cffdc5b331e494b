/**
 * The host side of a run, written once: `runRun(record, env, { sink, resume, signals })` builds
 * and drives a run (executeRun's openRun + driveTutor), sends its live events to a **sink** (where
 * a host keeps them), owns the run's one stop signal, and says how the run ended. Every host (the
 * CLI's `run` and `serve-mcp`, sweep tasks, queue workers, the classroom, the page) is this plus its own:
 * where the stored trace comes from, how a stop is asked for, what it does with the outcome.
 *
 *   const r = await runRun(record, env, { sink: new TraceAppender(path, from?.keepBytes ?? 0), resume: from?.stored, signals: [ac.signal] });
 *   if (r.ending !== 'complete') …   // 'partial': resume continues it; 'unchanged': the store holds what it held
 *
 * Order of calls on the sink: `begin(keep, stop)` once, before the run is built; `append(e)` for
 * each live event (never a replayed one: the store has those); `end()` once, after the run ended
 * or threw. A sink whose writes are asynchronous (a database, IndexedDB) calls `stop(cause)` at
 * its first failed write: the run ends "aborted" at its next event, nothing more is spent on it,
 * and `end()` rejects with the failure, which runRun throws as a `SinkFailure` (with the result,
 * when the run had one). A sink whose `append` throws (a full disk) fails the run where it is.
 *
 * Pure: the sinks live with the hosts (adapters/node/trace-file.ts `TraceAppender`, the classroom's
 * store, the page's run store); `MemorySink` is for tests.
 */
import type { TraceEvent, TerminationReason } from '../trace/types';
import { driveTutor, openRun, type DrivenResult, type OpenRun, type RunEnv } from './execute';
import { resumePoint } from './replay';
import type { RunRecord } from './record';
import { SimError } from '../errors';

/** Where a run's events go. */
export interface RunSink {
  /**
   * Once, before the run is built. `keep`: the stored events the resume replays and keeps (0 for a
   * new run); the store drops what lies past them, now or at the first live event (a file waits,
   * so that a resume that records nothing live leaves it as it was). `stop(cause)` ends the run.
   */
  begin(keep: number, stop: (cause: unknown) => void): void | Promise<void>;
  /** Each live event, in order. May buffer; may throw (the run fails there). */
  append(e: TraceEvent): void;
  /** Once, after the run ended or threw: stores what is buffered and lets the store go. Rejects with a failed write. */
  end(): void | Promise<void>;
  /** The sink may call `stop` (its writes are asynchronous): the run is then built with a stop signal even when the host names none. */
  readonly stops?: boolean;
}

/**
 * How a run ended, for its store:
 * - `complete`: it reached its horizon, or its tutor ended it (a person's "end the run here"); resume refuses it.
 * - `partial`: it ended short (stopped, or a failure); its trace ends with run_end and a resume continues it.
 * - `unchanged`: a resumed run stopped while replaying its stored events; the store holds what it held.
 */
export type RunEnding = 'complete' | 'partial' | 'unchanged';

export function runEnding(res: Pick<DrivenResult, 'reason' | 'stoppedInReplay'>): RunEnding {
  if (res.stoppedInReplay) return 'unchanged';
  return res.reason === 'horizon_reached' || res.reason === 'ended_by_tutor' ? 'complete' : 'partial';
}

/**
 * A stop a resume may get past as the run stands: stopped from outside (aborted), the model
 * provider failing, or an agent behind a URL failing. Other failures (a tutor's bug, a tracer's)
 * would happen again.
 */
export function outsideStop(reason: TerminationReason, tutorNeeds: readonly string[]): boolean {
  return reason === 'aborted' || reason === 'llm_error' || (reason === 'tutor_error' && tutorNeeds.includes('http'));
}

export interface RunOutcome extends DrivenResult {
  ending: RunEnding;
  /** Stored events the resume replayed and kept (0 for a new run). */
  keep: number;
}

/** The sink's failure (its `end()` rejected): the run was stopped at it. `result`: the run's, if it ended rather than threw. */
export class SinkFailure extends Error {
  constructor(
    override readonly cause: unknown,
    readonly result: DrivenResult | null,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'SinkFailure';
  }
}

export interface RunnerOptions {
  /** Where the live events go (none: they are only in the result). */
  sink?: RunSink;
  /** The events stored so far: resume the run (resumePoint says which it replays). */
  resume?: readonly TraceEvent[] | null;
  /**
   * Whatever may stop the run (a signal handler, a button, a worker closing): the first aborted
   * ends it "aborted" at its next event. A run with no signal and a sink that never stops it gets
   * no stop signal at all (the session then never yields to the host: a worker thread's run).
   */
  signals?: readonly (AbortSignal | undefined)[];
  /** Every event as it is recorded, replayed ones too (progress, usage). Called before the sink's append. */
  observe?: (e: TraceEvent, replayed: boolean) => void;
  /** Drives the built run to its end (default: driveTutor, for an automated tutor). A person's run is driven by whoever holds its turns. */
  drive?: (run: OpenRun) => Promise<DrivenResult>;
}

/** A run built and under way: its session (to show or hold), and its outcome to come. */
export interface StartedRun {
  run: OpenRun;
  keep: number;
  /** The outcome, once the sink has ended; rejects with a SinkFailure, or with what the run threw. */
  done: Promise<RunOutcome>;
}

/**
 * Begins the sink, builds the run and starts driving it. Rejects (after ending the sink) when the
 * run cannot be built, or has a person's tutor and no `drive`.
 */
export async function startRun(record: RunRecord, env: RunEnv, o: RunnerOptions = {}): Promise<StartedRun> {
  const sink = o.sink ?? null;
  const keep = o.resume ? resumePoint(o.resume).length : 0;
  // The run's one stop: every source the host names, and the sink's failure.
  const ac = new AbortController();
  const stop = () => ac.abort();
  const sources = (o.signals ?? []).filter((s): s is AbortSignal => s !== undefined);
  for (const s of sources) {
    if (s.aborted) ac.abort();
    else s.addEventListener('abort', stop, { once: true });
  }
  const finish = async (res: DrivenResult | null, failure: { e: unknown } | null): Promise<RunOutcome> => {
    for (const s of sources) s.removeEventListener('abort', stop);
    try {
      await sink?.end();
    } catch (e) {
      throw new SinkFailure(e, res);
    }
    if (failure) throw failure.e;
    return { ...res!, ending: runEnding(res!), keep };
  };
  let run: OpenRun;
  try {
    await sink?.begin(keep, stop);
    const observe = o.observe;
    const onEvent = sink && observe ? (e: TraceEvent, replayed: boolean) => (observe(e, replayed), replayed || sink.append(e)) : sink ? (e: TraceEvent, replayed: boolean) => replayed || sink.append(e) : observe;
    const signal = sources.length > 0 || sink?.stops ? ac.signal : undefined;
    run = await openRun(record, env, { ...(signal ? { signal } : {}), ...(onEvent ? { onEvent } : {}), ...(o.resume ? { resume: o.resume } : {}) });
    if (!o.drive && !run.tutor) throw new SimError('TUTOR_NOT_AUTOMATED', `tutor "${run.entry.name}" is played by a person: give the runner a drive that holds its turns`);
  } catch (e) {
    await finish(null, { e }); // ends the sink, then throws (e, or the sink's failure)
    throw e;
  }
  const drive = o.drive ?? ((r: OpenRun) => driveTutor(r.session, r.tutor!));
  const done = (async () => {
    try {
      return await finish(await drive(run), null);
    } catch (e) {
      if (e instanceof SinkFailure) throw e;
      return finish(null, { e });
    }
  })();
  return { run, keep, done };
}

/** Builds, drives and stores a run (or resumes it) to its end; see the file's header. */
export async function runRun(record: RunRecord, env: RunEnv, o: RunnerOptions = {}): Promise<RunOutcome> {
  return (await startRun(record, env, o)).done;
}

/** A sink that keeps the events in memory (tests): `events` is what a store would hold. */
export class MemorySink implements RunSink {
  events: TraceEvent[];
  began = 0;
  ended = 0;
  stop: ((cause: unknown) => void) | null = null;

  constructor(stored: readonly TraceEvent[] = []) {
    this.events = [...stored];
  }

  begin(keep: number, stop: (cause: unknown) => void): void {
    this.began++;
    this.events.length = Math.min(this.events.length, keep);
    this.stop = stop;
  }

  append(e: TraceEvent): void {
    if (e.seq !== this.events.length) throw new Error(`memory sink: event ${e.seq} after ${this.events.length} stored events`);
    this.events.push(e);
  }

  end(): void {
    this.ended++;
  }
}
