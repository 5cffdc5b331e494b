/**
 * The page's run sink over a store that records its calls: batches of 100 and at each day's start,
 * a person's actions at once, the cut only when resuming, and the first failed write stopping the
 * run with nothing written after it.
 */
import { describe, expect, it } from 'vitest';
import { executeRun, runRecord, runRun, SinkFailure, type TraceEvent } from '../../core/index';
import { bktEnv, miniScenario, onBkt } from '../../testing/fixtures';
import { FLUSH_EVERY, IdbRunSink } from './run-sink';
import type { RunStore } from './run-store';

const record = () => runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'planner', config: {} }, seed: 2 });

function fakeStore(failAt: number | null = null) {
  const calls: string[] = [];
  const events: TraceEvent[] = [];
  const store = {
    async truncateEvents(_key: string, from: number) {
      calls.push(`truncate ${from}`);
      events.length = Math.min(events.length, from);
    },
    async appendEvents(_key: string, batch: readonly TraceEvent[]) {
      if (failAt !== null && batch.some((e) => e.seq >= failAt)) throw new DOMException('quota', 'QuotaExceededError');
      calls.push(`append ${batch[0]!.seq}..${batch.at(-1)!.seq}`);
      events.push(...batch);
    },
  };
  return { store: store as unknown as RunStore, calls, events };
}

describe('IdbRunSink', () => {
  it('writes in batches of 100 and at each day start; a new run is not cut', async () => {
    const ref = (await executeRun(record(), bktEnv())).events;
    const f = fakeStore();
    const sink = new IdbRunSink(f.store, 'k', { resuming: false });
    await runRun(record(), bktEnv(), { sink });
    expect(f.calls.some((c) => c.startsWith('truncate'))).toBe(false);
    expect(f.events.map((e) => e.seq)).toEqual(ref.map((e) => e.seq));
    expect(sink.storedTo).toBe(ref.length);
    for (const c of f.calls) {
      const [a, b] = c.slice('append '.length).split('..').map(Number) as [number, number];
      expect(b - a + 1).toBeLessThanOrEqual(FLUSH_EVERY);
      // A batch ends at a day start, at 100 events, or at the run's end.
      const last = ref[b]!;
      expect(b - a + 1 === FLUSH_EVERY || (last.type === 'lms_event' && last.kind === 'day_start') || b === ref.length - 1).toBe(true);
    }
  });

  it('a resume cuts the store back to its resume point, then marks the run listed; flushAt writes at once', async () => {
    const ref = (await executeRun(record(), bktEnv())).events;
    const f = fakeStore();
    f.events.push(...ref.slice(0, 150));
    const order: string[] = [];
    const sink = new IdbRunSink(f.store, 'k', { resuming: true, flushAt: (e) => e.type === 'wake', begun: async () => void order.push(`begun after ${f.calls.join(',')}`) });
    const r = await runRun(record(), bktEnv(), { sink, resume: ref.slice(0, 150) });
    expect(order).toEqual([`begun after truncate ${r.keep}`]);
    expect(sink.kept).toBe(r.keep);
    expect(JSON.stringify(f.events)).toBe(JSON.stringify(ref));
    const wakes = ref.filter((e) => e.type === 'wake' && e.seq >= r.keep).map((e) => e.seq);
    // Every live wake ended a batch.
    for (const w of wakes) expect(f.calls.some((c) => c.endsWith(`..${w}`))).toBe(true);
  });

  it('the first failed write stops the run: nothing is written after it, and the runner throws it as a SinkFailure', async () => {
    const f = fakeStore(150);
    const sink = new IdbRunSink(f.store, 'k', { resuming: false });
    const err = (await runRun(record(), bktEnv(), { sink }).catch((e: unknown) => e)) as SinkFailure;
    expect(err).toBeInstanceOf(SinkFailure);
    expect((err.cause as DOMException).name).toBe('QuotaExceededError');
    expect(err.result?.reason).toBe('aborted');
    expect(sink.storedTo).toBeLessThanOrEqual(150);
    expect(f.events.length).toBe(sink.storedTo);
    await expect(sink.persist()).rejects.toBe(err.cause);
  });
});
