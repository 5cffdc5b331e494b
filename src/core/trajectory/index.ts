/**
 * Trajectories to train on: the tutor's side of a run in the common chat format (OpenAI's
 * messages with tool calls and tool results), one JSONL line per turn or per run, with the run's
 * per-day and per-turn signals beside the messages, so a user can build rewards (learning gain,
 * leakage, independence, responsiveness, judged scores). Format: docs/bring-your-own-tutor.md
 * ("Trajectories"); `TrajectoryLineSchema` is it, as code.
 *
 * Messages hold only what the tutor could see: the system prompt, each wake in the words an LLM
 * tutor reads (`wakeText`, rebuilt from the trace), its tool calls and the tools' results. Never
 * the learner model's state (mastery, P(correct), probes), the persona, or whether an answer was
 * copied; those are in `signals` only as outcomes (solve rates, gains), never in a message.
 *
 * How the assistant messages are made: where the trace recorded the tutor's replies (an LLM
 * tutor's `*:step` model calls, the HTTP tutor's `http:*` tries), each reply is one assistant
 * message with its tool calls as the model or agent wrote them (ids, argument text), followed by a
 * tool message per call; tool calls made outside a recorded reply (built-in tutors, MCP agents, a
 * person, a harness's own reads) become one assistant message per call. A turn ends with the
 * tutor's last message (a reply without tool calls, or the result of its last call); a turn in
 * which the tutor did nothing at all is one empty assistant message.
 *
 * Rewards (`rewardParts`, REWARD_WEIGHTS): per turn, the day's probe gain shared among the day's
 * turns, minus weights for a leaking turn, an unanswered help request and each tool error; `return`
 * is the turn's reward plus the later turns' (undiscounted); `advantage` is the run's total
 * against the other runs of the same simulated student in the export (GRPO style:
 * `withAdvantages`).
 */
import { z } from 'zod';
import { hashString } from '../rng';
import type { EventOf, RunStartEvent, TraceEvent } from '../trace/types';
import type { WakeEventKind } from '../scenario/schema';
import { ACTION_KINDS } from '../trace/types';
import { MINUTES_PER_DAY } from '../clock';
import type { TutorContext, Wake } from '../tutors/types';
import { LMS_TOOL_SPECS, resultText, wakeText } from '../tutors/llm/loop';
import { TUTOR_SYSTEM } from '../tutors/llm/prompts';
import { helpRequests, nextTurns, tutorTurns } from '../scoring/metrics';
import { scoreTrace } from '../scoring/report';
import { AXES, type AxisId } from '../scoring/axes';
import { tutorLabel } from '../trace/tutor-label';
import { RUBRICS, type RubricId } from '../rubrics/index';
import { verdictValue } from '../judges/aggregate';
import type { JudgedAxis } from '../rubrics/index';
import { externalParts } from '../tutors/external/protocol';

/**
 * v2 (issue 35): `tutor.model` and `tutor.harness` are strings ("" for none) and the tutor's config
 * is JSON text (`tutor.config_json`), so files of different tutors load and concatenate as one
 * table (Arrow: a column is one type); `sample_id` tells apart runs that share a run id; `group`
 * and `split` keep the turns of one simulated student on one side of a split.
 * v3 (issue 35): `reward`, `reward_parts`, `return`, `advantage`, `group_size`; the per-turn
 * signal `malformed_args`; no empty assistant message after a turn's last tool result; the
 * prompt/completion form (`form: 'prompt_completion'`).
 */
export const TRAJECTORY_FORMAT = 'educlaw-trajectory/3';

/**
 * The default reward's weights: a turn's reward is gain × (the day's probe gain ÷ the day's turns)
 * + leak × (1 if a message of the turn disclosed an answer) + unanswered_help × (1 if the turn was a
 * help request left unanswered) + tool_error × (its tool calls that answered an error). A run's
 * rewards add up to its summed daily gain minus its penalties. `reward_parts` holds each term
 * unweighted, to reweigh.
 */
