/**
 * A classroom: studies, anonymous participant codes, and one live run per participant, driven by
 * the student's real actions (core/learner/real.ts) with a built-in or LLM tutor. The classroom
 * server (src/server) exposes this over HTTP; nothing here does network or file I/O itself: the
 * store, the clock, the random tokens and the run environment (model clients) come in.
 *
 * Every trace event is stored as it is recorded; after a restart a participant's run is rebuilt
 * from its record and stored events (the engine's resume: the recorded actions are applied again
 * and every event checked), then continues live. A student sees only what the LMS shows them: their
 * assignments and items (never an answer key), their attempts, their messages.
 */
import {
  MINUTES_PER_DAY,
  HELP_TEMPLATES,
  SimError,
  LlmError,
  TUTORS,
  Rng,
  hashString,
  dayOf,
  errorMessage,
  resumePoint,
  runRecord,
  startRun,
  skillInfo,
  type Item,
  type LlmClient,
  type OpenRun,
  type RunEnv,
  type RunResult,
  type RunSink,
  type SimMinutes,
  type StudentAction,
  type TraceEvent,
  StudySpecSchema,
  fieldScenario,
  type StudySpec,
  type StudySpecInput,
  ActionQueue,
  MAX_MESSAGE_CHARS,
  RealLearner,
  actionsFromTrace,
  quizItems,
} from '../../core/index';
import type { ClassroomStore, ParticipantRow, SessionRow, StudyRow } from './store';
import { consentVersion, type StudyExport } from './export';
import { ANSWER_READING_VERSION, acceptedForms, readStudentAnswer } from './answer-input';

/** A refusal the student or teacher is told about (HTTP status, message); nothing was stored. */
export class ClassroomError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503,
    message: string,
  ) {
    super(message);
    this.name = 'ClassroomError';
  }
}

export interface ClassroomEnv {
  /** Model clients (the server's: keys stay on it) and the tutors; no tracer or persona is used (real students). */
  run: Pick<RunEnv, 'llm' | 'tutors' | 'http'>;
  /** The LLM providers configured where the service runs (the classroom server); an LLM study must name one. */
  providers?: readonly string[];
  /** Wall clock, ms. */
  now(): number;
  /** Random URL-safe text (tokens and codes): crypto-strong. */
  random(bytes: number): string;
}

/** Caps (documented in docs/classroom.md). */
export const LIMITS = {
  /** A device that has not been seen for this long no longer holds its code. */
  deviceIdleMs: 60_000,
  actionsPerMinute: 60,
  messagesPerMinute: 10,
  codesPerRequest: 200,
  /** When the last session's time is up before the final quiz was handed in: this many minutes more for it, then the session ends without it. */
  finalQuizMinutes: 15,
} as const;

/** Codes read aloud and typed by students: no 0/O, 1/I/L. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export interface StudentItem {
  id: string;
  skill: string;
  level: number;
  stem: string;
  figure?: Item['figure'];
  choices?: string[];
  answerKind: Item['answerKind'];
  format?: Item['format'];
  /** The forms an answer to it is read in (shown when an answer is not accepted); never the answer. */
  forms: string;
}

export interface StudentState {
  study: { name: string; sessions: number; sessionMinutes: number; consent: string; probes: boolean };
  consented: boolean;
  /** The session: which (1-based), whether the student is in it, minutes left, whether all are done. */
  session: { number: number; of: number; online: boolean; minutesLeft: number | null; allDone: boolean; ended: string | null; paused: boolean };
  assignments: { id: string; note: string; due: string | null; items: { item: StudentItem; attempts: number; solved: boolean; done: boolean }[] }[];
  current: string | null;
  attempts: { itemId: string; response: string; correct: boolean; at: number }[];
  /**
   * The student's latest answer, with its item: feedback for it stays on the page even when it
   * closed its assignment (the item is then in no open assignment, so not in `assignments`).
   */
  lastAnswer: { item: StudentItem; response: string; correct: boolean; assignmentOpen: boolean } | null;
  messages: { from: 'tutor' | 'learner'; text: string; at: number; title?: string }[];
  helpRequests: { id: string; text: string }[];
  /** The probe set to answer now (the first session's start, the last session's end), when the study has one. */
  probe: { phase: 'pre' | 'post'; items: StudentItem[] } | null;
}

export interface LiveParticipant {
  code: string;
  /** The study condition the participant was assigned (null: the study has none). */
  condition: string | null;
  consented: boolean;
  online: boolean;
  /** In a session now (started, not ended), whether or not their device is online: the teacher can pause, resume or extend it. */
  inSession: boolean;
  lastSeen: number | null;
  session: number;
  sessionsDone: number;
  attempts: number;
  correct: number;
  messages: number;
  status: SessionRow['status'] | 'not started' | 'withdrawn';
  endReason: string | null;
  /** The teacher paused the session in progress (its clock stands still; the student can do nothing until it is resumed). */
  paused: boolean;
}

/**
 * A session's length (ms) on day `day`: the study's, plus the minutes the teacher added, plus the
 * time it was paused (and, while paused now, the pause so far: its time left stands still).
 */
export function sessionLengthMs(study: StudyRow, row: SessionRow, day: number, now: number): number {
  const current = row.pausedAt != null && day === row.starts.length - 1 ? now - row.pausedAt : 0;
  return (study.spec.sessionMinutes + (row.extraMinutes?.[day] ?? 0)) * 60_000 + (row.pausedMs?.[day] ?? 0) + current;
}

interface Live {
  code: string;
  study: StudyRow;
  run: OpenRun;
  queue: ActionQueue;
  learner: RealLearner;
  row: SessionRow;
  done: Promise<RunResult | null>;
  /** Writes of events, one after the other. */
  writes: Promise<void>;
  timer: ReturnType<typeof setTimeout> | null;
  ac: AbortController;
  /** A write of an event failed: the run was stopped, and its stored events stay resumable. */
  writeFailed: boolean;
  /** Quizzes handed in and not yet applied: a second hand-in at the same time (a double tap, a retry) is refused. */
  quizzing: Set<'pre' | 'post'>;
}

