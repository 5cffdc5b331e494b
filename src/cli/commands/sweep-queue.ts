/**
 * `sweep --queue redis://…`: the sweep's runs go to a BullMQ queue instead of running here; any
 * number of `npm run worker -- --queue … --out <shared dir>` on any machines run them. The sweep
 * enqueues (job id = run id: the same command again adds nothing), waits for every run to be
 * completed or failed for good, and writes the summary from the traces in --out, which must be the
 * directory the workers write to. `sweep --status --queue …` shows a queue's progress. BullMQ is
 * loaded only when --queue is given (a local sweep does not pay for it).
 */
const queue = () => import('../../adapters/node/queue/sweep');
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { formatSweepSummary, type SweepBase, type VoiceSpec } from '../../core/index';
import { DEFAULT_QUEUE_NAME } from '../../adapters/node/queue/names';
import type { QueueTarget } from '../../adapters/node/queue/connection';
import { loadScenarios, planTutorSweep, type SweepTutor } from '../../adapters/node/sweep/run-sweep';
import { progressBar } from '../progress';
import { onStopSignals } from '../signals';
import { int } from './common';

export interface QueueSweepCliOptions {
  queue?: string;
  queueName: string;
  status?: boolean;
  attempts: number;
  backoffMs: number;
  wait: boolean;
  out: string;
  quiet?: boolean;
}

export function addQueueSweepOptions(cmd: Command): Command {
  return cmd
    .option('--queue <url>', 'enqueue the runs on a BullMQ queue in Redis (redis://host:port[/db]) for workers (npm run worker) instead of running them here; --out must be the directory the workers write to')
    .option('--queue-name <name>', 'the queue in that Redis (one per sweep, or sweeps whose run ids differ)', DEFAULT_QUEUE_NAME)
    .option('--status', "with --queue: show the queue's progress (runs completed, running, waiting, retrying, failed with their reasons) and exit")
    .option('--attempts <n>', 'with --queue: tries per run before it fails for good; each retry resumes the partial trace', int('--attempts'), 3)
    .option('--backoff-ms <ms>', 'with --queue: wait before a retry, doubled at each further one', int('--backoff-ms'), 5000)
    .addOption(new Option('--no-wait', 'with --queue: enqueue and exit (the same command again waits and collects the summary)'));
}

const target = (o: QueueSweepCliOptions): QueueTarget => ({ url: o.queue!, name: o.queueName });

export async function queueStatusCommand(o: QueueSweepCliOptions): Promise<void> {
  if (!o.queue) throw new Error('sweep --status reads a queue-backed sweep: give --queue redis://host:port');
  const { formatQueueStatus, queueStatus } = await queue();
  const { queueError } = await import('../../adapters/node/queue/connection');
  const s = await queueStatus(target(o)).catch((e: unknown) => {
    throw queueError(e, o.queue!);
  });
  console.log(formatQueueStatus(target(o), s));
}

export async function runQueuedSweep(o: QueueSweepCliOptions, p: { files: string[]; base: Omit<SweepBase, 'tutor'>; tutors: SweepTutor[]; voices: VoiceSpec[]; seeds: number[] | null; total: number }): Promise<void> {
  if ((o as { resume?: boolean }).resume) throw new Error('--resume is for a sweep in this process; a queue-backed sweep continues by itself: the same command again (without --resume) adds only the runs the queue lacks, waits and collects');
  const { collectQueuedSweep, describePersistence, enqueueRuns, redisPersistence, waitForRuns } = await queue();
  const t = target(o);
  const outDir = resolve(o.out);
  const jobs = planTutorSweep(loadScenarios(p.files), p.base, p.tutors, p.seeds, p.voices);
  const t0 = performance.now();
  const { queueError, redactRedisUrl } = await import('../../adapters/node/queue/connection');
  const { added, existing } = await enqueueRuns(t, jobs, { attempts: Math.max(1, o.attempts), backoffMs: o.backoffMs }).catch((e: unknown) => {
    throw queueError(e, t.url);
  });
  const shown = redactRedisUrl(t.url);
  console.error(`sweep: ${jobs.length} runs on queue ${t.name}: ${added} enqueued${existing ? `, ${existing} already there (kept)` : ''}; start workers with: npm run worker -- --queue ${shown}${shown !== t.url ? ' (the password hidden: give yours)' : ''}${t.name === DEFAULT_QUEUE_NAME ? '' : ` --queue-name ${t.name}`} --out ${o.out}`);
  // A Redis that keeps nothing across a restart would lose the queue: said now, not found out later.
  const kept = await redisPersistence(t);
  if (kept && !kept.aof && kept.snapshots === '') console.error(`warning: the Redis at ${shown} keeps no data across a restart (${describePersistence(kept)}); if it restarts, the queue's runs are lost and this command must be run again (docs/sweeps.md recommends appendonly yes)`);
  if (!o.wait) return;
  const ac = new AbortController();
  const off = onStopSignals(() => ac.abort());
  const bar = o.quiet ? null : progressBar(jobs.length);
  let finished: boolean;
  try {
    finished = await waitForRuns(t, jobs.map((j) => j.runId), { signal: ac.signal, onProgress: (done, failed) => bar?.tick(done + failed, failed ? `${failed} failed` : '') });
  } finally {
    off();
    bar?.end();
  }
  if (!finished) {
    console.error('stopped waiting; the runs go on on the workers. The same command again waits and collects the summary; `sweep --status --queue …` shows progress.');
    process.exitCode = 3;
    return;
  }
  const res = await collectQueuedSweep(t, { outDir, jobs, tutors: p.tutors, voices: p.voices, seeds: p.seeds, wallMs: performance.now() - t0 });
  if (!o.quiet) {
    console.log(formatSweepSummary(res.summary));
    const workers = new Set(Object.values(res.workers));
    console.log(`\nwall time ${(res.wallMs / 1000).toFixed(1)} s for ${jobs.length} runs on ${workers.size} worker${workers.size === 1 ? '' : 's'} (since this command enqueued them)`);
    console.log(`wrote ${o.out}/summary.txt, summary.json, timing.json (${res.runs.length} of ${jobs.length} runs finished); report: npm run cli -- report ${o.out}`);
  }
  for (const r of res.results) if (r.error) console.error(`error: ${r.job.runId}: ${r.error}`);
  if (res.summary.failed.length) process.exitCode = 3;
}
