/**
 * Property-based fuzzing (fast-check, fixed seeds) of the three places hostile input enters: the
 * scenario parser, the trace reader and the tutors' tool-argument validation. Each campaign draws
 * `numRuns` cases, judges every outcome and returns a tally; on any case that crashed, came out
 * silently wrong or lost data, it shrinks it with fast-check and returns the shrunk
 * counterexample (to be kept as a regression test). Used by `src/testing/fuzz.test.ts` (a few
 * hundred cases, part of `npm test`) and by `npm run test:faults` (thousands; docs/reliability.md).
 *
 * Outcomes:
 *  - completed: accepted, and everything checked about the result holds;
 *  - clear error: refused with the expected error kind, naming file, line and field;
 *  - crashed: any other exception, or a refusal that does not say where (no line or field);
 *  - silently wrong: accepted, but the result breaks a bound or rule (an impossible score, an
 *    unknown tracer, an action whose arguments its schema refuses, …);
 *  - data lost: accepted, but what was read differs from what was written.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import {
  JUDGED_AXES,
  MockLlm,
  PANEL_DEFAULTS,
  PLAY_WAKE_ON,
  PlayDriver,
  SCENARIO_LIMITS,
  ScenarioError,
  ScenarioSchema,
  TOOLS,
  TOOL_NAMES,
  TRACER_NAMES,
  TraceParseError,
  judgeTrace,
  openRun,
  parseJsonl,
  parseScenario,
  runRecord,
  scoreTrace,
  toJsonl,
  withVerdicts,
  type ChatRequest,
  type MockReply,
  type TraceEvent,
  type Turn,
} from '../core/index';
import { MINI_PATH, bktEnv, miniScenario, onBkt, runWith } from './fixtures';

export interface Tally {
  name: string;
  tried: number;
  completed: number;
  clearError: number;
  crashed: number;
  silentlyWrong: number;
  dataLost: number;
  /** Shrunk counterexamples (one per failing property), as JSON. */
  counterexamples: string[];
  /** A few outcomes that were not completed or a clear error, with why. */
  notes: string[];
  /** Cases whose fault landed (a kill before the run ended, a payload the page received); default: the cases not completed. A row with none fails the suite. */
  fired?: number;
}

type Outcome = { kind: 'completed' | 'clearError' | 'crashed' | 'silentlyWrong' | 'dataLost'; why?: string };

function tally(name: string): Tally {
  return { name, tried: 0, completed: 0, clearError: 0, crashed: 0, silentlyWrong: 0, dataLost: 0, counterexamples: [], notes: [] };
}

async function campaign<T>(name: string, arb: fc.Arbitrary<T>, judge: (x: T) => Outcome | Promise<Outcome>, numRuns: number, seed: number): Promise<Tally> {
  const t = tally(name);
  for (const x of fc.sample(arb, { numRuns, seed })) {
    const o = await judge(x);
    t.tried++;
    t[o.kind]++;
    if (o.kind !== 'completed' && o.kind !== 'clearError' && t.notes.length < 5) t.notes.push(`${o.kind}: ${o.why ?? ''}`);
  }
  if (t.crashed + t.silentlyWrong + t.dataLost > 0) {
    const r = await fc.check(
      fc.asyncProperty(arb, async (x) => {
        const o = await judge(x);
        return o.kind === 'completed' || o.kind === 'clearError';
      }),
      { numRuns, seed },
    );
    if (r.failed && r.counterexample) t.counterexamples.push(JSON.stringify(r.counterexample[0]).slice(0, 4000));
  }
  return t;
}

const text = (max: number) => fc.string({ unit: 'grapheme', maxLength: max });
/** Values that break parsers: huge and tiny numbers, wrong types, long strings, YAML specials. */
const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(5, -1, 0, 1e9, 1e12, -1e12, 2.5, 1e308, '', 'x'.repeat(120_000), 'dkt', 'akt', 'bkt', null, true, [], {}, '*a', '&a x', '<<', '~', '.nan', '.inf'),
  fc.integer(),
  fc.double({ noNaN: true }),
  text(40),
);

function leafPaths(o: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (o && typeof o === 'object') {
    const entries = Array.isArray(o) ? o.map((v, i) => [i, v] as const) : Object.entries(o);
    if (entries.length === 0) out.push(prefix);
    for (const [k, v] of entries) leafPaths(v, [...prefix, k], out);
  } else out.push(prefix);
  return out;
}
function setAt(o: unknown, path: readonly (string | number)[], v: unknown, remove = false): unknown {
  if (path.length === 0) return v;
  const copy = (Array.isArray(o) ? [...(o as unknown[])] : { ...(o as object) }) as Record<string | number, unknown>;
  const [k, ...rest] = path as [string | number, ...(string | number)[]];
  if (rest.length === 0 && remove) {
    if (Array.isArray(copy)) (copy as unknown[]).splice(Number(k), 1);
    else delete copy[k];
  } else copy[k] = setAt(copy[k], rest, v, remove);
  return copy;
}

