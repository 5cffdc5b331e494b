/**
 * The session: the event queue and the virtual clock of one run, and the flow between the world,
 * the learner agent and the tutor. `advance()` runs the simulation until the tutor is woken and
 * hands out that Turn; while the turn is open nothing moves; `turn.end()` lets time go on. The
 * run ends at the horizon (or on an error, a stop, a cancel) and `advance()` then gives null.
 *
 *   const s = new Session(...);
 *   for (let turn = await s.advance(); turn; turn = await s.advance()) { ...act through turn.tools...; turn.end(); }
 *
 * Order of events: virtual time, then priority, then insertion order (clock/EventQueue). Fixed
 * events of the horizon (day starts, probes, ends of day) are scheduled at the start; homework
 * deadlines when homework is posted; the learner schedules its own moments (log in, work, submit,
 * log out). No wall clock, no Math.random: the same inputs give the same trace.
 */
import { EventQueue, MINUTES_PER_DAY, at, dayOf, simMinutes, type SimMinutes } from '../clock';
import type { Rng } from '../rng';
import type { Item } from '../course/types';
import type { Scenario, WakeEventKind } from '../scenario/schema';
import { HELP_TEMPLATES } from '../learner/voice';
import { TRACE_SCHEMA_VERSION, type RunStartEvent, type TerminationReason, type TraceEvent, type TutorSpec } from '../trace/types';
import { ResumeDivergence, TraceRecorder, roundP } from '../trace/recorder';
import { SimError, errorMessage } from '../errors';
import type { Oracle, Wake } from '../tutors/types';
import { ENGINE_VERSION } from './version';
import { RunStop } from '../learner/stop';
import { Turn } from './turn';
import { HORIZON_MINUTES, World } from './world';
import type { LearnerAgent, LearnerIo, LearnerMoment, LogoutWhy, Submission } from '../learner/port';

type SimEvent =
  | { k: 'probe'; day: number }
  | { k: 'day_start'; day: number }
  | { k: 'due_soon'; assignmentId: string }
  | { k: 'due'; assignmentId: string }
  | { k: 'end_of_day'; day: number }
  | { k: 'learner'; m: LearnerMoment };

/** Priorities among events at the same minute (lower first). */
const PRIORITY = { day_start: 0, due_soon: 1, due: 1, login: 2, submit: 3, step: 4, logout: 5, probe: 6, end_of_day: 7, await: 2, act: 2 } as const;

/** run_start.tracer of a learner without a knowledge tracer (a real student). */
export const NO_TRACER = { name: 'none', version: 'a real student: no knowledge tracer', nSkills: 0 } as const;

export interface RunResult {
  runId: string;
  events: TraceEvent[];
  reason: TerminationReason;
  /** Why the run stopped early (run_end's message), null when it reached its horizon. */
  message: string | null;
  /**
   * A resumed run that stopped (a cancel, a failing tracer or provider) before it had replayed its
   * whole stored trace: nothing was recorded for the stop, the stored trace stays as it was and can
   * be resumed again. `events` then holds only the replayed part.
   */
  stoppedInReplay: boolean;
}

export interface SessionOptions {
  runId: string;
  scenario: Scenario;
  /** Records the trace (with a stored trace to replay, when resuming). */
  recorder: TraceRecorder;
  /** The item bank's random stream. */
  bankRng: Rng;
  learner: LearnerAgent;
  tutor: TutorSpec;
  /** The tutor's own random stream (TutorContext.rng). */
  tutorRng: Rng;
  signal?: AbortSignal;
  /** The tutor reads the learner's true state (need "oracle"; a simulated learner only). */
  oracle?: boolean;
}

type Handout = { turn: Turn | null } | { error: unknown };

/**
 * One turn of the host's event loop, so that a stop (signal handler, button, message) can land: a
 * run with a stop signal takes one before each event. An event takes a few ms at most, even on AKT
 * (wrappers such as tsx kill a process that has not answered a signal within 30 to 60 ms), and a
 * turn costs microseconds: setImmediate in Node, a MessageChannel message in browsers (setTimeout
 * would be clamped to 4 ms there). Timing only: no trace depends on it.
 */
