/**
 * The sweep's side of a queue-backed sweep: enqueue one BullMQ job per run record (job id = run
 * id: enqueueing the same sweep again adds nothing), show the queue's progress, wait for every run
 * to be completed or to have failed for good, and collect the traces from the shared directory
 * into the same summary.json / summary.txt a local sweep writes (sweepSummaryOutputs), plus a
 * timing.json naming the worker of each run. Workers: worker.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Queue, type Job, type JobType } from 'bullmq';
import { summarizeRun, type SweepJob, type VoiceSpec } from '../../../core/index';
import { readStoredTrace } from '../trace-file';
import { writeFileAtomic } from '../files';
import { sweepSummaryOutputs, type NodeSweepResult, type SweepTutor } from '../sweep/run-sweep';
import type { JobResult } from '../sweep/pool';
import { connectRedis, type QueueTarget, type RunJobData, type RunJobResult } from './connection';

export interface EnqueueOptions {
  /** Tries per run before it fails for good (default 3); each retry resumes the partial trace. */
  attempts?: number;
  /** Backoff before a retry: backoffMs × 2^(tries so far − 1) (default 5 000 ms). */
  backoffMs?: number;
}

/** The queue on a connection of its own; close() closes both (BullMQ leaves a connection it was given open). */
export function openQueue(t: QueueTarget): Queue<RunJobData, RunJobResult> {
  const redis = connectRedis(t.url);
  const q = new Queue<RunJobData, RunJobResult>(t.name, { connection: redis });
  // Errors surface where a command fails (named, password redacted: connectRedis); never printed by BullMQ here.
  q.on('error', () => undefined);
  const close = q.close.bind(q);
  q.close = async () => {
    try {
      await close();
    } finally {
      redis.disconnect();
    }
  };
  return q;
}

/**
 * Adds the runs that are not in the queue yet; a run id already there with another run record (a
 * different sweep using the same queue) is refused before anything is added.
 * Returns how many were added and how many were there already.
 */
export async function enqueueRuns(t: QueueTarget, jobs: readonly SweepJob[], o: EnqueueOptions = {}): Promise<{ added: number; existing: number }> {
  const q = openQueue(t);
  try {
    const have = await Promise.all(jobs.map((j) => q.getJob(j.runId)));
    const clash = jobs.find((j, i) => have[i] && JSON.stringify(have[i]!.data.record) !== JSON.stringify(j.record));
    if (clash) throw new Error(`queue "${t.name}" already holds a different run with the id ${clash.runId} (another sweep's options); use another --queue-name, or remove the old jobs`);
    const todo = jobs.filter((_, i) => !have[i]);
    const attempts = Math.max(1, o.attempts ?? 3);
    for (let i = 0; i < todo.length; i += 1000)
      await q.addBulk(
        todo.slice(i, i + 1000).map((j) => ({
          name: 'run',
          data: { runId: j.runId, index: j.index, record: j.record },
          opts: { jobId: j.runId, attempts, backoff: { type: 'exponential', delay: o.backoffMs ?? 5_000 }, removeOnComplete: false, removeOnFail: false },
        })),
      );
    return { added: todo.length, existing: jobs.length - todo.length };
  } finally {
    await q.close();
  }
}

export interface QueueStatus {
  counts: Record<string, number>;
  /** How the Redis keeps its data, for a queue found empty (null: Redis would not say). */
  persistence: RedisPersistence | null;
  active: { runId: string; day: number | null; worker: string | null; attempt: number }[];
  failed: { runId: string; reason: string; attempts: number }[];
  /** Runs waiting for a retry (backoff). */
  retrying: { runId: string; reason: string; attempts: number }[];
}

const STATES: JobType[] = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'];

/** The queue's counts, the runs under way (day reached, worker) and the runs that failed, with their reasons. */
export async function queueStatus(t: QueueTarget, max = 20): Promise<QueueStatus> {
  const q = openQueue(t);
  try {
    const counts = (await q.getJobCounts(...STATES)) as Record<string, number>;
    const progress = (j: Job) => (j.progress && typeof j.progress === 'object' ? (j.progress as { day?: number; worker?: string }) : {});
    const active = (await q.getJobs(['active'], 0, max - 1)).map((j) => ({ runId: j.id!, day: progress(j).day ?? null, worker: progress(j).worker ?? null, attempt: j.attemptsMade + 1 }));
    const failed = (await q.getJobs(['failed'], 0, max - 1)).map((j) => ({ runId: j.id!, reason: j.failedReason, attempts: j.attemptsMade }));
    const retrying = (await q.getJobs(['delayed'], 0, max - 1)).map((j) => ({ runId: j.id!, reason: j.failedReason, attempts: j.attemptsMade }));
    const persistence = await redisPersistence(t);
    return { counts, persistence, active, failed, retrying };
  } finally {
    await q.close();
  }
}