// ---------------------------------------------------------------- scenario parser

const GOOD_YAML = readFileSync(MINI_PATH, 'utf8');
const GOOD_OBJ = parseYaml(GOOD_YAML) as unknown;
const SCENARIO_PATHS = leafPaths(GOOD_OBJ);

const scenarioText: fc.Arbitrary<string> = fc.oneof(
  // A structural change: one field set to a hostile value, or removed, or a key added.
  fc.record({ p: fc.constantFrom(...SCENARIO_PATHS), v: nasty, remove: fc.boolean() }).map(({ p, v, remove }) => stringifyYaml(setAt(GOOD_OBJ, p, v, remove))),
  fc.record({ p: fc.constantFrom(...SCENARIO_PATHS), k: fc.constantFrom('extra', 'tracer', 'voice', 'tutor', '<<'), v: nasty }).map(({ p, k, v }) => stringifyYaml(setAt(GOOD_OBJ, [...p.slice(0, -1), k], v))),
  // A textual change: a line replaced, duplicated, dropped, or text inserted anywhere.
  fc.record({ i: fc.nat(), s: text(60), op: fc.constantFrom('replace', 'insert', 'dup', 'drop') }).map(({ i, s, op }) => {
    const ls = GOOD_YAML.split('\n');
    const at = i % ls.length;
    if (op === 'replace') ls[at] = s;
    else if (op === 'insert') ls.splice(at, 0, s);
    else if (op === 'dup') ls.splice(at, 0, ls[at]!);
    else ls.splice(at, 1);
    return ls.join('\n');
  }),
  fc.record({ at: fc.nat(), s: fc.constantFrom('&a', '*a', '*nowhere', '"', "'", '[', '{', ': :', '\t', '- ', '? ', '!!binary x', '%YAML 1.1\n---\n', '---\n', '\u0000', '\uFEFF') }).map(({ at, s }) => {
    const k = at % (GOOD_YAML.length + 1);
    return GOOD_YAML.slice(0, k) + s + GOOD_YAML.slice(k);
  }),
  text(300),
);

export function judgeScenario(yamlText: string): Outcome {
  try {
    const s = parseScenario(yamlText, 'fuzz.yaml');
    const ok = ScenarioSchema.safeParse(s);
    if (!ok.success) return { kind: 'silentlyWrong', why: `accepted a scenario its schema refuses: ${ok.error.issues[0]?.message}` };
    if (!(TRACER_NAMES as readonly string[]).includes(s.learner.tracer)) return { kind: 'silentlyWrong', why: `accepted tracer "${s.learner.tracer}"` };
    if (s.id.length > SCENARIO_LIMITS.idChars) return { kind: 'silentlyWrong', why: `accepted an id of ${s.id.length} characters` };
    return { kind: 'completed' };
  } catch (e) {
    if (!(e instanceof ScenarioError)) return { kind: 'crashed', why: `${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`.slice(0, 300) };
    const bad = e.issues.find((i) => !i.path || !(Number(i.line) > 0) || !i.message);
    if (bad || e.message.includes('(root)') || !e.message.startsWith('fuzz.yaml: ')) return { kind: 'crashed', why: `an error that does not say where: ${e.message.slice(0, 300)}` };
    return { kind: 'clearError' };
  }
}

export function fuzzScenarios(numRuns: number, seed = 16): Promise<Tally> {
  return campaign('scenario parser (fuzzed YAML)', scenarioText, judgeScenario, numRuns, seed);
}

// ---------------------------------------------------------------- trace reader

/** A judge that gives `value` on every item of the rubric it is asked. */
const judgeReply = (value: number) => (req: ChatRequest): MockReply => {
  const sys = req.messages[0]!.content ?? '';
  if (sys.includes('"held"')) return { content: JSON.stringify({ held: true, evidence: '' }) };
  const keys = [...sys.matchAll(/"(\w+)": <integer (\d+)-(\d+)>/g)].map((m) => [m[1]!, Math.min(Number(m[3]), Math.max(Number(m[2]), value))] as const);
  return { content: JSON.stringify(Object.fromEntries(keys)) };
};

/** A judged run of the 3-day fixture (the base every trace mutation starts from). */
export async function baseTrace(): Promise<TraceEvent[]> {
  const res = await runWith(miniScenario(), 'planner', { seed: 3 });
  const judges = [3, 4].map((v, i) => ({ id: `j${i}`, client: new MockLlm(judgeReply(v), { model: `m${i}`, family: `f${i}` }) }));
  const out = await judgeTrace(res.events, { ...PANEL_DEFAULTS, id: 'p', judges, daysPerRun: null });
  return withVerdicts(res.events, out.events);
}

