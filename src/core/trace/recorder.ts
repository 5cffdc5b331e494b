import type { TraceEvent } from './types';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type NewEvent = DistributiveOmit<TraceEvent, 'seq'>;

/** A resumed run emitted an event that differs from the stored trace at the same seq. */
export class ResumeDivergence extends Error {
  readonly code = 'RESUME_DIVERGED';
  constructor(
    readonly seq: number,
    readonly expected: string,
    readonly got: string,
  ) {
    super(`the resumed run does not replay its stored trace: at event ${seq} the trace has ${clip(expected)} but the replay gave ${clip(got)}`);
    this.name = 'ResumeDivergence';
  }
}

const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…` : s);

/**
 * Appends events with consecutive `seq` numbers and tells listeners (UI progress, stores).
 * With `replay` (a stored trace's events), every event emitted at a seq the stored trace has must
 * equal the stored one exactly (the same JSON text); the first that does not throws
 * ResumeDivergence, and so does every emit after it.
 */
export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  readonly #replay: readonly TraceEvent[];
  #listeners: ((e: TraceEvent) => void)[] = [];
  #diverged: ResumeDivergence | null = null;

  constructor(opts: { replay?: readonly TraceEvent[] } = {}) {
    this.#replay = opts.replay ?? [];
  }

  /** Number of stored events a resumed run replays before it goes live. */
  get replayLength(): number {
    return this.#replay.length;
  }

  get diverged(): ResumeDivergence | null {
    return this.#diverged;
  }

  emit(e: NewEvent): TraceEvent {
    if (this.#diverged) throw this.#diverged;
    const ev = { seq: this.events.length, ...e } as TraceEvent;
    if (ev.seq < this.#replay.length) {
      const want = JSON.stringify(this.#replay[ev.seq]);
      const got = JSON.stringify(ev);
      if (want !== got) throw (this.#diverged = new ResumeDivergence(ev.seq, want, got));
    }
    this.events.push(ev);
    for (const l of this.#listeners) l(ev);
    return ev;
  }

  subscribe(listener: (e: TraceEvent) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }
}

/** Rounds a probability for the trace (6 decimals) so traces stay short and stable. */
export const roundP = (p: number): number => Math.round(p * 1e6) / 1e6;
