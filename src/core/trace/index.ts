export * from './types';
export { TraceRecorder, ResumeDivergence, roundP, type NewEvent } from './recorder';
export { toJsonl, parseJsonl, migrateTrace, TraceParseError, JUDGE_EVENT_TYPES, type ParsedTrace } from './jsonl';
