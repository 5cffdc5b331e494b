import type { z } from 'zod';
import type { WakeEventKind } from '../scenario/schema';
import type { ToolResult, TraceEvent } from '../trace/types';
import type { Rng } from '../rng';
import type { LlmClient, ModelCallRecord } from '../llm/types';
import type { HttpTransport } from './external/transport';

/** Why the tutor was woken, with the LMS notification's details. */
export interface Wake {
  reason: WakeEventKind;
  turn: number;
  /** 1-based day of the run. */
  day: number;
  /** The run's horizon in days (the scenario's, or the run record's override). */
  horizonDays: number;
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
  /** The turn's counters (calls made, calls left before TURN_LIMIT, actions, silence), for tutors that report them to an agent. */
  readonly status?: { calls: number; remaining: number; actions: number; silent: boolean };
  /** Only for tutors that declare the need "oracle" (reference tutors), with a simulated learner. */
  readonly oracle?: Oracle;
}

/**
 * A tutor: woken by LMS events, it reads and acts through tools during its turn. A turn that
 * takes no action counts as silence. Throwing ends the run with reason "tutor_error" (or
 * "llm_error" for an LlmError), recorded in the trace.
 */
export interface Tutor {
  onWake(ctx: TutorContext): Promise<void>;
  /**
   * Told once, after the run ended (its run_end is recorded): nothing it does enters the trace. An
   * external agent is told how the run went. Answers a problem to report (a notice the agent did
   * not get), or null.
   */
  onRunEnd?(end: RunEndNotice): Promise<string | null>;
}

/** What a tutor is told when its run ended. */
export interface RunEndNotice {
  runId: string;
  reason: string;
  message: string | null;
  events: readonly TraceEvent[];
}

export interface TutorFactoryOptions {
  config: Record<string, unknown>;
  /** The model client for LLM tutors (keys stay inside it; `config` never holds one). */
  llm?: LlmClient;
  /** The HTTP transport for tutors that need "http" (an external agent behind a URL). */
  http?: HttpTransport;
  /** The run's id (what an external agent keys its memory of a run by). */
  runId?: string;
}

/**
 * What a tutor needs besides its config: a model client ("llm"), an HTTP transport to an agent
 * that is a service ("http"), or someone outside the engine to hold its turns ("human": a person
 * in the Play view, or an external agent over MCP), or the learner's true state ("oracle": the
 * reference oracle tutor only).
 */
export type TutorNeed = 'llm' | 'human' | 'http' | 'oracle';

/**
 * The learner's true state, for reference tutors only (need "oracle"): what the simulated learner
 * can do on an average item of each skill now, memory and instruction included. No agent, LLM
 * tutor or person ever gets it; the oracle tutor uses it to define the steady-learning ceiling.
 */
export interface Oracle {
  know(skills: readonly number[]): Promise<number[]>;
}

/**
 * A registered tutor (src/core/registry.ts). It declares what it needs and the schema of its
 * config, so every caller (page forms, CLI flags, queue jobs) builds and checks it the same way.
 */
export interface TutorEntry {
  name: string;
  description: string;
  needs: readonly TutorNeed[];
  /** The config's schema (its JSON Schema is what a form or a file follows). */
  configSchema: z.ZodType;
  /** Validates a config as given and fills its defaults: the form a trace records. Throws with a reason. */
  parseConfig(config: Record<string, unknown>): Record<string, unknown>;
  /** For "llm" tutors: the provider and model its config names (the environment makes the client). */
  model?(config: Record<string, unknown>): { provider: string; model: string };
  /**
   * The tutor's part of a run id, for tutors whose config makes them different tutors (the LLM
   * tutor: one per harness × model). Letters, digits, ".", "-" only. Without it the run id holds
   * the tutor's name, as for every built-in tutor (their run ids, and the pinned traces, never change).
   */
  runLabel?(config: Record<string, unknown>): string;
  /** Builds the tutor (never called for "human" tutors: a person holds their turns). */
  create(opts: TutorFactoryOptions): Tutor;
}
