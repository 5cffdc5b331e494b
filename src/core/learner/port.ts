/**
 * The learner agent port: what the session asks of a learner, and what a learner may do in the
 * LMS. The simulated learner (learner/simulated.ts: persona behaviour + knowledge tracer + voice)
 * implements it; a real student's browser can too (see engine/README.md, "A real learner").
 *
 * The session calls the agent at these moments:
 *  - `dayStarted(day)`: a new day (after the course's homework is posted): plan today's sessions;
 *  - `moment(m)`: a moment the agent scheduled for itself with `io.at()` has come;
 *  - `read(...)`: a tutor message or content post reaches the online learner (or is read at login);
 *  - `replyTo(...)`: the tutor spoke to the online learner during a turn: the learner may answer once;
 *  - `sessionCut()`: the day ended while the learner was online (the session logs them out);
 *  - `probe(day, probes)` and `belief(skills)`: the benchmark's measurements (probe answers and
 *    the knowledge tracer's belief), never seen by the tutor.
 * Everything observable the learner does goes through `LearnerIo`, which records it and wakes the
 * tutor, so a simulated and a real learner produce the same kinds of events.
 */
import type { Item } from '../course/types';
import type { ContentKind, LmsState } from '../lms/state';
import type { ModelCallRecord } from '../llm/types';
import type { TracerInfo } from './kt/types';
import type { HELP_TEMPLATE_IDS } from '../scenario/schema';
import type { EventOf, LmsEventKind } from '../trace/types';
import type { AttemptOutcome } from './learner';

export type HelpTemplateId = (typeof HELP_TEMPLATE_IDS)[number];

export type LogoutWhy = 'block_end' | 'gave_up' | 'no_work' | 'session_done' | 'student_ended' | 'time_up';

/**
 * What a real student does, as their browser reports it (a classroom study, docs/classroom.md),
 * stamped with the virtual minute it happened at (`t`). A real learner agent applies these.
 */
export type StudentAction =
  | { kind: 'login'; t: number }
  | { kind: 'open'; t: number; itemId: string; assignmentId: string | null }
  | { kind: 'submit'; t: number; itemId: string; assignmentId: string | null; response: string }
  /** A help request from the fixed templates (responsiveness matches them exactly). */
  | { kind: 'help'; t: number; template: string }
  /** Free text to the tutor (chat). */
  | { kind: 'say'; t: number; text: string }
  /** The answers to a probe set (the study's pre/post quiz), graded by the item bank's checker. */
  | { kind: 'probe'; t: number; phase: 'pre' | 'post'; answers: { itemId: string; response: string }[] }
  | { kind: 'logout'; t: number; why: 'student_ended' | 'time_up' };

/** A moment a learner agent schedules for itself (virtual time passes in the session's queue). */
export type LearnerMoment =
  | { k: 'login'; blockEnd: number }
  | { k: 'step' }
  | { k: 'submit'; itemId: string; assignmentId: string | null; guess: boolean }
  | { k: 'logout'; why: LogoutWhy }
  /** A real learner waits for the student's next action (the world does not move meanwhile). */
  | { k: 'await' }
  /** A real learner applies the student's action. */
  | { k: 'act'; action: StudentAction };

/** One graded attempt, as the learner made it (the LMS grades and records it). */
export interface Submission extends Omit<AttemptOutcome, 'p'> {
  item: Item;
  assignmentId: string | null;
  /** The tracer's P(correct) before instruction boost; null for a real student (no tracer). */
  p: number | null;
}

/** The learner's answers to the probe set (the `probe` event's measurements). */
export type ProbeResult = Pick<EventOf<'probe'>, 'items' | 'solveRate' | 'gradedRate' | 'knowledgeRate'>;

/** What a learner may see and do. Every action is recorded in the trace by the session. */
export interface LearnerIo {
  /** Virtual minutes since day 0, 00:00. */
  readonly now: number;
  /** 0-based day of `now`. */
  readonly day: number;
  /** Seq the next trace event will get (a stable label for per-reply random streams). */
  readonly nextSeq: number;
  /** The LMS, to read (open assignments, gradebook, levels, the item bank). Only the io methods change it. */
  readonly lms: LmsState;
  readonly signal?: AbortSignal;
  itemOf(id: string): Item;
  /** Schedules one of the learner's own moments at virtual time `t` (never in the past). */
  at(t: number, m: LearnerMoment): void;
  /** Logs in: the LMS marks the learner online, unread tutor messages are read, the tutor is woken. */
  login(): Promise<void>;
  /** Logs out (the tutor is woken). */
  logout(why: LogoutWhy): Promise<void>;
  /** Opens an item (the LMS shows it as the learner's current item) or closes it (null). */
  open(itemId: string | null): void;
  /** Sends a help request from the fixed template set (the tutor is woken; the learner may reply). */
  askHelp(template: string): Promise<void>;
  /** Sends a free-text message (a reply; the tutor is woken). `injection`: the extraction template it came from. */
  say(text: string, about: { itemId: string | null; injection?: string }): Promise<void>;
  /** Submits an attempt: graded, recorded, the belief snapshot taken, the tutor woken. */
  submit(s: Submission): Promise<void>;
  /** Records an LMS event of the learner's own (give_up). */
  note(kind: LmsEventKind, detail: Record<string, unknown>): void;
  /** Records an LLM call made for the learner (the student voice). */
  recordModelCall(c: ModelCallRecord): void;
  /** Records a probe the learner took itself (a learner whose probes are not on the schedule). */
  recordProbe(day: number, r: ProbeResult): void;
}

export interface LearnerAgent {
  /** The knowledge tracer behind `probe` and `belief` (recorded in run_start); null: none (a real student), so no mastery snapshots. */
  readonly tracer: TracerInfo | null;
  /** Who the learner is, recorded in run_start.learner: the persona seed of a simulated learner; `{ kind: 'real', participant }` for a real student. */
  readonly origin: Record<string, unknown>;
  /** False for a learner who takes probes themselves (recordProbe), not at the scenario's probe times. */
  readonly scheduledProbes?: boolean;
  /** The student voice, when it is not the default templates (recorded in run_start), e.g. "llm:local/llama3.1". */
  readonly voiceName: string | null;
  dayStarted(day: number, io: LearnerIo): void;
  moment(m: LearnerMoment, io: LearnerIo): Promise<void>;
  /** Reads a tutor delivery; returns the ids of working items whose answer it revealed. */
  read(text: string, workingOn: readonly Item[], content: { skill: number; kind: ContentKind } | undefined, io: LearnerIo): string[];
  /**
   * Reads a tutor's assignment note for what it gives away (not as instruction or chat): returns the
   * ids of working items whose answer it revealed. Absent: notes do not reach this learner.
   */
  readNote?(text: string, workingOn: readonly Item[]): string[];
  /** The tutor's messages of one turn reached the online learner; `revealedCurrent`: they gave away the open item's answer. */
  replyTo(texts: readonly string[], revealedCurrent: boolean, io: LearnerIo): Promise<void>;
  /** The day ended while the learner was online: the session is over. */
  sessionCut(): void;
  probe(day: number, probes: readonly Item[]): Promise<ProbeResult>;
  /** P(correct) on an average item of each skill; the session asks for the course's skills after each worked-out answer and for all the tracer's skills at each day's end. */
  belief(skills: readonly number[]): Promise<number[]>;
}
