export * from './types';
export { TraceRecorder, ResumeDivergence, roundP, type NewEvent } from './recorder';
export { toJsonl, parseJsonl, migrateTrace, TraceReader, type ParsedTrace } from './jsonl';
export { TraceParseError, TraceValidator, JUDGE_EVENT_TYPES, LMS_EVENT_KINDS, TERMINATION_REASONS, MAX_TRACE_LINE_CHARS } from './validate';
export { tutorLabel } from './tutor-label';
