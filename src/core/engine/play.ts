/**
 * Playing the tutor: the driver a person uses (the Play view), over the same session and turns as
 * any agent. The person holds each turn for as long as they like; ending it lets the virtual clock
 * move to the next wake. What makes a played run comparable with an agent's is written down here
 * and in docs/play.md:
 *
 *  - The wake rule: a played run wakes its tutor on PLAY_WAKE_ON unless the person asks for every
 *    graded answer too. Graded answers then reach the tutor batched: they are in the gradebook and
 *    in the "since your last turn" digest of the next wake. The rule is the run record's `wakeOn`,
 *    recorded in run_start's scenario, so an agent run on the same record wakes on the same events.
 *  - Skips: "skip to tomorrow" answers this wake and every later one before the next day with
 *    stay_silent, each recorded with the reason SKIP_REASON(day): the learner acts meanwhile
 *    exactly as the persona would.
 *  - The instructor's view (mastery, persona parameters) is off unless switched on, and each switch
 *    is recorded (an lms_event `instructor_view`).
 *  - Ending: "finish" skips every later wake with stay_silent to the horizon (the days run out with
 *    no tutor); "end here" ends the run after this turn with run_end reason `ended_by_tutor` and the
 *    days played, scored on those days.
 */
import { WAKE_EVENTS, type WakeEventKind } from '../scenario/schema';
import type { TraceEvent } from '../trace/types';
import { SimError } from '../errors';
import type { Session } from './session';
import type { Turn } from './turn';
import { replayRecordedTurns } from './replay';

/** Wakes of a played run by default: every event but each graded answer. */
export const PLAY_WAKE_ON: readonly WakeEventKind[] = WAKE_EVENTS.filter((w) => w !== 'submission_graded');

/** The stay_silent reason of a skipped wake. */
export const SKIP_REASON = (day: number): string => `skipped: the tutor skipped ahead to day ${day}`;
/** run_end's message of a run the person ended ("end the run here"). */
export const ENDED_BY_TUTOR = (day: number): string => `the tutor ended the run on day ${day}`;
/** The stay_silent reason of a turn the person ended with "stay silent". */
export const SILENT_REASON = 'the tutor chose to stay silent';

export class PlayDriver {
  readonly session: Session;
  #turn: Turn | null = null;
  #started = false;

  constructor(session: Session) {
    this.session = session;
  }

  /** The turn the person holds now (null while the world moves, and after the run's end). */
  get turn(): Turn | null {
    return this.#turn?.isOpen ? this.#turn : null;
  }

  get ended(): boolean {
    return this.session.ended;
  }

  /** Runs to the person's first turn; with `replay` (a resumed run's stored events), re-does the recorded turns first. */
  async start(replay: readonly TraceEvent[] | null = null): Promise<Turn | null> {
    if (this.#started) throw new SimError('TURN_OPEN', 'this play session has started already');
    this.#started = true;
    this.#turn = replay ? await replayRecordedTurns(this.session, replay) : await this.session.advance();
    return this.#turn;
  }

  #open(): Turn {
    const t = this.turn;
    if (!t) throw new SimError('TURN_CLOSED', 'no turn is open: the world is moving or the run is over');
    return t;
  }

  /** The person ends the turn (a turn with no action counts as silence); the world moves to the next wake. */
  async endTurn(): Promise<Turn | null> {
    this.#open().end();
    this.#turn = await this.session.advance();
    return this.#turn;
  }

  /** An explicit silence: stay_silent, then end the turn. */
  async staySilent(): Promise<Turn | null> {
    const t = this.#open();
    if (t.status.actions === 0 && !t.status.silent) t.tools.call('stay_silent', { reason: SILENT_REASON });
    return this.endTurn();
  }

  /** Answers this wake and every later one silently until the first wake on day `day` or later (or the end). */
  async skipToDay(day: number): Promise<Turn | null> {
    let t: Turn | null = this.#open();
    while (t && t.wake.day < day) {
      if (t.status.actions === 0 && !t.status.silent) t.tools.call('stay_silent', { reason: SKIP_REASON(day) });
      t.end();
      t = await this.session.advance();
    }
    this.#turn = t;
    return t;
  }

  /** Stops the run from the person's turn (a cancel): the turn fails, the run ends (reason aborted when the run's signal was aborted). */
  async stop(reason: unknown = new Error('the run was stopped')): Promise<null> {
    const t = this.turn;
    if (t) {
      t.fail(reason);
      this.#turn = await this.session.advance();
    }
    return null;
  }

  /** Ends the person's part: the rest of the run is skipped to its horizon ("let the days run out with no tutor"). */
  async finish(): Promise<void> {
    if (this.turn) await this.skipToDay(Number.POSITIVE_INFINITY);
  }

  /**
   * Ends the run here ("end the run here"): this turn ends as it stands (a turn with no action is a
   * silence, as always), then the run ends with run_end reason `ended_by_tutor` and the days played
   * (today counts). It is scored on those days; nothing after this turn happens.
   */
  async endHere(): Promise<null> {
    const t = this.#open();
    this.session.endAfterTurn(ENDED_BY_TUTOR(t.wake.day));
    t.end();
    this.#turn = await this.session.advance();
    return null;
  }
}

export interface DigestLine {
  seq: number;
  t: number;
  kind: 'login' | 'logout' | 'attempt' | 'message' | 'homework' | 'due' | 'missed' | 'completed' | 'gave_up' | 'day';
  text: string;
}

/**
 * What happened between two of the tutor's turns, for a person: logins and logouts, graded
 * answers, the learner's messages, homework, deadlines, give-ups. Only what an LMS shows a tutor
 * (no probes, no mastery).
 */
export function digest(events: readonly TraceEvent[], fromSeq: number, toSeq: number): DigestLine[] {
  const out: DigestLine[] = [];
  for (const e of events.slice(Math.max(0, fromSeq), Math.max(0, toSeq))) {
    const line = (kind: DigestLine['kind'], text: string) => out.push({ seq: e.seq, t: e.t, kind, text });
    if (e.type === 'attempt') line('attempt', `answered ${e.itemId} (attempt ${e.attemptNo}): "${e.response}", ${e.correct ? 'correct' : 'wrong'}`);
    else if (e.type === 'message' && e.from === 'learner') line('message', `wrote: "${e.text}"`);
    else if (e.type === 'lms_event') {
      const d = e.detail ?? {};
      if (e.kind === 'login') line('login', 'logged in');
      else if (e.kind === 'logout') line('logout', `logged out (${String(d.why ?? '')})`);
      else if (e.kind === 'homework_posted') line('homework', `homework posted: ${(d.itemIds as string[] | undefined)?.join(', ') ?? ''}`);
      else if (e.kind === 'assignment_due') line('due', `assignment ${String(d.assignmentId)} is due soon`);
      else if (e.kind === 'assignment_missed') line('missed', `assignment ${String(d.assignmentId)} was missed`);
      else if (e.kind === 'assignment_completed') line('completed', `assignment ${String(d.assignmentId)} completed`);
      else if (e.kind === 'give_up') line('gave_up', `gave up after ${String(d.failures ?? '?')} wrong answers in a row`);
      else if (e.kind === 'day_start') line('day', `day ${e.day} began`);
    }
  }
  return out;
}
