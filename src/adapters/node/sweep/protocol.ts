import type { RunSummary, Scenario } from '../../../core/index';

/** Main thread -> sweep worker. */
export interface SweepRequest {
  type: 'run';
  index: number;
  scenario: Scenario;
  source: string;
  tutor: string;
  seed: number;
  /** Write the trace here (JSONL); null keeps no trace. */
  tracePath: string | null;
}

/** Sweep worker -> main thread. `ms`: wall time of the run (reporting only; never in a trace). */
export type SweepReply = { type: 'done'; index: number; summary: RunSummary; ms: number } | { type: 'error'; index: number; message: string };
