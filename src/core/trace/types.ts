/**
 * The trace: a versioned log of typed events, one per line in JSONL. The browser stores the same
 * events in IndexedDB; either side opens the other's. Every event has `seq` (0, 1, 2, …) and `t`
 * (virtual minutes since day 0, 00:00). Nothing in a trace depends on the wall clock, so the same
 * scenario, tutor and seed give a byte-identical trace. See docs/trace-format.md.
 *
 * The events are declared once, as the zod schemas in schema.ts; the types here are inferred from
 * them (`z.infer`), so the validator and the compiler read the same declaration.
 */
import type { z } from 'zod';
import type { ModelCallRecord } from '../llm/types';
import type { EventSchema, LMS_EVENT_KINDS, TERMINATION_REASONS, TracerInfoSchema, TutorSpecSchema } from './schema';
export type { ToolErrorCode, ToolKind, ToolResult } from './schema';

export const TRACE_SCHEMA_VERSION = 1;

/** The knowledge tracer a run used, as run_start records it (the tracer's `info`, learner/kt/types.ts). */
export type TracerInfo = z.infer<typeof TracerInfoSchema>;

export const ACTION_KINDS = ['send_message', 'stay_silent', 'assign_items', 'adjust_level', 'provide_content'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/**
 * Why a run ended. `storage_full`: the page could not store the run's events (its storage quota is
 * full); the page records it on the stored run, since it cannot write the run_end.
 * `ended_by_tutor`: the tutor (a person in the Play view) declared the run over after a turn; it is
 * scored on the days played (`run_end.days`), a complete run of that length.
 */
export type TerminationReason = (typeof TERMINATION_REASONS)[number];

/** A run's tutor: its registered name and its configuration as given (never keys). */
export type TutorSpec = z.infer<typeof TutorSpecSchema>;

/** `instructor_view`: a person playing the tutor switched the instructor's view (hidden state) on or off, in turn `detail.turn`. */
export type LmsEventKind = (typeof LMS_EVENT_KINDS)[number];

/** One event of a trace (schema.ts `EventSchema`). */
export type TraceEvent = z.infer<typeof EventSchema>;

export type TraceEventType = TraceEvent['type'];
export type EventOf<K extends TraceEventType> = Extract<TraceEvent, { type: K }>;
export type RunStartEvent = EventOf<'run_start'>;

// A model_call event is a ModelCallRecord (llm/types.ts, which the LLM clients build) with its
// turn: the compiler checks that the schema and the record name the same fields.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const modelCallIsRecord: Same<Omit<EventOf<'model_call'>, 'seq' | 't' | 'type' | 'turn'>, ModelCallRecord> = true;
void modelCallIsRecord;
