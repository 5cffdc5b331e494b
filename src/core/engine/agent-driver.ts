/**
 * The driver an external agent holds a session with (the MCP server's tools call it): `next()`
 * ends the open turn, if any, and runs the world to the next wake (or the run's end); `call()` is
 * one LMS tool call through the turn's rules (`Turn.tools.call`, so it is checked and traced like
 * any tutor's); `endTurn()` ends the turn without waiting for the next one. Protocol-agnostic and
 * pure: the MCP binding is src/cli/mcp/server.ts.
 *
 * A resumed run (`replay`: the stored events) first re-issues the recorded turns' tool calls
 * (replayRecordedTurns, checked against the trace) and hands the agent the first turn the trace
 * does not finish, with its recorded calls already made.
 *
 * `finished` resolves with the session's result once the run has ended (whichever call saw it
 * end), or rejects with what ended it otherwise (a resume that diverged): the run runner's `drive`
 * (engine/runner.ts `startRun(…, { drive: (run) => new AgentDriver(run.session, run.replay).finished })`).
 */
import type { TerminationReason, ToolResult, TraceEvent } from '../trace/types';
import type { RunResult, Session } from './session';
import type { Turn } from './turn';
import { replayRecordedTurns } from './replay';
import { AgentError, agentInstructions, statusView, wakeView, type TurnStatusView, type WakeView } from '../tutors/external/protocol';
import { argsOverLimit, refusedReason } from '../limits';

export type AgentEvent =
  | {
      type: 'wake';
      run_id: string;
      /** The first wake of a resumed run (its recorded calls of this turn, if any, are already made: see status). */
      resumed: boolean;
      wake: WakeView;
      status: TurnStatusView;
      /** The task, with the first wake of a run. */
      instructions?: string;
      /** The turn this call ended first (it was still open). */
      ended_turn?: number;
    }
  | { type: 'run_end'; run_id: string; reason: TerminationReason; message: string | null; days: number; ended_turn?: number };

/** A call made while no turn is open (before the first wake, after end_turn, after the run). Not traced: there is no turn to trace it in. */
export interface NoTurn {
  ok: false;
  error: { code: 'NO_TURN'; message: string };
}

/** A call over the bounds (core/limits.ts): refused, and the run ends (tutor_error AGENT_LIMIT). */
export interface OverLimit {
  ok: false;
  error: { code: 'AGENT_LIMIT'; message: string };
}

const noTurn = (what: string, ended: boolean): NoTurn => ({
  ok: false,
  error: { code: 'NO_TURN', message: ended ? `the run is over: ${what} has no turn to act in` : `no turn is open: call wait_for_event for the next wake before ${what}` },
});

export class AgentDriver {
  readonly session: Session;
  readonly #replay: readonly TraceEvent[] | null;
  #started = false;
  #turn: Turn | null = null;
  /** The world moving on after end_turn: the next turn (the session wants advance() right after a turn ends). */
  #moving: Promise<Turn | null> | null = null;
  #firstWake = true;

  readonly #agent: string;
  /** The run's result once its session has ended; rejects with what stopped the session otherwise. */
  readonly finished: Promise<RunResult>;
  #settle!: { resolve: (r: RunResult) => void; reject: (e: unknown) => void };

