/**
 * A worker of a queue-backed sweep (`npm run worker -- --queue redis://… --out <shared dir>`): takes
 * run jobs from the BullMQ queue, runs them with the engine (runRun, as `run` and `sweep` do),
 * and keeps the traces in a directory every worker and the sweep share:
 *
 *   <out>/partial/<runId>.jsonl   the trace of a run under way, appended event by event (a killed
 *                                 worker leaves every event it recorded; at most the last line cut)
 *   <out>/traces/<runId>.jsonl    a complete trace, written atomically (writeFileAtomic: the whole
 *                                 file or none) once the run reached its horizon; then the partial
 *                                 one is removed
 *
 * A job that finds a partial trace resumes it (the engine's resume: stored events replayed and
 * checked, recorded model calls answered from the trace, so the provider is never asked twice); a
 * job that finds a complete trace (its worker died between writing it and telling the queue)
 * finishes at once. A run that ends short of its horizon (a provider outage, an error) fails the
 * attempt; BullMQ retries it with backoff (the job's attempts and backoff, set by `sweep --queue`),
 * and the retry resumes the partial trace. A worker killed outright stops renewing its jobs' locks;
 * after the lock (lockMs) another worker's stalled check puts the job back and a worker resumes it.
 * Stopping a worker (SIGTERM, Ctrl-C) stops its runs where they are and puts their jobs back at
 * once, without using up an attempt.
 *
 * Model clients get their provider's limits from Redis (limiter.ts): maxConcurrency and
 * maxRequestsPerMinute hold across every worker of the queue, not per worker.
 */
import { hostname } from 'node:os';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { errorMessage, runRun, type KnowledgeTracer, type LlmClient, type RunEnv, type EventOf } from '../../../core/index';
import { OpenAiCompatClient } from '../../llm/openai-compat';
import { keyFor, loadLlmConfig, pickProvider } from '../llm-config';
import { nodeRunEnv } from '../run-env';
import { TracerPool } from '../sweep/async-runs';
import { TraceAppender, readStoredTrace, resumeFile } from '../trace-file';
import { writeFileAtomic } from '../files';
import { startMismatch } from '../sweep/run-sweep';
import { connectRedis, limitPrefix, queueError, type QueueTarget, type RunJobData, type RunJobResult } from './connection';
import { sharedLimitFetch } from './limiter';

export interface QueueWorkerOptions extends QueueTarget {
  /** The shared directory (traces/ and partial/ in it). */
  outDir: string;
  llmConfig?: readonly string[];
  /** Runs at once in this worker (default 4). The providers' limits bound their calls across all workers. */
  concurrency?: number;
  /** How long a job's lock lasts without renewal (default 30 000 ms): a killed worker's runs are picked up after about this long. */
  lockMs?: number;
  /** How often this worker looks for stalled jobs (default: lockMs). */
  stalledCheckMs?: number;
  /** How many times a job may stall (its worker died) before it fails (default 3). */
  maxStalled?: number;
  /** Lease of a shared provider slot (default 30 000 ms): a killed worker's slots come back after this long. */
  leaseMs?: number;
  /** Name of this worker in logs and results (default host:pid). */
  workerName?: string;
  /** A line per event worth telling (started, completed, resumed, failed). */
  log?: (line: string) => void;
}

export interface QueueWorker {
  readonly name: string;
  /** Stops: runs under way stop where they are (partial traces kept) and their jobs go back to the queue. */
  close(): Promise<void>;
  /** Resolves when the worker is connected and taking jobs. */
  ready(): Promise<void>;
}



