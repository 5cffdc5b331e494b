/**
 * Errors raised by the engine carry a literal `code` so callers (UI, CLI, tests) can branch on
 * them without parsing messages, and a message that says what to fix.
 */
export type SimErrorCode =
  | 'SCENARIO_PARSE'
  | 'SCENARIO_INVALID'
  | 'UNKNOWN_SKILL'
  | 'UNKNOWN_TUTOR'
  | 'UNKNOWN_TRACER'
  | 'UNKNOWN_PERSONA'
  | 'TRACER_FAILED'
  | 'TRACE_INVALID'
  | 'ITEM_BANK'
  | 'RUN_INVALID'
  | 'TURN_CLOSED'
  | 'TURN_OPEN'
  | 'RESUME_DIVERGED'
  | 'RESUME_COMPLETE'
  | 'TUTOR_NOT_AUTOMATED'
  | 'INTERNAL';

export class SimError extends Error {
  readonly code: SimErrorCode;
  constructor(code: SimErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SimError';
    this.code = code;
  }
}

/** Message of any thrown value, for traces and error events. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
