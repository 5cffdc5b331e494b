import type { TraceEvent } from './types';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type NewEvent = DistributiveOmit<TraceEvent, 'seq'>;

/** Appends events with consecutive `seq` numbers and tells listeners (UI progress, stores). */
export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  #listeners: ((e: TraceEvent) => void)[] = [];

  emit(e: NewEvent): TraceEvent {
    const ev = { seq: this.events.length, ...e } as TraceEvent;
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
