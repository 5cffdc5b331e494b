/**
 * The provider's limits shared by every worker of a queue-backed sweep, held in Redis: a worker
 * process on its own keeps one limit per provider (adapters/llm/openai-compat.ts), so 20 workers
 * would each send their own `maxConcurrency` calls. Here every HTTP request to a provider (each
 * try, retries included) first takes a slot of a Redis-backed semaphore (at most `maxConcurrency`
 * requests in flight across all workers, all machines) and, with `maxRequestsPerMinute`, a start
 * time from a Redis-backed pacer (starts at least 60 000 / rpm ms apart across all workers: never
 * more than the limit in any minute, and no burst at the start of one), both on Redis's clock.
 *
 * The semaphore is a sorted set of holders scored by the expiry of their lease; a holder renews
 * its lease while its request is in flight, so a worker killed with a slot loses it after
 * `leaseMs` at most, and the others go on. A renewal that fails (Redis unreachable, or the lease
 * already gone because the process stalled past it, so another worker may hold the slot now) stops
 * the request at once with a SharedSlotLost error naming why: it is never sent on without a slot,
 * so the limit is never exceeded in silence. Waiters poll (every `pollMs`, with jitter). The slot is
 * held until the whole reply has been read, so the server never sees more requests at once than
 * there are slots.
 *
 * It plugs in as the client's `fetch` (OpenAiCompatClient's ClientOptions.fetch): the client's
 * retries, timeouts, Retry-After handling and its own per-process limit stay as they are.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { ProviderConfig } from '../../llm/config';

/** KEYS[1] the holders (zset: holder → lease expiry, ms); ARGV: limit, leaseMs, holder. 1 when taken. */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 4)
  return 1
end
return 0`;

/**
 * Renews a holder's lease; 1 when it still held one, 0 when it had lost it (a holder past its
 * expiry is removed only when another takes a slot, so one still listed was never replaced).
 */
const RENEW = `
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) * 4)
return 1`;

/** KEYS[1] the next allowed start (ms, Redis clock); ARGV: interval ms. Returns how long to wait (ms, as a string). */
const PACE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(now, nxt)
redis.call('SET', KEYS[1], tostring(at + tonumber(ARGV[1])), 'PX', 120000)
return tostring(at - now)`;

export interface SharedLimitOptions {
  /** Redis key prefix of this queue's limits. */
  prefix: string;
  /** A holder's lease (default 30 s): how long a slot of a killed worker stays taken at most. */
  leaseMs?: number;
  /** Poll interval while waiting for a slot (default 10 ms, plus up to as much jitter). */
  pollMs?: number;
}

/** Waits `ms`; a stop rejects with the signal's reason. */
async function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  try {
    await delay(ms, undefined, signal ? { signal } : {});
  } catch (e) {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    throw e;
  }
}

/** The Redis keys of one provider's limits (name and base URL, as the per-process gate keys them). */
export const limitKeys = (prefix: string, p: Pick<ProviderConfig, 'name' | 'baseURL'>) => ({ slots: `${prefix}:limit:${p.name}|${p.baseURL}:slots`, pace: `${prefix}:limit:${p.name}|${p.baseURL}:next` });

/**
 * A request's shared slot was lost while it was in flight: its lease could not be renewed. The
 * request is stopped (the client reports it, not retried: llm/openai-compat.ts) rather than sent on
 * beyond the provider's maxConcurrency.
 */
export class SharedSlotLost extends Error {
  constructor(provider: string, why: string) {
    super(`${provider}: the shared concurrency slot was lost (${why}); the request was stopped so as not to exceed maxConcurrency across workers`);
    this.name = 'SharedSlotLost';
  }
}

/**
 * Takes one of the provider's shared slots (and its paced start), runs `fn`, gives the slot back.
 * `fn` gets a signal that aborts (with a SharedSlotLost reason) when a renewal of the slot's lease
 * fails; the returned promise then rejects with that error at once, whatever `fn` does.
 */
export async function withSharedSlot<T>(redis: Redis, p: Pick<ProviderConfig, 'name' | 'baseURL' | 'maxConcurrency' | 'maxRequestsPerMinute'>, o: SharedLimitOptions, fn: (slotLost: AbortSignal) => Promise<T>, signal?: AbortSignal | null): Promise<T> {
  const leaseMs = o.leaseMs ?? 30_000;
  const pollMs = o.pollMs ?? 10;
  const keys = limitKeys(o.prefix, p);
  const holder = `${process.pid}:${randomBytes(6).toString('hex')}`;
  while ((await redis.eval(ACQUIRE, 1, keys.slots, p.maxConcurrency, leaseMs, holder)) !== 1) await sleep(pollMs + Math.random() * pollMs, signal);
  const lost = new AbortController();
  const lose = (why: string) => {
    if (!lost.signal.aborted) lost.abort(new SharedSlotLost(p.name, why));
  };
  const renew = setInterval(
    () =>
      void redis.eval(RENEW, 1, keys.slots, leaseMs, holder).then(
        (changed) => changed !== 1 && lose(`its ${leaseMs} ms lease had run out before it was renewed`),
        (e: unknown) => lose(`renewing its lease failed: ${e instanceof Error ? e.message : String(e)}`),
      ),
    Math.max(50, leaseMs / 3),
  );
  renew.unref();
  const stopped = new Promise<never>((_, reject) => lost.signal.addEventListener('abort', () => reject(lost.signal.reason), { once: true }));
  stopped.catch(() => {}); // observed by the race below; never an unhandled rejection when fn settles first
  try {
    if (p.maxRequestsPerMinute) {
      const wait = Number(await redis.eval(PACE, 1, keys.pace, 60_000 / p.maxRequestsPerMinute));
      if (wait > 0) await Promise.race([sleep(wait, signal), stopped]);
    }
    return await Promise.race([fn(lost.signal), stopped]);
  } finally {
    clearInterval(renew);
    await redis.zrem(keys.slots, holder).catch(() => {});
  }
}

/**
 * A fetch for one provider's client that takes a shared slot for each request and keeps it until
 * the reply's body has been read whole (the SDK then reads it from memory).
 */
export function sharedLimitFetch(redis: Redis, p: ProviderConfig, o: SharedLimitOptions, inner: typeof fetch = fetch): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) =>
    withSharedSlot(
      redis,
      p,
      o,
      async (slotLost) => {
        // A lost slot cancels the request itself, not only the wait for it.
        const res = await inner(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, slotLost]) : slotLost });
        const body = await res.arrayBuffer();
        return new Response(res.status === 204 || res.status === 304 ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
      },
      init?.signal ?? null,
    )) as typeof fetch;
}
