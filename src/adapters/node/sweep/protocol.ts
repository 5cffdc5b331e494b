import type { RunRecord, RunSummary } from '../../../core/index';

/** One sweep job as a worker thread receives it. */
export interface SweepTask {
  record: RunRecord;
  /** Where the trace is appended as the run goes; null keeps no trace. */
  tracePath: string | null;
  /** Resume the partial trace at tracePath instead of starting afresh. */
  resume: boolean;
  /** LLM config files for runs that need model clients (keys come from them and the environment). */
  llmConfig: string[];
}

/** What a worker returns. `ms`: wall time of the run (reporting only; never in a trace). */
export interface SweepTaskResult {
  summary: RunSummary;
  ms: number;
  /** Stored events a resumed run replayed (0 for a fresh run). */
  replayed: number;
}