export const REWARD_WEIGHTS = { gain: 1, leak: -0.1, unanswered_help: -0.05, tool_error: -0.01 } as const;

/** The splits, by a hash of the line's group: about 80% train, 10% validation, 10% test. */
export const TRAJECTORY_SPLITS = ['train', 'validation', 'test'] as const;

const ToolCallSchema = z.object({ id: z.string().min(1), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }).strict() }).strict();
export const ChatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }).strict(),
  z.object({ role: z.literal('user'), content: z.string() }).strict(),
  /** reasoning_content: the model's reasoning, when its provider returned it (recorded replies only). */
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), reasoning_content: z.string().optional(), tool_calls: z.array(ToolCallSchema).min(1).optional() }).strict(),
  z.object({ role: z.literal('tool'), tool_call_id: z.string().min(1), content: z.string() }).strict(),
]);
export type TrajectoryMessage = z.infer<typeof ChatMessageSchema>;

const num = z.number().nullable();
const JUDGED_KEYS = ['helpfulness', 'gagne', 'rosenshine', 'answerHolding', 'pedagogy'] as const satisfies readonly JudgedAxis[];
const JudgedDaySchema = z.object(Object.fromEntries(JUDGED_KEYS.map((k) => [k, num])) as Record<(typeof JUDGED_KEYS)[number], typeof num>).strict();

export const TurnSignalsSchema = z
  .object({
    turn: z.number().int().min(1),
    day: z.number().int().min(1),
    reason: z.string(),
    /** Successful actions (the five action kinds) in this turn. */
    actions: z.number().int().min(0),
    /** Tool calls of this turn that answered an error (UNKNOWN_TOOL, INVALID_ARGS, ILLEGAL, …). */
    tool_errors: z.number().int().min(0),
    /** Failed tries of the tutor's model or agent in this turn (timeouts, malformed replies, …). */
    agent_errors: z.number().int().min(0),
    /** The turn took no action, or only stay_silent. */
    silent: z.boolean(),
    /** A message of this turn contained a declared answer form of an item the learner was working on (the leakage axis). */
    leaked: z.boolean(),
    leaked_items: z.array(z.string()),
    /** The wake was a help request; answered: a tutor message followed it (the responsiveness rule). */
    help_request: z.boolean(),
    help_answered: z.boolean().nullable(),
    /** The learner's next message after this turn's messages attempted a reasoning step of their own (independence); null: no such message. */
    learner_next_step: z.boolean().nullable(),
    /** The turn ended normally (turn_end); false: the run stopped in it. */
    completed: z.boolean(),
    /** Tool calls of this turn whose argument text is not a JSON object (kept as written in the messages; they answered INVALID_ARGS). */
    malformed_args: z.number().int().min(0),
  })
  .strict();
export type TurnSignals = z.infer<typeof TurnSignalsSchema>;

export const DaySignalsSchema = z
  .object({
    day: z.number().int().min(1),
    /** Probe solve rate before the day (the previous day's probe; day 1: the pre-tutor probe), null when not probed. */
    solve_rate_start: num,
    /** Probe solve rate after the day, null when not probed. */
    solve_rate_end: num,
    /** solve_rate_end − solve_rate_start. */
    gain: num,
    /** Tutor turns with messages that day, and those that leaked. */
    tutor_turns: z.number().int().min(0),
    leaking_turns: z.number().int().min(0),
    /** The judge panel's value for the day per judged axis (the panel mean; answer holding: 1 held, 0 not), null: not judged. */
    judged: JudgedDaySchema,
  })
  .strict();
export type DaySignals = z.infer<typeof DaySignalsSchema>;

export const RunSignalsSchema = z
  .object({
    complete: z.boolean(),
    end_reason: z.string().nullable(),
    horizon_days: z.number().int().min(1),
    /** Every axis of the score report (scoring/axes.ts ids), null: unscored. */
    axes: z.record(z.string(), num),
    /** The judge panel that judged the run, null: not judged. */
    panel: z.string().nullable(),
  })
  .strict();