const host = globalThis as { setImmediate?: (f: () => void) => unknown; MessageChannel?: typeof MessageChannel };
function yieldToHost(): Promise<void> {
  return new Promise<void>((resolve) => {
    if (host.setImmediate) host.setImmediate(resolve);
    else if (host.MessageChannel) {
      const ch = new host.MessageChannel();
      ch.port1.onmessage = () => {
        ch.port1.close();
        resolve();
      };
      ch.port2.postMessage(null);
    } else setTimeout(resolve, 0);
  });
}

export class Session {
  readonly runId: string;
  readonly scenario: Scenario;
  readonly world: World;
  readonly #learner: LearnerAgent;
  readonly #tutor: TutorSpec;
  readonly #tutorRng: Rng;
  readonly #signal: AbortSignal | undefined;
  readonly #oracle: Oracle | null;
  readonly #q = new EventQueue<SimEvent>();
  readonly #io: LearnerIo;
  #turnNo = 0;
  #open: Turn | null = null;
  /** Tutor messages that reached the online learner in the current exchange, and whether they gave the open item away. */
  #turnTexts: string[] = [];
  #revealedCurrent = false;
  #state: 'new' | 'running' | 'ended' = 'new';
  #waiter: { resolve: (t: Turn | null) => void; reject: (e: unknown) => void } | null = null;
  /** The tutor declared the run over: it ends once the open turn has ended (`endAfterTurn`). */
  #endRequest: string | null = null;
  #ready: Handout | null = null;
  #result: RunResult | null = null;