const studentItem = (it: Item): StudentItem => ({ id: it.id, skill: skillInfo(it.skillId)?.name ?? `skill ${it.skillId}`, level: it.level, stem: it.stem, ...(it.figure ? { figure: it.figure } : {}), ...(it.choices ? { choices: it.choices } : {}), answerKind: it.answerKind, ...(it.format ? { format: it.format } : {}), forms: acceptedForms(it) });

export class ClassroomService {
  readonly store: ClassroomStore;
  readonly env: ClassroomEnv;
  readonly #live = new Map<string, Live>();
  readonly #opening = new Map<string, Promise<Live>>();
  readonly #rate = new Map<string, { actions: number[]; messages: number[] }>();

  constructor(store: ClassroomStore, env: ClassroomEnv) {
    this.store = store;
    this.env = env;
  }

  // ---- teacher -------------------------------------------------------------------------------

  async createStudy(input: StudySpecInput): Promise<StudyRow> {
    const r = StudySpecSchema.safeParse(input);
    if (!r.success) throw new ClassroomError(400, `study: ${r.error.issues.map((i) => `${i.path.join('.') || 'study'}: ${i.message}`).join('; ')}`);
    const spec = r.data;
    // With conditions, the study's tutor is the first condition's; each condition's tutor is checked.
    if (spec.conditions) {
      const conditions: { name: string; tutor: { name: string; config: Record<string, unknown> } }[] = [];
      for (const c of spec.conditions) conditions.push({ name: c.name, tutor: this.#tutorFor(c.tutor, `condition ${c.name}: `) });
      const row: StudyRow = { id: `st-${this.env.random(6).toLowerCase()}`, spec: { ...spec, tutor: conditions[0]!.tutor, conditions }, status: 'open', createdAt: this.env.now() };
      return this.#putNewStudy(row);
    }
    const row: StudyRow = { id: `st-${this.env.random(6).toLowerCase()}`, spec: { ...spec, tutor: this.#tutorFor(spec.tutor, '') }, status: 'open', createdAt: this.env.now() };
    return this.#putNewStudy(row);
  }

  /** A study's tutor, checked (it can tutor a study here) and its config parsed; `what` names it in errors. */
  #tutorFor(tutor: { name: string; config: Record<string, unknown> }, what: string): { name: string; config: Record<string, unknown> } {
    const entry = (this.env.run.tutors ?? TUTORS).get(tutor.name);
    // A study's tutor runs in the classroom: a built-in tutor, an LLM tutor on the server's provider,
    // or an agent service (the HTTP tutor) the server reaches.
    if (!entry || entry.needs.some((n) => n !== 'llm' && n !== 'http')) throw new ClassroomError(400, `study: ${what}tutor "${tutor.name}" cannot tutor a study (choose a built-in, an LLM or an HTTP tutor)`);
    if (entry.needs.includes('http') && !this.env.run.http) throw new ClassroomError(400, `study: ${what}an HTTP tutor (an agent service) needs the classroom server, which reaches the agent: not available here`);
    let config: Record<string, unknown>;
    try {
      config = entry.parseConfig(tutor.config);
    } catch (e) {
      throw new ClassroomError(400, `study: ${what}${errorMessage(e)}`);
    }
    if (entry.needs.includes('llm')) {
      if (!this.env.run.llm || !this.env.providers?.length) throw new ClassroomError(400, `study: ${what}this server has no LLM provider configured (start it with --llm-config, or OPENAI_API_KEY / OPENAI_BASE_URL): an LLM tutor cannot run`);
      const provider = String(config.provider ?? '');
      if (!this.env.providers.includes(provider)) throw new ClassroomError(400, `study: ${what}no LLM provider "${provider}" on this server (configured: ${this.env.providers.join(', ')})`);
    }
    return { name: entry.name, config };
  }

  async #putNewStudy(row: StudyRow): Promise<StudyRow> {
    // The scenario must build (known skills with item generators).
    try {
      runRecord({ scenario: fieldScenario(row.spec, row.id), tutor: row.spec.tutor });
    } catch (e) {
      throw new ClassroomError(400, `study: ${errorMessage(e)}`);
    }
    await this.store.putStudy(row);
    return row;
  }

  async study(id: string): Promise<StudyRow> {
    const s = await this.store.getStudy(id);
    if (!s) throw new ClassroomError(404, `no study ${id}`);
    return s;
  }

  /** Anonymous participant codes (8 characters a student can type). */
  async addCodes(studyId: string, n: number): Promise<string[]> {
    const s = await this.study(studyId);
    if (s.status !== 'open') throw new ClassroomError(409, 'the study has ended');
    if (!Number.isInteger(n) || n < 1 || n > LIMITS.codesPerRequest) throw new ClassroomError(400, `codes: a whole number from 1 to ${LIMITS.codesPerRequest}`);
    const codes = new Set<string>();
    while (codes.size < n) {
      const raw = this.env.random(16);
      let c = '';
      for (let i = 0; i < raw.length && c.length < 8; i++) c += CODE_ALPHABET[raw.charCodeAt(i) % CODE_ALPHABET.length];
      if (!(await this.store.getParticipant(c))) codes.add(c);
    }
    const now = this.env.now();
    const conditions = s.spec.conditions ?? null;
    const before = conditions ? (await this.store.listParticipants(studyId)).length : 0;
    // In the order the store lists them (creation time, then code), so the i-th participant's condition is conditionOf(study, i).
    await this.store.addParticipants([...codes].sort().map((code, j) => ({ code, studyId, createdAt: now, consentedAt: null, device: null, token: null, lastSeen: null, condition: conditions ? conditionOf(studyId, before + j, conditions.map((c) => c.name)) : null })));
    return [...codes];
  }

  /** Who is online and how far each participant got. */
  async live(studyId: string): Promise<LiveParticipant[]> {
    const now = this.env.now();
    const out: LiveParticipant[] = [];
    const study = await this.study(studyId);
    for (const p of await this.store.listParticipants(studyId)) {
      let row = await this.store.getSession(p.code);
      // A session whose time ran out while no run was in memory (the server restarted, and the
      // student never came back) ends now, at its time, instead of showing "active" for ever.
      const began = row?.starts.at(-1);
      if (row?.status === 'active' && study.status === 'open' && !this.#live.has(p.code) && began !== undefined && now - began >= sessionLengthMs(study, row, row.starts.length - 1, now)) {
        try {
          const l = await this.#open(p, study);
          await this.#timeUp(l, study);
          row = (await this.store.getSession(p.code)) ?? row;
        } catch (e) {
          // One session that cannot be resumed must not hide the others: it shows as it is stored.
          console.error(`classroom: ending the overdue session of ${p.code} failed:`, e);
        }
      }
      const live = this.#live.get(p.code);
      const events = live ? live.run.session.events : row ? (await this.store.events(p.code)).map((j) => JSON.parse(j) as TraceEvent) : [];
      const attempts = events.filter((e) => e.type === 'attempt');
      out.push({
        code: p.code,
        condition: p.condition ?? null,
        consented: p.consentedAt !== null,
        online: (live?.learner.online ?? false) && p.lastSeen !== null && now - p.lastSeen < LIMITS.deviceIdleMs,
        inSession: !p.withdrawnAt && (live?.learner.online ?? false) && !live!.learner.sessionOver,
        lastSeen: p.lastSeen,
        session: live ? dayOf(live.run.session.now as SimMinutes) + 1 : (row?.starts.length ?? 0),
        sessionsDone: events.filter((e) => e.type === 'lms_event' && e.kind === 'logout').length,
        attempts: attempts.length,
        correct: attempts.filter((a) => a.type === 'attempt' && a.correct).length,
        messages: events.filter((e) => e.type === 'message').length,
        status: p.withdrawnAt ? 'withdrawn' : (row?.status ?? 'not started'),
        endReason: row?.endReason ?? null,
        paused: !p.withdrawnAt && (live?.row ?? row)?.status === 'active' && (live?.row ?? row)?.pausedAt != null,
      });
    }
    return out;
  }

  /** A new name for a study (its export and report then carry it). */
  async renameStudy(id: string, name: string): Promise<StudyRow> {
    const s = await this.study(id);
    const n = typeof name === 'string' ? name.trim() : '';
    if (n.length < 1 || n.length > 200) throw new ClassroomError(400, 'name: 1 to 200 characters');
    const next = { ...s, spec: { ...s.spec, name: n } };
    await this.store.putStudy(next);
    return next;
  }

  /** Archives an ended study (kept, with all of its data, but listed apart), or brings it back (`archived` false). */
  async archiveStudy(id: string, archived: boolean): Promise<StudyRow> {
    const s = await this.study(id);
    if (archived && s.status === 'open') throw new ClassroomError(409, 'end the study before archiving it');
    const next: StudyRow = { ...s, archivedAt: archived ? (s.archivedAt ?? this.env.now()) : null };
    await this.store.putStudy(next);
    return next;
  }

  /** Deletes an ended study and everything of it (export it first: nothing is kept). */
  async deleteStudy(id: string): Promise<void> {
    const s = await this.study(id);
    if (s.status === 'open') throw new ClassroomError(409, 'end the study before deleting it (and export it first: nothing of it is kept)');
    await this.store.deleteStudy(id);
  }

  /** Ends the study: open runs stop (their traces end "aborted": the study was ended), no new sessions. */
  async endStudy(studyId: string): Promise<void> {
    const s = await this.study(studyId);
    await this.store.putStudy({ ...s, status: 'ended' });
    for (const live of [...this.#live.values()].filter((l) => l.study.id === studyId)) {
      // A student who has finished their last session is done: their run only finishes its day.
      if (live.learner.sessionOver && dayOf(live.run.session.now as SimMinutes) >= s.spec.sessions - 1) {
        await live.done;
        continue;
      }
      live.ac.abort();
      live.queue.close('the study was ended');
      await live.done;
    }
  }

  /**
   * A participant withdraws (the teacher does it for them, or they do it themselves): their run
   * stops, their sessions and every stored event are deleted, they are signed out, and the
   * export's log says when. Their code cannot be used again.
   */
  async withdraw(studyId: string, code: string): Promise<void> {
    const p = await this.store.getParticipant(code);
    if (!p || p.studyId !== studyId) throw new ClassroomError(404, `no participant ${code} in study ${studyId}`);
    if (p.withdrawnAt) return;
    const live = this.#live.get(code) ?? (await this.#opening.get(code)?.catch(() => undefined));
    if (live) {
      live.ac.abort();
      live.queue.close('the participant withdrew');
      await live.done;
    }
    await this.store.withdraw(code, this.env.now());
    this.#rate.delete(code);
  }

  /** A student withdraws themselves (after a confirmation in their page). */
  async withdrawSelf(token: string): Promise<void> {
    const { p, study } = await this.#participant(token);
    await this.withdraw(study.id, p.code);
  }

  /** The study, its participants (codes and progress only) and their traces (one per participant who started), as the Lab and the CLI read them. */
  async exportStudy(studyId: string): Promise<StudyExport> {
    const study = await this.study(studyId);
    const traces: StudyExport['traces'] = [];
    const participants: StudyExport['participants'] = [];
    const log: StudyExport['log'] = [];
    for (const p of await this.store.listParticipants(studyId)) {
      if (p.withdrawnAt) {
        participants.push({ code: p.code, condition: p.condition ?? null, consentedAt: null, consentVersion: null, sessionStarts: [], extraMinutes: [], pausedMinutes: [], status: 'withdrawn', endReason: null });
        log.push({ at: new Date(p.withdrawnAt).toISOString(), text: `participant ${p.code} withdrew from the study; all their data (sessions, answers, messages, trace) were deleted then` });
        continue;
      }
      const row = await this.store.getSession(p.code);
      const now = this.env.now();
      const starts = row?.starts ?? [];
      participants.push({
        code: p.code,
        condition: p.condition ?? null,
        consentedAt: p.consentedAt,
        consentVersion: p.consentVersion ?? null,
        sessionStarts: starts.map((t) => new Date(t).toISOString()),
        extraMinutes: starts.map((_, d) => row?.extraMinutes?.[d] ?? 0),
        // A pause still going (the study exported while a session is paused) counts up to now.
        pausedMinutes: starts.map((_, d) => Math.round(((row?.pausedMs?.[d] ?? 0) + (row?.pausedAt != null && d === starts.length - 1 ? now - row.pausedAt : 0)) / 600) / 100),
        status: row?.status ?? 'not started',
        endReason: row?.endReason ?? null,
      });
      if (!row) continue;
      await this.#live.get(p.code)?.writes;
      const lines = await this.store.events(p.code);
      if (lines.length === 0) continue;
      const first = JSON.parse(lines[0]!) as TraceEvent;
      traces.push({ code: p.code, runId: first.type === 'run_start' ? first.runId : p.code, jsonl: lines.map((l) => `${l}\n`).join('') });
    }
    return { study, participants, traces, log };
  }

  /** One participant's stored trace (JSONL), for the teacher. */
  async trace(studyId: string, code: string): Promise<string> {
    const p = await this.store.getParticipant(code);
    if (!p || p.studyId !== studyId) throw new ClassroomError(404, `no participant ${code} in study ${studyId}`);
    await this.#live.get(p.code)?.writes;
    const lines = await this.store.events(p.code);
    if (lines.length === 0) throw new ClassroomError(404, `participant ${code} has not started`);
    return lines.map((l) => `${l}\n`).join('');
  }

  async studies(): Promise<StudyRow[]> {
    return this.store.listStudies();
  }

  /** The study's LLM spending so far (calls and cost), against its cap. */
  async spend(studyId: string): Promise<{ calls: number; cost: number; cap: number | null }> {
    const s = await this.study(studyId);
    return { ...(await this.store.llmSpend(studyId)), cap: s.spec.llmCallCap };
  }

  // ---- students ------------------------------------------------------------------------------

  /**
   * A student enters their code on a device (a random id the browser keeps). A code in use on
   * another device seen within the last minute is refused; otherwise this device takes it over.
   */
  async join(code: string, device: string): Promise<{ token: string; state: StudentState }> {
    const c = code.trim().toUpperCase();
    if (!/^[A-Z0-9]{4,12}$/.test(c) || !/^[\w-]{8,64}$/.test(device)) throw new ClassroomError(400, 'enter the code you were given (letters and digits)');
    const p = await this.store.getParticipant(c);
    if (!p) throw new ClassroomError(404, 'no such code: check it with your teacher');
    if (p.withdrawnAt) throw new ClassroomError(409, 'this code was withdrawn from the study (its data were deleted)');
    const study = await this.study(p.studyId);
    if (study.status !== 'open') throw new ClassroomError(409, 'this study has ended');
    const now = this.env.now();
    if (p.device && p.device !== device && p.lastSeen !== null && now - p.lastSeen < LIMITS.deviceIdleMs) throw new ClassroomError(409, 'this code is in use on another device: close it there, or wait a minute');
    const token = this.env.random(24);
    const next: ParticipantRow = { ...p, device, token, lastSeen: now };
    await this.store.putParticipant(next);
    return { token, state: await this.#state(next, study) };
  }

  async #participant(token: string): Promise<{ p: ParticipantRow; study: StudyRow }> {
    if (!/^[\w-]{8,128}$/.test(token)) throw new ClassroomError(401, 'not signed in: enter your code again');
    const p = await this.store.participantByToken(token);
    if (!p) throw new ClassroomError(401, 'signed out (your code was opened on another device, or the study restarted): enter your code again');
    const study = await this.study(p.studyId);
    const seen = { ...p, lastSeen: this.env.now() };
    await this.store.putParticipant(seen);
    return { p: seen, study };
  }

  async consent(token: string): Promise<StudentState> {
    const { p, study } = await this.#participant(token);
    const next = p.consentedAt === null ? { ...p, consentedAt: this.env.now(), consentVersion: consentVersion(study.spec.consent) } : p;
    if (next !== p) await this.store.putParticipant(next);
    return this.#state(next, study);
  }

  async state(token: string): Promise<StudentState> {
    const { p, study } = await this.#participant(token);
    const live = await this.#maybeLive(p, study);
    if (live) await this.#timeUp(live, study);
    return this.#state(p, study);
  }

  /** Applies a student's action (a session start, an item opened, an answer, a help request, a message, the probe set, the end of the session). */
  async act(token: string, action: unknown): Promise<StudentState & { refused?: string }> {
    const { p, study } = await this.#participant(token);
    if (p.consentedAt === null) throw new ClassroomError(403, 'agree to the consent text first');
    if (study.status !== 'open') throw new ClassroomError(409, 'this study has ended');
    const a = parseAction(action);
    this.#limit(p.code, a.kind === 'say' || a.kind === 'help');
    let live = await this.#maybeLive(p, study);
    if (!live) {
      const row = await this.store.getSession(p.code);
      if (row) throw new ClassroomError(409, row.status === 'done' ? 'all the sessions of this study are done: thank you!' : `your sessions have stopped (${row.endReason ?? 'ended'})`);
      if (a.kind !== 'login') throw new ClassroomError(409, 'start the session first');
      live = await this.#open(p, study);
    }
    // A paused session (the teacher's): nothing is applied until it is resumed.
    if (live.row.pausedAt != null && live.learner.online) throw new ClassroomError(409, 'your teacher has paused your session: wait until they resume it (nothing you did is lost)');
    if (a.kind !== 'login') await this.#timeUp(live, study);
    const day = dayOf(live.run.session.now as SimMinutes);
    const finalQuiz = this.#awaitingFinalQuiz(live, study);
    if (finalQuiz && a.kind !== 'probe' && a.kind !== 'logout' && a.kind !== 'login') throw new ClassroomError(409, 'the time is up: hand in the final quiz to finish');
    if (a.kind === 'probe') {
      this.#checkQuiz(live, study, a);
      live.quizzing.add(a.phase);
    }
    try {
      return await this.#apply(live, p, study, this.#read(live, study, a), day, finalQuiz);
    } finally {
      if (a.kind === 'probe') live.quizzing.delete(a.phase);
    }
  }

  async #apply(live: Live, p: ParticipantRow, study: StudyRow, a: StudentActionInput, day: number, finalQuiz: boolean): Promise<StudentState & { refused?: string }> {
    if (a.kind === 'login') {
      if (live.learner.online) return this.#state(p, study);
      // After the last session the run only finishes its day: there is no session to start.
      if (live.learner.sessionOver && day >= study.spec.sessions - 1) throw new ClassroomError(409, 'all the sessions of this study are done: thank you!');
      // The last session is over, and the run may still be finishing its virtual day: this login starts the next one.
      if (live.learner.sessionOver) day += 1;
      if (live.row.starts[day] === undefined) {
        live.row = { ...live.row, starts: [...live.row.starts.slice(0, day), ...Array.from({ length: Math.max(0, day - live.row.starts.length) }, () => this.env.now()), this.env.now()] };
        await this.store.putSession(live.row);
        this.#armTimer(live, study);
      }
    }
    // The run may end before it takes the action (the study ended, the tutor failed): then it was not applied.
    const stopped = live.done.then((): { ok: false; error: string } => ({ ok: false, error: `the session has stopped (${live.row.endReason ?? 'ended'})` }));
    const outcome = await Promise.race([live.queue.push({ ...a, t: this.#minute(live, day) } as StudentAction), stopped]);
    await live.writes;
    // The session's clock starts after the first quiz: the quiz does not eat the time with the tutor.
    if (a.kind === 'probe' && a.phase === 'pre' && outcome.ok && live.learner.online) {
      live.row = { ...live.row, starts: [this.env.now(), ...live.row.starts.slice(1)] };
      await this.store.putSession(live.row);
      this.#armTimer(live, study);
    }
    // The final quiz handed in after the time was up: the session ends now, as its time said.
    if (finalQuiz && a.kind === 'probe' && outcome.ok && live.learner.online) {
      await live.queue.push({ kind: 'logout', t: this.#minute(live, day), why: 'time_up' });
      await live.writes;
    }
    const state = await this.#state(p, study);
    return outcome.ok ? state : { ...state, refused: outcome.error };
  }

  /** Typed answers as the study reads them (answer-input.ts), when it reads them (studies made before: as typed). */
  #read(live: Live, study: StudyRow, a: StudentActionInput): StudentActionInput {
    if (study.spec.answerReading !== ANSWER_READING_VERSION) return a;
    const bank = live.run.session.world.lms.bank;
    if (a.kind === 'submit') {
      const item = live.run.session.world.lms.practiceItem(a.itemId);
      return item ? { ...a, response: readStudentAnswer(item, a.response).slice(0, 200) } : a;
    }
    if (a.kind === 'probe') return { ...a, answers: a.answers.map((x) => ({ ...x, response: ((it) => (it ? readStudentAnswer(it, x.response) : x.response))(bank.get(x.itemId)).slice(0, 200) })) };
    return a;
  }

  /** The virtual minute of now in today's session: day × 1440 + wall minutes since the session began. */
  #minute(live: Live, day: number): number {
    const start = live.row.starts[day] ?? this.env.now();
    return day * MINUTES_PER_DAY + Math.min(MINUTES_PER_DAY - 3, Math.max(0, Math.floor((this.env.now() - start) / 60_000)));
  }

  async #timeUp(live: Live, study: StudyRow): Promise<void> {
    const day = dayOf(live.run.session.now as SimMinutes);
    const start = live.row.starts[day];
    // A paused session does not end: its clock stands still until the teacher resumes it.
    if (!live.learner.online || start === undefined || live.row.pausedAt != null) return;
    const length = this.#sessionMs(live, study, day);
    if (this.env.now() - start < length) {
      // Early (the session was extended, or its clock restarted after the quiz): wait for the rest.
      if (!live.timer) this.#armTimer(live, study, start + length - this.env.now());
      return;
    }
    // The last session's time is up before the final quiz: it waits for the quiz (the learning
    // gain needs it) for LIMITS.finalQuizMinutes more, and only then ends without it.
    if (this.#finalQuizDue(live, study) && this.env.now() - start < length + LIMITS.finalQuizMinutes * 60_000) {
      this.#armTimer(live, study, start + length + LIMITS.finalQuizMinutes * 60_000 - this.env.now());
      return;
    }
    await live.queue.push({ kind: 'logout', t: this.#minute(live, day), why: 'time_up' });
    await live.writes;
  }

  /** The study's final quiz is due in this session (its last) and not handed in yet. */
  #finalQuizDue(live: Live, study: StudyRow): boolean {
    const day = dayOf(live.run.session.now as SimMinutes);
    return study.spec.probes && live.learner.online && !live.learner.sessionOver && day === study.spec.sessions - 1 && !live.run.session.events.some((e) => e.type === 'probe' && e.day === study.spec.sessions);
  }

  /** The last session's time is up and only the final quiz is left to do. */
  #awaitingFinalQuiz(live: Live, study: StudyRow): boolean {
    const start = live.row.starts[dayOf(live.run.session.now as SimMinutes)];
    return start !== undefined && this.#finalQuizDue(live, study) && this.env.now() - start >= this.#sessionMs(live, study, dayOf(live.run.session.now as SimMinutes));
  }

  /** A session's length (ms): the study's, plus what the teacher added to it. */
  #sessionMs(live: Live, study: StudyRow, day: number): number {
    return sessionLengthMs(study, live.row, day, this.env.now());
  }

  /**
   * Frees a code from the device it is signed in on (a broken or lost laptop): that device is
   * signed out, and the student can enter the code on another at once. Nothing they did is lost.
   */
  async releaseCode(studyId: string, code: string): Promise<void> {
    const p = await this.store.getParticipant(code);
    if (!p || p.studyId !== studyId) throw new ClassroomError(404, `no participant ${code} in study ${studyId}`);
    await this.store.putParticipant({ ...p, device: null, token: null, lastSeen: null });
  }

  /** A participant's session in progress (the teacher acts on it), or a refusal saying why not. */
  async #inSession(studyId: string, code: string): Promise<{ live: Live; study: StudyRow }> {
    const p = await this.store.getParticipant(code);
    if (!p || p.studyId !== studyId) throw new ClassroomError(404, `no participant ${code} in study ${studyId}`);
    const study = await this.study(studyId);
    const live = study.status === 'open' && !p.withdrawnAt ? await this.#maybeLive(p, study) : null;
    if (!live || !live.learner.online || live.learner.sessionOver) throw new ClassroomError(409, `${code} is not in a session now`);
    return { live, study };
  }

  /**
   * The teacher pauses a participant's session in progress (a fire drill, a student called out):
   * its clock stands still and the student can do nothing until it is resumed; the session's end
   * moves by the pause. The trace's minutes stay wall-clock minutes (a pause is a gap in them);
   * the pauses are in the export (study.json, sessions.csv's paused_minutes).
   */
  async pause(studyId: string, code: string): Promise<void> {
    const { live } = await this.#inSession(studyId, code);
    if (live.row.pausedAt != null) throw new ClassroomError(409, `${code}'s session is already paused`);
    live.row = { ...live.row, pausedAt: this.env.now() };
    await this.store.putSession(live.row);
    if (live.timer) clearTimeout(live.timer);
    live.timer = null;
  }

  /** The teacher resumes a paused session: the time it was paused is added to its length. */
  async resume(studyId: string, code: string): Promise<void> {
    const { live, study } = await this.#inSession(studyId, code);
    const at = live.row.pausedAt;
    if (at == null) throw new ClassroomError(409, `${code}'s session is not paused`);
    const day = dayOf(live.run.session.now as SimMinutes);
    const ms = [...(live.row.pausedMs ?? [])];
    while (ms.length <= day) ms.push(0);
    ms[day] = ms[day]! + Math.max(0, this.env.now() - at);
    live.row = { ...live.row, pausedAt: null, pausedMs: ms };
    await this.store.putSession(live.row);
    const start = live.row.starts[day];
    if (start !== undefined) this.#armTimer(live, study, start + this.#sessionMs(live, study, day) - this.env.now());
  }

  /** The teacher gives a participant's session in progress more time. */
  async extend(studyId: string, code: string, minutes: number): Promise<void> {
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 120) throw new ClassroomError(400, 'minutes: a whole number from 1 to 120');
    const { live, study } = await this.#inSession(studyId, code);
    const day = dayOf(live.run.session.now as SimMinutes);
    const extra = [...(live.row.extraMinutes ?? [])];
    while (extra.length <= day) extra.push(0);
    extra[day] = extra[day]! + minutes;
    live.row = { ...live.row, extraMinutes: extra };
    await this.store.putSession(live.row);
    const start = live.row.starts[day];
    if (start !== undefined && live.row.pausedAt == null) this.#armTimer(live, study, start + this.#sessionMs(live, study, day) - this.env.now());
  }

  /** A quiz is taken once, at its time (the pre-quiz at the first session's start, the final one in the last session), over its own items, each once. */
  #checkQuiz(live: Live, study: StudyRow, a: Extract<StudentActionInput, { kind: 'probe' }>): void {
    if (!study.spec.probes) throw new ClassroomError(409, 'this study has no quiz');
    const day = dayOf(live.run.session.now as SimMinutes);
    const taken = (d: number) => live.run.session.events.some((e) => e.type === 'probe' && e.day === d);
    if (live.quizzing.has(a.phase)) throw new ClassroomError(409, `the ${a.phase === 'pre' ? 'first' : 'final'} quiz is already being handed in`);
    if (a.phase === 'pre') {
      if (taken(0)) throw new ClassroomError(409, 'the first quiz is already handed in');
      if (day !== 0) throw new ClassroomError(409, 'the first quiz is not now: it is at the start of the first session');
    } else {
      if (taken(study.spec.sessions)) throw new ClassroomError(409, 'the final quiz is already handed in');
      if (day !== study.spec.sessions - 1 || live.learner.sessionOver) throw new ClassroomError(409, 'the final quiz is not now: it is at the end of the last session');
    }
    const ids = new Set(quizItems(live.run.session.world.lms.bank, a.phase).map((p) => p.id));
    const seen = new Set<string>();
    for (const x of a.answers) {
      if (!ids.has(x.itemId)) throw new ClassroomError(400, `answers: item "${x.itemId}" is not in the quiz`);
      if (seen.has(x.itemId)) throw new ClassroomError(400, `answers: item "${x.itemId}" is answered twice`);
      seen.add(x.itemId);
    }
  }

  #armTimer(live: Live, study: StudyRow, inMs = study.spec.sessionMinutes * 60_000): void {
    if (live.timer) clearTimeout(live.timer);
    // A failure here is logged; the student's next request checks the time again (state → #timeUp).
    const t = setTimeout(() => {
      live.timer = null;
      void this.#timeUp(live, study).catch((e: unknown) => console.error(`classroom: ending the session of ${live.code} at its time failed:`, e));
    }, Math.max(0, inMs) + 1000);
    (t as { unref?: () => void }).unref?.();
    live.timer = t;
  }

