/**
 * A tutor's turn: the wake, the tool box with the turn rules, and the way to end it. Whoever
 * holds the turn (an automated tutor's loop, a person at a form, a replay) acts only through
 * `tools.call`, so every call is checked by the same rules and traced the same way:
 *  - at most `scenario.tutor.maxToolCallsPerTurn` calls; the next one answers TURN_LIMIT and the
 *    turn accepts no more;
 *  - after a successful stay_silent no further action is legal; stay_silent cannot follow an
 *    action in the same turn (ILLEGAL);
 *  - the tool itself validates its arguments and the LMS rules (lms/tools.ts).
 * The world does not move while a turn is open: the session waits for `end()` (or `fail()`).
 */
import type { Rng } from '../rng';
import type { ModelCallRecord } from '../llm/types';
import type { Oracle, ToolBox, TutorContext, Wake } from '../tutors/types';
import type { ToolKind, ToolResult } from '../trace/types';
import { TOOLS, actionKindOf, runTool, type ToolContext } from '../lms/tools';
import { SimError } from '../errors';
import { argsOverLimit, refusedArgs, refusedReason } from '../limits';
import type { World } from './world';

const READS = new Set(TOOLS.filter((t) => t.kind === 'read').map((t) => t.name));

export type TurnOutcome = { ended: true } | { ended: false; error: unknown };

/** What a person's form (or a status line) shows about the open turn. */
export interface TurnStatus {
  calls: number;
  /** Calls left before TURN_LIMIT. */
  remaining: number;
  /** Successful actions (the five action kinds) so far. */
  actions: number;
  silent: boolean;
  open: boolean;
}

export class Turn implements TutorContext {
  readonly wake: Wake;
  readonly rng: Rng;
  readonly signal?: AbortSignal;
  readonly tools: ToolBox;
  readonly #world: World;
  readonly #limit: number;
  #calls = 0;
  #actions = 0;
  #silent = false;
  #limitHit = false;
  #open = true;
  readonly #settled: Promise<TurnOutcome>;
  #settle!: (o: TurnOutcome) => void;

  readonly oracle?: Oracle;

  constructor(world: World, wake: Wake, rng: Rng, signal?: AbortSignal, oracle?: Oracle) {
    this.#world = world;
    if (oracle) this.oracle = oracle;
    this.wake = wake;
    this.rng = rng;
    if (signal) this.signal = signal;
    this.#limit = world.scenario.tutor.maxToolCallsPerTurn;
    this.#settled = new Promise((res) => (this.#settle = res));
    this.tools = { call: (name, args) => this.#call(name, args) };
  }

  /** Records an LLM call of this turn (a `model_call` event). */
  readonly recordModelCall = (c: ModelCallRecord): void => {
    this.#world.emit({ type: 'model_call', t: this.#world.now, turn: this.wake.turn, ...c });
  };

  get status(): TurnStatus {
    return { calls: this.#calls, remaining: this.#limitHit ? 0 : Math.max(0, this.#limit - this.#calls), actions: this.#actions, silent: this.#silent, open: this.#open };
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** Resolves when the turn is ended or failed (the session waits on it). */
  get settled(): Promise<TurnOutcome> {
    return this.#settled;
  }

  /** Ends the turn: the world moves on. A turn with no successful action counts as silence. */
  end(): void {
    this.#close({ ended: true });
  }

  /** The tutor failed during this turn: the run ends (tutor_error, llm_error or aborted). */
  fail(error: unknown): void {
    this.#close({ ended: false, error });
  }

  #close(o: TurnOutcome): void {
    if (!this.#open) throw new SimError('TURN_CLOSED', `turn ${this.wake.turn} is already over`);
    this.#open = false;
    this.#settle(o);
  }

  #call(name: string, args: unknown): ToolResult {
    if (!this.#open) throw new SimError('TURN_CLOSED', `turn ${this.wake.turn} is over: no more tool calls (tried ${String(name)})`);
    const w = this.#world;
    const turn = this.wake.turn;
    // Arguments over the bounds (too deep, too large) are refused before anything is stored: the trace records why, never the arguments.
    const over = String(name).length > 200 ? `its tool name is ${String(name).length} characters (at most 200)` : (refusedReason(args) ?? argsOverLimit(args));
    if (over) {
      const result = { ok: false as const, error: { code: 'INVALID_ARGS' as const, message: `${String(name).slice(0, 200)} refused: ${over}` } };
      w.emit({ type: 'tool_call', t: w.now, turn, tool: String(name).slice(0, 200), kind: 'unknown', args: refusedArgs(over), result });
      if (this.#calls < this.#limit) this.#calls++;
      return result;
    }
    if (this.#limitHit || this.#calls >= this.#limit) {
      this.#limitHit = true;
      const result = { ok: false as const, error: { code: 'TURN_LIMIT' as const, message: `at most ${this.#limit} tool calls per turn; this turn is over` } };
      w.emit({ type: 'tool_call', t: w.now, turn, tool: String(name), kind: 'unknown', args: args ?? {}, result });
      return result;
    }
    this.#calls++;
    const kind = actionKindOf(String(name));
    let result: ToolResult;
    if (kind && this.#silent) result = { ok: false, error: { code: 'ILLEGAL', message: 'you chose stay_silent this turn; no further actions' } };
    else if (kind === 'stay_silent' && this.#actions > 0) result = { ok: false, error: { code: 'ILLEGAL', message: 'stay_silent cannot follow an action in the same turn' } };
    else result = runTool(String(name), args, w.toolContext(turn));
    const traced: ToolKind | 'unknown' = kind ? (kind === 'send_message' || kind === 'stay_silent' ? 'message' : 'write') : READS.has(String(name)) ? 'read' : 'unknown';
    w.emit({ type: 'tool_call', t: w.now, turn, tool: String(name), kind: traced, args: args ?? {}, result });
    if (result.ok && kind) {
      this.#actions++;
      if (kind === 'stay_silent') this.#silent = true;
    }
    return result;
  }

  /**
   * A person switched the instructor's view (the learner's hidden state) on or off during this
   * turn: recorded, so a played run says what its tutor could see. Not a tool call.
   */
  recordInstructorView(on: boolean): void {
    if (!this.#open) throw new SimError('TURN_CLOSED', `turn ${this.wake.turn} is over`);
    this.#world.emit({ type: 'lms_event', t: this.#world.now, kind: 'instructor_view', day: this.wake.day, detail: { on, turn: this.wake.turn } });
  }

  /** Successful actions this turn (for turn_end). */
  get actions(): number {
    return this.#actions;
  }
}
