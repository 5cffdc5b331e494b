/**
 * The page's run sink (core/engine/runner.ts): a run's live events go to the run store
 * (IndexedDB) in batches, so a reload loses at most a batch, which a resume replays. A resume
 * first cuts the stored events back to what it replays. The first failed write (a full storage)
 * stops the run: nothing more is written or spent, and `end()` rejects with the failure.
 */
import type { RunSink, TraceEvent } from '../../core/index';
import type { RunStore } from './run-store';

/** Events are written in batches of this many (and at each day's start), so a reload loses at most a batch, which a resume replays. */
export const FLUSH_EVERY = 100;

export interface IdbRunSinkOptions {
  /** The run resumes the events stored under its key (they are cut back to its resume point first). */
  resuming: boolean;
  /** Events written at once, with what is buffered before them (a person's actions: their turn may stay open for minutes). */
  flushAt?: (e: TraceEvent) => boolean;
  /** After the cut, before the run is built (the run's record is marked running). */
  begun?: () => Promise<void>;
}

export class IdbRunSink implements RunSink {
  readonly stops = true;
  /** Events stored for this run (seq below this), so its record never claims more than storage holds. */
  storedTo = 0;
  /** Stored events the resume kept (0 for a new run); known once the sink has begun. */
  kept = 0;
  /** The cut and `begun` are done (a run whose sink could not begin changed nothing and never started). */
  began = false;
  /** The first failed write; the run was stopped at it. */
  writeError: unknown = null;
  readonly #store: RunStore;
  readonly #key: string;
  readonly #o: IdbRunSinkOptions;
  #buffer: TraceEvent[] = [];
  #writes: Promise<void> = Promise.resolve();
  #stop: (cause: unknown) => void = () => {};

  constructor(store: RunStore, key: string, o: IdbRunSinkOptions) {
    this.#store = store;
    this.#key = key;
    this.#o = o;
  }

  async begin(keep: number, stop: (cause: unknown) => void): Promise<void> {
    this.#stop = stop;
    this.kept = keep;
    this.storedTo = keep;
    if (this.#o.resuming) await this.#store.truncateEvents(this.#key, keep);
    await this.#o.begun?.();
    this.began = true;
  }

  append(e: TraceEvent): void {
    this.#buffer.push(e);
    if (this.#o.flushAt?.(e) || this.#buffer.length >= FLUSH_EVERY || (e.type === 'lms_event' && e.kind === 'day_start')) this.flush();
  }

  /** Writes what is buffered (after the writes before it). */
  flush(): void {
    const batch = this.#buffer.splice(0);
    // After the first failed write nothing more is written (or spent): the run is being stopped.
    if (batch.length === 0 || this.writeError) return;
    this.#writes = this.#writes
      .then(async () => {
        if (this.writeError) return;
        await this.#store.appendEvents(this.#key, batch);
        this.storedTo = batch[batch.length - 1]!.seq + 1;
      })
      .catch((e: unknown) => {
        // Nothing more is spent on a run that can no longer be stored: it stops at once.
        this.writeError ??= e;
        this.#stop(e);
      });
  }

  /** Resolves once every event appended so far is stored; rejects with the first failed write. */
  async persist(): Promise<void> {
    this.flush();
    await this.#writes;
    if (this.writeError) throw this.writeError;
  }

  end(): Promise<void> {
    return this.persist();
  }
}
