import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HistoryReceiver, HistorySender } from './history-sync';
import type { Interaction } from '../../core/index';

/** What crosses to the worker: a structured clone (new objects, equal content). */
const cross = <T>(x: T): T => structuredClone(x);
const row = (i: number): Interaction => ({ skill: 1 + (i % 110), question: i, correct: i % 3 !== 0 });

describe('history between the page and its tracer worker', () => {
  it('sends only the rows a growing history added, and the worker rebuilds it exactly', () => {
    const s = new HistorySender();
    const r = new HistoryReceiver();
    const h: Interaction[] = Array.from({ length: 200 }, (_, i) => row(i));
    const first = s.delta(h);
    expect([first.base, first.rows.length]).toEqual([0, 200]);
    expect(r.apply(first.base, cross(first.rows))).toEqual(h);
    h.push(row(200));
    const next = s.delta(h);
    expect([next.base, next.rows.length]).toEqual([200, 1]);
    expect(r.apply(next.base, cross(next.rows))).toEqual(h);
    // The same history again (a readout after another on the same day): nothing to send.
    const same = s.delta(h);
    expect([same.base, same.rows.length]).toEqual([201, 0]);
    expect(r.apply(same.base, cross(same.rows))).toEqual(h);
  });

  it('rebuilds every history of any sequence of runs, growing, restarting and interleaving (property)', () => {
    // Each step: grow one of two runs' histories by k rows (k = 0: the same history again), or start it afresh.
    const step = fc.record({ run: fc.integer({ min: 0, max: 1 }), op: fc.constantFrom('grow', 'restart'), k: fc.integer({ min: 0, max: 5 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const s = new HistorySender();
        const r = new HistoryReceiver();
        const runs: Interaction[][] = [[], []];
        let next = 0;
        for (const st of steps) {
          if (st.op === 'restart') runs[st.run] = [];
          const h = runs[st.run]!;
          for (let i = 0; i < st.k; i++) h.push(row(next++));
          const d = s.delta(h);
          const got = r.apply(d.base, cross(d.rows));
          if (JSON.stringify(got) !== JSON.stringify(h)) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('a worker out of step says so; after a failed call the page sends the whole history', () => {
    const s = new HistorySender();
    const h = Array.from({ length: 5 }, (_, i) => row(i));
    s.delta(h);
    h.push(row(5));
    const d = s.delta(h);
    // A fresh worker (its first call lost) is asked to continue from row 5 of 0.
    expect(() => new HistoryReceiver().apply(d.base, d.rows)).toThrow(/history sent from row 5, but this worker holds 0 rows/);
    s.reset();
    const again = s.delta(h);
    expect([again.base, again.rows.length]).toEqual([0, 6]);
    expect(new HistoryReceiver().apply(again.base, cross(again.rows))).toEqual(h);
  });
});
