/**
 * The function-calling loop every LLM harness shares: send the conversation with the LMS tools,
 * run the tool calls the model asks for through the ToolBox (so each is traced and validated by
 * the engine), feed the results back, and repeat until the model answers without a tool call,
 * stays silent, hits the per-turn tool limit, or uses up its model steps for this wake.
 *
 * Malformed calls never crash a run: arguments that are not JSON, unknown tools and invalid
 * arguments come back to the model as tool errors (and are in the trace as failed tool calls).
 */
import type { TutorContext } from '../types';
import type { ChatMessage, ChatRequest, ChatResponse, LlmClient, ToolSpec } from '../../llm/types';
import { modelCallRecord } from '../../llm/types';
import { toolSpecs } from '../../lms/tools';

/** The tools exactly as an LLM tutor sees them (names, descriptions, JSON Schemas from the zod args). */
export const LMS_TOOL_SPECS: readonly ToolSpec[] = toolSpecs();

const MAX_RESULT_CHARS = 6000;

export interface LoopOptions {
  llm: LlmClient;
  temperature: number;
  maxSteps: number;
  purpose: string;
  maxTokens?: number;
}

export interface LoopOutcome {
  /** Messages this loop added (assistant turns and tool results), for harnesses that keep history. */
  added: ChatMessage[];
  /** Successful action calls (send_message, assign_items, …) this wake. */
  actions: number;
  /** Why the loop ended. */
  end: 'answered' | 'silent' | 'turn_limit' | 'max_steps';
}

/** A tool result as the model reads it (JSON, at most MAX_RESULT_CHARS characters, then a note). */
export function resultText(r: unknown): string {
  const s = JSON.stringify(r);
  return s.length > MAX_RESULT_CHARS ? `${s.slice(0, MAX_RESULT_CHARS)}… [truncated ${s.length - MAX_RESULT_CHARS} characters; ask for less, e.g. with last_n or skill_id]` : s;
}

/** One traced model call: records success and failure alike, rethrows failures. */
export async function tracedChat(ctx: Pick<TutorContext, 'recordModelCall' | 'signal'>, llm: LlmClient, role: 'tutor' | 'student', purpose: string, req: ChatRequest): Promise<ChatResponse> {
  try {
    const res = await llm.chat(req, ctx.signal);
    ctx.recordModelCall?.(modelCallRecord(role, purpose, llm, req, { res }));
    return res;
  } catch (e) {
    ctx.recordModelCall?.(modelCallRecord(role, purpose, llm, req, { error: e }));
    throw e;
  }
}

const ACTIONS = new Set(['send_message', 'stay_silent', 'assign_items', 'adjust_level', 'provide_content']);

export async function runToolLoop(ctx: TutorContext, messages: ChatMessage[], o: LoopOptions): Promise<LoopOutcome> {
  const added: ChatMessage[] = [];
  let actions = 0;
  for (let step = 0; step < o.maxSteps; step++) {
    const req: ChatRequest = { messages: [...messages, ...added], tools: LMS_TOOL_SPECS, toolChoice: 'auto', temperature: o.temperature, ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}) };
    const res = await tracedChat(ctx, o.llm, 'tutor', o.purpose, req);
    added.push({ role: 'assistant', content: res.content, ...(res.toolCalls.length ? { toolCalls: res.toolCalls } : {}), ...(res.reasoning !== undefined ? { reasoning: res.reasoning } : {}) });
    if (res.toolCalls.length === 0) return { added, actions, end: 'answered' };
    let end: LoopOutcome['end'] | null = null;
    for (const call of res.toolCalls) {
      if (end) {
        // The turn is over (silence or the tool limit): answer the remaining calls without running them.
        added.push({ role: 'tool', toolCallId: call.id, content: resultText({ ok: false, error: { code: 'TURN_OVER', message: 'your turn ended before this call; it was not run' } }) });
        continue;
      }
      let args: unknown = call.arguments;
      try {
        args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
      } catch {
        // Leave the raw text: the engine answers INVALID_ARGS ("not valid JSON") and traces the text as sent.
      }
      const result = ctx.tools.call(call.name, args);
      added.push({ role: 'tool', toolCallId: call.id, content: resultText(result) });
      if (result.ok && ACTIONS.has(call.name)) {
        actions++;
        if (call.name === 'stay_silent') end = 'silent';
      }
      if (!result.ok && result.error.code === 'TURN_LIMIT') end = 'turn_limit';
    }
    if (end) return { added, actions, end };
  }
  return { added, actions, end: 'max_steps' };
}

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function clockText(t: number): string {
  const day = Math.floor(t / 1440);
  const m = t % 1440;
  return `day ${day + 1} (${WEEKDAY_NAMES[day % 7]}), ${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** The wake event as the model reads it. */
export function wakeText(ctx: TutorContext): string {
  const w = ctx.wake;
  const p = w.payload;
  const when = `It is ${clockText(w.t)} of the ${w.horizonDays}-day course.`;
  const item = typeof p.item_id === 'string' ? ` They are working on item ${p.item_id}.` : '';
  switch (w.reason) {
    case 'login':
      return `${when} The learner just logged in.`;
    case 'logout':
      return `${when} The learner logged out (${String(p.why ?? '')}).`;
    case 'help_request':
      return `${when} The learner asks for help: "${String(p.message ?? '')}".${item}`;
    case 'learner_message':
      return `${when} The learner replied: "${String(p.message ?? '')}".${item}`;
    case 'submission_graded':
      return `${when} The learner submitted "${String(p.response ?? '')}" for item ${String(p.item_id ?? '')}: ${p.correct ? 'correct' : 'incorrect'}.`;
    case 'assignment_due':
      return `${when} Assignment ${String(p.assignment_id ?? '')} is due in ${String(p.due_in_minutes ?? '?')} minutes and is not finished.`;
    case 'assignment_missed':
      return `${when} Assignment ${String(p.assignment_id ?? '')} was missed (past due, unfinished).`;
    case 'end_of_day':
      return `${when} The day is ending.`;
    default:
      return `${when} Event: ${String(w.reason)} ${JSON.stringify(p)}`;
  }
}
