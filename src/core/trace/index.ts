export * from './types';
export { TraceRecorder, roundP, type NewEvent } from './recorder';
export { toJsonl, parseJsonl, migrateTrace, TraceParseError, type ParsedTrace } from './jsonl';