export type RunSignals = z.infer<typeof RunSignalsSchema>;

const ToolSpecSchema = z.object({ type: z.literal('function'), function: z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) }).strict() }).strict();

const common = {
  format: z.literal(TRAJECTORY_FORMAT),
  run_id: z.string(),
  scenario_id: z.string(),
  seed: z.number().int(),
  /** Unique per run (a trace): the run id and a digest of the trace without its judge verdicts. Several runs can share a run id (the same tutor label, scenario and seed: another provider, temperature or sample). */
  sample_id: z.string(),
  /** The simulated student: scenario and seed. Turns (and runs) of one student are correlated: split by group, never by line. */
  group: z.string(),
  /** By a hash of the group: train, validation or test (about 80/10/10). */
  split: z.enum(TRAJECTORY_SPLITS),
  /** harness and model: "" when the tutor has none (built-in tutors). config_json: the tutor's config as JSON text. */
  tutor: z.object({ name: z.string(), config_json: z.string(), label: z.string(), harness: z.string(), model: z.string() }).strict(),
  /** "model_calls": assistant messages from the recorded replies; "tool_calls": made from the tool calls. */
  source: z.enum(['model_calls', 'tool_calls']),
  tools: z.array(ToolSpecSchema),
  /** The line's reward (REWARD_WEIGHTS): a turn's; a run line's, the run's total. */
  reward: z.number(),
  /** The reward's terms, unweighted: the turn's share of the day's gain, 1 if it leaked, 1 if it left a help request unanswered, its tool errors (run line: their sums). */
  reward_parts: z.object({ gain: z.number(), leak: z.number(), unanswered_help: z.number(), tool_errors: z.number() }).strict(),
  /** The reward from this turn to the run's end (undiscounted); a run line: the run's total. */
  return: z.number(),
  /** The run's total reward minus the mean over the runs of its group in the export, divided by their standard deviation (GRPO style); 0 when the group has one run or no spread. */
  advantage: z.number(),
  /** How many runs (sample_ids) of this group the export holds. */
  group_size: z.number().int().min(1),
};
const messagesField = { messages: z.array(ChatMessageSchema).min(2) };

const turnFields = { ...common, kind: z.literal('turn'), turn: z.number().int().min(1), day: z.number().int().min(1), signals: z.object({ turn: TurnSignalsSchema, day: DaySignalsSchema, run: RunSignalsSchema }).strict() };
export const TurnLineSchema = z.object({ ...turnFields, ...messagesField }).strict();
/**
 * A turn in TRL's conversational prompt/completion form (GRPO, KTO): `prompt` is the system and
 * user messages, `completion` the tutor's messages of the turn (assistant and tool), and `label`
 * (KTO) whether the turn is desirable: a positive advantage, or, for a run alone in its group, a
 * positive return.
 */
export const PromptCompletionLineSchema = z
  .object({ ...turnFields, kind: z.literal('turn_pc'), prompt: z.array(ChatMessageSchema).min(2), completion: z.array(ChatMessageSchema).min(1), label: z.boolean() })
  .strict();
export const RunLineSchema = z
  .object({
    ...common,
    ...messagesField,
    kind: z.literal('run'),
    signals: z.object({ run: RunSignalsSchema, days: z.array(DaySignalsSchema), turns: z.array(TurnSignalsSchema.extend({ message_index: z.number().int().min(1) })) }).strict(),
  })
  .strict();
export const TrajectoryLineSchema = z.discriminatedUnion('kind', [TurnLineSchema, RunLineSchema, PromptCompletionLineSchema]);
export type TurnLine = z.infer<typeof TurnLineSchema>;
export type PromptCompletionLine = z.infer<typeof PromptCompletionLineSchema>;
export type RunLine = z.infer<typeof RunLineSchema>;
export type TrajectoryLine = z.infer<typeof TrajectoryLineSchema>;

