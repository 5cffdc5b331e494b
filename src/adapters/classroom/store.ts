/**
 * Where a classroom keeps its studies, participants and sessions. The service (service.ts) works
 * against this port; the classroom server uses PGlite (Postgres in wasm, a directory on disk:
 * src/adapters/node/classroom-store.ts). Trace events are stored as the JSON text they were recorded as (never as
 * jsonb, which would reorder keys), so an export is byte for byte the recorded trace.
 */
import type { RunRecord, StudySpec } from '../../core/index';

export type StudyStatus = 'open' | 'ended';

export interface StudyRow {
  id: string;
  spec: StudySpec;
  status: StudyStatus;
  createdAt: number;
  /** When the teacher archived the (ended) study: it is kept, but listed apart (absent or null: not archived). */
  archivedAt?: number | null;
}

export interface ParticipantRow {
  code: string;
  studyId: string;
  createdAt: number;
  consentedAt: number | null;
  /** The device the code is in use on (a random id its browser keeps), and when it was last seen. */
  device: string | null;
  token: string | null;
  lastSeen: number | null;
  /** The study condition this participant was assigned when their code was made (null: the study has none). */
  condition?: string | null;
  /** The version of the consent text they agreed to (consentVersion of the study's text), when they consented. */
  consentVersion?: string | null;
  /** When the participant withdrew: their sessions and trace were deleted then (the row stays, so the export can say so). */
  withdrawnAt?: number | null;
}

/** A participant's run: one per participant, across all the study's sessions (one virtual day each). */
export interface SessionRow {
  code: string;
  record: RunRecord;
  /** Wall-clock start of each session (ms), by day index: virtual minutes within a day are wall minutes since it. */
  starts: number[];
  /** Events stored so far. */
  events: number;
  status: 'active' | 'done' | 'stopped';
  endReason: string | null;
  /** Minutes the teacher added to a session, by day index (absent: none). */
  extraMinutes?: number[];
  /** The teacher paused the session in progress at this time (ms; absent or null: not paused). */
  pausedAt?: number | null;
  /** Milliseconds each session was paused for, by day index (absent: none): the session's end moves by them. */
  pausedMs?: number[];
}

export interface ClassroomStore {
  init(): Promise<void>;
  close(): Promise<void>;
  putStudy(s: StudyRow): Promise<void>;
  getStudy(id: string): Promise<StudyRow | null>;
  listStudies(): Promise<StudyRow[]>;
  /** Adds participants; fails (nothing added) when a code exists. */
  addParticipants(rows: ParticipantRow[]): Promise<void>;
  getParticipant(code: string): Promise<ParticipantRow | null>;
  participantByToken(token: string): Promise<ParticipantRow | null>;
  listParticipants(studyId: string): Promise<ParticipantRow[]>;
  putParticipant(p: ParticipantRow): Promise<void>;
  getSession(code: string): Promise<SessionRow | null>;
  putSession(s: SessionRow): Promise<void>;
  /** Appends events (their JSON text) at their seq; an event already stored at a seq is an error. */
  appendEvents(code: string, events: { seq: number; json: string }[]): Promise<void>;
  /** The stored events' JSON text, in seq order. */
  events(code: string): Promise<string[]>;
  /** Deletes a study and everything of it (participants, sessions, events, LLM spending), in one transaction. */
  deleteStudy(id: string): Promise<void>;
  /** A participant withdraws: their session and every stored event are deleted, their sign-in ends, and the time is kept. */
  withdraw(code: string, at: number): Promise<void>;
  /** Deletes stored events from `fromSeq` on (a resumed session replaces what followed its resume point). */
  truncateEvents(code: string, fromSeq: number): Promise<void>;
  /** Counts an LLM call of a study; returns the count after it. */
  countLlmCall(studyId: string, cost: number | null): Promise<{ calls: number; cost: number }>;
  /** Adds the cost of a call counted before it was made. */
  addLlmCost(studyId: string, cost: number): Promise<void>;
  llmSpend(studyId: string): Promise<{ calls: number; cost: number }>;
}
