/**
 * A sweep worker thread (run by piscina): executes one run record with the same core and the same
 * environment as `cli run`, appending its trace event by event, and returns the run's summary.
 * Tracers are loaded once per thread (run-env.ts). CPU-bound runs only: runs that wait on a model
 * run as async runs in the main process (async-runs.ts), under one rate limit per provider.
 */
import { nodeRunEnv } from '../run-env';
import { runSweepTask } from './run-task';
import type { SweepTask, SweepTaskResult } from './protocol';

export default async function runTask(task: SweepTask): Promise<SweepTaskResult> {
  const { reason: _reason, ...out } = await runSweepTask(task, nodeRunEnv({ llmConfig: task.llmConfig }));
  return out;
}
