/**
 * The trace events, declared once as zod schemas: the TypeScript types (`TraceEvent`, `EventOf`,
 * `TracerInfo`, the kinds; types.ts) are inferred from them, and the validator (validate.ts)
 * checks every event read against them. To add an event type or field: add it here (and, if the
 * run's structure constrains it, to `TraceValidator`); docs/trace-format.md.
 *
 * Objects are `z.object`: a field this build does not know is ignored, never refused (a later
 * build may add some), and the validator keeps each event as read, so the bytes survive a round
 * trip. A few fields are checked in part (what the scores read), while their type is the fuller
 * one the engine writes (`writtenAs`): the item bank's items, a tool call's result, a model
 * call's response.
 */
import { z } from 'zod';
import { ScenarioSchema, WAKE_EVENTS } from '../scenario/schema';
import type { Item } from '../course/types';
import type { ModelCallRecord } from '../llm/types';

export const LMS_EVENT_KINDS = ['day_start', 'homework_posted', 'login', 'logout', 'assignment_due', 'assignment_missed', 'assignment_completed', 'end_of_day', 'give_up', 'instructor_view', 'item_opened', 'instruction'] as const;
export const TERMINATION_REASONS = ['horizon_reached', 'ended_by_tutor', 'tutor_error', 'tracer_error', 'llm_error', 'aborted', 'internal_error', 'storage_full'] as const;
export const TOOL_KINDS = ['read', 'write', 'message'] as const;
export const TOOL_ERROR_CODES = ['UNKNOWN_TOOL', 'INVALID_ARGS', 'NOT_FOUND', 'ILLEGAL', 'TURN_LIMIT'] as const;

export type ToolKind = (typeof TOOL_KINDS)[number];
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];
/** What a tool call returns (the LMS tools, lms/tools.ts); a trace's `tool_call.result`. */
export type ToolResult = { ok: true; value: unknown } | { ok: false; error: { code: ToolErrorCode; message: string } };

/**
 * A field checked in part (the fields `schema` names) whose type is the fuller `T` the engine
 * writes. The compiler holds them together: `T` must be assignable to what the schema checks.
 */
const writtenAs =
  <T>() =>
  <S extends z.ZodType>(schema: S & ([T] extends [z.output<S>] ? unknown : never)): z.ZodType<T, z.input<S>> =>
    schema as unknown as z.ZodType<T, z.input<S>>;

const int = z.number().int();
const nat = int.min(0);
const prob = z.number().min(0, 'a probability must be between 0 and 1').max(1, 'a probability must be between 0 and 1');
const str = z.string();
/** Every event: `seq` 0, 1, 2, …; `t` virtual minutes since day 0, 00:00. */
const base = { seq: nat, t: z.number().min(0) };
const usage = z.object({ promptTokens: nat, completionTokens: nat }).nullable();
const cost = z.number().min(0).nullable();
const toolCallRequest = z.object({ id: str, name: str, arguments: str });
/** An item of the run's bank: the leakage matcher and the answer checker read its forms, so they are typed. */
const bankItem = writtenAs<Item>()(
  z.object({
    id: str,
    skillId: int.min(1),
    level: int.min(1).max(3),
    answer: str.optional(),
    accepted: z.array(str).optional(),
    answerForms: z.object({ numeric: z.array(str), phrases: z.array(str) }).optional(),
  }),
);

/** The knowledge tracer a run used, as run_start records it (the tracer's `info`, learner/kt/types.ts). */
export const TracerInfoSchema = z.object({
  name: str.min(1),
  version: str,
  /** Number of skills the tracer knows (ids 1..nSkills); 0: no tracer (a field trace). */
  nSkills: nat.max(100_000),
  /**
   * What computed the model, when it is not the reference runtime: AKT on "onnxruntime-node cpu"
   * or "onnxruntime-web webgpu". Absent: onnxruntime-web wasm (AKT's reference runtime, the one
   * every trace before this field used) or a pure-TypeScript tracer (BKT). Recorded in run_start:
   * runtimes differ in the last float bits, so a run reproduces on the same runtime.
   */
  runtime: str.min(1).optional(),
});

