/**
 * Strict validation of a trace as it is read, one event at a time (so a reader can stream a file
 * of any size): every event by its schema, value ranges, and the structure of a run. The first
 * problem is reported with the source, the line and the field (`TraceParseError`); nothing is
 * dropped or repaired silently. What is checked (docs/trace-format.md, "Validation"):
 *
 *  - types and fields of every event kind (objects may carry extra fields: a later build may add
 *    some; the known ones must be right);
 *  - ranges: probabilities (attempt p and boost, probe rates and item p, mastery values) in
 *    [0, 1]; days within the run's horizon; `run_start.scenario` a valid scenario (so a horizon is
 *    1..60 days and the other fields are bounded); judge scores integers on their rubric's scale,
 *    with every item of the rubric;
 *  - structure: `seq` 0, 1, 2, … with no gap; `t` never decreasing and never past the horizon;
 *    exactly one `run_start` (the first event); at most one `run_end`; only judge events after it
 *    (one `judge_panel`, then its verdicts, each for a judge, rubric and day of the panel, the day
 *    within the days the run lasted); wakes numbered 1, 2, 3, … each pointing back at an earlier
 *    event; tool calls, tutor messages and `turn_end` inside the turn they name.
 *
 * A trace without `run_end` (a run cut short) is valid: it reads as incomplete.
 *
 * The event types and fields are declared once, in schema.ts (the types are inferred from it);
 * this file adds what a schema cannot say: ranges across events and the run's structure.
 */
import { RUBRICS, type RubricId } from '../rubrics/index';
import { SimError } from '../errors';
import { MINUTES_PER_DAY } from '../clock';
import { hashString } from '../rng';
import { extractJsonObject } from '../llm/json';
import { jsonDepth } from '../limits';
import { TRACE_SCHEMA_VERSION, type TraceEvent } from './types';
import { EventSchema } from './schema';

/** Events that a judge panel appends after run_end (the run's own events end at run_end). */
export const JUDGE_EVENT_TYPES: readonly string[] = ['judge_panel', 'judge_verdict'];

/** A line longer than this is refused before it is parsed (the largest events, run_start and a model_call with a 100,000-character reply, are far smaller). */
export const MAX_TRACE_LINE_CHARS = 16 * 1024 * 1024;
/** Deepest nesting of one event (run_start is about 8 levels; tool arguments are bounded at 32 when written). */
export const MAX_EVENT_DEPTH = 64;

export class TraceParseError extends SimError {
  readonly line: number | null;
  /** The field at fault (e.g. "solveRate", "scores.g1_attention", "seq"), when there is one. */
  readonly field: string | null;
  readonly source: string;
  constructor(source: string, line: number | null, message: string, field: string | null = null) {
    super('TRACE_INVALID', `${source}${line !== null ? `:${line}` : ''}: ${message}`);
    this.name = 'TraceParseError';
    this.source = source;
    this.line = line;
    this.field = field;
  }
}

const formatPath = (path: readonly PropertyKey[]): string => {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
};

/** How far a probe's stored rates may be from what its items give (the rates and each p are rounded to 6 decimals). */
const RATE_TOLERANCE = 1e-5;
const roundRate = (x: number) => Math.round(x * 1e6) / 1e6;