/** Whether a restart of the Redis keeps the queue: its append-only file, its snapshots, how long it has been up. */
export interface RedisPersistence {
  aof: boolean;
  /** RDB snapshot rules (CONFIG GET save), null when the server refuses CONFIG (managed Redis). */
  snapshots: string | null;
  uptimeS: number;
}

export async function redisPersistence(t: QueueTarget): Promise<RedisPersistence | null> {
  const client = connectRedis(t.url);
  try {
    const info = await client.info();
    const field = (k: string) => new RegExp(`^${k}:(.*)$`, 'm').exec(info)?.[1]?.trim();
    const save = await (client.config('GET', 'save') as Promise<unknown>).then((r: unknown) => (Array.isArray(r) ? String(r[1] ?? '') : ''), () => null);
    return { aof: field('aof_enabled') === '1', snapshots: save, uptimeS: Number(field('uptime_in_seconds') ?? NaN) };
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}

/** "appendonly no, no snapshots", for the lines that explain a lost queue. */
export function describePersistence(p: RedisPersistence | null): string {
  if (!p) return 'its persistence unknown';
  const kept = p.aof ? 'append-only file on' : p.snapshots ? `appendonly no, snapshots only (save ${p.snapshots}: writes since the last one are lost)` : p.snapshots === '' ? 'appendonly no, no snapshots: a restart empties it' : 'appendonly no';
  return `up ${Number.isFinite(p.uptimeS) ? `${p.uptimeS} s` : '?'}, ${kept}`;
}

/** What to do when the queue lost its runs (the same words in `sweep --status` and the waiting sweep). */
export const LOST_RUNS_FIX = 'run the same `sweep --queue …` command again: it enqueues the missing runs again, and the workers keep the traces already in --out (a finished run is not run again, a partial one resumes)';

/** A waiting sweep found runs it enqueued gone from the queue (Redis restarted without persistence, flushed, or the jobs removed). */
export class QueueLostRuns extends Error {
  readonly missing: readonly string[];
  constructor(t: QueueTarget, missing: readonly string[], total: number, persistence: RedisPersistence | null) {
    super(
      `queue ${t.name} lost ${missing.length} of the ${total} runs this sweep enqueued (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): they are no longer in Redis (${describePersistence(persistence)}), so no worker will run them; it was restarted without persistence, flushed, or the jobs were removed. To go on, ${LOST_RUNS_FIX}`,
    );
    this.name = 'QueueLostRuns';
    this.missing = missing;
  }
}

export function formatQueueStatus(t: QueueTarget, s: QueueStatus): string {
  const c = (k: string) => s.counts[k] ?? 0;
  const total = STATES.reduce((n, k) => n + c(k), 0);
  const lines = [
    `queue ${t.name} at ${t.url.replace(/\/\/[^@/]*@/, '//…@')}: ${total} runs: ${c('completed')} completed, ${c('active')} running, ${c('waiting') + c('prioritized')} waiting, ${c('delayed')} waiting to retry, ${c('failed')} failed`,
    ...s.active.map((a) => `  running  ${a.runId}: day ${a.day ?? '?'}, attempt ${a.attempt}${a.worker ? `, on ${a.worker}` : ''}`),
    ...s.retrying.map((a) => `  retrying ${a.runId} after ${a.attempts} failed attempt${a.attempts === 1 ? '' : 's'}: ${a.reason}`),
    ...s.failed.map((a) => `  FAILED   ${a.runId} after ${a.attempts} attempt${a.attempts === 1 ? '' : 's'}: ${a.reason}`),
    // An empty queue cannot say whether runs were ever there: say both, with how the Redis keeps its data.
    ...(total === 0 ? [`  no runs in this queue: no sweep enqueued runs under this name (--queue-name), or Redis lost them (${describePersistence(s.persistence)}). If a sweep used it, ${LOST_RUNS_FIX}.`] : []),
  ];
  return lines.join('\n');
}

/**
 * Waits until every run of `runIds` is completed or failed for good, polling the queue; calls
 * `onProgress` with the counts whenever they change. Returns early (false) when the signal aborts.
 * Throws QueueLostRuns when runs are no longer in the queue (on two polls in a row).
 */
export async function waitForRuns(t: QueueTarget, runIds: readonly string[], o: { pollMs?: number; signal?: AbortSignal; onProgress?: (done: number, failed: number, total: number) => void } = {}): Promise<boolean> {
  const q = openQueue(t);
  const pollMs = o.pollMs ?? Math.min(10_000, Math.max(500, runIds.length));
  let last = '';
  let goneBefore = false;
  try {
    for (;;) {
      const states = await Promise.all(runIds.map((id) => q.getJobState(id)));
      // A run that is in no list of the queue is gone (every enqueued job stays, completed or failed):
      // said on the second poll that finds it gone, rather than waiting for it forever.
      const gone = runIds.filter((_, i) => states[i] === 'unknown');
      if (gone.length && goneBefore) throw new QueueLostRuns(t, gone, runIds.length, await redisPersistence(t));
      goneBefore = gone.length > 0;
      const done = states.filter((s) => s === 'completed').length;
      const failed = states.filter((s) => s === 'failed').length;
      const key = `${done}/${failed}`;
      if (key !== last) o.onProgress?.(done, failed, runIds.length);
      last = key;
      if (done + failed === runIds.length) return true;
      if (o.signal?.aborted) return false;
      await new Promise<void>((r) => {
        const wake = () => {
          clearTimeout(timer);
          o.signal?.removeEventListener('abort', wake);
          r();
        };
        const timer = setTimeout(wake, pollMs);
        o.signal?.addEventListener('abort', wake, { once: true });
      });
    }
  } finally {
    await q.close();
  }
}

/**
 * The summary of a queue-backed sweep from the shared directory: each completed run's trace is
 * read from <outDir>/traces and summarised as a local sweep does; a failed run is listed with the
 * reason it failed; a run neither completed nor failed yet counts as not finished.
 */
export async function collectQueuedSweep(t: QueueTarget, o: { outDir: string; jobs: readonly SweepJob[]; tutors: readonly SweepTutor[]; voices?: readonly VoiceSpec[]; seeds: readonly number[] | null; wallMs: number }): Promise<NodeSweepResult & { workers: Record<string, string> }> {
  const q = openQueue(t);
  const workers: Record<string, string> = {};
  let results: JobResult[];
  try {
    const queued = await Promise.all(o.jobs.map((j) => q.getJob(j.runId)));
    results = await Promise.all(
      o.jobs.map(async (job, i): Promise<JobResult> => {
        const qj = queued[i];
        const state = qj ? await qj.getState() : 'missing';
        const path = join(o.outDir, 'traces', `${job.runId}.jsonl`);
        if (state === 'completed' && qj?.returnvalue && existsSync(path)) {
          const r = qj.returnvalue;
          workers[job.runId] = r.worker;
          return { job, summary: summarizeRun(readStoredTrace(path).events, job.record.source), error: null, ms: r.ms, replayed: r.replayed };
        }
        if (state === 'completed') return { job, summary: null, error: `completed in the queue, but ${path} is missing: is --out the directory the workers write to?`, ms: 0, replayed: 0 };
        if (state === 'failed') return { job, summary: null, error: qj?.failedReason || 'failed', ms: 0, replayed: 0 };
        return { job, summary: null, error: `not finished (${state} in the queue)`, ms: 0, replayed: 0 };
      }),
    );
  } finally {
    await q.close();
  }
  const { runs, summary } = sweepSummaryOutputs({ tutors: o.tutors, ...(o.voices ? { voices: o.voices } : {}), seeds: o.seeds, jobs: o.jobs, results, outDir: o.outDir });
  writeFileAtomic(join(o.outDir, 'timing.json'), JSON.stringify({ queue: t.name, wallMs: Math.round(o.wallMs), runs: results.map((r) => ({ runId: r.job.runId, ms: Math.round(r.ms), ...(workers[r.job.runId] ? { worker: workers[r.job.runId] } : {}), ...(r.replayed ? { replayed: r.replayed } : {}) })) }, null, 2) + '\n');
  return { jobs: [...o.jobs], results, runs, summary, wallMs: o.wallMs, workers };
}