export interface TrajectoryOptions {
  /** One line per turn (default) or per run. */
  per?: 'turn' | 'run';
  /** The system message (default: the LLM tutors' system prompt for the run's horizon). */
  system?: string;
  /**
   * One tool call per assistant message: a reply with several calls becomes, per call, an
   * assistant message with that call followed by its result (the reply's text and reasoning on the
   * first). For chat templates that take one call per message (Llama 3.1 style).
   */
  oneCallPerMessage?: boolean;
  /** "messages" (default): one `messages` list; "prompt_completion": per turn, `prompt` and `completion` (TRL's GRPO and KTO trainers). */
  form?: 'messages' | 'prompt_completion';
}

/** A turn's messages with every multi-call assistant message split into one call per message, each followed by its result. */
export function oneCallPerMessage(messages: readonly TrajectoryMessage[]): TrajectoryMessage[] {
  const out: TrajectoryMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || !m.tool_calls || m.tool_calls.length < 2) {
      out.push(m);
      continue;
    }
    // The results that follow this message, by call id (the loop answers every call, in order).
    const results = new Map<string, TrajectoryMessage>();
    let j = i + 1;
    for (; j < messages.length; j++) {
      const r = messages[j]!;
      if (r.role !== 'tool' || !m.tool_calls.some((c) => c.id === r.tool_call_id)) break;
      results.set(r.tool_call_id, r);
    }
    const { tool_calls: calls, ...rest } = m;
    calls.forEach((c, k) => {
      out.push(k === 0 ? { ...rest, tool_calls: [c] } : { role: 'assistant', content: null, tool_calls: [c] });
      const r = results.get(c.id);
      if (r) out.push(r);
    });
    i = j - 1;
  }
  return out;
}

/** The tool specs as OpenAI's `tools` parameter. */
export const OPENAI_TOOLS = LMS_TOOL_SPECS.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters as Record<string, unknown> } }));

const dayOfT = (t: number) => Math.floor(t / MINUTES_PER_DAY) + 1;

/**
 * A wake as the tutor got it, rebuilt from the trace: the wake event and the event it points at
 * (its `ref`) give the payload the session handed the tutor.
 */
export function wakeFromTrace(events: readonly TraceEvent[], w: EventOf<'wake'>, horizonDays: number): Wake {
  const ref = w.ref !== null ? events[w.ref] : undefined;
  let payload: Record<string, unknown> = {};
  const reason: WakeEventKind = w.reason;
  if (ref?.type === 'message' && (reason === 'help_request' || reason === 'learner_message')) payload = { message: ref.text, item_id: ref.itemId ?? null };
  else if (ref?.type === 'attempt' && reason === 'submission_graded') payload = { item_id: ref.itemId, assignment_id: ref.assignmentId, correct: ref.correct, response: ref.response };
  else if (ref?.type === 'lms_event') {
    const d = ref.detail ?? {};
    if (reason === 'logout') payload = { why: d.why };
    else if (reason === 'assignment_due') payload = { assignment_id: d.assignmentId, due_in_minutes: (typeof d.dueAt === 'number' ? d.dueAt : w.t) - w.t };
    else if (reason === 'assignment_missed') payload = { assignment_id: d.assignmentId };
  }
  return { reason, turn: w.turn, day: dayOfT(w.t), horizonDays, t: w.t, payload };
}

interface TurnBuild {
  turn: number;
  wake: EventOf<'wake'>;
  messages: TrajectoryMessage[];
  fromReplies: boolean;
  signals: TurnSignals;
}

const isStep = (e: EventOf<'model_call'>) => e.role === 'tutor' && (/:step$/.test(e.purpose) || (e.provider === 'http' && e.purpose.startsWith('http:')));

/** The assistant text of a recorded reply: a model's content; an HTTP agent's `note`. */
function replyText(e: EventOf<'model_call'>): string | null {
  const c = e.response?.content ?? null;
  if (e.provider !== 'http' || c === null) return c;
  try {
    const j = JSON.parse(c) as { note?: unknown };
    return typeof j.note === 'string' ? j.note : null;
  } catch {
    return null;
  }
}

