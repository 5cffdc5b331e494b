/**
 * The trace: a versioned log of typed events, one per line in JSONL. The browser stores the same
 * events in IndexedDB; either side opens the other's. Every event has `seq` (0, 1, 2, …) and `t`
 * (virtual minutes since day 0, 00:00). Nothing in a trace depends on the wall clock, so the same
 * scenario, tutor and seed give a byte-identical trace. See docs/trace-format.md.
 */
import type { Scenario, WakeEventKind } from '../scenario/schema';
import type { Item } from '../course/types';
import type { ModelCallRecord, TokenUsage } from '../llm/types';

export const TRACE_SCHEMA_VERSION = 1;

/** The knowledge tracer a run used, as run_start records it (the tracer's `info`, learner/kt/types.ts). */
export interface TracerInfo {
  name: string;
  version: string;
  /** Number of skills the tracer knows (ids 1..nSkills). */
  nSkills: number;
  /**
   * What computed the model, when it is not the reference runtime: AKT on "onnxruntime-node cpu"
   * or "onnxruntime-web webgpu". Absent: onnxruntime-web wasm (AKT's reference runtime, the one
   * every trace before this field used) or a pure-TypeScript tracer (BKT). Recorded in run_start:
   * runtimes differ in the last float bits, so a run reproduces on the same runtime.
   */
  runtime?: string;
}

