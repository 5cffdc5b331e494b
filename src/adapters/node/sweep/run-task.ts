/**
 * One sweep job, run where it is called: in a worker thread (worker.ts) or in the main process
 * among many async runs (async-runs.ts). The trace is appended event by event (or, resuming, the
 * stored part replayed and the rest appended), so both ways write the same file.
 */
import { runRun, summarizeRun, type RunEnv, type RunResult } from '../../../core/index';
import { TraceAppender, resumeFile } from '../trace-file';
import { checkResumeKtRuntime } from '../akt';
import type { SweepTask, SweepTaskResult } from './protocol';

export async function runSweepTask(task: SweepTask, env: RunEnv, signal?: AbortSignal): Promise<SweepTaskResult & { reason: RunResult['reason'] }> {
  const from = task.resume && task.tracePath ? resumeFile(task.tracePath) : null;
  // A partial AKT trace resumes only on the runtime that computed it: say so before replaying.
  if (from) await checkResumeKtRuntime(from.stored[0] as Parameters<typeof checkResumeKtRuntime>[0]);
  const t0 = performance.now();
  const res = await runRun(task.record, env, {
    ...(task.tracePath ? { sink: new TraceAppender(task.tracePath, from?.keepBytes ?? 0) } : {}),
    resume: from?.stored ?? null,
    ...(signal ? { signals: [signal] } : {}),
  });
  return { summary: summarizeRun(res.events, task.record.source), ms: performance.now() - t0, replayed: res.keep, reason: res.reason };
}