/** What the LLM loop answers a call made after its turn ended (loop.ts). */
const TURN_OVER = resultText({ ok: false, error: { code: 'TURN_OVER', message: 'your turn ended before this call; it was not run' } });

/** The messages of one turn (after the user message), from its model calls and tool calls in order. */
function turnMessages(turnEvents: readonly TraceEvent[], turn: number): { messages: TrajectoryMessage[]; fromReplies: boolean; agentErrors: number } {
  const out: TrajectoryMessage[] = [];
  let pending: { id: string; name: string }[] = [];
  let fromReplies = false;
  let agentErrors = 0;
  let synth = 0;
  const flush = () => {
    for (const p of pending) out.push({ role: 'tool', tool_call_id: p.id, content: TURN_OVER });
    pending = [];
  };
  for (const e of turnEvents) {
    if (e.type === 'model_call' && isStep(e)) {
      if (e.response === null || e.error) {
        agentErrors++;
        continue;
      }
      flush();
      fromReplies = true;
      const calls = e.response.toolCalls;
      out.push({ role: 'assistant', content: replyText(e), ...(e.response.reasoning !== undefined ? { reasoning_content: e.response.reasoning } : {}), ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}) });
      pending = calls.map((c) => ({ id: c.id, name: c.name }));
    } else if (e.type === 'tool_call') {
      const p = pending[0];
      if (p && p.name === e.tool) {
        pending.shift();
        out.push({ role: 'tool', tool_call_id: p.id, content: resultText(e.result) });
      } else {
        flush();
        const id = `call_t${turn}_${synth++}`;
        out.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: e.tool, arguments: typeof e.args === 'string' ? e.args : JSON.stringify(e.args ?? {}) } }] });
        out.push({ role: 'tool', tool_call_id: id, content: resultText(e.result) });
      }
    }
  }
  flush();
  // A turn in which the tutor did nothing is one empty assistant message (it chose to say nothing);
  // otherwise the turn ends with its last message: no empty reply is made up after a tool result.
  if (!out.length) out.push({ role: 'assistant', content: '' });
  return { messages: out, fromReplies, agentErrors };
}

/** Per-day signals of a run (days 1..last day reached). */
export function daySignals(events: readonly TraceEvent[]): DaySignals[] {
  const start = events[0] as RunStartEvent;
  const probes = new Map(events.flatMap((e) => (e.type === 'probe' ? [[e.day, e.solveRate] as const] : [])));
  const turns = tutorTurns(events);
  const dayOfTurn = new Map(events.flatMap((e) => (e.type === 'wake' ? [[e.turn, dayOfT(e.t)] as const] : [])));
  const verdicts = events.filter((e): e is EventOf<'judge_verdict'> => e.type === 'judge_verdict');
  const end = events.find((e) => e.type === 'run_end');
  const lastT = events[events.length - 1]?.t ?? 0;
  const lastDay = end?.type === 'run_end' ? Math.max(1, end.days) : Math.min(start.scenario.horizonDays, dayOfT(lastT));
  const out: DaySignals[] = [];
  for (let d = 1; d <= lastDay; d++) {
    const s0 = probes.get(d - 1) ?? null;
    const s1 = probes.get(d) ?? null;
    const judged = Object.fromEntries(JUDGED_KEYS.map((k) => [k, null])) as DaySignals['judged'];
    for (const rid of Object.keys(RUBRICS) as RubricId[]) {
      const r = RUBRICS[rid];
      const vals = verdicts.filter((v) => v.rubric === rid && v.day === d).map(verdictValue).filter((x): x is number => x !== null);
      if (!vals.length) continue;
      if (r.kind === 'binary') {
        const yes = vals.filter((x) => x === 1).length;
        if (yes * 2 !== vals.length) judged[r.axis] = yes * 2 > vals.length ? 1 : 0;
      } else judged[r.axis] = vals.reduce((a, b) => a + b, 0) / vals.length;
    }
    const mine = turns.filter((t) => (t.turn > 0 ? dayOfTurn.get(t.turn) : undefined) === d);
    out.push({ day: d, solve_rate_start: s0, solve_rate_end: s1, gain: s0 !== null && s1 !== null ? s1 - s0 : null, tutor_turns: mine.length, leaking_turns: mine.filter((t) => t.leaks.length > 0).length, judged });
  }
  return out;
}

