/**
 * A sweep worker thread (run by piscina): executes one run record with the same core and the same
 * environment as `cli run`, appending its trace event by event, and returns the run's summary.
 * Tracers are loaded once per thread (run-env.ts).
 */
import { executeRun, summarizeRun } from '../../../core/index';
import { nodeRunEnv } from '../run-env';
import { TraceAppender, resumeFile } from '../trace-file';
import type { SweepTask, SweepTaskResult } from './protocol';

export default async function runTask(task: SweepTask): Promise<SweepTaskResult> {
  const env = nodeRunEnv({ llmConfig: task.llmConfig });
  const from = task.resume && task.tracePath ? resumeFile(task.tracePath) : null;
  const out = task.tracePath ? new TraceAppender(task.tracePath, from?.keepBytes ?? 0) : null;
  const t0 = performance.now();
  try {
    const res = await executeRun(task.record, env, { onEvent: (e, replayed) => replayed || out?.append(e), ...(from ? { resume: from.stored } : {}) });
    return { summary: summarizeRun(res.events, task.record.source), ms: performance.now() - t0, replayed: from?.keep ?? 0 };
  } finally {
    out?.close();
  }
}
