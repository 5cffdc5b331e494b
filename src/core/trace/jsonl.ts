import { z } from 'zod';
import { TRACE_SCHEMA_VERSION, type TraceEvent } from './types';
import { SimError } from '../errors';

/** One JSON object per line, in seq order, newline-terminated. */
export function toJsonl(events: readonly TraceEvent[]): string {
  let out = '';
  for (const e of events) out += JSON.stringify(e) + '\n';
  return out;
}

const base = { seq: z.number().int().min(0), t: z.number() };
const EventSchema = z.discriminatedUnion('type', [
  z.looseObject({ ...base, type: z.literal('run_start'), schemaVersion: z.number().int(), runId: z.string(), scenario: z.looseObject({ id: z.string() }), tutor: z.looseObject({ name: z.string() }), tracer: z.looseObject({ name: z.string() }), itemBank: z.looseObject({ hash: z.string(), items: z.array(z.looseObject({ id: z.string() })), probes: z.array(z.looseObject({ id: z.string() })) }), helpTemplates: z.record(z.string(), z.string()) }),
  z.looseObject({ ...base, type: z.literal('lms_event'), kind: z.string(), day: z.number() }),
  z.looseObject({ ...base, type: z.literal('wake'), turn: z.number().int(), reason: z.string() }),
  z.looseObject({ ...base, type: z.literal('tool_call'), turn: z.number().int(), tool: z.string(), kind: z.string(), result: z.union([z.looseObject({ ok: z.literal(true) }), z.looseObject({ ok: z.literal(false), error: z.looseObject({ code: z.string(), message: z.string() }) })]) }),
  z.looseObject({ ...base, type: z.literal('message'), from: z.enum(['tutor', 'learner']), text: z.string() }),
  z.looseObject({ ...base, type: z.literal('attempt'), itemId: z.string(), skill: z.number(), level: z.number(), p: z.number(), boost: z.number(), source: z.enum(['own', 'disclosed', 'guess']), correct: z.boolean(), evidence: z.boolean() }),
  z.looseObject({ ...base, type: z.literal('mastery'), scope: z.enum(['course', 'all']), skills: z.array(z.number()), values: z.array(z.number()) }),
  z.looseObject({ ...base, type: z.literal('probe'), day: z.number().int(), items: z.array(z.looseObject({ itemId: z.string(), correct: z.boolean(), p: z.number() })), solveRate: z.number(), gradedRate: z.number() }),
  z.looseObject({ ...base, type: z.literal('turn_end'), turn: z.number().int(), actions: z.number().int(), implicitSilence: z.boolean() }),
  z.looseObject({ ...base, type: z.literal('error'), code: z.string(), message: z.string() }),
  z.looseObject({ ...base, type: z.literal('run_end'), reason: z.string(), days: z.number() }),
  z.looseObject({ ...base, type: z.literal('model_call'), role: z.enum(['tutor', 'student', 'judge']), purpose: z.string(), provider: z.string(), model: z.string(), retries: z.number().int() }),
  z.looseObject({ ...base, type: z.literal('judge_panel'), panel: z.string(), judges: z.array(z.looseObject({ id: z.string(), model: z.string() })), rubrics: z.array(z.looseObject({ id: z.string(), version: z.string() })), days: z.array(z.number().int()) }),
  z.looseObject({ ...base, type: z.literal('judge_verdict'), panel: z.string(), rubric: z.string(), rubricVersion: z.string(), judge: z.string(), model: z.string(), day: z.number().int(), status: z.enum(['scored', 'unscored']), scores: z.record(z.string(), z.number()).nullable(), holds: z.boolean().nullable() }),
]);

/** Events that a judge panel appends after run_end (the run's own events end at run_end). */
export const JUDGE_EVENT_TYPES: readonly string[] = ['judge_panel', 'judge_verdict'];

export class TraceParseError extends SimError {
  readonly line: number | null;
  constructor(source: string, line: number | null, message: string) {
    super('TRACE_INVALID', `${source}${line !== null ? `:${line}` : ''}: ${message}`);
    this.name = 'TraceParseError';
    this.line = line;
  }
}

export interface ParsedTrace {
  events: TraceEvent[];
  /** False when the trace has no run_end (the run was cut short); such traces still score. Judge events may follow run_end. */
  complete: boolean;
}

/**
 * Parses and validates a JSONL trace. Errors name the source and line. Blank lines are skipped;
 * anything else that is not a valid event is an error (nothing is silently dropped).
 */
export function parseJsonl(text: string, source = 'trace.jsonl'): ParsedTrace {
  const events: TraceEvent[] = [];
  let ended = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (!raw) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(raw);
    } catch (e) {
      throw new TraceParseError(source, i + 1, `not JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    const res = EventSchema.safeParse(obj);
    if (!res.success) {
      const iss = res.error.issues[0]!;
      throw new TraceParseError(source, i + 1, `invalid event${iss.path.length ? ` at ${iss.path.join('.')}` : ''}: ${iss.message}`);
    }
    // Keep the object as parsed (zod would reorder keys), so export after import is byte-identical.
    const ev = obj as TraceEvent;
    if (ev.seq !== events.length) throw new TraceParseError(source, i + 1, `expected seq ${events.length}, found ${ev.seq}`);
    if (ended && !JUDGE_EVENT_TYPES.includes(ev.type)) throw new TraceParseError(source, i + 1, `only judge events may follow run_end, found ${ev.type}`);
    if (!ended && JUDGE_EVENT_TYPES.includes(ev.type)) throw new TraceParseError(source, i + 1, `judge events belong after run_end`);
    if (ev.type === 'run_end') ended = true;
    events.push(ev);
  }
  const first = events[0];
  if (!first) throw new TraceParseError(source, null, 'empty trace');
  if (first.type !== 'run_start') throw new TraceParseError(source, 1, 'the first event must be run_start');
  if (first.schemaVersion > TRACE_SCHEMA_VERSION) {
    throw new TraceParseError(source, 1, `trace schema version ${first.schemaVersion} is newer than this build reads (${TRACE_SCHEMA_VERSION}); update EduClaw Lab`);
  }
  return { events: migrateTrace(events), complete: ended };
}

/**
 * Ordered migrations from older trace schema versions to the current one. Version 1 is the first,
 * so the list is empty; a future version adds `{ from: 1, up(events) }` here.
 */
const MIGRATIONS: { from: number; up: (events: TraceEvent[]) => TraceEvent[] }[] = [];

export function migrateTrace(events: TraceEvent[]): TraceEvent[] {
  const first = events[0];
  if (!first || first.type !== 'run_start') return events;
  let v = first.schemaVersion;
  let out = events;
  for (const m of MIGRATIONS) {
    if (m.from === v) {
      out = m.up(out);
      v++;
    }
  }
  if (v !== TRACE_SCHEMA_VERSION) throw new SimError('TRACE_INVALID', `no migration from trace schema version ${v} to ${TRACE_SCHEMA_VERSION}`);
  return out;
}