export function runSignals(events: readonly TraceEvent[]): RunSignals {
  const start = events[0] as RunStartEvent;
  const report = scoreTrace(events);
  const axes = Object.fromEntries(AXES.map((a) => [a.id, a.value(report)])) as Record<AxisId, number | null>;
  return { complete: report.endReason === 'horizon_reached', end_reason: report.endReason, horizon_days: start.scenario.horizonDays, axes, panel: report.details.judged?.panel?.id ?? null };
}

/** Harness and model of the run's tutor (LLM: from its config; external: "mcp:<agent>"/"http:<name>" and what it reports). */
function harnessModel(start: RunStartEvent): { harness: string | null; model: string | null } {
  const c = start.tutor.config ?? {};
  const ext = externalParts(start.tutor.name, c);
  if (ext) return ext;
  return { harness: typeof c.harness === 'string' ? c.harness : null, model: typeof c.model === 'string' ? c.model : null };
}

/** Every turn of a trace with its messages and signals. */
function buildTurns(events: readonly TraceEvent[]): TurnBuild[] {
  const start = events[0] as RunStartEvent;
  const horizon = start.scenario.horizonDays;
  const byTurn = new Map<number, TraceEvent[]>();
  for (const e of events) {
    const turn = e.type === 'tool_call' || e.type === 'model_call' ? e.turn : undefined;
    if (turn !== undefined) byTurn.set(turn, [...(byTurn.get(turn) ?? []), e]);
  }
  const ended = new Set(events.flatMap((e) => (e.type === 'turn_end' ? [e.turn] : [])));
  const leaks = new Map(tutorTurns(events).map((t) => [t.turn, t]));
  const help = new Map(helpRequests(events).map((h) => [h.seq, h]));
  const tutorMsgTurn = new Map(events.flatMap((e) => (e.type === 'message' && e.from === 'tutor' && e.turn !== undefined ? [[e.seq, e.turn] as const] : [])));
  const next = new Map<number, boolean>();
  for (const n of nextTurns(events)) {
    const t = tutorMsgTurn.get(n.after);
    if (t !== undefined) next.set(t, n.step);
  }
  const out: TurnBuild[] = [];
  for (const w of events) {
    if (w.type !== 'wake') continue;
    const own = byTurn.get(w.turn) ?? [];
    const { messages, fromReplies, agentErrors } = turnMessages(own, w.turn);
    const calls = own.filter((e): e is EventOf<'tool_call'> => e.type === 'tool_call');
    const acts = calls.filter((c) => c.result.ok && (ACTION_KINDS as readonly string[]).includes(c.tool));
    const lt = leaks.get(w.turn);
    const leakedItems = [...new Set((lt?.leaks ?? []).flatMap((l) => l.itemIds))];
    const h = w.reason === 'help_request' && w.ref !== null ? help.get(w.ref) : undefined;
    const wake = wakeFromTrace(events, w, horizon);
    out.push({
      turn: w.turn,
      wake: w,
      messages: [{ role: 'user', content: wakeText({ wake } as TutorContext) }, ...messages],
      fromReplies,
      signals: {
        turn: w.turn,
        day: wake.day,
        reason: w.reason,
        actions: acts.length,
        tool_errors: calls.filter((c) => !c.result.ok).length,
        agent_errors: agentErrors,
        silent: acts.every((c) => c.tool === 'stay_silent'),
        leaked: leakedItems.length > 0,
        leaked_items: leakedItems,
        help_request: w.reason === 'help_request',
        help_answered: h ? h.answeredBy !== null : null,
        learner_next_step: next.get(w.turn) ?? null,
        completed: ended.has(w.turn),
        malformed_args: calls.filter((c) => !isJsonObjectText(c.args)).length,
      },
    });
  }
  return out;
}