export function startQueueWorker(o: QueueWorkerOptions): QueueWorker {
  const name = o.workerName ?? `${hostname()}:${process.pid}`;
  const log = o.log ?? (() => {});
  const traceDir = join(o.outDir, 'traces');
  const partialDir = join(o.outDir, 'partial');
  mkdirSync(traceDir, { recursive: true });
  mkdirSync(partialDir, { recursive: true });
  const limits = connectRedis(o.url);
  const base = nodeRunEnv({ llmConfig: o.llmConfig ?? [] });
  let cfg: ReturnType<typeof loadLlmConfig> | null = null;
  const clients = new Map<string, LlmClient>();
  const llm: RunEnv['llm'] = ({ provider, model }) => {
    const key = `${provider}\u0000${model}`;
    let c = clients.get(key);
    if (!c) {
      cfg ??= loadLlmConfig(o.llmConfig ?? []);
      const p = pickProvider(cfg, provider);
      const apiKey = keyFor(p);
      c = new OpenAiCompatClient(p, model, { ...(apiKey ? { apiKey } : {}), fetch: sharedLimitFetch(limits, p, { prefix: limitPrefix(o), ...(o.leaseMs ? { leaseMs: o.leaseMs } : {}) }) });
      clients.set(key, c);
    }
    return c;
  };
  const tracers = new TracerPool();
  const stopping = new AbortController();

  const processor = async (job: Job<RunJobData, RunJobResult>, token?: string, signal?: AbortSignal): Promise<RunJobResult> => {
    const { runId, record } = job.data;
    const finalPath = join(traceDir, `${runId}.jsonl`);
    const partialPath = join(partialDir, `${runId}.jsonl`);
    const t0 = performance.now();
    // Complete already: its worker wrote it and died before the queue heard.
    if (existsSync(finalPath)) {
      const { events } = readStoredTrace(finalPath);
      const end = events.find((e) => e.type === 'run_end');
      const diff = events[0] ? startMismatch(events[0] as EventOf<'run_start'>, record) : ['no run_start'];
      if (diff.length) throw new UnrecoverableError(`${finalPath} holds another run (${diff.join('; ')}); move it away or use another --out`);
      if (end?.type === 'run_end' && end.reason === 'horizon_reached') {
        rmSync(partialPath, { force: true });
        log(`completed ${runId} (trace already complete in ${traceDir})`);
        return { runId, ms: 0, replayed: 0, liveCalls: 0, worker: name, alreadyComplete: true };
      }
    }
    let from: ReturnType<typeof resumeFile> | null = null;
    if (existsSync(partialPath) && readStoredTrace(partialPath).events.length > 0) {
      from = resumeFile(partialPath);
      const diff = startMismatch(from.stored[0] as EventOf<'run_start'>, record);
      if (diff.length) throw new UnrecoverableError(`${partialPath} was written for another run (${diff.join('; ')}); move it away or use another --out`);
    }
    log(from ? `resuming ${runId} after ${from.keep} events (attempt ${job.attemptsMade + 1})` : `started ${runId} (attempt ${job.attemptsMade + 1})`);
    const held: [string, KnowledgeTracer][] = [];
    const env: RunEnv = {
      ...base,
      llm,
      tracer: async (n) => {
        const t = await tracers.take(n);
        held.push([n, t]);
        return t;
      },
    };
    let liveCalls = 0;
    let day = -1;
    let res;
    try {
      // Stopped by this worker closing or by BullMQ (a lost lock).
      res = await runRun(record, env, {
        sink: new TraceAppender(partialPath, from?.keepBytes ?? 0),
        resume: from?.stored ?? null,
        signals: [stopping.signal, signal],
        observe: (e, replayed) => {
          if (replayed) return;
          if (e.type === 'model_call') liveCalls++;
          if (e.type === 'lms_event' && e.day !== day) {
            day = e.day;
            void job.updateProgress({ day, worker: name }).catch(() => {});
          }
        },
      });
    } finally {
      for (const [n, t] of held) tracers.give(n, t);
    }
    const ms = performance.now() - t0;
    if (res.ending === 'complete') {
      // The whole trace or nothing in traces/, then the partial one goes.
      writeFileAtomic(finalPath, readFileSync(partialPath, 'utf8'));
      rmSync(partialPath, { force: true });
      log(`completed ${runId}${from ? ` (resumed after ${from.keep} events)` : ''}: ${liveCalls} model calls, ${(ms / 1000).toFixed(1)} s`);
      return { runId, ms, replayed: res.keep, liveCalls, worker: name };
    }
    if (stopping.signal.aborted && token) {
      // This worker is stopping: the job goes back to the queue at once, its attempt not used up.
      await job.moveToWait(token);
      log(`stopped ${runId}: back in the queue (partial trace kept)`);
      throw new WaitingError();
    }
    const why = `run ended "${res.reason}"${res.message ? `: ${res.message}` : ''}`;
    log(`failed ${runId} (attempt ${job.attemptsMade + 1} of ${job.opts.attempts ?? 1}): ${why}`);
    throw new Error(why);
  };

  const connection = connectRedis(o.url);
  const worker = new Worker<RunJobData, RunJobResult>(o.name, processor, {
    connection,
    concurrency: Math.max(1, o.concurrency ?? 4),
    lockDuration: o.lockMs ?? 30_000,
    stalledInterval: o.stalledCheckMs ?? o.lockMs ?? 30_000,
    maxStalledCount: o.maxStalled ?? 3,
    name,
    autorun: true,
  });
  worker.on('failed', (job, err) => {
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1) && !(err instanceof WaitingError)) log(`gave up on ${job.id} after ${job.attemptsMade} attempts: ${errorMessage(err)}`);
  });
  worker.on('error', (err) => log(`queue error: ${queueError(err, o.url).message}`));
  // A lock this worker could not renew (its event loop was held up past the lock, or Redis was out
  // of reach): another worker may have the run by now, so this one stops writing to its trace.
  worker.on('lockRenewalFailed', (ids) => {
    for (const id of ids) {
      log(`lost the lock of ${id}: stopping it here (another worker resumes it)`);
      worker.cancelJob(id, 'lock lost');
    }
  });
  return {
    name,
    ready: () => worker.waitUntilReady().then(() => undefined),
    close: async () => {
      stopping.abort();
      await worker.close();
      connection.disconnect();
      limits.disconnect();
    },
  };
}
