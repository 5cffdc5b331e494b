/**
 * How the page keeps a run while it runs (RunLibrary's start and resume go through `executeStoredRun`):
 * the engine's run runner (core/engine/runner.ts) with the IndexedDB sink (adapters/browser/run-sink.ts),
 * the live run's progress, and the stored record's last word on how the run ended: done, failed,
 * interrupted (stopped while replaying), or stopped at a failed write (a full storage), with the
 * events storage holds.
 */
import { PlayDriver, SinkFailure, digestRun, runRun, scoreTrace, summarizeRun, type DrivenResult, type OpenRun, type RunEnv, type RunOutcome, type RunRecord, type TraceEvent } from '../../core/index';
import { IdbRunSink } from '../../adapters/browser/run-sink';
import { isQuotaError, storageErrorText, type RunStore, type StoredRun } from '../../adapters/browser/run-store';
import { PlayRun, type LiveRun } from './live-run.svelte';

/** A person's actions: stored at once, for their turn may stay open for minutes. */
const personal = (e: TraceEvent): boolean => e.type === 'wake' || e.type === 'tool_call' || e.type === 'turn_end' || (e.type === 'lms_event' && e.kind === 'instructor_view');

export interface StoredRunJob {
  store: RunStore;
  /** The run's stored record (updated in place with how the run ended). */
  rec: StoredRun;
  record: RunRecord;
  /** The stored events of a run being resumed (null: a new run). */
  stored: readonly TraceEvent[] | null;
  live: LiveRun;
  env: RunEnv;
  /** The events are cut back and the record is stored as running: the run is listed. */
  listed: () => void;
}

/** Runs (or resumes) a stored run to its end; `rec` then says how it ended, and is stored. */
export async function executeStoredRun(j: StoredRunJob): Promise<StoredRun> {
  const { rec, live, stored } = j;
  const sink = new IdbRunSink(j.store, rec.key, {
    resuming: stored !== null,
    ...(live instanceof PlayRun ? { flushAt: personal } : {}),
    begun: async () => {
      await j.store.putRun(rec);
      j.listed();
    },
  });
  if (live instanceof PlayRun) live.persist = () => sink.persist();
  let seen = 0;
  try {
    const out = await runRun(j.record, j.env, {
      sink,
      resume: stored,
      signals: [live.abort.signal],
      observe: (e, replayed) => {
        seen = e.seq + 1;
        if (live.state === 'loading') {
          live.state = 'running';
          live.progressText = stored ? `Replaying ${sink.kept} stored events…` : 'Running…';
        }
        live.see(e);
        if (replayed) live.replayed = e.seq + 1;
      },
      ...(live instanceof PlayRun ? { drive: playDrive(live) } : {}),
    });
    settleEnded(rec, live, out, stored, j.record.source);
  } catch (e) {
    // The store could not be made ready (cut back, record marked running): the run never started.
    if (!sink.began) throw e;
    settleFailed(rec, live, e, { stored, kept: sink.kept, storedTo: sink.storedTo, seen });
  }
  await saveRecord(j.store, rec, live);
  return rec;
}

/** A person holds the turns of a played run (the Play view): it ends when they end it, or it fails. */
function playDrive(live: PlayRun) {
  return async (run: OpenRun): Promise<DrivenResult> => {
    await live.attach(new PlayDriver(run.session), run.replay);
    await live.ended;
    if (live.failure) throw live.failure;
    return run.session.result();
  };
}

/** The run ended (every event stored): its record and live state say how. */
function settleEnded(rec: StoredRun, live: LiveRun, out: RunOutcome, stored: readonly TraceEvent[] | null, source: string): void {
  if (out.ending === 'unchanged' && stored) {
    // Stopped before it caught up with what was stored: the stored trace is unchanged.
    rec.events = out.keep;
    rec.endReason = null;
    rec.report = scoreTrace(stored.slice(0, out.keep));
    rec.status = 'interrupted';
    rec.error = `stopped while replaying its stored events (${out.reason}: ${out.message ?? ''}); the stored trace is unchanged, and Resume continues it`;
    live.progress = 0;
    live.state = 'stopped';
    live.progressText = `Stopped: ${out.reason}`;
    return;
  }
  rec.events = out.events.length;
  rec.endReason = out.reason;
  rec.report = scoreTrace(out.events);
  rec.digest = digestRun({ events: out.events });
  // A run its tutor ended (a person's "end the run here") is complete on the days played.
  const finished = out.ending === 'complete';
  rec.status = finished ? 'done' : 'failed';
  rec.error = finished ? null : `${out.reason}: ${out.message ?? ''}`;
  if (rec.benchmark) rec.benchmark = { ...rec.benchmark, run: summarizeRun(out.events, source) };
  live.progress = 1;
  live.state = finished ? 'done' : 'stopped';
  const last = out.events.at(-1);
  live.progressText = out.reason === 'horizon_reached' ? 'Done' : finished ? `Ended by the tutor after ${last?.type === 'run_end' ? last.days : '?'} days` : `Stopped: ${out.reason}`;
}

/** The run threw, or its events could not all be stored: the record says what storage holds, and why. */
function settleFailed(rec: StoredRun, live: LiveRun, e: unknown, at: { stored: readonly TraceEvent[] | null; kept: number; storedTo: number; seen: number }): void {
  rec.status = 'failed';
  live.state = 'failed';
  if (!(e instanceof SinkFailure)) {
    rec.events = at.seen;
    rec.error = storageErrorText(e);
    live.error = `The run failed: ${rec.error}. The events recorded so far are kept.`;
    live.progressText = 'Failed';
    return;
  }
  // The first failed write stopped the run.
  const { storedTo, seen } = at;
  const full = isQuotaError(e.cause);
  const text = storageErrorText(e.cause);
  rec.endReason = full ? 'storage_full' : 'internal_error';
  rec.events = storedTo;
  const kept = [...(at.stored ?? []).slice(0, at.kept), ...(e.result?.events ?? []).slice(at.kept, storedTo)];
  rec.report = kept.length === storedTo && storedTo > 0 ? scoreTrace(kept) : null;
  delete rec.digest;
  rec.error = full
    ? `storage_full: this site's storage is full (${text}); the run was stopped at its first failed write, with ${storedTo} of ${seen} events stored. Delete runs to free space, then Resume continues it.`
    : `the run's events could not be stored (${text}); it was stopped at the first failed write, with ${storedTo} of ${seen} events stored`;
  live.progressText = full ? 'Stopped: storage_full' : 'Failed';
  live.error = `The run could not be stored and was stopped: ${rec.error}`;
}

/** Stores the run's record; a full storage may refuse it with its report, so the smallest record that says how the run ended is tried next. */
async function saveRecord(store: RunStore, rec: StoredRun, live: LiveRun): Promise<void> {
  try {
    await store.putRun(rec);
  } catch (e) {
    const slim: StoredRun = { ...rec, report: null };
    delete slim.digest;
    try {
      await store.putRun(slim);
      Object.assign(rec, { report: null });
      delete rec.digest;
      live.error = `${live.error ? `${live.error} ` : ''}The run's score report could not be stored (${storageErrorText(e)}); it is computed again when the run is opened.`;
    } catch (e2) {
      live.error = `${live.error ? `${live.error} ` : ''}Could not save the run's record (${storageErrorText(e2)}); after a reload it shows as interrupted, with the events stored so far.`;
    }
  }
}