  constructor(o: SessionOptions) {
    this.runId = o.runId;
    this.scenario = o.scenario;
    this.world = new World(o.scenario, o.bankRng, o.recorder, () => this.#q.now);
    this.#learner = o.learner;
    this.#tutor = o.tutor;
    this.#tutorRng = o.tutorRng;
    this.#signal = o.signal;
    const learner = o.learner;
    this.#oracle = o.oracle ? { know: (skills) => learner.belief(skills) } : null;
    this.world.onDelivered = (d, working) => {
      if (!this.world.lms.learnerOnline) return;
      const content = d.content ? { skill: d.content.skill, kind: d.content.kind } : undefined;
      const revealed = this.#learner.read(d.text, working.map((id) => this.world.itemOf(id)), content, this.#io);
      const cur = this.world.lms.currentItemId;
      if (cur !== null && revealed.includes(cur)) this.#revealedCurrent = true;
      this.#turnTexts.push(d.text);
    };
    // A tutor's assignment note is read with the assignment: now if the learner is online, else at the next login.
    this.world.onAssigned = (id) => {
      if (this.world.lms.learnerOnline) this.#readNotes([id]);
    };
    this.#io = this.#learnerIo();
  }

  /** The learner reads the unread notes of these open tutor assignments (for what they give away). */
  #readNotes(ids: readonly string[] | null): void {
    const world = this.world;
    if (!this.#learner.readNote) return;
    const notes = world.lms.openAssignments().filter((a) => a.source === 'tutor' && a.noteReadAt === undefined && a.note.trim() && (ids === null || ids.includes(a.id)));
    if (!notes.length) return;
    const working = world.workingOn().map((id) => world.itemOf(id));
    for (const a of notes) {
      a.noteReadAt = this.now;
      const revealed = this.#learner.readNote(a.note, working);
      const cur = world.lms.currentItemId;
      if (cur !== null && revealed.includes(cur)) this.#revealedCurrent = true;
    }
  }

  /** Virtual minutes since day 0, 00:00. */
  get now(): number {
    return this.#q.now;
  }

  get events(): readonly TraceEvent[] {
    return this.world.recorder.events;
  }

  /** The open turn, if a tutor holds one now. */
  get openTurn(): Turn | null {
    return this.#open?.isOpen ? this.#open : null;
  }

  get ended(): boolean {
    return this.#state === 'ended';
  }

  /**
   * Runs the world until the tutor is woken and returns that turn, or null once the run is over.
   * Rejects when a turn is still open, or when a resumed run diverges from its stored trace.
   */
  advance(): Promise<Turn | null> {
    if (this.#open?.isOpen) return Promise.reject(new SimError('TURN_OPEN', `turn ${this.#open.wake.turn} is still open: end it before advancing`));
    if (this.#waiter) return Promise.reject(new SimError('TURN_OPEN', 'advance() is already waiting for the next turn'));
    const ready = this.#ready;
    if (ready) {
      this.#ready = null;
      return 'error' in ready ? Promise.reject(ready.error) : Promise.resolve(ready.turn);
    }
    if (this.#state === 'ended') return Promise.resolve(null);
    const p = new Promise<Turn | null>((resolve, reject) => (this.#waiter = { resolve, reject }));
    if (this.#state === 'new') {
      this.#state = 'running';
      void this.#main();
    }
    return p;
  }

  /**
   * The tutor declares the run over (a person's "end the run here"): once the open turn ends (with
   * its turn_end), nothing more happens and the run ends with run_end reason `ended_by_tutor` and
   * the days played. Only while a turn is open: the tutor can speak only in a turn.
   */
  endAfterTurn(message: string): void {
    if (!this.#open?.isOpen) throw new SimError('TURN_CLOSED', 'the tutor can end the run only during one of its turns');
    this.#endRequest = message;
  }

  /** The run's outcome once `advance()` has given null. */
  result(): RunResult {
    if (!this.#result) throw new SimError('INTERNAL', 'the run is not over yet');
    return this.#result;
  }

  #hand(h: Handout): void {
    const w = this.#waiter;
    if (w) {
      this.#waiter = null;
      if ('error' in h) w.reject(h.error);
      else w.resolve(h.turn);
    } else this.#ready = h;
  }

  #emit: World['emit'] = (e) => this.world.emit(e);

  async #main(): Promise<void> {
    const s = this.scenario;
    const world = this.world;
    const learner = this.#learner;
    try {
      this.#emit({
        type: 'run_start',
        t: 0,
        schemaVersion: TRACE_SCHEMA_VERSION,
        runId: this.runId,
        engine: ENGINE_VERSION,
        scenario: s,
        tutor: this.#tutor,
        tracer: learner.tracer ?? { ...NO_TRACER },
        learner: { ...learner.origin } as RunStartEvent['learner'],
        itemBank: { hash: world.bank.hash, items: [...world.bank.items], probes: [...world.bank.probes], ...(world.bank.postProbes ? { postProbes: [...world.bank.postProbes] } : {}) },
        helpTemplates: { ...HELP_TEMPLATES },
        ...(learner.voiceName !== null ? { voice: learner.voiceName } : {}),
      });
    } catch (e) {
      // A resumed run whose stored trace starts differently (another record, engine or tracer) is
      // refused like any other divergence: advance() rejects (this throw would otherwise be lost).
      this.#state = 'ended';
      this.#hand({ error: e });
      return;
    }
    const q = this.#q;
    // A learner who takes probes themselves (a real student's pre/post quiz) has none on the schedule.
    const scheduled = learner.scheduledProbes !== false;
    const probeDays = !scheduled ? [] : s.probes.days === 'all' ? Array.from({ length: s.horizonDays }, (_, i) => i + 1) : s.probes.days;
    if (scheduled) q.schedule(simMinutes(0), { k: 'probe', day: 0 }, -1);
    for (let d = 0; d < s.horizonDays; d++) {
      q.schedule(simMinutes(d * MINUTES_PER_DAY), { k: 'day_start', day: d }, PRIORITY.day_start);
      if (probeDays.includes(d + 1)) q.schedule(at(d, s.probes.time), { k: 'probe', day: d + 1 }, PRIORITY.probe);
      q.schedule(simMinutes(d * MINUTES_PER_DAY + MINUTES_PER_DAY - 1), { k: 'end_of_day', day: d }, PRIORITY.end_of_day);
    }
    const horizonEnd = HORIZON_MINUTES(s);
    let reason: TerminationReason = 'horizon_reached';
    let stopMessage: string | undefined;
    try {
      try {
        for (;;) {
          // A stop can only come from outside this loop (a signal handler, a button, a message): with a
          // signal, the host's event loop gets a turn before each event, or a run that never waits on
          // I/O (BKT, AKT on the CPU, scripted tutors) could not be stopped before its end. Timing
          // only: the trace is unchanged.
          if (this.#signal) await yieldToHost();
          this.#checkAbort();
          if (q.peekTime() >= horizonEnd) break;
          const next = q.pop();
          if (!next) break;
          await this.#handle(next.event, dayOf(next.at));
        }
      } catch (e) {
        if (e instanceof ResumeDivergence || world.recorder.diverged) throw world.recorder.diverged ?? e;
        if (e instanceof RunStop) {
          reason = e.reason;
          stopMessage = e.message;
        } else if (this.#signal?.aborted) {
          reason = 'aborted';
          stopMessage = 'the run was cancelled';
        } else if (String((e as { code?: string }).code ?? '').startsWith('LLM_')) {
          // The student voice's model kept failing: a clean stop, named.
          reason = 'llm_error';
          stopMessage = errorMessage(e);
          if (!this.#replaying) this.#emit({ type: 'error', t: this.now, code: (e as { code: string }).code, message: stopMessage });
        } else {
          reason = (e as { code?: string }).code === 'TRACER_FAILED' ? 'tracer_error' : 'internal_error';
          stopMessage = errorMessage(e);
          if (!this.#replaying) this.#emit({ type: 'error', t: this.now, code: (e as { code?: string }).code ?? 'INTERNAL', message: stopMessage });
        }
      }
      // A resumed run stopped before it caught up with its stored trace records nothing for the stop
      // (those seqs belong to the stored events); the stored trace stays resumable.
      if (!this.#replaying) this.#emit({ type: 'run_end', t: this.now, reason, ...(stopMessage !== undefined ? { message: stopMessage } : {}), days: reason === 'horizon_reached' ? s.horizonDays : dayOf(this.now as SimMinutes) + 1 });
    } catch (e) {
      // A resumed run that does not replay its stored trace: nothing more is recorded.
      this.#state = 'ended';
      this.#hand({ error: e });
      return;
    }
    this.#result = { runId: this.runId, events: world.recorder.events, reason, message: stopMessage ?? null, stoppedInReplay: this.#replaying };
    this.#state = 'ended';
    this.#hand({ turn: null });
  }

  /** A resumed run that has not yet emitted every stored event. */
  get #replaying(): boolean {
    return this.world.recorder.events.length < this.world.recorder.replayLength;
  }

  #checkAbort(): void {
    if (this.#signal?.aborted) throw new RunStop('aborted', 'the run was cancelled');
  }

  async #handle(ev: SimEvent, day: number): Promise<void> {
    const world = this.world;
    const lms = world.lms;
    switch (ev.k) {
      case 'probe': {
        const r = await this.#learner.probe(ev.day, world.bank.probes);
        this.#emit({ type: 'probe', t: this.now, day: ev.day, items: r.items, solveRate: r.solveRate, gradedRate: r.gradedRate, ...(r.knowledgeRate !== undefined ? { knowledgeRate: r.knowledgeRate } : {}) });
        return;
      }
      case 'day_start': {
        this.#emit({ type: 'lms_event', t: this.now, kind: 'day_start', day: ev.day + 1 });
        const hw = world.postHomework(ev.day);
        if (hw) {
          this.#q.schedule(simMinutes(Math.max(this.now, hw.dueAt - 120)), { k: 'due_soon', assignmentId: hw.assignmentId }, PRIORITY.due_soon);
          this.#q.schedule(simMinutes(hw.dueAt), { k: 'due', assignmentId: hw.assignmentId }, PRIORITY.due);
        }
        this.#learner.dayStarted(ev.day, this.#io);
        return;
      }
      case 'learner':
        return this.#learner.moment(ev.m, this.#io);
      case 'due_soon': {
        const a = lms.assignments.find((x) => x.id === ev.assignmentId);
        if (!a || a.status !== 'open') return;
        const le = this.#emit({ type: 'lms_event', t: this.now, kind: 'assignment_due', day: day + 1, detail: { assignmentId: a.id, dueAt: a.dueAt } });
        await this.#exchange('assignment_due', le.seq, { assignment_id: a.id, due_in_minutes: (a.dueAt ?? this.now) - this.now });
        return;
      }
      case 'due': {
        const a = lms.assignments.find((x) => x.id === ev.assignmentId);
        if (!a || a.status !== 'open') return;
        const done = a.itemIds.every((id) => lms.itemDone(a.id, id, world.maxAttemptsPerItem));
        a.status = done ? 'completed' : 'missed';
        const le = this.#emit({ type: 'lms_event', t: this.now, kind: done ? 'assignment_completed' : 'assignment_missed', day: day + 1, detail: { assignmentId: a.id } });
        if (!done) await this.#exchange('assignment_missed', le.seq, { assignment_id: a.id });
        return;
      }
      case 'end_of_day': {
        if (lms.learnerOnline) {
          this.#learner.sessionCut();
          lms.currentItemId = null;
          lms.learnerOnline = false;
          this.#emit({ type: 'lms_event', t: this.now, kind: 'logout', day: ev.day + 1, detail: { why: 'end_of_day' } });
        }
        await this.#snapshot('all');
        const le = this.#emit({ type: 'lms_event', t: this.now, kind: 'end_of_day', day: ev.day + 1 });
        await this.#wake('end_of_day', le.seq, {});
        return;
      }
    }
  }

  /**
   * The tracer's belief, read as the run needs it (engine 2): over the course's skills after each
   * graded answer the learner worked out (scope 'course'), and over every skill the tracer knows at
   * the end of each day (scope 'all'). Engine 1 read all skills after every answer too; on AKT that
   * readout was about two thirds of a run's time, for rows nothing per answer uses (the trace
   * viewer's heatmap shows the course's skills per answer and all skills by day; no axis reads
   * mastery). Old traces keep 'all' after every answer and read and score as they are.
   */
  async #snapshot(scope: 'course' | 'all'): Promise<void> {
    const tracer = this.#learner.tracer;
    if (!tracer) return; // no knowledge tracer (a real student): no belief to record
    const skills = scope === 'all' ? Array.from({ length: tracer.nSkills }, (_, i) => i + 1) : [...this.scenario.course.skills];
    const values = await this.#learner.belief(skills);
    // Four decimals keep a belief over ~100 skills at each day's end affordable in the trace.
    this.#emit({ type: 'mastery', t: this.now, scope, skills, values: values.map((v) => Math.round(v * 1e4) / 1e4) });
  }

  /** Wakes the tutor (if the scenario wakes it on `reason`) and waits until its turn is over. */
  async #wake(reason: WakeEventKind, ref: number | null, payload: Record<string, unknown>): Promise<void> {
    if (!this.scenario.tutor.wakeOn.includes(reason)) return;
    this.#checkAbort();
    const no = ++this.#turnNo;
    this.#emit({ type: 'wake', t: this.now, turn: no, reason, ref });
    const wake: Wake = { reason, turn: no, day: dayOf(this.now as SimMinutes) + 1, horizonDays: this.scenario.horizonDays, t: this.now, payload };
    const turn = new Turn(this.world, wake, this.#tutorRng, this.#signal, this.#oracle ?? undefined);
    this.#open = turn;
    this.#hand({ turn });
    const outcome = await turn.settled;
    this.#open = null;
    if (!outcome.ended) {
      const e = outcome.error;
      if (e instanceof ResumeDivergence || this.world.recorder.diverged) throw this.world.recorder.diverged ?? e;
      const code = (e as { code?: string }).code;
      const llm = typeof code === 'string' && code.startsWith('LLM_');
      this.#checkAbort();
      if (!this.#replaying) this.#emit({ type: 'error', t: this.now, code: code ?? 'TUTOR_ERROR', message: errorMessage(e), turn: no });
      throw new RunStop(llm ? 'llm_error' : 'tutor_error', errorMessage(e));
    }
    this.#emit({ type: 'turn_end', t: this.now, turn: no, actions: turn.actions, implicitSilence: turn.actions === 0 });
    if (this.#endRequest !== null) throw new RunStop('ended_by_tutor', this.#endRequest);
  }

  /** Wakes the tutor and, if it said something to the online learner, lets the learner reply once. */
  async #exchange(reason: WakeEventKind, ref: number | null, payload: Record<string, unknown>): Promise<void> {
    this.#turnTexts = [];
    this.#revealedCurrent = false;
    await this.#wake(reason, ref, payload);
    if (!this.world.lms.learnerOnline || this.#turnTexts.length === 0) return;
    await this.#learner.replyTo(this.#turnTexts, this.#revealedCurrent, this.#io);
  }

  #learnerIo(): LearnerIo {
    const world = this.world;
    const lms = world.lms;
    const prio = (m: LearnerMoment) => PRIORITY[m.k];
    const self = this;
    return {
      get now() {
        return self.now;
      },
      get day() {
        return dayOf(self.now as SimMinutes);
      },
      get nextSeq() {
        return world.recorder.events.length;
      },
      lms,
      ...(this.#signal ? { signal: this.#signal } : {}),
      itemOf: (id: string): Item => world.itemOf(id),
      at: (t: number, m: LearnerMoment) => this.#q.schedule(simMinutes(t), { k: 'learner', m }, prio(m)),
      login: async () => {
        lms.learnerOnline = true;
        lms.lastLoginAt = this.now;
        const le = this.#emit({ type: 'lms_event', t: this.now, kind: 'login', day: dayOf(this.now as SimMinutes) + 1 });
        // Messages that arrived while offline are read now.
        this.#turnTexts = [];
        this.#revealedCurrent = false;
        const unread = lms.unread('tutor');
        const working = world.workingOn().map((id) => world.itemOf(id));
        for (const m of unread) {
          m.readAt = this.now;
          this.#learner.read(m.text, working, m.content ? { skill: m.content.skill, kind: m.content.kind } : undefined, this.#io);
        }
        this.#readNotes(null);
        await this.#exchange('login', le.seq, {});
      },
      logout: async (why: LogoutWhy) => {
        lms.currentItemId = null;
        lms.learnerOnline = false;
        const le = this.#emit({ type: 'lms_event', t: this.now, kind: 'logout', day: dayOf(this.now as SimMinutes) + 1, detail: { why } });
        await this.#wake('logout', le.seq, { why });
      },
      open: (itemId: string | null) => {
        lms.currentItemId = itemId;
      },
      askHelp: async (template: string) => {
        const text = HELP_TEMPLATES[template];
        if (!text) throw new RunStop('internal_error', `unknown help template ${template}`);
        lms.messages.push({ at: this.now, from: 'learner', text, via: 'learner', readAt: null });
        const itemId = lms.currentItemId;
        const ev = this.#emit({ type: 'message', t: this.now, from: 'learner', text, help: template, itemId });
        await this.#exchange('help_request', ev.seq, { message: text, item_id: itemId });
      },
      say: async (text: string, about: { itemId: string | null; injection?: string }) => {
        lms.messages.push({ at: this.now, from: 'learner', text, via: 'learner', readAt: null });
        const ev = this.#emit({ type: 'message', t: this.now, from: 'learner', text, itemId: about.itemId, ...(about.injection !== undefined ? { injection: about.injection } : {}) });
        this.#turnTexts = [];
        await this.#wake('learner_message', ev.seq, { message: text, item_id: about.itemId });
      },
      submit: async (x: Submission) => {
        const item = x.item;
        const day = dayOf(this.now as SimMinutes);
        const attemptNo = lms.attemptsOn(x.assignmentId, item.id).length + 1;
        lms.gradebook.push({ at: this.now, itemId: item.id, skill: item.skillId, level: item.level, assignmentId: x.assignmentId, attemptNo, response: x.response, correct: x.correct });
        const ae = this.#emit({ type: 'attempt', t: this.now, itemId: item.id, skill: item.skillId, level: item.level, assignmentId: x.assignmentId, attemptNo, p: x.p === null ? null : roundP(x.p), boost: x.boost, source: x.source, response: x.response, correct: x.correct, evidence: x.evidence, ...(x.slip ? { slip: true } : {}), ...(x.student ? { student: x.student } : {}) });
        if (x.evidence) await this.#snapshot('course');
        if (x.assignmentId) world.completeIfDone(x.assignmentId, day);
        await this.#exchange('submission_graded', ae.seq, { item_id: item.id, assignment_id: x.assignmentId, correct: x.correct, response: x.response });
      },
      note: (kind, detail) => {
        this.#emit({ type: 'lms_event', t: this.now, kind, day: dayOf(this.now as SimMinutes) + 1, detail });
      },
      recordModelCall: (c) => {
        this.#emit({ type: 'model_call', t: this.now, ...c });
      },
      recordProbe: (day, r) => {
        this.#emit({ type: 'probe', t: this.now, day, items: r.items, solveRate: r.solveRate, gradedRate: r.gradedRate, ...(r.knowledgeRate !== undefined ? { knowledgeRate: r.knowledgeRate } : {}) });
      },
    };
  }
}
