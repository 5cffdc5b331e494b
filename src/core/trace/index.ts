export * from './types';
export { TraceRecorder, ResumeDivergence, roundP, type NewEvent } from './recorder';
export { toJsonl, parseJsonl, migrateTrace, TraceReader, type ParsedTrace } from './jsonl';
export { TraceParseError, TraceValidator, JUDGE_EVENT_TYPES, MAX_TRACE_LINE_CHARS } from './validate';
export { EventSchema, TracerInfoSchema, TutorSpecSchema, LMS_EVENT_KINDS, TERMINATION_REASONS, TOOL_KINDS, TOOL_ERROR_CODES } from './schema';
export { tutorLabel } from './tutor-label';
