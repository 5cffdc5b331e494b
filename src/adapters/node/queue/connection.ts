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

/** A Redis connection as BullMQ wants it (no per-command retry limit: blocking commands wait). */
export function connectRedis(url: string): Redis {
  if (!/^rediss?:\/\//.test(url)) throw new Error(`--queue wants a redis:// URL (e.g. redis://127.0.0.1:6379/0), got "${url}"`);
  return new Redis(url, { maxRetriesPerRequest: null, enableAutoPipelining: true });
}

/** Prefix of this queue's own keys (the shared limits) next to BullMQ's "bull:<name>:*". */
export const limitPrefix = (t: QueueTarget) => `educlaw:${t.name}`;
