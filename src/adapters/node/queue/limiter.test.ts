/**
 * The provider limits shared through Redis (limiter.ts), with one connection per "worker" as
 * separate processes would have: never more than maxConcurrency requests in flight across all of
 * them (and the limit is reached), starts at least 60 000 / maxRequestsPerMinute ms apart across
 * all of them, and a slot held by a worker that died comes back once its lease runs out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startTestRedis, type TestRedis } from '../../../testing/redis-server';
import { ProviderSchema } from '../../llm/config';
import { OpenAiCompatClient } from '../../llm/openai-compat';
import { limitKeys, SharedSlotLost, sharedLimitFetch, withSharedSlot } from './limiter';

let redis: TestRedis | null = null;
/** No redis-server: each test fails with this (naming the package), none is skipped. */
let missing: Error | null = null;
const conns: Redis[] = [];
const connect = () => {
  if (missing) throw missing;
  const c = new Redis(redis!.url, { maxRetriesPerRequest: null });
  conns.push(c);
  return c;
};
beforeAll(async () => {
  redis = await startTestRedis().catch((e: Error) => ((missing = e), null));
}, 30_000);
afterAll(async () => {
  for (const c of conns) c.disconnect();
  await redis?.stop();
});

const provider = (maxConcurrency: number, maxRequestsPerMinute?: number) => ({ name: 'p', baseURL: `http://x/${Math.random()}`, maxConcurrency, ...(maxRequestsPerMinute ? { maxRequestsPerMinute } : {}) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('provider limits shared through Redis', () => {
  it('three workers with 4 requests each under a maxConcurrency of 3: at most 3 in flight, and 3 reached', async () => {
    const p = provider(3);
    let inFlight = 0;
    let peak = 0;
    const workers = [connect(), connect(), connect()];
    await Promise.all(
      workers.flatMap((c) =>
        Array.from({ length: 4 }, () =>
          withSharedSlot(c, p, { prefix: 't', pollMs: 2 }, async () => {
            peak = Math.max(peak, ++inFlight);
            await sleep(30);
            inFlight--;
          }),
        ),
      ),
    );
    expect(peak).toBe(3);
    expect(await workers[0]!.zcard(limitKeys('t', p).slots)).toBe(0);
  });

  it('maxRequestsPerMinute 1200 (one start per 50 ms) across two workers: starts at least ~50 ms apart', async () => {
    const p = provider(8, 1200);
    const starts: number[] = [];
    const [a, b] = [connect(), connect()];
    await Promise.all([a, b].flatMap((c) => Array.from({ length: 4 }, () => withSharedSlot(c, p, { prefix: 't' }, async () => void starts.push(performance.now())))));
    starts.sort((x, y) => x - y);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(gaps).toHaveLength(7);
    // Paced on Redis's clock, observed on ours (timer and round-trip jitter on a busy machine): 8 starts span 7 × 50 ms, none bunched.
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThan(7 * 50 - 20);
    for (const g of gaps) expect(g).toBeGreaterThan(20);
  });

  it('a slot held by a worker that died comes back when its lease runs out', async () => {
    const p = provider(1);
    const dead = connect();
    // The dead worker took the only slot (lease 300 ms) and never gave it back.
    const died = withSharedSlot(dead, p, { prefix: 't', leaseMs: 300 }, () => new Promise(() => {}));
    died.catch(() => {});
    await sleep(50);
    dead.disconnect(); // no more renewals (its own request stops with the renewal's failure: below)
    const t0 = performance.now();
    await withSharedSlot(connect(), p, { prefix: 't', leaseMs: 300 }, async () => {});
    const waited = performance.now() - t0;
    expect(waited).toBeGreaterThan(150);
    expect(waited).toBeLessThan(3000);
  });

  it('a lease lost while the request is in flight (another worker may hold the slot now): the request stops with SharedSlotLost', async () => {
    const p = provider(1);
    const c = connect();
    let aborted: unknown = null;
    const t0 = performance.now();
    const call = withSharedSlot(c, p, { prefix: 't', leaseMs: 300 }, (lost) => {
      lost.addEventListener('abort', () => (aborted = lost.reason));
      // What a stall past the lease amounts to: the holder is gone from the set, and another takes the slot.
      void c.zrange(limitKeys('t', p).slots, '0', '-1').then(([holder]) => c.zrem(limitKeys('t', p).slots, holder!));
      return new Promise<never>(() => {});
    });
    await expect(call).rejects.toThrow(SharedSlotLost);
    await expect(call).rejects.toThrow(/p: the shared concurrency slot was lost \(its 300 ms lease had run out before it was renewed\)/);
    expect(aborted).toBeInstanceOf(SharedSlotLost);
    // Caught at the first renewal (every leaseMs / 3), not at some later point.
    expect(performance.now() - t0).toBeLessThan(1500);
  });

  it('Redis unreachable while renewing: the request stops with SharedSlotLost naming the failure', async () => {
    const c = connect();
    const call = withSharedSlot(c, provider(2), { prefix: 't', leaseMs: 300 }, async () => {
      c.disconnect();
      return new Promise<never>(() => {});
    });
    await expect(call).rejects.toThrow(/the shared concurrency slot was lost \(renewing its lease failed: Connection is closed\.?\)/);
  });

  it("through the client: a lost slot cancels the HTTP request and fails the call with the reason, without a retry", async () => {
    const c = connect();
    const p = ProviderSchema.parse({ name: 'lim', baseURL: `http://127.0.0.1:9/${Math.random()}`, maxConcurrency: 1, backoffMs: 10, timeoutMs: 10_000, models: { m: { input: 1, output: 1 } } });
    let calls = 0;
    let cancelled = false;
    // A provider that never answers; the request is cancelled only through its signal.
    const hanging = (async (_: unknown, init?: RequestInit) => {
      calls++;
      const [holder] = await c.zrange(limitKeys('t', p).slots, '0', '-1');
      await c.zrem(limitKeys('t', p).slots, holder!);
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => ((cancelled = true), reject(init.signal!.reason))));
    }) as typeof fetch;
    const client = new OpenAiCompatClient(p, 'm', { apiKey: 'k', fetch: sharedLimitFetch(c, p, { prefix: 't', leaseMs: 300 }, hanging) });
    await expect(client.chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(/lim\/m: lim: the shared concurrency slot was lost \(its 300 ms lease had run out/);
    expect(cancelled).toBe(true);
    expect(calls).toBe(1);
  });
});
