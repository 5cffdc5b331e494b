/**
 * The Redis side of a queue-backed sweep (docs/sweeps.md, "Scale: a queue of runs"): one BullMQ
 * queue of run records (job id = run id), the provider limits shared by its workers
 * (limiter.ts), and the job data and results both ends agree on.
 */
import { Redis } from 'ioredis';
import type { RunRecord } from '../../../core/index';

export { DEFAULT_QUEUE_NAME } from './names';

export interface QueueTarget {
  /** redis://[user:password@]host:port[/db] (rediss:// for TLS). */
  url: string;
  /** The BullMQ queue (one per sweep, or several sweeps whose run ids differ). */
  name: string;
}

/** What a job carries: the run as data (a worker needs nothing else but its LLM config and the shared directory). */
export interface RunJobData {
  runId: string;
  /** Position in the sweep (for the summary's order). */
  index: number;
  record: RunRecord;
}

/** What a worker returns for a finished run. */
export interface RunJobResult {
  runId: string;
  /** Wall time of this attempt (reporting only). */
  ms: number;
  /** Stored events the run replayed from its partial trace (0: a fresh run). */
  replayed: number;
  /** Model calls this attempt sent to a provider (calls answered from the partial trace are not counted). */
  liveCalls: number;
  /** The worker that finished it (its --name, or host:pid). */
  worker: string;
  /** The trace was already complete in the shared directory (a worker died after writing it, before the queue heard). */
  alreadyComplete?: boolean;
}

/** A Redis URL fit to print: its password (and a user's) replaced by "***". */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** The URL's password (to redact it from anything Redis or its clients print), or undefined. */
const passwordOf = (url: string): string | undefined => {
  try {
    const p = decodeURIComponent(new URL(url).password);
    return p || undefined;
  } catch {
    return undefined;
  }
};

/** `text` with the URL's password (as written and URL-decoded) replaced by "***". */
export function redactRedisSecret(text: string, url: string): string {
  let out = text;
  for (const p of new Set([passwordOf(url), (() => { try { return new URL(url).password; } catch { return undefined; } })()])) if (p && p.length >= 3) out = out.split(p).join('***');
  return out;
}

/** Redis refused the credentials: no retry will fix it. */
const AUTH_FAILED = /WRONGPASS|NOAUTH|invalid password|invalid username-password/i;

/**
 * A Redis connection as BullMQ wants it (no per-command retry limit: blocking commands wait).
 * Errors are never printed by ioredis (they would show the AUTH command with the password); a
 * refused password ends the connection at once: every command waiting on it, and any later one,
 * fails with an error naming the server without the password.
 */
export function connectRedis(url: string): Redis {
  if (!/^rediss?:\/\//.test(url)) throw new Error(`--queue wants a redis:// URL (e.g. redis://127.0.0.1:6379/0), got "${redactRedisUrl(url)}"`);
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableAutoPipelining: true });
  redis.on('error', (e: Error) => {
    if (!AUTH_FAILED.test(e.message) || redis.status === 'end') return;
    const fatal = new Error(`Redis at ${redactRedisUrl(url)} refused the credentials (${redactRedisSecret(e.message.split('\n')[0]!, url)}): check the password in --queue`);
    (redis as unknown as { flushQueue(e: Error): void }).flushQueue(fatal);
    redis.disconnect(false);
    authFailures.set(redis, fatal);
  });
  return redis;
}

const authFailures = new WeakMap<Redis, Error>();

/** An error of a queue command as the CLI prints it: a refused password named as such, and never the password. */
export function queueError(e: unknown, url: string): Error {
  const msg = e instanceof Error ? e.message : String(e);
  if (AUTH_FAILED.test(msg) && !msg.startsWith('Redis at ')) return new Error(`Redis at ${redactRedisUrl(url)} refused the credentials (${redactRedisSecret(msg.split('\n')[0]!, url)}): check the password in --queue`);
  return new Error(redactRedisSecret(msg, url));
}

/** Why this connection ended for good (a refused password), or null. */
export const redisFailure = (redis: Redis): Error | null => authFailures.get(redis) ?? null;

/** Prefix of this queue's own keys (the shared limits) next to BullMQ's "bull:<name>:*". */
export const limitPrefix = (t: QueueTarget) => `educlaw:${t.name}`;
