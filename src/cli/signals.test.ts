/** onStopSignals: one stop per Ctrl-C however many copies of it arrive; a deliberate second one exits at once. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onStopSignals } from './signals';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const counts = () => SIGNALS.map((s) => process.listenerCount(s));

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('onStopSignals', () => {
  it('stops once for copies of a signal within a second (a wrapper relaying it), exits 130 on one a second later', () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout'] });
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = counts();
    const stop = vi.fn();
    const off = onStopSignals(stop);
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    vi.advanceTimersByTime(400);
    process.emit('SIGTERM', 'SIGTERM');
    expect(stop).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
    vi.advanceTimersByTime(700);
    process.emit('SIGINT', 'SIGINT');
    expect(exit).toHaveBeenCalledWith(130);
    expect(stop).toHaveBeenCalledTimes(1);
    off();
    vi.advanceTimersByTime(1000);
    expect(counts()).toEqual(before);
  });

  it('after off(), still swallows copies of a stop for the rest of that second, then leaves the signals alone', () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout'] });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const before = counts();
    const off = onStopSignals(() => {});
    process.emit('SIGINT', 'SIGINT');
    off();
    // A copy arriving now, with no listener, would end the process by the signal (no exit status 3).
    expect(counts()).toEqual(before.map((n) => n + 1));
    vi.advanceTimersByTime(1000);
    expect(counts()).toEqual(before);
    expect(exit).not.toHaveBeenCalled();
  });

  it('off() without a stop removes its listeners at once', () => {
    const before = counts();
    const off = onStopSignals(() => {});
    expect(counts()).toEqual(before.map((n) => n + 1));
    off();
    expect(counts()).toEqual(before);
  });
});