  constructor(session: Session, replay: readonly TraceEvent[] | null = null, agent = 'the agent') {
    this.session = session;
    this.#replay = replay;
    this.#agent = agent;
    this.finished = new Promise<RunResult>((resolve, reject) => (this.#settle = { resolve, reject }));
    // Whoever holds the driver without the runner need not await it: never an unhandled rejection.
    this.finished.catch(() => undefined);
  }

  /** The world moving to the next turn (`first`: a resumed run's recorded turns first); settles `finished` when the run is over or failed. */
  #advance(first = false): Promise<Turn | null> {
    const p = first && this.#replay ? replayRecordedTurns(this.session, this.#replay) : this.session.advance();
    return p.then(
      (t) => {
        if (!t) this.#settle.resolve(this.session.result());
        return t;
      },
      (e: unknown) => {
        this.#settle.reject(e);
        throw e;
      },
    );
  }

  get runId(): string {
    return this.session.runId;
  }

  get started(): boolean {
    return this.#started;
  }

  /** The open turn (null before the first wake, after end_turn, while the world moves, after the run). */
  get turn(): Turn | null {
    return this.#turn?.isOpen ? this.#turn : null;
  }

  get ended(): boolean {
    return this.session.ended;
  }

  /** Ends the open turn (if any) and moves the world to the next wake; the run's end when there is none. */
  async next(): Promise<AgentEvent> {
    const open = this.turn;
    const ended = open ? open.wake.turn : undefined;
    open?.end();
    if (!this.#started) {
      this.#started = true;
      this.#turn = await this.#advance(true);
    } else if (this.#moving) {
      const m = this.#moving;
      this.#moving = null;
      this.#turn = await m;
    } else this.#turn = await this.#advance();
    const extra = ended !== undefined ? { ended_turn: ended } : {};
    const t = this.#turn;
    if (!t) {
      const r = this.session.result();
      const end = r.events.find((e) => e.type === 'run_end');
      return { type: 'run_end', run_id: this.runId, reason: r.reason, message: r.message, days: end?.type === 'run_end' ? end.days : 0, ...extra };
    }
    const first = this.#firstWake;
    this.#firstWake = false;
    return {
      type: 'wake',
      run_id: this.runId,
      resumed: first && this.#replay !== null,
      wake: wakeView(t.wake),
      status: statusView(t.status),
      ...(first ? { instructions: agentInstructions(t.wake.horizonDays, 'mcp') } : {}),
      ...extra,
    };
  }

  /** One LMS tool call in the open turn (any name: an unknown one answers UNKNOWN_TOOL, traced). */
  call(name: string, args: unknown): ToolResult | NoTurn | OverLimit {
    const t = this.turn;
    if (!t) return noTurn(String(name).slice(0, 200), this.ended);
    // Over the bounds: the call is recorded refused (never its arguments), and the agent's run ends, naming it.
    const over = String(name).length > 200 ? `its tool name is ${String(name).length} characters (at most 200)` : refusedReason(args) === null ? argsOverLimit(args ?? {}) : null;
    if (over) {
      t.tools.call(name, args ?? {});
      const message = `agent ${this.#agent}: a call to ${String(name).slice(0, 200)} was refused (${over}); the run ends`;
      t.fail(new AgentError('AGENT_LIMIT', message));
      this.#turn = null;
      this.#moving = this.#advance();
      this.#moving.catch(() => undefined);
      return { ok: false, error: { code: 'AGENT_LIMIT', message } };
    }
    return t.tools.call(name, args ?? {});
  }

  /** The open turn's counters. */
  status(): TurnStatusView | NoTurn {
    const t = this.turn;
    return t ? statusView(t.status) : noTurn('get_turn_status', this.ended);
  }

  /** Ends the open turn; the world moves on (`next()` gives the next wake). */
  endTurn(): { ended: true; turn: number; actions: number; implicit_silence: boolean } | NoTurn {
    const t = this.turn;
    if (!t) return noTurn('end_turn', this.ended);
    const actions = t.status.actions;
    t.end();
    this.#moving = this.#advance();
    // A failure surfaces at next(); never as an unhandled rejection meanwhile.
    this.#moving.catch(() => undefined);
    return { ended: true, turn: t.wake.turn, actions, implicit_silence: actions === 0 };
  }

  /**
   * Stops the run (the agent went away): with the session's signal aborted first, the open turn
   * fails and the run ends `aborted` (resumable). Resolves when the run is over.
   */
  async stop(reason = 'the agent disconnected'): Promise<void> {
    if (!this.#started || this.ended) return;
    this.turn?.fail(new Error(reason));
    this.#turn = null;
    if (this.#moving) {
      const m = this.#moving;
      this.#moving = null;
      const t = await m.catch(() => null);
      t?.fail(new Error(reason));
      if (!t) return;
    }
    // The run ends at the next event (an aborted signal), or, without one, at the next wake's failure.
    for (let t = await this.#advance(); t; t = await this.#advance()) t.fail(new Error(reason));
  }
}
