/**
 * The learner's history between the page and its tracer worker, sent as the rows added since the
 * last call instead of whole. A call to the worker structured-clones its arguments on both sides,
 * and a history of a few hundred rows costs about 0.5 µs a row each way (measured in Node's V8:
 * 144 µs to clone 300 rows, 279 µs for 600): more than the model's step after an answer, twice an
 * answer. A run's history only grows (the learner pushes rows and never changes one), so the page
 * keeps the rows the worker holds and sends the ones after their longest common prefix.
 *
 * The prefix is found by object identity: a row the worker holds is the very row object the page
 * sent. Another history (the next run, or two runs sharing a worker) shares no rows and is sent
 * whole; the worker always rebuilds exactly the page's history, so the numbers cannot differ.
 */
import { SimError, type Interaction } from '../../core/index';

/** The page's side: which rows of the last history the worker holds. */
export class HistorySender {
  #held: Interaction[] = [];

  /**
   * What to send for `history`: the rows from `base` on (the worker keeps its first `base` rows).
   * Call in the order the calls reach the worker (the worker applies them in that order).
   */
  delta(history: readonly Interaction[]): { base: number; rows: Interaction[] } {
    const n = Math.min(this.#held.length, history.length);
    let base = 0;
    while (base < n && this.#held[base] === history[base]) base++;
    const rows = history.slice(base);
    if (base < this.#held.length) this.#held.length = base;
    for (const r of rows) this.#held.push(r);
    return { base, rows };
  }

  /** After a failed call (the worker may or may not have applied it): the next one sends the whole history. */
  reset(): void {
    this.#held = [];
  }
}

/** The worker's side: the history the page has sent, rebuilt. */
export class HistoryReceiver {
  #held: readonly Interaction[] = [];

  /**
   * The history after the page's delta. A new array each time it changes, so a prediction still
   * reading the previous one never sees it change.
   */
  apply(base: number, rows: readonly Interaction[]): readonly Interaction[] {
    if (!Number.isInteger(base) || base < 0 || base > this.#held.length)
      throw new SimError('TRACER_FAILED', `history sent from row ${base}, but this worker holds ${this.#held.length} rows (the page and the tracer worker are out of step)`);
    if (base === this.#held.length && rows.length === 0) return this.#held;
    this.#held = [...this.#held.slice(0, base), ...rows];
    return this.#held;
  }
}
