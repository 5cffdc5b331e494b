/** Virtual time: whole minutes since day 0, 00:00. Day d runs over [d*1440, (d+1)*1440). */
export type SimMinutes = number & { readonly __brand: 'SimMinutes' };

export const MINUTES_PER_DAY = 1440;

export const simMinutes = (n: number): SimMinutes => n as SimMinutes;
export const at = (day: number, hhmm: string): SimMinutes => simMinutes(day * MINUTES_PER_DAY + parseHhmm(hhmm));
export const dayOf = (t: SimMinutes): number => Math.floor(t / MINUTES_PER_DAY);
export const minuteOfDay = (t: SimMinutes): number => t - dayOf(t) * MINUTES_PER_DAY;

/** Day of week for a virtual day: day 0 is a Monday. 0 = Monday … 6 = Sunday. */
export const weekdayOf = (day: number): number => ((day % 7) + 7) % 7;
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export function parseHhmm(s: string): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec(s);
  if (!m) throw new RangeError(`not a time of day (HH:MM): ${JSON.stringify(s)}`);
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 23 || min > 59) throw new RangeError(`not a time of day (HH:MM): ${JSON.stringify(s)}`);
  return h * 60 + min;
}

export function formatTime(t: SimMinutes): string {
  const m = minuteOfDay(t);
  const hh = String(Math.floor(m / 60)).padStart(2, '0');
  const mm = String(m % 60).padStart(2, '0');
  return `day ${dayOf(t)} ${hh}:${mm}`;
}

interface Entry<E> {
  at: SimMinutes;
  priority: number;
  seq: number;
  event: E;
}

/**
 * Discrete-event queue ordered by time, then priority (lower first), then insertion order, so a
 * run is deterministic whatever the insertion pattern. A binary heap: runs schedule thousands of
 * events and a sorted array would make each insert linear.
 */
export class EventQueue<E> {
  #heap: Entry<E>[] = [];
  #seq = 0;
  #now: SimMinutes = simMinutes(0);

  get now(): SimMinutes {
    return this.#now;
  }

  get size(): number {
    return this.#heap.length;
  }

  schedule(at: SimMinutes, event: E, priority = 0): void {
    if (at < this.#now) throw new RangeError(`cannot schedule in the past: ${at} < now ${this.#now}`);
    this.#heap.push({ at, priority, seq: this.#seq++, event });
    this.#up(this.#heap.length - 1);
  }

  /** Time of the next event, or Infinity when empty. */
  peekTime(): number {
    return this.#heap[0]?.at ?? Infinity;
  }

  /** Removes the next event and advances the clock to its time. */
  pop(): { at: SimMinutes; event: E } | undefined {
    const top = this.#heap[0];
    if (!top) return undefined;
    const last = this.#heap.pop() as Entry<E>;
    if (this.#heap.length > 0) {
      this.#heap[0] = last;
      this.#down(0);
    }
    this.#now = top.at;
    return { at: top.at, event: top.event };
  }

  #less(a: Entry<E>, b: Entry<E>): boolean {
    if (a.at !== b.at) return a.at < b.at;
    if (a.priority !== b.priority) return a.priority < b.priority;
    return a.seq < b.seq;
  }

  #up(i: number): void {
    const h = this.#heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.#less(h[i] as Entry<E>, h[p] as Entry<E>)) break;
      [h[i], h[p]] = [h[p] as Entry<E>, h[i] as Entry<E>];
      i = p;
    }
  }

  #down(i: number): void {
    const h = this.#heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.#less(h[l] as Entry<E>, h[m] as Entry<E>)) m = l;
      if (r < h.length && this.#less(h[r] as Entry<E>, h[m] as Entry<E>)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as Entry<E>, h[i] as Entry<E>];
      i = m;
    }
  }
}
