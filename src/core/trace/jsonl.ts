import { TRACE_SCHEMA_VERSION, type TraceEvent } from './types';
import { SimError } from '../errors';
import { MAX_TRACE_LINE_CHARS, TraceParseError, TraceValidator } from './validate';

/** One JSON object per line, in seq order, newline-terminated. */
export function toJsonl(events: readonly TraceEvent[]): string {
  let out = '';
  for (const e of events) out += JSON.stringify(e) + '\n';
  return out;
}

export { JUDGE_EVENT_TYPES, TraceParseError, TraceValidator, MAX_TRACE_LINE_CHARS } from './validate';

export interface ParsedTrace {
  events: TraceEvent[];
  /** False when the trace has no run_end (the run was cut short); such traces still score, marked partial. Judge events may follow run_end. */
  complete: boolean;
}

/**
 * Reads a trace line by line: `line(text)` for each line (without its newline), then `end()`.
 * Each event is checked by `TraceValidator` as it comes (strict: schema, ranges, structure; see
 * validate.ts), so a reader can stream a file of any size and stops at its first problem, named
 * by source, line and field. Blank lines are skipped; nothing else is dropped silently.
 */
export class TraceReader {
  readonly events: TraceEvent[] = [];
  readonly #v: TraceValidator;
  #line = 0;

  constructor(readonly source = 'trace.jsonl') {
    this.#v = new TraceValidator(source);
  }

  /** Lines read so far (blank ones included): the number of the last line given. */
  get lineNo(): number {
    return this.#line;
  }

  line(text: string): TraceEvent | null {
    const no = ++this.#line;
    if (text.length > MAX_TRACE_LINE_CHARS) throw new TraceParseError(this.source, no, `line of ${text.length} characters is longer than a trace event can be (${MAX_TRACE_LINE_CHARS})`);
    const raw = text.trim();
    if (!raw) return null;
    let obj: unknown;
    try {
      obj = JSON.parse(raw);
    } catch (e) {
      throw new TraceParseError(this.source, no, `not JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    const ev = this.#v.push(obj, no);
    this.events.push(ev);
    return ev;
  }

  end(): ParsedTrace {
    const { complete } = this.#v.finish();
    return { events: migrateTrace(this.events), complete };
  }
}

/**
 * Parses and validates a JSONL trace (strictly: see validate.ts). Errors name the source, line
 * and field. Blank lines are skipped; anything else that is not a valid event is an error
 * (nothing is silently dropped).
 */
export function parseJsonl(text: string, source = 'trace.jsonl'): ParsedTrace {
  const r = new TraceReader(source);
  let at = 0;
  while (at <= text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    r.line(text.slice(at, nl));
    at = nl + 1;
  }
  return r.end();
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
