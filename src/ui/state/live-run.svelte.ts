/**
 * A run live in this tab (its progress while it runs, its outcome after), and a run a person plays
 * (the Play view). The run library (library.svelte.ts) makes them; run-execution.ts runs them.
 */
import type { StoredRun } from '../../adapters/browser/run-store';
import { type PlayDriver, type CurvePoint, type ToolResult, type TraceEvent, type Turn, type TurnStatus } from '../../core/index';

/** Tokens, cost and retries of a live run's LLM calls (from its model_call events). */
export interface LiveUsage {
  calls: number;
  failed: number;
  retries: number;
  tokensIn: number;
  tokensOut: number;
  cost: number | null;
}
const noUsage = (): LiveUsage => ({ calls: 0, failed: 0, retries: 0, tokensIn: 0, tokensOut: 0, cost: null });

/** A run started (or resumed) in this tab: its progress while it runs, its outcome after. */
export class LiveRun {
  readonly key: string;
  readonly horizon: number;
  state = $state<'loading' | 'running' | 'done' | 'stopped' | 'failed'>('loading');
  progress = $state(0);
  progressText = $state('Loading the learner model…');
  curve = $state.raw<CurvePoint[]>([]);
  usage = $state<LiveUsage>(noUsage());
  tracerStatus = $state<string | null>(null);
  error = $state<string | null>(null);
  /** Stored events a resumed run replayed before going live. */
  replayed = $state(0);
  readonly abort = new AbortController();
  /** Resolves with the stored run once it has ended (or failed). */
  done: Promise<StoredRun>;
  resolveDone!: (r: StoredRun) => void;

  constructor(key: string, horizon: number) {
    this.key = key;
    this.horizon = horizon;
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  get active(): boolean {
    return this.state === 'loading' || this.state === 'running';
  }

  see(e: TraceEvent): void {
    if (e.type === 'model_call') {
      const u = this.usage;
      this.usage = {
        calls: u.calls + 1,
        failed: u.failed + (e.response === null ? 1 : 0),
        retries: u.retries + e.retries,
        tokensIn: u.tokensIn + (e.usage?.promptTokens ?? 0),
        tokensOut: u.tokensOut + (e.usage?.completionTokens ?? 0),
        cost: e.cost === null ? u.cost : (u.cost ?? 0) + e.cost,
      };
    } else if (e.type === 'probe') this.curve = [...this.curve, { day: e.day, solveRate: e.solveRate, gradedRate: e.gradedRate }];
    else if (e.type === 'lms_event' && e.kind === 'day_start') {
      this.progress = (e.day - 1) / this.horizon;
      this.progressText = `Day ${e.day} of ${this.horizon}`;
    }
  }
}

/**
 * A run a person plays (the Play view): the live run plus the turn the person holds. Every action
 * goes through the turn's tool box (the same rules and errors as an agent's calls); ending the
 * turn, staying silent or skipping lets the world move. The world's events arrive through the
 * run's `see`; `version` changes with each, so views re-read the session.
 */
export class PlayRun extends LiveRun {
  turn = $state.raw<Turn | null>(null);
  status = $state.raw<TurnStatus | null>(null);
  /** The world is moving (between two of the person's turns). */
  moving = $state(false);
  instructorView = $state(false);
  /** Result of the last call of each tool in this turn (read panels and form messages). */
  results = $state.raw<Record<string, ToolResult>>({});
  version = $state(0);
  #driver = $state.raw<PlayDriver | null>(null);
  #ended!: () => void;
  readonly ended = new Promise<void>((r) => (this.#ended = r));
  /** Why the session could not go on (e.g. a resumed run that does not replay its stored trace). */
  failure: unknown = null;

  get driver(): PlayDriver | null {
    return this.#driver;
  }

  override see(e: TraceEvent): void {
    super.see(e);
    this.version++;
  }

  /** The driver's session is ready: take the first turn. */
  async attach(driver: PlayDriver, replay: readonly TraceEvent[] | null): Promise<void> {
    this.#driver = driver;
    await this.#move(() => driver.start(replay));
  }

  /** Resolves once every event recorded so far is stored (set by the run library). */
  persist: () => Promise<void> = async () => undefined;

  async #move(step: () => Promise<Turn | null>): Promise<void> {
    this.moving = true;
    this.turn = null;
    this.results = {};
    try {
      const t = await step();
      // The person gets the turn only once everything before it is stored: a reload then
      // continues exactly there.
      await this.persist();
      this.turn = t;
      this.status = t ? t.status : null;
      if (t) this.progressText = `Day ${t.wake.day} of ${this.horizon}: your turn`;
    } catch (e) {
      this.failure = e;
    } finally {
      this.moving = false;
      if (this.failure || this.#driver?.ended) this.#ended();
    }
  }

  /** One tool call in the open turn, checked by the turn rules; its result is kept for the form that made it. */
  call(name: string, args: unknown): ToolResult {
    const t = this.turn;
    if (!t) return { ok: false, error: { code: 'ILLEGAL', message: 'no turn is open: wait for the learner' } };
    const r = t.tools.call(name, args);
    this.results = { ...this.results, [name]: r };
    this.status = t.status;
    return r;
  }

  setInstructorView(on: boolean): void {
    const t = this.turn;
    if (!t || on === this.instructorView) return;
    t.recordInstructorView(on);
    this.instructorView = on;
    // A new status object: views that re-read the session on each call see the recorded switch too.
    this.status = t.status;
  }

  endTurn = () => this.#move(() => this.#driver!.endTurn());
  staySilent = () => this.#move(() => this.#driver!.staySilent());
  skipToDay = (day: number) => this.#move(() => this.#driver!.skipToDay(day));
  finish = () => this.#move(async () => (await this.#driver!.finish(), null));
  /** Ends the run after this turn (run_end ended_by_tutor, scored on the days played). */
  endHere = () => this.#move(() => this.#driver!.endHere());

  /** Cancels the run: an open turn is failed, so the session stops (reason aborted). */
  stop(): void {
    this.abort.abort();
    if (this.#driver?.turn) void this.#move(() => this.#driver!.stop(new Error('the run was cancelled')));
  }
}
