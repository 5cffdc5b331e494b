/**
 * LLM accounting and the student voice's fidelity, read from a trace's model_call and
 * judge_verdict events (so they re-compute offline like every other number).
 */
import type { EventOf, TraceEvent } from '../trace/types';
import type { ModelRole } from '../llm/types';

export interface RoleUsage {
  calls: number;
  failedCalls: number;
  retries: number;
  promptTokens: number;
  completionTokens: number;
  /** US dollars; null when no call had a configured price. */
  cost: number | null;
  /** Calls without a price (their cost is not in `cost`). */
  unpricedCalls: number;
  models: string[];
}

export type LlmUsage = Record<ModelRole, RoleUsage>;

const empty = (): RoleUsage => ({ calls: 0, failedCalls: 0, retries: 0, promptTokens: 0, completionTokens: 0, cost: null, unpricedCalls: 0, models: [] });

export function llmUsage(events: readonly TraceEvent[]): LlmUsage | null {
  const out: LlmUsage = { tutor: empty(), student: empty(), judge: empty() };
  let any = false;
  const add = (u: RoleUsage, model: string, usage: { promptTokens: number; completionTokens: number } | null, cost: number | null, failed: boolean, retries: number) => {
    any = true;
    u.calls++;
    if (failed) u.failedCalls++;
    u.retries += retries;
    if (usage) {
      u.promptTokens += usage.promptTokens;
      u.completionTokens += usage.completionTokens;
    }
    if (cost !== null) u.cost = (u.cost ?? 0) + cost;
    else if (usage) u.unpricedCalls++;
    if (!u.models.includes(model)) u.models.push(model);
  };
  for (const e of events) {
    if (e.type === 'model_call') add(out[e.role], `${e.provider}/${e.model}`, e.usage, e.cost, e.response === null, e.retries);
    else if (e.type === 'judge_verdict' && e.attempts > 0) add(out.judge, `${e.provider}/${e.model}`, e.usage, e.cost, e.status !== 'scored', 0);
  }
  return any ? out : null;
}

export interface VoiceFidelity {
  /** LLM student replies. */
  replies: number;
  /** Replies that committed to a gradable answer (or stated the answer). */
  graded: number;
  /** Graded replies whose correctness differs from what the learner model decided. */
  mismatches: number;
  /** mismatches / graded; null when nothing was graded. */
  mismatchRate: number | null;
  /** Replies that were malformed (and retried). */
  malformed: number;
}

/** How often the LLM student's rendered attempt disagreed with the correctness the learner model decided. */
export function voiceFidelity(events: readonly TraceEvent[]): VoiceFidelity | null {
  // The voice's replies only: the attempts an LLM student writes (coupling "student-attempts", purpose "student:attempt") are graded on their attempt events.
  const calls = events.filter((e): e is EventOf<'model_call'> => e.type === 'model_call' && e.role === 'student' && e.purpose !== 'student:attempt');
  if (calls.length === 0) return null;
  const checked = calls.filter((c) => c.voiceCheck);
  const graded = checked.filter((c) => c.voiceCheck!.rendered !== null);
  const mismatches = graded.filter((c) => c.voiceCheck!.mismatch).length;
  return {
    replies: checked.length,
    graded: graded.length,
    mismatches,
    mismatchRate: graded.length ? mismatches / graded.length : null,
    malformed: calls.filter((c) => c.error?.code === 'LLM_BAD_RESPONSE').length,
  };
}
