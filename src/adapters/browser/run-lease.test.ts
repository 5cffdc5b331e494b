import { describe, expect, it } from 'vitest';
import { heartbeatLeases } from './run-lease';

/** A shared localStorage and a clock two "tabs" see. */
function world() {
  const data = new Map<string, string>();
  const storage = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k) };
  let now = 1_000;
  const timers: (() => void)[] = [];
  const tab = (owner: string) => heartbeatLeases({ storage, now: () => now, owner, beatMs: 2000, staleMs: 10_000, setInterval: (f) => (timers.push(f), timers.length - 1), clearInterval: (h) => (timers[h as number] = () => undefined) });
  return { data, tab, advance: (ms: number) => ((now += ms), timers.forEach((f) => f())), sleep: (ms: number) => (now += ms) };
}

describe('heartbeat leases (pages without Web Locks)', () => {
  it('a live run holds its lease; another tab can neither take it nor declare it free; it is released at the end', async () => {
    const w = world();
    const a = w.tab('A');
    const b = w.tab('B');
    let release!: () => void;
    const running = a.hold('run-1', () => new Promise<string>((r) => (release = () => r('done'))));
    await Promise.resolve();
    await expect(b.hold('run-1', async () => 'x')).rejects.toMatchObject({ code: 'LEASE_TAKEN' });
    let ran = false;
    expect(await b.ifFree('run-1', async () => void (ran = true))).toBe(false);
    expect(ran).toBe(false);
    // The holder keeps beating: still held long after the stale time.
    for (let i = 0; i < 10; i++) w.advance(2000);
    expect(await b.ifFree('run-1', async () => undefined)).toBe(false);
    release();
    expect(await running).toBe('done');
    expect(w.data.size).toBe(0);
    expect(await b.ifFree('run-1', async () => void (ran = true))).toBe(true);
    expect(ran).toBe(true);
  });

  it('a lease whose tab went away (no more beats) goes stale and is free', async () => {
    const w = world();
    w.tab('A').hold('run-2', () => new Promise(() => undefined)); // never ends: the tab was closed
    await Promise.resolve();
    const b = w.tab('B');
    expect(await b.ifFree('run-2', async () => undefined)).toBe(false);
    w.sleep(10_001); // no beats: the tab is gone
    expect(await b.ifFree('run-2', async () => undefined)).toBe(true);
  });
});