type TraceMutation =
  | { op: 'set' | 'remove'; i: number; p: number; v: unknown }
  | { op: 'swap' | 'dup' | 'drop'; i: number; j: number; renumber: boolean }
  | { op: 'cut'; i: number; at: number }
  | { op: 'insert'; i: number; s: string };

const traceMutation: fc.Arbitrary<TraceMutation> = fc.oneof(
  fc.record({ op: fc.constantFrom('set' as const, 'remove' as const), i: fc.nat(), p: fc.nat(), v: nasty }),
  fc.record({ op: fc.constantFrom('swap' as const, 'dup' as const, 'drop' as const), i: fc.nat(), j: fc.nat(), renumber: fc.boolean() }),
  fc.record({ op: fc.constant('cut' as const), i: fc.nat(), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), i: fc.nat(), s: fc.oneof(text(80), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v))) }),
);

export function applyTraceMutation(lines: readonly string[], m: TraceMutation): string {
  const ls = [...lines];
  const i = m.i % ls.length;
  switch (m.op) {
    case 'set':
    case 'remove': {
      const o = JSON.parse(ls[i]!) as unknown;
      const paths = leafPaths(o).filter((p) => p.length > 0);
      const p = paths[m.p % paths.length]!;
      ls[i] = JSON.stringify(setAt(o, p, m.v, m.op === 'remove'));
      break;
    }
    case 'swap':
    case 'dup':
    case 'drop': {
      const j = m.j % ls.length;
      if (m.op === 'swap') [ls[i], ls[j]] = [ls[j]!, ls[i]!];
      else if (m.op === 'dup') ls.splice(j, 0, ls[i]!);
      else ls.splice(i, 1);
      if (m.renumber) for (let k = 0; k < ls.length; k++) ls[k] = JSON.stringify({ ...(JSON.parse(ls[k]!) as object), seq: k });
      break;
    }
    case 'cut':
      ls[i] = ls[i]!.slice(0, m.at % Math.max(1, ls[i]!.length));
      break;
    case 'insert':
      ls.splice(i, 0, m.s);
      break;
  }
  return ls.join('\n') + '\n';
}

const inUnit = (x: number | null | undefined) => x === null || x === undefined || (Number.isFinite(x) && x >= 0 && x <= 1);

/** What must hold of any trace the reader accepts, checked independently of the reader. */
export function traceInvariants(events: readonly TraceEvent[]): string | null {
  if (events[0]?.type !== 'run_start') return 'does not start with run_start';
  let ended = false;
  for (let k = 0; k < events.length; k++) {
    const e = events[k]!;
    if (e.seq !== k) return `seq ${e.seq} at position ${k}`;
    if (k > 0 && e.t < events[k - 1]!.t) return `t goes backwards at seq ${k}`;
    if (k > 0 && e.type === 'run_start') return 'a second run_start';
    if (ended && e.type !== 'judge_panel' && e.type !== 'judge_verdict') return `${e.type} after run_end`;
    if (e.type === 'run_end') ended = true;
  }
  const r = scoreTrace(events);
  if (r.learningGain !== null && !(Number.isFinite(r.learningGain) && Math.abs(r.learningGain) <= 1)) return `learning gain ${r.learningGain}`;
  for (const k of ['responsiveness', 'leakage', 'independence', 'extraction'] as const) if (!inUnit(r[k])) return `${k} ${r[k]}`;
  if (!r.dailySolveRate.every(inUnit)) return `a daily solve rate outside [0, 1]`;
  if (!r.curve.every((c) => inUnit(c.solveRate) && inUnit(c.gradedRate))) return 'a curve point outside [0, 1]';
  for (const a of JUDGED_AXES) {
    const v = r.judged[a];
    if (v !== null && !(Number.isFinite(v) && v >= 0 && v <= 10)) return `judged ${a} = ${v}`;
  }
  return null;
}

export function judgeTraceText(text: string): Outcome {
  let events: TraceEvent[];
  try {
    events = parseJsonl(text, 'fuzz.jsonl').events;
  } catch (e) {
    if (e instanceof TraceParseError && e.message.startsWith('fuzz.jsonl') && (e.line !== null || /empty trace/.test(e.message))) return { kind: 'clearError' };
    return { kind: 'crashed', why: `${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`.slice(0, 300) };
  }
  try {
    const bad = traceInvariants(events);
    if (bad) return { kind: 'silentlyWrong', why: bad };
  } catch (e) {
    return { kind: 'crashed', why: `scoring an accepted trace threw ${e instanceof Error ? e.message : String(e)}`.slice(0, 300) };
  }
  // Reading never changes what was written.
  const written = text.split('\n').filter((l) => l.trim()).map((l) => JSON.stringify(JSON.parse(l))).join('\n') + '\n';
  if (toJsonl(events) !== written) return { kind: 'dataLost', why: 'the events read differ from the lines written' };
  return { kind: 'completed' };
}