export const TutorSpecSchema = z.object({
  /** Registered tutor name, e.g. "planner". */
  name: str.min(1),
  /** Tutor configuration as given (model, harness, …); never contains keys. */
  config: z.record(str, z.unknown()),
});

export const EventSchema = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('run_start'),
    schemaVersion: int.min(1, 'schema versions start at 1'),
    runId: str.min(1).max(1000),
    engine: str,
    scenario: ScenarioSchema,
    tutor: TutorSpecSchema,
    tracer: TracerInfoSchema,
    /**
     * A simulated learner's persona seed (engine 4 adds `abilityOffset`: the seed's own ability in
     * logits, on every prediction; absent in older traces); a real student (a field trace):
     * `{ kind: 'real', participant }` (an anonymous code).
     */
    learner: z.union([z.object({ seedIndex: int, seedUid: int, warmup: nat, abilityOffset: z.number().finite().optional() }), z.object({ kind: z.literal('real'), participant: str })]),
    /** postProbes: the parallel form of the last probe (scenario.course.probeForms 2 only; absent otherwise). */
    itemBank: z.object({
      hash: str,
      items: z.array(bankItem),
      probes: z.array(bankItem),
      postProbes: z.array(bankItem).optional(),
    }),
    helpTemplates: z.record(str, str),
    /** The student voice when it is not the default templates, e.g. "llm:local/llama3.1". */
    voice: str.optional(),
  }),
  /** `instructor_view`: a person playing the tutor switched the instructor's view (hidden state) on or off, in turn `detail.turn`. */
  z.object({ ...base, type: z.literal('lms_event'), kind: z.enum(LMS_EVENT_KINDS), day: int, detail: z.record(str, z.unknown()).optional() }),
  z.object({ ...base, type: z.literal('wake'), turn: int.min(1), reason: z.enum(WAKE_EVENTS), ref: nat.nullable() }),
  z.object({
    ...base,
    type: z.literal('tool_call'),
    turn: int.min(1),
    tool: str,
    kind: z.enum([...TOOL_KINDS, 'unknown']),
    args: z.unknown(),
    result: writtenAs<ToolResult>()(z.union([z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), error: z.object({ code: str, message: str }) })])),
  }),
  z.object({
    ...base,
    type: z.literal('message'),
    from: z.enum(['tutor', 'learner']),
    text: str,
    /** Tutor messages: which tool sent it, its turn, and the items the learner was working on. */
    via: z.enum(['send_message', 'provide_content']).optional(),
    turn: int.min(1).optional(),
    workingOn: z.array(str).optional(),
    /** Learner messages: the help template it came from, and the item it is about. */
    help: str.optional(),
    /** Learner messages: an instruction-injection attempt, naming its template (src/core/scenario/extraction-attempts.ts). */
    injection: str.optional(),
    itemId: str.nullable().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('attempt'),
    itemId: str,
    skill: int.min(1),
    level: int.min(1).max(3),
    assignmentId: str.nullable(),
    attemptNo: int.min(1),
    /** Tracer's P(correct) before instruction boost; null in a field trace (a real student: no tracer). */
    p: prob.nullable(),
    /** Boost from recent instruction (fraction of the gap to 1 closed). */
    boost: prob,
    /**
     * "own": worked out by the learner; "disclosed": copied from an answer the tutor gave away;
     * "guess": answered without working it out (the persona's guessing; not evidence).
     */
    source: z.enum(['own', 'disclosed', 'guess']),
    response: str,
    correct: z.boolean(),
    /**
     * Whether the attempt entered the tracer's history. Guesses do not; a copied answer (and,
     * with coupling "student-attempts", any attempt after its answer was disclosed) does, as
     * not solved (engine 3: ASSISTments marks a problem whose answer was shown incorrect).
     */
    evidence: z.boolean(),
    /**
     * Present (true) when the learner worked the item out correctly but submitted a wrong answer
     * (the persona's carelessness): graded wrong, while the history records the worked-out success.
     */
    slip: z.boolean().optional(),
    /**
     * Coupling "student-attempts" only: the LLM student wrote this attempt (its model_call comes
     * just before) and the answer checker graded it: the prompt version, how it was graded
     * ("checked", "no_answer", "malformed", "copied_disclosed", "after_disclosure"), the answer as written, and the
     * reason an attempt without a usable answer was graded wrong. docs/learning-model.md.
     */
    student: z.object({ prompt: str, grading: z.enum(['checked', 'no_answer', 'malformed', 'copied_disclosed', 'after_disclosure']), answer: str.nullable(), reason: str.optional() }).optional(),
  }),
  z.object({ ...base, type: z.literal('mastery'), scope: z.enum(['course', 'all']), skills: z.array(int.min(1)), values: z.array(prob) }),
  z.object({
    ...base,
    type: z.literal('probe'),
    day: nat,
    /** p: the learner model's P(correct), null in a field trace; response: what a real student answered (field traces only). */
    items: z.array(z.object({ itemId: str, skill: int.min(1), p: prob.nullable(), correct: z.boolean(), response: str.optional() })),
    /** Solve rate: mean P(correct) over the probe set (the expected share correct). */
    solveRate: prob,
    /** Share of the probe set actually answered correctly in this run's draw. */
    gradedRate: prob,
    /**
     * Mean P(correct) from knowledge alone, before the persona's answering habits (guessing,
     * slips). Present only when the persona has such habits; otherwise it equals solveRate.
     */
    knowledgeRate: prob.optional(),
  }),
  z.object({ ...base, type: z.literal('turn_end'), turn: int.min(1), actions: nat, implicitSilence: z.boolean() }),
  z.object({ ...base, type: z.literal('error'), code: str, message: str, turn: int.min(1).optional() }),
  z.object({ ...base, type: z.literal('run_end'), reason: z.enum(TERMINATION_REASONS), message: str.optional(), days: nat }),
  /** One LLM call by the tutor, the student voice or a judge (src/core/llm/types.ts `ModelCallRecord`). */
  z.object({
    ...base,
    type: z.literal('model_call'),
    turn: int.min(1).optional(),
    role: z.enum(['tutor', 'student', 'judge']),
    /** What the call was for, e.g. "reactive:step", "notes:update", "lesson:plan", "voice:reply". */
    purpose: str,
    provider: str,
    model: str,
    request: z.object({ messages: nat, chars: nat, tools: nat, temperature: z.number().nullable(), digest: str.optional() }),
    response: writtenAs<ModelCallRecord['response']>()(z.object({ content: str.nullable(), toolCalls: z.array(toolCallRequest), finishReason: str.nullable() }).nullable()),
    usage,
    cost,
    retries: nat,
    error: z.object({ code: str, message: str }).optional(),
    voiceCheck: z.object({ decided: z.boolean(), rendered: z.boolean().nullable(), mismatch: z.boolean(), answer: str.nullable() }).optional(),
  }),
  /** A judge panel scored this trace (appended after run_end; re-judging replaces these events). */
  z.object({
    ...base,
    type: z.literal('judge_panel'),
    panel: str,
    judges: z.array(z.object({ id: str, provider: str, model: str, family: str.nullable() })).min(1),
    temperature: z.number().min(0).max(2),
    rubrics: z.array(z.object({ id: str, version: str })).min(1),
    /** Days sampled for judging (stratified over the horizon), and the sampling rule. */
    days: z.array(int.min(1)),
    sampling: z.object({ daysPerRun: int.min(1).nullable(), strata: int.min(1), seed: int }),
    /** Judges stopped because their provider kept failing, with the reason. */
    stopped: z.array(z.object({ judge: str, reason: str })).optional(),
  }),
  /** One judge's verdict on one rubric for one day. Unscored verdicts carry the reason, never a number. */
  z.object({
    ...base,
    type: z.literal('judge_verdict'),
    panel: str,
    rubric: str,
    rubricVersion: str,
    judge: str,
    provider: str,
    model: str,
    day: int.min(1),
    status: z.enum(['scored', 'unscored']),
    /** Item id -> score (scale rubrics). */
    scores: z.record(str, z.number()).nullable(),
    /** Answer holding: true when the tutor held the answers back that day. */
    holds: z.boolean().nullable(),
    reason: str.optional(),
    attempts: nat,
    usage,
    cost,
    /** The judge's last reply (truncated), for audit. */
    raw: str.nullable(),
  }),
]);
