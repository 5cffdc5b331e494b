/**
 * A real student as a learner agent: the other side of the port from the simulated learner
 * (learner/port.ts). Nothing is decided here; every action comes from the student's browser
 * through an ActionSource, stamped with the virtual minute it happened at, and is applied through
 * LearnerIo exactly as the simulated learner's are (so the tutor is woken by the student's real
 * actions, and the trace has the same kinds of events). Field traces differ in what they cannot
 * have: no knowledge tracer (no mastery, attempts without a predicted P(correct)), and probes only
 * when the student takes the study's probe set.
 *
 * Time: the session waits (an `await` moment) until the student's next action arrives; each action
 * is applied at its own virtual minute (never earlier than now), so the LMS's own events between
 * two actions (reminders, deadlines) happen in order. A day of the trace is one session of the
 * study; see docs/classroom.md for what `t` means in a field trace.
 *
 * Resuming (a server restart): the session is replayed from its stored trace with an ActionSource
 * that gives back the recorded actions first (actionsFromTrace), then the live ones.
 */
import { MINUTES_PER_DAY } from '../clock';
import type { Item } from '../course/types';
import type { ItemBank } from '../course/item-bank';
import { checkAnswer } from '../course/answer-check';
import type { ContentKind } from '../lms/state';
import type { TraceEvent } from '../trace/types';
import { roundP } from '../trace/recorder';
import { RunStop } from './stop';
import type { LearnerAgent, LearnerIo, LearnerMoment, ProbeResult, StudentAction } from './port';
import { HELP_TEMPLATES } from './voice';

/** Where a real learner's actions come from: the student's browser, or (resuming) a stored trace first. */
export interface ActionSource {
  /** The next action; resolves when the student acts. */
  next(): Promise<StudentAction>;
  /** Called once an action has been applied (the tutor's turns it caused are over). */
  applied?(a: StudentAction, outcome: { ok: true } | { ok: false; error: string }): void;
}

export class RealLearner implements LearnerAgent {
  readonly tracer = null;
  readonly origin: { kind: 'real'; participant: string };
  readonly voiceName = null;
  readonly scheduledProbes = false;
  readonly #source: ActionSource;
  #online = false;
  #current: { itemId: string; assignmentId: string | null } | null = null;
  #day = 0;
  /** Today's session is over (the student logged out): the day goes on without them. */
  #sessionDone = false;

  readonly #horizonDays: number;

  constructor(participant: string, source: ActionSource, horizonDays: number) {
    this.origin = { kind: 'real', participant };
    this.#source = source;
    this.#horizonDays = horizonDays;
  }

  get online(): boolean {
    return this.#online;
  }

  /** Today's session is over (the student ended it, or its time was up); the next starts with the next day. */
  get sessionOver(): boolean {
    return this.#sessionDone;
  }

  dayStarted(day: number, io: LearnerIo): void {
    this.#day = day;
    this.#sessionDone = false;
    // A day is one session of the study: wait for the student to come back.
    io.at(io.now, { k: 'await' });
  }