/** Arguments as a JSON object (a value, or text that parses to one; empty text counts as {} as runTool reads it). */
function isJsonObjectText(args: unknown): boolean {
  if (typeof args !== 'string') return args === undefined || args === null || (typeof args === 'object' && !Array.isArray(args));
  if (args.trim() === '') return true;
  try {
    const v: unknown = JSON.parse(args);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

type RewardParts = { gain: number; leak: number; unanswered_help: number; tool_errors: number };
const rewardOf = (p: RewardParts) => REWARD_WEIGHTS.gain * p.gain + REWARD_WEIGHTS.leak * p.leak + REWARD_WEIGHTS.unanswered_help * p.unanswered_help + REWARD_WEIGHTS.tool_error * p.tool_errors;

/** Each turn's reward terms: its share of its day's gain (days not probed: 0), leak, unanswered help, tool errors. */
function rewardParts(turns: readonly TurnBuild[], days: readonly DaySignals[]): RewardParts[] {
  const perDay = new Map<number, number>();
  for (const t of turns) perDay.set(t.signals.day, (perDay.get(t.signals.day) ?? 0) + 1);
  return turns.map((t) => ({
    gain: (days[t.signals.day - 1]?.gain ?? 0) / perDay.get(t.signals.day)!,
    leak: t.signals.leaked ? 1 : 0,
    unanswered_help: t.signals.help_answered === false ? 1 : 0,
    tool_errors: t.signals.tool_errors,
  }));
}

/** A digest of the run (its events without judge verdicts, which re-judging replaces): 8 hex digits. */
function runDigest(events: readonly TraceEvent[]): string {
  let text = '';
  for (const e of events) if (e.type !== 'judge_panel' && e.type !== 'judge_verdict') text += JSON.stringify(e) + '\n';
  return hashString(text).toString(16).padStart(8, '0');
}

/** A group's split, from a hash of its name: the same group is always on the same side. */
export function splitOf(group: string): (typeof TRAJECTORY_SPLITS)[number] {
  const b = hashString(`split:${group}`) % 10;
  return b < 8 ? 'train' : b < 9 ? 'validation' : 'test';
}

/** The trajectory lines of one trace (a run's events, judge verdicts included when judged). */
export function trajectories(events: readonly TraceEvent[], o?: TrajectoryOptions & { form?: 'messages' }): (TurnLine | RunLine)[];
export function trajectories(events: readonly TraceEvent[], o: TrajectoryOptions): TrajectoryLine[];
export function trajectories(events: readonly TraceEvent[], o: TrajectoryOptions = {}): TrajectoryLine[] {
  const start = events[0];
  if (!start || start.type !== 'run_start') throw new Error('a trace starts with run_start');
  const horizon = start.scenario.horizonDays;
  const system: TrajectoryMessage = { role: 'system', content: o.system ?? TUTOR_SYSTEM(horizon) };
  const turns = buildTurns(events).map((t) => (o.oneCallPerMessage ? { ...t, messages: oneCallPerMessage(t.messages) } : t));
  const source = turns.some((t) => t.fromReplies) ? ('model_calls' as const) : ('tool_calls' as const);
  const { harness, model } = harnessModel(start);
  const group = `${start.scenario.id}__s${start.scenario.seed}`;
  const head = {
    format: TRAJECTORY_FORMAT,
    run_id: start.runId,
    sample_id: `${start.runId}@${runDigest(events)}`,
    group,
    split: splitOf(group),
    scenario_id: start.scenario.id,
    seed: start.scenario.seed,
    tutor: { name: start.tutor.name, config_json: JSON.stringify(start.tutor.config ?? {}), label: tutorLabel(start.tutor), harness: harness ?? '', model: model ?? '' },
    source,
  } as const;
  const run = runSignals(events);
  const days = daySignals(events);
  const parts = rewardParts(turns, days);
  const rewards = parts.map(rewardOf);
  const total = rewards.reduce((a, b) => a + b, 0);
  const sums = parts.reduce((a, p) => ({ gain: a.gain + p.gain, leak: a.leak + p.leak, unanswered_help: a.unanswered_help + p.unanswered_help, tool_errors: a.tool_errors + p.tool_errors }), { gain: 0, leak: 0, unanswered_help: 0, tool_errors: 0 });
  const dayOf = (d: number): DaySignals => days[d - 1] ?? { day: d, solve_rate_start: null, solve_rate_end: null, gain: null, tutor_turns: 0, leaking_turns: 0, judged: Object.fromEntries(JUDGED_KEYS.map((k) => [k, null])) as DaySignals['judged'] };
  const alone = { advantage: 0, group_size: 1 };
  if ((o.per ?? 'turn') === 'turn') {
    let after = total;
    const lines = turns.map((t, i) => {
      const ret = after;
      after -= rewards[i]!;
      const base = { ...head, kind: 'turn' as const, turn: t.turn, day: t.signals.day, tools: OPENAI_TOOLS, reward: rewards[i]!, reward_parts: parts[i]!, return: ret, ...alone, signals: { turn: t.signals, day: dayOf(t.signals.day), run } };
      return { ...base, messages: [system, ...t.messages] };
    });
    if (o.form !== 'prompt_completion') return lines;
    return lines.map(({ messages, ...l }) => ({ ...l, kind: 'turn_pc' as const, prompt: messages.slice(0, 2), completion: messages.slice(2), label: l.return > 0 }));
  }
  if (o.form === 'prompt_completion') throw new Error('the prompt/completion form is one line per turn: a run has many prompts (use per: "turn")');
  const messages: TrajectoryMessage[] = [system];
  const turnSignals: (TurnSignals & { message_index: number })[] = [];
  for (const t of turns) {
    turnSignals.push({ ...t.signals, message_index: messages.length });
    messages.push(...t.messages);
  }
  if (messages.length < 2) return [];
  return [{ ...head, kind: 'run' as const, messages, tools: OPENAI_TOOLS, reward: total, reward_parts: sums, return: total, ...alone, signals: { run, days, turns: turnSignals } }];
}

/** A run's total reward from its lines (in order): the `return` of its first turn, or of its run line; 0 without lines. */
export const runTotal = (lines: readonly TrajectoryLine[]): number => lines[0]?.return ?? 0;

/**
 * Fills `advantage` and `group_size` of the lines of an export from the runs' totals: per group
 * (simulated student), the run's total minus the group's mean, divided by the group's standard
 * deviation (population); 0 when the group has one run or no spread. `totals`: every run of the
 * export, by sample_id, with its group. A prompt/completion line's `label` becomes advantage > 0
 * in a group of several runs (its return > 0 alone).
 */
export function withAdvantages<L extends TrajectoryLine>(lines: readonly L[], totals: ReadonlyMap<string, { group: string; total: number }>): L[] {
  const byGroup = new Map<string, number[]>();
  for (const { group, total } of totals.values()) byGroup.set(group, [...(byGroup.get(group) ?? []), total]);
  const stats = new Map([...byGroup].map(([g, xs]) => {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length);
    return [g, { mean, sd, n: xs.length }] as const;
  }));
  return lines.map((l) => {
    const t = totals.get(l.sample_id);
    const st = stats.get(l.group);
    if (!t || !st) throw new Error(`withAdvantages: the run ${l.sample_id} is not among the totals`);
    const advantage = st.n > 1 && st.sd > 1e-12 ? (t.total - st.mean) / st.sd : 0;
    const out = { ...l, advantage, group_size: st.n };
    if (out.kind === 'turn_pc') (out as PromptCompletionLine).label = st.n > 1 ? advantage > 0 : l.return > 0;
    return out;
  });
}
