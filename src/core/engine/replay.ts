/**
 * Resuming a run: where a stored trace can be picked up, the model client that answers the calls a
 * trace already recorded, and the driver that re-issues a person's recorded tool calls.
 *
 * A resumed run is rebuilt from its record and replayed from the start: the world, the learner and
 * deterministic tutors run again and must emit exactly the stored events (the recorder checks each
 * one, engine/../trace/recorder.ts); model calls that the trace recorded are answered from the trace
 * (never sent to the provider again); then the run continues live.
 */
import type { TraceEvent, EventOf } from '../trace/types';
import { CUT_MARKER, LlmError, MAX_RECORDED_CONTENT, requestDigest, type ChatRequest, type ChatResponse, type LlmClient, type LlmErrorCode, type ModelRole } from '../llm/types';
import { SimError } from '../errors';
import { ENGINE_VERSION } from './version';
import type { Session } from './session';
import type { Turn } from './turn';

/**
 * The part of a stored trace a resumed run replays: everything before run_end, without the
 * failure that ended it (trailing `error` events and failed model calls), so the failed step is
 * tried again live, and without a tool call cut in half (a trailing tutor `message` whose
 * `tool_call` was not stored). Throws RESUME_COMPLETE for a run that reached its horizon or that
 * its tutor ended.
 */
export function resumePoint(events: readonly TraceEvent[]): TraceEvent[] {
  const endIdx = events.findIndex((e) => e.type === 'run_end');
  if (endIdx >= 0) {
    const end = events[endIdx] as EventOf<'run_end'>;
    if (end.reason === 'horizon_reached') throw new SimError('RESUME_COMPLETE', 'this run is complete (it reached its last day): nothing to resume');
    if (end.reason === 'ended_by_tutor') throw new SimError('RESUME_COMPLETE', `this run is complete (its tutor ended it on day ${end.days}): nothing to resume`);
  }
  let n = endIdx >= 0 ? endIdx : events.length;
  // A tool call records its delivery (the tutor's `message`) just before its `tool_call`: a trace
  // cut between the two holds half a call, which is dropped and made again live (a person may
  // choose another; replayRecordedTurns re-issues only recorded tool_calls).
  // A failed model call has no response, or (an HTTP agent's malformed reply or bad status) an error beside the reply it keeps.
  const failed = (e: TraceEvent) => e.type === 'error' || (e.type === 'model_call' && (e.response === null || e.error !== undefined)) || (e.type === 'message' && e.from === 'tutor');
  while (n > 1 && failed(events[n - 1]!)) n--;
  const start = events[0];
  if (n < 1 || start?.type !== 'run_start') throw new SimError('TRACE_INVALID', 'a stored trace starts with run_start');
  // Another engine version records other events (e.g. engine 1's belief over all skills after every
  // answer): replaying it would diverge, so say why up front. The trace still reads and scores.
  if (start.engine !== ENGINE_VERSION) throw new SimError('RESUME_DIVERGED', `this trace was written by engine ${start.engine} and this build runs ${ENGINE_VERSION} (docs/trace-format.md#engine-version): it reads, scores and judges as it is, but cannot be resumed here; run it afresh`);
  return events.slice(0, n);
}

/**
 * Answers a role's model calls from the calls a stored trace recorded for that role, in order, and
 * sends the rest to the live client. The answers are what the provider said then, so the tutor or
 * voice rebuilds exactly the state it had; the recorder checks that each replayed call's request
 * matches the recorded one.
 */
export class ReplayLlm implements LlmClient {
  readonly provider: string;
  readonly model: string;
  readonly family: string | null;
  readonly #live: LlmClient;
  readonly #recorded: EventOf<'model_call'>[];
  #replayed = 0;

  constructor(live: LlmClient, prefix: readonly TraceEvent[], role: ModelRole) {
    this.#live = live;
    this.provider = live.provider;
    this.model = live.model;
    this.family = live.family;
    this.#recorded = prefix.filter((e): e is EventOf<'model_call'> => e.type === 'model_call' && e.role === role);
  }

  /** Calls answered from the trace so far, and calls the trace still holds. */
  get counts(): { replayed: number; left: number } {
    return { replayed: this.#replayed, left: this.#recorded.length - this.#replayed };
  }

  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const rec = this.#recorded[this.#replayed];
    if (!rec) return this.#live.chat(req, signal);
    this.#replayed++;
    if (rec.provider !== this.provider || rec.model !== this.model) {
      return Promise.reject(new SimError('RESUME_DIVERGED', `the stored trace's model call ${rec.seq} went to ${rec.provider}/${rec.model}, this run's client is ${this.provider}/${this.model}`));
    }
    if (rec.request.digest !== undefined && rec.request.digest !== requestDigest(req)) {
      return Promise.reject(new SimError('RESUME_DIVERGED', `the resumed run's request for model call ${rec.seq} (${rec.purpose}) differs from the one the stored trace recorded, so its recorded reply does not apply`));
    }
    const cut = (t: string | null | undefined) => !!t && t.length > MAX_RECORDED_CONTENT && CUT_MARKER.test(t);
    if (cut(rec.response?.content) || cut(rec.response?.reasoning)) {
      return Promise.reject(new SimError('RESUME_DIVERGED', `the stored trace kept only the first ${MAX_RECORDED_CONTENT} characters of model call ${rec.seq}'s reply, so this run cannot be replayed exactly past it`));
    }
    if (rec.response === null) return Promise.reject(new LlmError((rec.error?.code ?? 'LLM_SERVER') as LlmErrorCode, rec.error?.message ?? 'the recorded call failed', { retries: rec.retries }));
    return Promise.resolve({ content: rec.response.content, toolCalls: rec.response.toolCalls, finishReason: rec.response.finishReason, usage: rec.usage, cost: rec.cost, retries: rec.retries, ...(rec.response.textToolCalls ? { textToolCalls: rec.response.textToolCalls } : {}), ...(rec.response.reasoning !== undefined ? { reasoning: rec.response.reasoning } : {}) });
  }
}

/**
 * Drives a session through the turns a stored trace recorded by re-issuing each turn's recorded
 * tool calls and instructor's-view switches (for tutors whose decisions cannot be recomputed, e.g. a person's). Returns the first
 * turn the trace does not finish, with its recorded calls already applied and still open, or null
 * when the run ended. The recorder checks every replayed call's result against the trace.
 */
export async function replayRecordedTurns(session: Session, prefix: readonly TraceEvent[]): Promise<Turn | null> {
  /** What the person did in each turn, in order: tool calls and instructor's-view switches. */
  const acts = new Map<number, TraceEvent[]>();
  const ended = new Set<number>();
  let last = 0;
  const add = (turn: number, e: TraceEvent) => acts.set(turn, [...(acts.get(turn) ?? []), e]);
  for (const e of prefix) {
    if (e.type === 'wake') last = Math.max(last, e.turn);
    if (e.type === 'tool_call') add(e.turn, e);
    if (e.type === 'lms_event' && e.kind === 'instructor_view' && typeof e.detail?.turn === 'number') add(e.detail.turn, e);
    if (e.type === 'turn_end') ended.add(e.turn);
  }
  for (;;) {
    const turn = await session.advance();
    if (!turn) return null;
    const no = turn.wake.turn;
    if (no > last) return turn;
    for (const a of acts.get(no) ?? []) {
      if (a.type === 'tool_call') turn.tools.call(a.tool, a.args);
      else if (a.type === 'lms_event') turn.recordInstructorView(a.detail?.on === true);
    }
    if (!ended.has(no)) return turn;
    turn.end();
  }
}