/** Where a trace's first problem is: thrown by `TraceValidator`. */
class Bad extends Error {
  constructor(
    readonly field: string | null,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks a trace event by event. `push(obj, line)` validates one parsed JSON value (throwing a
 * TraceParseError naming source, line and field) and returns it as an event; `finish()` checks the
 * whole (not empty) and says whether the run ended.
 */
export class TraceValidator {
  readonly source: string;
  #n = 0;
  #lastT = 0;
  #horizon = 0;
  #nSkills = 0;
  #courseSkills: readonly number[] = [];
  #ended = false;
  #endDays = 0;
  #turn = 0;
  #open: number | null = null;
  #panel: { id: string; judges: Set<string>; rubrics: Map<string, string>; days: Set<number> } | null = null;
  /** The bank's practice items (id → skill, level) and probe ids: attempts and probes are checked against them. */
  #items = new Map<string, { skillId: number; level: number }>();
  #probes: string[] = [];
  /** The parallel form answered at the last probe (day = horizon), when the bank has one. */
  #postProbes: string[] | null = null;
  /** The last day an event names (lms_event, probe): run_end's days may not be before it. */
  #lastDay = 0;
  /** Verdicts seen (judge, rubric, day): a second copy of one is refused. */
  #verdicts = new Set<string>();

  constructor(source = 'trace.jsonl') {
    this.source = source;
  }

  get count(): number {
    return this.#n;
  }

  get complete(): boolean {
    return this.#ended;
  }

  push(obj: unknown, line: number): TraceEvent {
    try {
      return this.#check(obj);
    } catch (e) {
      if (e instanceof Bad) throw new TraceParseError(this.source, line, `invalid event${e.field ? ` at ${e.field}` : ''}: ${e.message}`, e.field);
      throw e;
    }
  }

  finish(): { complete: boolean } {
    if (this.#n === 0) throw new TraceParseError(this.source, null, 'empty trace');
    return { complete: this.#ended };
  }

  #check(obj: unknown): TraceEvent {
    const n = this.#n;
    if (n === 0) {
      // The first event says which schema version the rest is in: a newer one is refused before its events are judged by this build's schema.
      const o = obj as { type?: unknown; schemaVersion?: unknown } | null;
      if (!o || typeof o !== 'object' || o.type !== 'run_start') throw new Bad('type', `the first event must be run_start, found ${o && typeof o === 'object' ? JSON.stringify(o.type ?? null) : JSON.stringify(o)}`);
      if (typeof o.schemaVersion === 'number' && Number.isInteger(o.schemaVersion) && o.schemaVersion > TRACE_SCHEMA_VERSION) {
        throw new Bad('schemaVersion', `trace schema version ${o.schemaVersion} is newer than this build reads (${TRACE_SCHEMA_VERSION}); update EduClaw Lab`);
      }
    }
    // No reader recurses deeper than this (a tool call's arguments 20,000 levels deep, from a build without limits, is refused here, not a stack overflow later).
    if (jsonDepth(obj, MAX_EVENT_DEPTH) > MAX_EVENT_DEPTH) throw new Bad(null, `an event nested more than ${MAX_EVENT_DEPTH} levels deep`);
    const res = EventSchema.safeParse(obj);
    if (!res.success) {
      const iss = res.error.issues[0]!;
      throw new Bad(iss.path.length ? formatPath(iss.path) : null, iss.message);
    }
    // Keep the object as parsed (zod would reorder keys), so export after import is byte-identical.
    const ev = obj as TraceEvent;
    if (ev.seq !== n) throw new Bad('seq', `expected seq ${n}, found ${ev.seq}`);
    if (n > 0 && ev.type === 'run_start') throw new Bad('type', 'a second run_start (a trace holds one run)');
    if (ev.t < this.#lastT) throw new Bad('t', `time goes backwards: t ${ev.t} after t ${this.#lastT}`);
    if (n > 0 && ev.t > this.#horizon * MINUTES_PER_DAY) throw new Bad('t', `t ${ev.t} is after the end of the run's ${this.#horizon} days (t ${this.#horizon * MINUTES_PER_DAY})`);
    const judge = JUDGE_EVENT_TYPES.includes(ev.type);
    if (this.#ended && !judge) throw new Bad('type', `only judge events may follow run_end, found ${ev.type}`);
    if (!this.#ended && judge) throw new Bad('type', 'judge events belong after run_end');
    this.#structure(ev);
    this.#lastT = ev.t;
    this.#n++;
    return ev;
  }

  #day(field: string, d: number, lo = 1): void {
    if (d < lo || d > this.#horizon) throw new Bad(field, `day ${d} is outside the run's days (${lo}..${this.#horizon})`);
  }

  #inTurn(field: string, turn: number, what: string): void {
    if (this.#open !== turn) throw new Bad(field, `${what} of turn ${turn} outside that turn (${this.#open === null ? 'no turn is open' : `turn ${this.#open} is open`})`);
  }

  #structure(ev: TraceEvent): void {
    switch (ev.type) {
      case 'run_start': {
        this.#horizon = ev.scenario.horizonDays;
        this.#nSkills = ev.tracer.nSkills;
        this.#courseSkills = ev.scenario.course.skills;
        if (ev.t !== 0) throw new Bad('t', `run_start is at t 0, found ${ev.t}`);
        // The bank is what every score reads answers and forms from: its content must be what its hash says (an edited, emptied or duplicated item is refused), each id once.
        const bank = ev.itemBank;
        const hash = hashString(JSON.stringify(bank.postProbes ? [bank.items, bank.probes, bank.postProbes] : [bank.items, bank.probes])).toString(16).padStart(8, '0');
        if (hash !== bank.hash) throw new Bad('itemBank.hash', `the item bank's content does not match its hash (${bank.hash}; the content hashes to ${hash}): an item was edited, added or removed`);
        const seen = new Set<string>();
        for (const [list, name] of [[bank.items, 'items'], [bank.probes, 'probes'], [bank.postProbes ?? [], 'postProbes']] as const) {
          for (const [i, it] of list.entries()) {
            if (seen.has(it.id)) throw new Bad(`itemBank.${name}[${i}].id`, `item id "${it.id}" appears twice in the bank`);
            seen.add(it.id);
          }
        }
        this.#items = new Map(bank.items.map((it) => [it.id, { skillId: it.skillId, level: it.level }]));
        this.#probes = bank.probes.map((p) => p.id);
        this.#postProbes = bank.postProbes ? bank.postProbes.map((p) => p.id) : null;
        return;
      }
      case 'lms_event':
        this.#day('day', ev.day);
        this.#lastDay = Math.max(this.#lastDay, ev.day);
        return;
      case 'attempt': {
        const it = this.#items.get(ev.itemId);
        if (!it) throw new Bad('itemId', `an attempt on "${ev.itemId}", which is not an item of the run's bank`);
        if (it.skillId !== ev.skill || it.level !== ev.level) throw new Bad(it.skillId !== ev.skill ? 'skill' : 'level', `item "${ev.itemId}" is skill ${it.skillId} level ${it.level} in the bank, not skill ${ev.skill} level ${ev.level}`);
        return;
      }
      case 'wake':
        if (this.#open !== null) throw new Bad('turn', `a wake while turn ${this.#open} is still open`);
        if (ev.turn !== this.#turn + 1) throw new Bad('turn', `expected turn ${this.#turn + 1}, found ${ev.turn}`);
        if (ev.ref !== null && ev.ref >= ev.seq) throw new Bad('ref', `a wake points back at an earlier event, found ref ${ev.ref} at seq ${ev.seq}`);
        this.#turn = ev.turn;
        this.#open = ev.turn;
        return;
      case 'tool_call':
        this.#inTurn('turn', ev.turn, 'a tool call');
        return;
      case 'message':
        if (ev.from === 'tutor' && ev.turn !== undefined) this.#inTurn('turn', ev.turn, 'a tutor message');
        // What the learner was working on is what answer leakage is matched against: a delivered tutor message always records it.
        if (ev.from === 'tutor' && ev.via !== undefined && ev.workingOn === undefined) throw new Bad('workingOn', 'a tutor message delivered by a tool records the items the learner was working on (workingOn)');
        return;
      case 'turn_end':
        this.#inTurn('turn', ev.turn, 'turn_end');
        this.#open = null;
        return;
      case 'error':
        if (ev.turn !== undefined && this.#open === ev.turn) this.#open = null;
        return;
      case 'mastery': {
        if (ev.values.length !== ev.skills.length) throw new Bad('values', `${ev.values.length} values for ${ev.skills.length} skills`);
        const i = ev.skills.findIndex((s) => s > this.#nSkills);
        if (i >= 0) throw new Bad(`skills[${i}]`, `skill ${ev.skills[i]} is beyond the tracer's ${this.#nSkills} skills`);
        // Scope 'course' (engine 2, after an answer) is the belief over exactly the course's skills, in the course's order.
        if (ev.scope === 'course' && (ev.skills.length !== this.#courseSkills.length || ev.skills.some((x, k) => x !== this.#courseSkills[k]))) {
          throw new Bad('skills', `a mastery event of scope "course" holds the course's skills [${this.#courseSkills.join(', ')}], not [${ev.skills.slice(0, 8).join(', ')}${ev.skills.length > 8 ? ', …' : ''}]`);
        }
        return;
      }
      case 'probe': {
        this.#day('day', ev.day, 0);
        this.#lastDay = Math.max(this.#lastDay, ev.day);
        // The rates are what the items say (the learning-gain axis reads solveRate): recomputed, and refused when they differ.
        const n = ev.items.length;
        // With a parallel form, the last probe (day = horizon) answers it; every other probe the bank's probes.
        const form = this.#postProbes && ev.day === this.#horizon ? this.#postProbes : this.#probes;
        const formName = form === this.#probes ? 'probes' : 'parallel post-probe form (postProbes)';
        if (n !== form.length || ev.items.some((x, i) => x.itemId !== form[i])) throw new Bad('items', `a probe answers the bank's ${form.length} ${formName}, in order (found ${n} items${n ? ` from "${ev.items[0]!.itemId}"` : ''})`);
        const graded = ev.items.filter((x) => x.correct).length / n;
        if (Math.abs(graded - ev.gradedRate) > RATE_TOLERANCE) throw new Bad('gradedRate', `gradedRate ${ev.gradedRate} is not the share of its items answered correctly (${roundRate(graded)})`);
        const ps = ev.items.map((x) => x.p);
        const solve = ps.every((p) => p !== null) ? ps.reduce((a, b) => a + b!, 0) / n : ps.every((p) => p === null) ? graded : null;
        if (solve === null) throw new Bad('items', 'a probe whose items give p for some and not for others');
        if (Math.abs(solve - ev.solveRate) > RATE_TOLERANCE) throw new Bad('solveRate', `solveRate ${ev.solveRate} is not what its items give (${roundRate(solve)}: ${ps[0] === null ? 'the share answered correctly' : 'the mean of their p'})`);
        return;
      }
      case 'run_end':
        if (ev.days > this.#horizon) throw new Bad('days', `${ev.days} days is more than the run's horizon (${this.#horizon})`);
        if (ev.days < this.#lastDay) throw new Bad('days', `the run ended on day ${ev.days} but holds events of day ${this.#lastDay}`);
        if (ev.reason !== 'horizon_reached' && ev.days !== Math.min(this.#horizon, Math.floor(ev.t / MINUTES_PER_DAY) + 1)) throw new Bad('days', `a run that ended ${ev.reason} at t ${ev.t} ended on day ${Math.min(this.#horizon, Math.floor(ev.t / MINUTES_PER_DAY) + 1)}, not ${ev.days}`);
        if (ev.reason === 'horizon_reached' && ev.days !== this.#horizon) throw new Bad('days', `a run that reached its horizon lasted ${this.#horizon} days, not ${ev.days}`);
        this.#ended = true;
        this.#endDays = ev.days;
        return;
      case 'judge_panel': {
        if (this.#panel) throw new Bad('type', 'a second judge_panel (re-judging replaces the panel and its verdicts)');
        const i = ev.days.findIndex((d) => d > Math.min(this.#endDays, this.#horizon));
        if (i >= 0) throw new Bad(`days[${i}]`, `day ${ev.days[i]} is after the last day the run reached (${Math.min(this.#endDays, this.#horizon)})`);
        const r = ev.rubrics.findIndex((x) => !Object.hasOwn(RUBRICS, x.id));
        if (r >= 0) throw new Bad(`rubrics[${r}].id`, `unknown rubric "${ev.rubrics[r]!.id}"`);
        this.#panel = { id: ev.panel, judges: new Set(ev.judges.map((j) => j.id)), rubrics: new Map(ev.rubrics.map((x) => [x.id, x.version])), days: new Set(ev.days) };
        return;
      }
      case 'judge_verdict': {
        const p = this.#panel;
        if (!p) throw new Bad('type', 'a judge_verdict before its judge_panel');
        if (ev.panel !== p.id) throw new Bad('panel', `verdict of panel "${ev.panel}", but the panel is "${p.id}"`);
        if (!p.judges.has(ev.judge)) throw new Bad('judge', `judge "${ev.judge}" is not on the panel`);
        if (!p.rubrics.has(ev.rubric)) throw new Bad('rubric', `rubric "${ev.rubric}" is not one the panel judged`);
        if (!p.days.has(ev.day)) throw new Bad('day', `day ${ev.day} is not a day the panel judged (${[...p.days].join(', ')})`);
        if (ev.rubricVersion !== p.rubrics.get(ev.rubric)) throw new Bad('rubricVersion', `verdict of ${ev.rubric} version "${ev.rubricVersion}", but the panel judged version "${p.rubrics.get(ev.rubric)}"`);
        const key = JSON.stringify([ev.judge, ev.rubric, ev.day]);
        if (this.#verdicts.has(key)) throw new Bad('type', `a second verdict of judge "${ev.judge}" on ${ev.rubric}, day ${ev.day} (each judge gives one per rubric and day)`);
        this.#verdicts.add(key);
        const rubric = RUBRICS[ev.rubric as RubricId];
        if (ev.status === 'unscored') {
          if (ev.scores !== null || ev.holds !== null) throw new Bad(ev.scores !== null ? 'scores' : 'holds', 'an unscored verdict carries no score');
          return;
        }
        // A scored verdict is what the judge's recorded reply says (raw, kept whole up to 4,000 characters): cross-checked.
        if (ev.raw === null) throw new Bad('raw', 'a scored verdict keeps the judge\'s reply it was scored from');
        const reply = ev.raw.length > 4000 ? null : extractJsonObject(ev.raw);
        const said = reply?.ok && reply.value && typeof reply.value === 'object' ? (reply.value as Record<string, unknown>) : null;
        if (reply && !said) throw new Bad('raw', `a scored verdict whose recorded reply holds no JSON object`);
        if (rubric.kind === 'binary') {
          if (ev.holds === null) throw new Bad('holds', `a scored ${rubric.id} verdict says whether the answers were held (true or false)`);
          if (ev.scores !== null) throw new Bad('scores', `a ${rubric.id} verdict has no item scores`);
          if (said && said.held !== ev.holds) throw new Bad('holds', `holds ${ev.holds} is not what the judge's recorded reply says (${JSON.stringify(said.held ?? null)})`);
          return;
        }
        if (ev.holds !== null) throw new Bad('holds', `a ${rubric.id} verdict has item scores, not holds`);
        if (!ev.scores) throw new Bad('scores', `a scored ${rubric.id} verdict has a score for each of its ${rubric.items.length} items`);
        for (const it of rubric.items) {
          const v = ev.scores[it.id];
          if (v === undefined) throw new Bad(`scores.${it.id}`, `missing: a scored ${rubric.id} verdict scores all ${rubric.items.length} items`);
          if (!Number.isInteger(v) || v < rubric.min || v > rubric.max) throw new Bad(`scores.${it.id}`, `${v} is not an integer on the ${rubric.id} scale (${rubric.min}..${rubric.max})`);
        }
        const extra = Object.keys(ev.scores).find((k) => !rubric.items.some((it) => it.id === k));
        if (extra !== undefined) throw new Bad(`scores.${extra}`, `not an item of ${rubric.id}`);
        const differs = said ? rubric.items.find((it) => said[it.id] !== ev.scores![it.id]) : undefined;
        if (differs) throw new Bad(`scores.${differs.id}`, `${ev.scores[differs.id]} is not what the judge's recorded reply says (${JSON.stringify(said![differs.id] ?? null)})`);
        return;
      }
    }
  }
}