  async moment(m: LearnerMoment, io: LearnerIo): Promise<void> {
    if (m.k === 'await') {
      const a = await this.#source.next();
      // An action is applied at its own minute, never before now and never past the day (the
      // session's end of day is at 23:59).
      const dayEnd = (this.#day + 1) * MINUTES_PER_DAY - 2;
      io.at(Math.min(dayEnd, Math.max(io.now, Math.floor(a.t))), { k: 'act', action: a });
      return;
    }
    if (m.k !== 'act') return;
    const a = m.action;
    let outcome: { ok: true } | { ok: false; error: string } = { ok: true };
    try {
      await this.#apply(a, io);
    } catch (e) {
      if (e instanceof RealActionError) outcome = { ok: false, error: e.message };
      else throw e;
    }
    this.#source.applied?.(a, outcome);
    // After a logout the day goes on without the student (reminders, the end of the day).
    if (!this.#sessionDone) io.at(io.now, { k: 'await' });
  }

  async #apply(a: StudentAction, io: LearnerIo): Promise<void> {
    if (a.kind !== 'login' && !this.#online) throw new RealActionError('not logged in: start the session first');
    switch (a.kind) {
      case 'login':
        if (this.#online) return;
        this.#online = true;
        await io.login();
        return;
      case 'open': {
        const item = this.#practiceItem(io, a.itemId);
        this.#current = { itemId: item.id, assignmentId: a.assignmentId };
        io.open(item.id);
        io.note('item_opened', { itemId: item.id, assignmentId: a.assignmentId });
        return;
      }
      case 'submit': {
        const item = this.#practiceItem(io, a.itemId);
        if (a.assignmentId !== null && !io.lms.assignments.some((x) => x.id === a.assignmentId && x.itemIds.includes(item.id))) throw new RealActionError(`item ${item.id} is not in assignment ${a.assignmentId}`);
        const response = a.response.slice(0, MAX_ANSWER_CHARS);
        await io.submit({ item, assignmentId: a.assignmentId, p: null, boost: 0, source: 'own', response, correct: checkAnswer(item, response), evidence: false });
        return;
      }
      case 'help': {
        if (!HELP_TEMPLATES[a.template]) throw new RealActionError(`unknown help request "${a.template}"`);
        await io.askHelp(a.template);
        return;
      }
      case 'say':
        await io.say(a.text.slice(0, MAX_MESSAGE_CHARS), { itemId: this.#current?.itemId ?? null });
        return;
      case 'probe':
        // The pre-probe is day 0 (before tutoring), the post-probe the last day: learning gain reads them like a simulated run's.
        io.recordProbe(a.phase === 'pre' ? 0 : this.#horizonDays, this.#gradeProbe(io, a.answers, a.phase));
        return;
      case 'logout':
        this.#online = false;
        this.#current = null;
        this.#sessionDone = true;
        await io.logout(a.why);
        return;
    }
  }

  #practiceItem(io: LearnerIo, id: string): Item {
    const it = io.lms.practiceItem(id);
    if (!it) throw new RealActionError(`no item "${id}" in this course`);
    return it;
  }

  /** The probe set answered by the student (the post-quiz: the bank's parallel form, when it has one): graded by the item bank's checker; no P(correct) (no tracer). */
  #gradeProbe(io: LearnerIo, answers: readonly { itemId: string; response: string }[], phase: 'pre' | 'post'): ProbeResult {
    const probes = quizItems(io.lms.bank, phase);
    const by = new Map(answers.map((x) => [x.itemId, x.response]));
    const items = probes.map((p) => {
      const response = (by.get(p.id) ?? '').slice(0, MAX_ANSWER_CHARS);
      return { itemId: p.id, skill: p.skillId, p: null, correct: response.trim() !== '' && checkAnswer(p, response), response };
    });
    const rate = roundP(items.filter((x) => x.correct).length / Math.max(1, items.length));
    return { items, solveRate: rate, gradedRate: rate };
  }

  read(_text: string, _workingOn: readonly Item[], _content: { skill: number; kind: ContentKind } | undefined): string[] {
    // A real student reads the message in their browser; what they make of it shows in what they do next.
    return [];
  }

  async replyTo(): Promise<void> {
    // A real student replies when they write (a `say` action), not on cue.
  }

  sessionCut(): void {
    this.#online = false;
    this.#current = null;
  }

  async probe(): Promise<ProbeResult> {
    throw new RunStop('internal_error', 'a real student takes probes themselves (scheduledProbes is false)');
  }

  async belief(): Promise<number[]> {
    throw new RunStop('internal_error', 'a real student has no knowledge tracer');
  }
}

/** An action the student's browser sent that cannot be applied (told to the student; nothing is recorded). */
export class RealActionError extends Error {
  readonly code = 'STUDENT_ACTION';
}

/** Caps on what a student sends (documented in docs/classroom.md). */
/** The items of a quiz: the pre-quiz answers the bank's probes; the post-quiz its parallel form when it has one (else the same probes). */
export function quizItems(bank: Pick<ItemBank, 'probes' | 'postProbes'>, phase: 'pre' | 'post'): readonly Item[] {
  return phase === 'post' && bank.postProbes ? bank.postProbes : bank.probes;
}

export const MAX_MESSAGE_CHARS = 2000;
export const MAX_ANSWER_CHARS = 200;

/**
 * The student actions a stored field trace recorded, in order, with their minutes: a resumed
 * session gives these back to its RealLearner first (the world replays them; the recorder checks
 * every event), then the live ones.
 */
export function actionsFromTrace(events: readonly TraceEvent[]): StudentAction[] {
  const out: StudentAction[] = [];
  for (const e of events) {
    if (e.type === 'lms_event' && e.kind === 'login') out.push({ kind: 'login', t: e.t });
    else if (e.type === 'lms_event' && e.kind === 'item_opened') out.push({ kind: 'open', t: e.t, itemId: String(e.detail?.itemId), assignmentId: (e.detail?.assignmentId as string | null) ?? null });
    else if (e.type === 'lms_event' && e.kind === 'logout' && (e.detail?.why === 'student_ended' || e.detail?.why === 'time_up')) out.push({ kind: 'logout', t: e.t, why: e.detail.why });
    else if (e.type === 'attempt') out.push({ kind: 'submit', t: e.t, itemId: e.itemId, assignmentId: e.assignmentId, response: e.response });
    else if (e.type === 'message' && e.from === 'learner') out.push(e.help !== undefined ? { kind: 'help', t: e.t, template: e.help } : { kind: 'say', t: e.t, text: e.text });
    else if (e.type === 'probe') out.push({ kind: 'probe', t: e.t, phase: e.day === 0 ? 'pre' : 'post', answers: e.items.map((i) => ({ itemId: i.itemId, response: i.response ?? '' })) });
  }
  return out;
}

/** An ActionSource over a queue: recorded actions first (resuming), then what the student sends. */
export class ActionQueue implements ActionSource {
  readonly #items: StudentAction[] = [];
  #waiting: { res: (a: StudentAction) => void; rej: (e: Error) => void } | null = null;
  #closed: Error | null = null;
  readonly #onApplied = new Map<StudentAction, (o: { ok: true } | { ok: false; error: string }) => void>();
  /** Actions given back from the trace on resume: their `applied` is not reported to anyone. */
  #replaying: number;
  #caughtUp!: () => void;
  /** Resolves once every recorded action has been applied again (at once when there were none). */
  readonly caughtUp: Promise<void>;

  constructor(recorded: readonly StudentAction[] = []) {
    this.#items.push(...recorded);
    this.#replaying = recorded.length;
    this.caughtUp = new Promise((res) => (this.#caughtUp = res));
    if (this.#replaying === 0) this.#caughtUp();
  }

  /** True while the recorded actions of a resumed session are still being applied. */
  get replaying(): boolean {
    return this.#replaying > 0;
  }

  next(): Promise<StudentAction> {
    const a = this.#items.shift();
    if (a) return Promise.resolve(a);
    if (this.#closed) return Promise.reject(this.#closed);
    return new Promise((res, rej) => (this.#waiting = { res, rej }));
  }

  /**
   * No more actions (the study was ended): a session waiting for the student stops waiting (its
   * run's stop signal, aborted first, makes that the run's end, "aborted"); queued actions still apply.
   */
  close(why = 'the session was closed'): void {
    this.#closed = new Error(why);
    const w = this.#waiting;
    this.#waiting = null;
    w?.rej(this.#closed);
  }

  /** Hands a student's action to the session; resolves once it has been applied (or refused). */
  push(a: StudentAction): Promise<{ ok: true } | { ok: false; error: string }> {
    const done = new Promise<{ ok: true } | { ok: false; error: string }>((res) => this.#onApplied.set(a, res));
    const w = this.#waiting;
    if (w) {
      this.#waiting = null;
      w.res(a);
    } else this.#items.push(a);
    return done;
  }

  applied(a: StudentAction, outcome: { ok: true } | { ok: false; error: string }): void {
    if (this.#replaying > 0 && --this.#replaying === 0) this.#caughtUp();
    const cb = this.#onApplied.get(a);
    this.#onApplied.delete(a);
    cb?.(outcome);
  }
}
