import type { WakeEventKind } from '../scenario/schema';
import type { ToolResult } from '../trace/types';
import type { Rng } from '../rng';
import type { LlmClient, ModelCallRecord } from '../llm/types';

/** Why the tutor was woken, with the LMS notification's details. */
export interface Wake {
  reason: WakeEventKind;
  turn: number;
  /** 1-based day of the run. */
  day: number;
  /** Virtual minutes since the start of the run. */
  t: number;
  /** Notification details, e.g. { item_id, message } for a help request. */
  payload: Record<string, unknown>;
}

/** The tutor's only way to see and change the world. Calls are recorded in the trace. */
export interface ToolBox {
  call(name: string, args?: unknown): ToolResult;
}

export interface TutorContext {
  wake: Wake;
  tools: ToolBox;
  /** The tutor's own random stream (seeded from the run). */
  rng: Rng;
  signal?: AbortSignal;
  /** Records an LLM call in the trace (a `model_call` event at this turn). LLM tutors call it for every call, failed ones included. */
  recordModelCall?: (call: ModelCallRecord) => void;
}

/**
 * A tutor: woken by LMS events, it reads and acts through tools during its turn. A turn that
 * takes no action counts as silence. Throwing ends the run with reason "tutor_error" (or
 * "llm_error" for an LlmError), recorded in the trace.
 */
export interface Tutor {
  onWake(ctx: TutorContext): Promise<void>;
}

export interface TutorFactoryOptions {
  config: Record<string, unknown>;
  /** The model client for LLM tutors (keys stay inside it; `config` never holds one). */
  llm?: LlmClient;
}

export interface TutorEntry {
  name: string;
  description: string;
  create(opts: TutorFactoryOptions): Tutor;
}