  #limit(code: string, message: boolean): void {
    const now = this.env.now();
    const r = this.#rate.get(code) ?? { actions: [], messages: [] };
    r.actions = r.actions.filter((t) => now - t < 60_000);
    r.messages = r.messages.filter((t) => now - t < 60_000);
    if (r.actions.length >= LIMITS.actionsPerMinute) throw new ClassroomError(429, 'too many actions in a minute: wait a moment');
    if (message && r.messages.length >= LIMITS.messagesPerMinute) throw new ClassroomError(429, `at most ${LIMITS.messagesPerMinute} messages a minute: wait a moment`);
    r.actions.push(now);
    if (message) r.messages.push(now);
    this.#rate.set(code, r);
  }

  async #maybeLive(p: ParticipantRow, study: StudyRow): Promise<Live | null> {
    const l = this.#live.get(p.code);
    if (l) return l;
    // Only a session still running is rebuilt (resumed); a finished one is read from the store.
    return (await this.store.getSession(p.code))?.status === 'active' ? this.#open(p, study) : null;
  }

  /** The participant's live run: in memory, or rebuilt from the store (resuming), or new. */
  #open(p: ParticipantRow, study: StudyRow): Promise<Live> {
    const l = this.#live.get(p.code);
    if (l) return Promise.resolve(l);
    let o = this.#opening.get(p.code);
    if (!o) {
      o = this.#build(p, study).finally(() => this.#opening.delete(p.code));
      this.#opening.set(p.code, o);
    }
    return o;
  }

  async #build(p: ParticipantRow, study: StudyRow): Promise<Live> {
    let row = await this.store.getSession(p.code);
    const stored = row ? (await this.store.events(p.code)).map((j) => JSON.parse(j) as TraceEvent) : [];
    if (!row) {
      row = { code: p.code, record: runRecord({ scenario: fieldScenario(study.spec, study.id), source: `study ${study.id}`, tutor: tutorOf(study, p), participant: p.code }), starts: [], events: 0, status: 'active', endReason: null };
      await this.store.putSession(row);
    }
    const resume = stored.length > 0 && row.status === 'active' ? stored : null;
    const queue = new ActionQueue(resume ? actionsFromTrace(resumePoint(resume)) : []);
    const ac = new AbortController();
    let learner!: RealLearner;
    const live: Live = { code: p.code, study, run: undefined as unknown as OpenRun, queue, learner: undefined as unknown as RealLearner, row, done: Promise.resolve(null), writes: Promise.resolve(), timer: null, ac, writeFailed: false, quizzing: new Set() };
    const env: RunEnv = {
      ...this.env.run,
      // Real students: no knowledge tracer runs (see core/learner/real.ts).
      tracer: async () => NO_TRACER_STUB,
      personaSeeds: async () => NO_PERSONA_SEEDS,
      ...(this.env.run.llm ? { llm: (ref) => this.#capped(this.env.run.llm!(ref), study) } : {}),
      learner: () => (learner = new RealLearner(p.code, queue, row!.record.scenario.horizonDays)),
    };
    const started = await startRun(row.record, env, { sink: storeSink(this.store, live, resume !== null), resume, signals: [ac.signal] });
    const run = started.run;
    live.run = run;
    live.learner = learner;
    this.#live.set(p.code, live);
    live.done = started.done
      .then(async (res) => {
        live.row = { ...live.row, events: res.events.length, status: res.ending === 'complete' ? 'done' : 'stopped', endReason: res.reason };
        await this.store.putSession(live.row);
        return res;
      })
      .catch(async (e: unknown) => {
        // A failed write leaves the session active (resumable); any other failure stops it, with why.
        if (!live.writeFailed) {
          live.row = { ...live.row, status: 'stopped', endReason: errorMessage(e) };
          await this.store.putSession(live.row);
        }
        return null;
      })
      .finally(() => {
        if (live.timer) clearTimeout(live.timer);
        this.#live.delete(p.code);
      });
    // A resumed session is handed out once the student's recorded actions are applied again.
    await Promise.race([queue.caughtUp, live.done]);
    if (live.row.starts.length > 0 && learner.online) this.#armTimer(live, study);
    return live;
  }

  /** A model client that counts the study's calls and refuses past its cap. */
  #capped(client: LlmClient, study: StudyRow): LlmClient {
    const cap = study.spec.llmCallCap;
    const store = this.store;
    return {
      provider: client.provider,
      model: client.model,
      family: client.family,
      async chat(req, signal) {
        // The call is counted before it is made, so that runs calling at once cannot pass the cap together.
        const { calls } = await store.countLlmCall(study.id, null);
        if (cap !== null && calls > cap) throw new LlmError('LLM_BUDGET', `the study's cap of ${cap} LLM calls is reached (set when the study was created): its LLM tutor stops`);
        const res = await client.chat(req, signal);
        if (res.cost) await store.addLlmCost(study.id, res.cost);
        return res;
      },
    };
  }

  async #state(p: ParticipantRow, study: StudyRow): Promise<StudentState> {
    const spec = study.spec;
    const live = this.#live.get(p.code);
    const row = live?.row ?? (await this.store.getSession(p.code));
    const base: StudentState = {
      study: { name: spec.name, sessions: spec.sessions, sessionMinutes: spec.sessionMinutes, consent: spec.consent, probes: spec.probes },
      consented: p.consentedAt !== null,
      session: { number: 1, of: spec.sessions, online: false, minutesLeft: null, allDone: row?.status === 'done', ended: row && row.status !== 'active' ? row.endReason : null, paused: false },
      assignments: [],
      current: null,
      attempts: [],
      lastAnswer: null,
      messages: [],
      helpRequests: Object.entries(HELP_TEMPLATES).map(([id, text]) => ({ id, text })),
      probe: null,
    };
    if (!live) return base;
    const lms = live.run.session.world.lms;
    const day = dayOf(live.run.session.now as SimMinutes);
    const start = live.row.starts[day];
    const online = live.learner.online;
    const events = live.run.session.events;
    const probed = (d: number) => events.some((e) => e.type === 'probe' && e.day === d);
    const probe: StudentState['probe'] = !spec.probes || !online ? null : day === 0 && !probed(0) ? { phase: 'pre', items: quizItems(lms.bank, 'pre').map(studentItem) } : this.#awaitingFinalQuiz(live, study) ? { phase: 'post', items: quizItems(lms.bank, 'post').map(studentItem) } : null;
    // A session just ended: the student's next one is the next day's (the world is on its way there).
    const over = live.learner.sessionOver;
    const last = day >= spec.sessions - 1;
    return {
      ...base,
      session: { ...base.session, number: over && !last ? day + 2 : day + 1, allDone: base.session.allDone || (over && last), online, paused: online && live.row.pausedAt != null, minutesLeft: online && start !== undefined ? Math.max(0, Math.ceil((start + this.#sessionMs(live, study, day) - this.env.now()) / 60_000)) : null },
      assignments: lms.openAssignments().map((a) => ({
        id: a.id,
        note: a.note,
        due: a.dueAt === null ? null : `session ${dayOf(a.dueAt as SimMinutes) + 1}`,
        items: a.itemIds.map((id) => {
          const tries = lms.attemptsOn(a.id, id);
          return { item: studentItem(lms.practiceItem(id)!), attempts: tries.length, solved: tries.some((g) => g.correct), done: lms.itemDone(a.id, id, spec.maxAttemptsPerItem) };
        }),
      })),
      current: lms.currentItemId,
      attempts: lms.gradebook.map((g) => ({ itemId: g.itemId, response: g.response, correct: g.correct, at: g.at })),
      lastAnswer: ((g) => {
        const item = g ? lms.practiceItem(g.itemId) : undefined;
        return g && item ? { item: studentItem(item), response: g.response, correct: g.correct, assignmentOpen: g.assignmentId === null || lms.openAssignments().some((a) => a.id === g.assignmentId) } : null;
      })(lms.gradebook.at(-1)),
      messages: lms.messages.map((m) => ({ from: m.from, text: m.text, at: m.at, ...(m.content ? { title: m.content.title } : {}) })),
      probe,
    };
  }

  /** The post-probe (the end of the last session): the probe set to answer before ending, or null. */
  async postProbe(token: string): Promise<StudentItem[] | null> {
    const { p, study } = await this.#participant(token);
    const live = this.#live.get(p.code);
    if (!study.spec.probes || !live?.learner.online) return null;
    const day = dayOf(live.run.session.now as SimMinutes);
    if (day !== study.spec.sessions - 1 || live.run.session.events.some((e) => e.type === 'probe' && e.day === study.spec.sessions)) return null;
    return quizItems(live.run.session.world.lms.bank, 'post').map(studentItem);
  }

  /** Stops every live run (a server shutting down); their stored traces resume at the next start. */
  async close(): Promise<void> {
    for (const l of this.#live.values()) if (l.timer) clearTimeout(l.timer);
    await Promise.all([...this.#live.values()].map((l) => l.writes.catch(() => undefined)));
  }
}

/**
 * The condition of the i-th participant of a study (in the order their codes were made): permuted
 * blocks, each block of k participants a shuffle of the k conditions seeded by the study id and the
 * block's number, so groups stay balanced and the assignment can be re-derived from the study.
 */
export function conditionOf(studyId: string, i: number, names: readonly string[]): string {
  const k = names.length;
  const block = new Rng(hashString(`${studyId}:conditions:${Math.floor(i / k)}`)).shuffle(names);
  return block[i % k]!;
}

/** The tutor of a participant's run: their condition's, or the study's. */
function tutorOf(study: StudyRow, p: ParticipantRow): { name: string; config: Record<string, unknown> } {
  const c = study.spec.conditions?.find((x) => x.name === p.condition);
  if (study.spec.conditions && !c) throw new ClassroomError(409, `participant ${p.code} has no condition of this study`);
  return c ? c.tutor : study.spec.tutor;
}

/**
 * The classroom's run sink (core/engine/runner.ts): every live event is stored as it is recorded,
 * one write after the other (`live.writes`, which requests and the export wait for). A resume first
 * cuts the stored events back to what it replays. The first failed write stops the run: it must not
 * go on with events that are not stored; the session stays active in the store, so a restart
 * resumes it from what is.
 */
function storeSink(store: ClassroomStore, live: Live, resuming: boolean): RunSink {
  let stop: (cause: unknown) => void = () => {};
  return {
    stops: true,
    async begin(keep, stopRun) {
      stop = stopRun;
      if (resuming) await store.truncateEvents(live.code, keep);
    },
    append(e) {
      const batch = [{ seq: e.seq, json: JSON.stringify(e) }];
      live.writes = live.writes
        .then(() => store.appendEvents(live.code, batch))
        .catch((err: unknown) => {
          if (!live.writeFailed) {
            live.writeFailed = true;
            console.error(`classroom: storing event ${batch[0]?.seq} of ${live.code} failed; the session stops (a restart resumes it):`, err);
            stop(err);
            live.queue.close('the server could not store the session');
          }
          throw err;
        });
      // Whoever waits for the writes (a request, the export, the run's end) sees the failure;
      // until one does, it must not be an unhandled rejection (that would end the server's process).
      live.writes.catch(() => undefined);
    },
    end: () => live.writes,
  };
}

/** A real student has no persona seed (the RealLearner never reads them). */
const NO_PERSONA_SEEDS = { version: 'a real student: no persona seed', count: 0, ability: {}, seeds: [] };

/** The "tracer" of a real student's run: none is used (RealLearner never asks it). */
const NO_TRACER_STUB = {
  info: { name: 'none', version: 'a real student: no knowledge tracer', nSkills: 0 },
  predict: () => Promise.reject(new SimError('TRACER_FAILED', 'a real student has no knowledge tracer')),
};

/** A student action before the server stamps its minute. */
export type StudentActionInput = StudentAction extends infer A ? (A extends StudentAction ? Omit<A, 't'> : never) : never;

/** What a student's browser may send: validated here (the browser is not trusted). */
function parseAction(x: unknown): StudentActionInput {
  const a = (typeof x === 'object' && x !== null ? x : {}) as Record<string, unknown>;
  const str = (k: string, max: number): string => {
    const v = a[k];
    if (typeof v !== 'string') throw new ClassroomError(400, `${k}: text expected`);
    if (v.length > max) throw new ClassroomError(413, `${k}: at most ${max} characters`);
    return v;
  };
  const assignment = (): string | null => (a.assignmentId === null || a.assignmentId === undefined ? null : str('assignmentId', 40));
  switch (a.kind) {
    case 'login':
      return { kind: 'login' };
    case 'open':
      return { kind: 'open', itemId: str('itemId', 60), assignmentId: assignment() };
    case 'submit':
      return { kind: 'submit', itemId: str('itemId', 60), assignmentId: assignment(), response: str('response', 200) };
    case 'help': {
      const template = str('template', 40);
      // An own key only: "__proto__", "constructor" or "toString" name no help request (a plain-object lookup would find them).
      if (!Object.hasOwn(HELP_TEMPLATES, template)) throw new ClassroomError(400, `unknown help request "${template}"`);
      return { kind: 'help', template };
    }
    case 'say': {
      const text = str('text', MAX_MESSAGE_CHARS);
      if (!text.trim()) throw new ClassroomError(400, 'text: write something first');
      return { kind: 'say', text };
    }
    case 'probe': {
      const answers = a.answers;
      if (!Array.isArray(answers) || answers.length > 300) throw new ClassroomError(400, 'answers: a list of { itemId, response }');
      if (a.phase !== 'pre' && a.phase !== 'post') throw new ClassroomError(400, 'phase: "pre" or "post"');
      return { kind: 'probe', phase: a.phase, answers: answers.map((x) => ({ itemId: String((x as { itemId?: unknown }).itemId ?? '').slice(0, 60), response: String((x as { response?: unknown }).response ?? '').slice(0, 200) })) };
    }
    case 'logout':
      return { kind: 'logout', why: 'student_ended' };
    default:
      throw new ClassroomError(400, `unknown action "${String(a.kind)}"`);
  }
}