export const ACTION_KINDS = ['send_message', 'stay_silent', 'assign_items', 'adjust_level', 'provide_content'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export type ToolKind = 'read' | 'write' | 'message';
export type ToolErrorCode = 'UNKNOWN_TOOL' | 'INVALID_ARGS' | 'NOT_FOUND' | 'ILLEGAL' | 'TURN_LIMIT';
export type ToolResult = { ok: true; value: unknown } | { ok: false; error: { code: ToolErrorCode; message: string } };

/**
 * Why a run ended. `storage_full`: the page could not store the run's events (its storage quota is
 * full); the page records it on the stored run, since it cannot write the run_end.
 * `ended_by_tutor`: the tutor (a person in the Play view) declared the run over after a turn; it is
 * scored on the days played (`run_end.days`), a complete run of that length.
 */
export type TerminationReason = 'horizon_reached' | 'ended_by_tutor' | 'tutor_error' | 'tracer_error' | 'llm_error' | 'aborted' | 'internal_error' | 'storage_full';

export interface TutorSpec {
  /** Registered tutor name, e.g. "planner". */
  name: string;
  /** Tutor configuration as given (model, harness, …); never contains keys. */
  config: Record<string, unknown>;
}

/** `instructor_view`: a person playing the tutor switched the instructor's view (hidden state) on or off, in turn `detail.turn`. */
export type LmsEventKind = 'day_start' | 'homework_posted' | 'login' | 'logout' | 'assignment_due' | 'assignment_missed' | 'assignment_completed' | 'end_of_day' | 'give_up' | 'instructor_view' | 'item_opened' | 'instruction';

interface Base {
  seq: number;
  t: number;
}

export type TraceEvent = Base &
  (
    | {
        type: 'run_start';
        schemaVersion: number;
        runId: string;
        engine: string;
        scenario: Scenario;
        tutor: TutorSpec;
        tracer: TracerInfo;
        /** A simulated learner's persona seed; a real student (a field trace): `{ kind: 'real', participant }` (an anonymous code). */
        learner: { seedIndex: number; seedUid: number; warmup: number } | { kind: 'real'; participant: string };
        /** postProbes: the parallel form of the last probe (scenario.course.probeForms 2 only; absent otherwise). */
        itemBank: { hash: string; items: Item[]; probes: Item[]; postProbes?: Item[] };
        helpTemplates: Record<string, string>;
        /** The student voice when it is not the default templates, e.g. "llm:local/llama3.1". */
        voice?: string;
      }
    | { type: 'lms_event'; kind: LmsEventKind; day: number; detail?: Record<string, unknown> }
    | { type: 'wake'; turn: number; reason: WakeEventKind; ref: number | null }
    | { type: 'tool_call'; turn: number; tool: string; kind: ToolKind | 'unknown'; args: unknown; result: ToolResult }
    | {
        type: 'message';
        from: 'tutor' | 'learner';
        text: string;
        /** Tutor messages: which tool sent it, its turn, and the items the learner was working on. */
        via?: 'send_message' | 'provide_content';
        turn?: number;
        workingOn?: string[];
        /** Learner messages: the help template it came from, and the item it is about. */
        help?: string;
        /** Learner messages: an instruction-injection attempt, naming its template (src/core/scenario/extraction-attempts.ts). */
        injection?: string;
        itemId?: string | null;
      }
    | {
        type: 'attempt';
        itemId: string;
        skill: number;
        level: number;
        assignmentId: string | null;
        attemptNo: number;
        /** Tracer's P(correct) before instruction boost; null in a field trace (a real student: no tracer). */
        p: number | null;
        /** Boost from recent instruction (fraction of the gap to 1 closed). */
        boost: number;
        /**
         * "own": worked out by the learner; "disclosed": copied from an answer the tutor gave away;
         * "guess": answered without working it out (the persona's guessing; not evidence).
         */
        source: 'own' | 'disclosed' | 'guess';
        response: string;
        correct: boolean;
        /**
         * Whether the attempt entered the tracer's history. Guesses do not; a copied answer (and,
         * with coupling "student-attempts", any attempt after its answer was disclosed) does, as
         * not solved (engine 3: ASSISTments marks a problem whose answer was shown incorrect).
         */
        evidence: boolean;
        /**
         * Present (true) when the learner worked the item out correctly but submitted a wrong answer
         * (the persona's carelessness): graded wrong, while the history records the worked-out success.
         */
        slip?: boolean;
        /**
         * Coupling "student-attempts" only: the LLM student wrote this attempt (its model_call comes
         * just before) and the answer checker graded it: the prompt version, how it was graded
         * ("checked", "no_answer", "malformed", "copied_disclosed", "after_disclosure"), the answer as written, and the
         * reason an attempt without a usable answer was graded wrong. docs/learning-model.md.
         */
        student?: { prompt: string; grading: 'checked' | 'no_answer' | 'malformed' | 'copied_disclosed' | 'after_disclosure'; answer: string | null; reason?: string };
      }
    | { type: 'mastery'; scope: 'course' | 'all'; skills: number[]; values: number[] }
    | {
        type: 'probe';
        day: number;
        /** p: the learner model's P(correct), null in a field trace; response: what a real student answered (field traces only). */
        items: { itemId: string; skill: number; p: number | null; correct: boolean; response?: string }[];
        /** Solve rate: mean P(correct) over the probe set (the expected share correct). */
        solveRate: number;
        /** Share of the probe set actually answered correctly in this run's draw. */
        gradedRate: number;
        /**
         * Mean P(correct) from knowledge alone, before the persona's answering habits (guessing,
         * slips). Present only when the persona has such habits; otherwise it equals solveRate.
         */
        knowledgeRate?: number;
      }
    | { type: 'turn_end'; turn: number; actions: number; implicitSilence: boolean }
    | { type: 'error'; code: string; message: string; turn?: number }
    | { type: 'run_end'; reason: TerminationReason; message?: string; days: number }
    /** One LLM call by the tutor or the student voice (see src/core/llm/types.ts ModelCallRecord). */
    | ({ type: 'model_call'; turn?: number } & ModelCallRecord)
    /** A judge panel scored this trace (appended after run_end; re-judging replaces these events). */
    | {
        type: 'judge_panel';
        panel: string;
        judges: { id: string; provider: string; model: string; family: string | null }[];
        temperature: number;
        rubrics: { id: string; version: string }[];
        /** Days sampled for judging (stratified over the horizon), and the sampling rule. */
        days: number[];
        sampling: { daysPerRun: number | null; strata: number; seed: number };
        /** Judges stopped because their provider kept failing, with the reason. */
        stopped?: { judge: string; reason: string }[];
      }
    /** One judge's verdict on one rubric for one day. Unscored verdicts carry the reason, never a number. */
    | {
        type: 'judge_verdict';
        panel: string;
        rubric: string;
        rubricVersion: string;
        judge: string;
        provider: string;
        model: string;
        day: number;
        status: 'scored' | 'unscored';
        /** Item id -> score (scale rubrics). */
        scores: Record<string, number> | null;
        /** Answer holding: true when the tutor held the answers back that day. */
        holds: boolean | null;
        reason?: string;
        attempts: number;
        usage: TokenUsage | null;
        cost: number | null;
        /** The judge's last reply (truncated), for audit. */
        raw: string | null;
      }
  );

export type TraceEventType = TraceEvent['type'];
export type EventOf<K extends TraceEventType> = Extract<TraceEvent, { type: K }>;
export type RunStartEvent = EventOf<'run_start'>;