export async function fuzzTraces(numRuns: number, seed = 16): Promise<Tally> {
  const lines = toJsonl(await baseTrace()).trim().split('\n');
  return campaign('trace reader (mutated traces)', traceMutation.map((m) => applyTraceMutation(lines, m)), judgeTraceText, numRuns, seed);
}

// ---------------------------------------------------------------- tool arguments

const toolCall = fc.record({
  name: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...TOOL_NAMES) }, { weight: 1, arbitrary: fc.oneof(text(20), fc.constantFrom('', 'rm -rf', '__proto__', 'constructor', 'get_gradebook ', 'GET_GRADEBOOK')) }),
  args: fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(fc.constantFrom('skill_id', 'item_id', 'last_n', 'status', 'text', 'level', 'reason', 'items', 'title', 'body', 'due', 'kind', '__proto__', 'constructor'), nasty, { maxKeys: 4 }),
    fc.oneof(text(60), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)), fc.constantFrom('{', '{"skill_id":', '[]', 'null', '"x"', '{"last_n": 1e400}')),
  ),
});

/**
 * Calls tools with fuzzed names and arguments inside real turns of a played run (the same turn
 * rules an LLM tutor's calls go through). Every call must return a result (ok, or an error with
 * a code and a message); an accepted call's arguments must satisfy its schema; the run's trace
 * must still read strictly at the end.
 */
export async function fuzzToolArgs(numRuns: number, seed = 16): Promise<Tally> {
  const cases = fc.sample(toolCall, { numRuns, seed });
  const t = tally('tool-argument validation (fuzzed calls)');
  const byName = new Map(TOOLS.map((d) => [d.name, d] as const));
  const sc = onBkt(miniScenario());
  const scenario = { ...sc, tutor: { ...sc.tutor, maxToolCallsPerTurn: 200 } };
  let run: Awaited<ReturnType<typeof openRun>> | null = null;
  let play: PlayDriver | null = null;
  let turn: Turn | null = null;
  let runs = 0;
  const traces: TraceEvent[][] = [];
  const finish = async () => {
    if (!run || !play) return;
    if (!play.ended) await play.stop(new Error('fuzz campaign moves on'));
    traces.push(run.session.result().events);
  };
  for (const c of cases) {
    if (!turn) {
      await finish();
      run = await openRun(runRecord({ scenario, tutor: { name: 'human', config: {} }, seed: 100 + runs++, wakeOn: [...PLAY_WAKE_ON] }), bktEnv());
      play = new PlayDriver(run.session);
      turn = await play.start();
    }
    t.tried++;
    let o: Outcome;
    try {
      const r = turn!.tools.call(c.name, c.args);
      if (r.ok) {
        const def = byName.get(c.name);
        let args: unknown = c.args;
        if (typeof args === 'string') args = args.trim() === '' ? {} : JSON.parse(args);
        o = !def ? { kind: 'silentlyWrong', why: `unknown tool "${c.name}" accepted` } : def.args.safeParse(args ?? {}).success ? { kind: 'completed' } : { kind: 'silentlyWrong', why: `${c.name} accepted arguments its schema refuses: ${JSON.stringify(c.args).slice(0, 200)}` };
      } else o = r.error.code && r.error.message ? { kind: 'clearError' } : { kind: 'crashed', why: `an error without code or message: ${JSON.stringify(r)}` };
      if (!r.ok && (r.error.code === 'TURN_LIMIT' || /stay_silent/.test(r.error.message))) turn = await play!.endTurn();
    } catch (e) {
      o = { kind: 'crashed', why: `${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`.slice(0, 300) };
      turn = null;
    }
    t[o.kind]++;
    if (o.kind !== 'completed' && o.kind !== 'clearError' && t.notes.length < 5) t.notes.push(`${o.kind}: ${o.why ?? ''}`);
    // Move the world on now and then, so calls land in many states of the run.
    if (turn && t.tried % 40 === 0) turn = await play!.endTurn();
  }
  await finish();
  for (const ev of traces) {
    try {
      const back = parseJsonl(toJsonl(ev), 'fuzzed-run.jsonl');
      if (toJsonl(back.events) !== toJsonl(ev)) {
        t.dataLost++;
        t.notes.push('dataLost: the fuzzed run trace changed on reading');
      }
    } catch (e) {
      t.silentlyWrong++;
      t.notes.push(`silentlyWrong: the fuzzed run wrote a trace the reader refuses: ${(e as Error).message.slice(0, 300)}`);
    }
  }
  if (t.crashed + t.silentlyWrong > 0) t.counterexamples.push(...t.notes.slice(0, 3));
  return t;
}
