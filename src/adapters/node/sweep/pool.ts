/**
 * Runs sweep jobs in parallel worker threads (node:worker_threads), one episode at a time per
 * thread. Traces are written by the workers; summaries come back here in completion order and are
 * returned in job order. A worker that crashes fails its job (recorded, not hidden) and is replaced.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { RunSummary, SweepJob } from '../../../core/index';
import type { SweepReply, SweepRequest } from './protocol';

export interface JobResult {
  job: SweepJob;
  summary: RunSummary | null;
  /** Why the job produced no summary (the worker threw or crashed). */
  error: string | null;
  ms: number;
}

export interface PoolOptions {
  /** Number of worker threads (at most one per job). */
  threads: number;
  /** Directory for traces (<runId>.jsonl); null writes none. */
  traceDir: string | null;
  onResult?: (r: JobResult, done: number, total: number) => void;
}

const BOOT = new URL('./boot.mjs', import.meta.url);
const ENTRY = new URL('./worker.ts', import.meta.url).href;

export async function runJobs(jobs: readonly SweepJob[], opts: PoolOptions): Promise<JobResult[]> {
  const results: (JobResult | undefined)[] = new Array(jobs.length);
  if (jobs.length === 0) return [];
  let next = 0;
  let done = 0;
  const threads = Math.max(1, Math.min(opts.threads, jobs.length));
  return new Promise((resolveAll) => {
    const finish = (r: JobResult) => {
      results[r.job.index] = r;
      done++;
      opts.onResult?.(r, done, jobs.length);
      if (done === jobs.length) resolveAll(results as JobResult[]);
    };
    const start = () => {
      const w = new Worker(BOOT, { workerData: { entry: ENTRY } });
      let current: { job: SweepJob; t0: number } | null = null;
      const feed = () => {
        if (next >= jobs.length) {
          current = null;
          void w.terminate();
          return;
        }
        const job = jobs[next++]!;
        current = { job, t0: performance.now() };
        const req: SweepRequest = { type: 'run', index: job.index, scenario: job.scenario, source: job.source, tutor: job.tutor, seed: job.seed, tracePath: opts.traceDir ? join(opts.traceDir, `${job.runId}.jsonl`) : null };
        w.postMessage(req);
      };
      w.on('message', (m: SweepReply) => {
        const job = jobs[m.index]!;
        if (m.type === 'done') finish({ job, summary: m.summary, error: null, ms: m.ms });
        else finish({ job, summary: null, error: m.message, ms: current ? performance.now() - current.t0 : 0 });
        feed();
      });
      w.on('error', (e) => {
        const cur = current;
        current = null;
        if (cur) finish({ job: cur.job, summary: null, error: `worker crashed: ${e.message}`, ms: performance.now() - cur.t0 });
        if (next < jobs.length) start();
      });
      feed();
    };
    for (let i = 0; i < threads; i++) start();
  });
}
