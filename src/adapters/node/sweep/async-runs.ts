/**
 * Sweep jobs that wait on a model (an LLM tutor or the LLM student voice), run as async runs in
 * this process, `concurrency` at once. They share one run environment, so one model client per
 * provider and model, and one concurrency limit (and request pacing) per provider for all of them
 * (adapters/llm/openai-compat.ts): the provider's maxConcurrency bounds the calls in flight across
 * every run, which worker threads (one limit each) could not. The simulation between calls is
 * small next to a model's reply time; the session yields to the event loop before each event, so
 * the runs take turns.
 *
 * Each run has a knowledge tracer of its own while it runs (TracerPool): AKT keeps the encoding of
 * the last history it read, which runs taking turns would throw away at every answer. Tracers are
 * pure functions of the history, so which instance a run gets changes nothing in its trace. All
 * AKT instances share the process's ONNX Runtime sessions (adapters/node/akt.ts: compiled once per
 * process) and compute on this process's thread, as in a worker thread: with many AKT runs at once
 * that CPU time adds up here.
 *
 * Same results as the thread pool (pool.ts): JobResult per job in job order, the same trace files
 * (appended as each run goes; resumed from a partial trace), a stop (signal) leaves partial traces
 * that sweep --resume continues, and runs not yet started are "cancelled".
 */
import pLimit from 'p-limit';
import { join } from 'node:path';
import { errorMessage, type KnowledgeTracer, type RunEnv, type SweepJob } from '../../../core/index';
import { nodeRunEnv } from '../run-env';
import { createNodeTracer } from '../tracers';
import type { JobResult } from './pool';
import { runSweepTask } from './run-task';

export interface AsyncRunOptions {
  /** Runs at once (at least 1). */
  concurrency: number;
  /** Directory for traces (<runId>.jsonl); null writes none. */
  traceDir: string | null;
  /** Jobs whose partial trace should be resumed (by index). */
  resume?: ReadonlySet<number>;
  llmConfig?: string[];
  signal?: AbortSignal;
  onResult?: (r: JobResult, done: number, total: number) => void;
}

/** At most one run at a time per tracer instance; an instance is reused by later runs (concurrency instances at most). Also the queue worker's. */
export class TracerPool {
  readonly #free = new Map<string, KnowledgeTracer[]>();

  async take(name: string): Promise<KnowledgeTracer> {
    return this.#free.get(name)?.pop() ?? createNodeTracer(name);
  }

  give(name: string, t: KnowledgeTracer): void {
    this.#free.set(name, [...(this.#free.get(name) ?? []), t]);
  }
}

export async function runAsyncJobs(jobs: readonly SweepJob[], opts: AsyncRunOptions): Promise<JobResult[]> {
  if (jobs.length === 0) return [];
  const env = nodeRunEnv({ llmConfig: opts.llmConfig ?? [] });
  const tracers = new TracerPool();
  const limit = pLimit(Math.max(1, opts.concurrency));
  const signal = opts.signal;
  let done = 0;
  return Promise.all(
    jobs.map((job) =>
      limit(async () => {
        const t0 = performance.now();
        let r: JobResult;
        if (signal?.aborted) r = { job, summary: null, error: 'cancelled', ms: 0, replayed: 0 };
        else {
          const held: [string, KnowledgeTracer][] = [];
          const runEnv: RunEnv = {
            ...env,
            tracer: async (name) => {
              const t = await tracers.take(name);
              held.push([name, t]);
              return t;
            },
          };
          try {
            const tracePath = opts.traceDir ? join(opts.traceDir, `${job.runId}.jsonl`) : null;
            const out = await runSweepTask({ record: job.record, tracePath, resume: opts.resume?.has(job.index) ?? false, llmConfig: opts.llmConfig ?? [] }, runEnv, signal);
            // Stopped by the signal: the trace ends with run_end "aborted" and is resumed later, as a thread's partial trace is.
            r = signal?.aborted && out.reason !== 'horizon_reached' ? { job, summary: null, error: 'cancelled', ms: out.ms, replayed: out.replayed } : { job, summary: out.summary, error: null, ms: out.ms, replayed: out.replayed };
          } catch (e) {
            r = { job, summary: null, error: signal?.aborted ? 'cancelled' : errorMessage(e), ms: performance.now() - t0, replayed: 0 };
          } finally {
            for (const [name, t] of held) tracers.give(name, t);
          }
        }
        opts.onResult?.(r, ++done, jobs.length);
        return r;
      }),
    ),
  );
}
