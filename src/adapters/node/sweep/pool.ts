/**
 * Runs sweep jobs on a pool of worker threads (piscina): one run at a time per thread. A thread
 * that crashes or exits rejects its job (recorded as that run's error, never dropped) and piscina
 * starts a new one; jobs start in the order given, results come back in completion order and are
 * returned in job order.
 */
import { Piscina } from 'piscina';
import pLimit from 'p-limit';
import { join } from 'node:path';
import { errorMessage, type RunSummary, type SweepJob } from '../../../core/index';
import type { SweepTask, SweepTaskResult } from './protocol';

export interface JobResult {
  job: SweepJob;
  summary: RunSummary | null;
  /** Why the job produced no summary (the run threw, or its worker died). */
  error: string | null;
  ms: number;
  /** Stored events a resumed run replayed. */
  replayed: number;
  /** The job was not run: its trace was already complete (sweep --resume). */
  skipped?: boolean;
}

export interface PoolOptions {
  /** Number of worker threads (at most one per job). */
  threads: number;
  /** Directory for traces (<runId>.jsonl); null writes none. */
  traceDir: string | null;
  /** Jobs whose partial trace should be resumed (by index). */
  resume?: ReadonlySet<number>;
  llmConfig?: string[];
  signal?: AbortSignal;
  onResult?: (r: JobResult, done: number, total: number) => void;
  /**
   * The worker module piscina runs (default: boot.mjs, the sweep worker). For tests and custom
   * workers: it must default-export `(task: SweepTask) => Promise<SweepTaskResult>`.
   */
  workerFile?: string | URL;
}

const BOOT = new URL('./boot.mjs', import.meta.url).href;

export async function runJobs(jobs: readonly SweepJob[], opts: PoolOptions): Promise<JobResult[]> {
  if (jobs.length === 0) return [];
  const threads = Math.max(1, Math.min(opts.threads, jobs.length));
  const pool = new Piscina<SweepTask, SweepTaskResult>({ filename: opts.workerFile ? String(opts.workerFile) : BOOT, minThreads: threads, maxThreads: threads, concurrentTasksPerWorker: 1, idleTimeout: 1000 });
  let done = 0;
  // At most one job per thread inside piscina at a time, so jobs start exactly in the order given
  // (longest first: run-sweep.ts); piscina's own queue does not keep the order of submission.
  const slot = pLimit(threads);
  try {
    return await Promise.all(
      jobs.map((job) => slot(async () => {
        const task: SweepTask = { record: job.record, tracePath: opts.traceDir ? join(opts.traceDir, `${job.runId}.jsonl`) : null, resume: opts.resume?.has(job.index) ?? false, llmConfig: opts.llmConfig ?? [] };
        const t0 = performance.now();
        let r: JobResult;
        try {
          const out = await pool.run(task, opts.signal ? { signal: opts.signal } : {});
          r = { job, summary: out.summary, error: null, ms: out.ms, replayed: out.replayed };
        } catch (e) {
          r = { job, summary: null, error: opts.signal?.aborted ? 'cancelled' : errorMessage(e), ms: performance.now() - t0, replayed: 0 };
        }
        opts.onResult?.(r, ++done, jobs.length);
        return r;
      })),
    );
  } finally {
    await pool.destroy();
  }
}
