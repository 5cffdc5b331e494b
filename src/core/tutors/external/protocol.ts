/**
 * What an external agent (an MCP client, or a service behind the HTTP tutor protocol) is shown and
 * how it is named: the wake as JSON (`wakeView`: what an LLM tutor reads, `wakeText`, plus the
 * notification's details), the turn's status, the instructions every external agent gets, the
 * errors of the agent protocols, and the label an external tutor has in tables
 * (harness "mcp:<agent>" / "http:<name>", model: what the agent reports).
 *
 * Exact protocols: docs/bring-your-own-tutor.md.
 */
import type { ToolResult } from '../../trace/types';
import type { TutorContext, Wake } from '../types';
import { clockText, wakeText } from '../llm/loop';
import { daysText } from '../llm/prompts';

/** The wake of a turn as an external agent receives it (MCP wait_for_event, the HTTP tutor's POST). */
export interface WakeView {
  turn: number;
  reason: Wake['reason'];
  /** 1-based day of the run. */
  day: number;
  horizon_days: number;
  /** Virtual minutes since day 1, 00:00. */
  t: number;
  /** "day 2 (Tuesday), 16:52" */
  clock: string;
  /** The event in words, exactly what an LLM tutor reads for this wake. */
  text: string;
  /** The LMS notification's details (e.g. { message, item_id } for a help request). */
  payload: Record<string, unknown>;
}

export function wakeView(w: Wake): WakeView {
  return { turn: w.turn, reason: w.reason, day: w.day, horizon_days: w.horizonDays, t: w.t, clock: clockText(w.t), text: wakeText({ wake: w } as TutorContext), payload: w.payload };
}

/** The open turn's counters, as an external agent sees them. */
export interface TurnStatusView {
  /** Tool calls made in this turn. */
  calls: number;
  /** Calls left before TURN_LIMIT. */
  remaining: number;
  /** Successful actions (send_message, stay_silent, assign_items, adjust_level, provide_content). */
  actions: number;
  /** stay_silent succeeded: no further action is legal in this turn. */
  silent: boolean;
}

export const statusView = (s: { calls: number; remaining: number; actions: number; silent: boolean }): TurnStatusView => ({ calls: s.calls, remaining: s.remaining, actions: s.actions, silent: s.silent });

/** Version of the external agent protocols (MCP tools and HTTP bodies); recorded in the tutor config. */
export const AGENT_PROTOCOL = 'educlaw-agent/1';

/** What every external agent is told about its task (MCP server instructions, HTTP hello and first wake). */
export function agentInstructions(horizonDays: number, how: 'mcp' | 'http'): string {
  const loop =
    how === 'mcp'
      ? 'Call wait_for_event to receive the next event (a wake). Then call the LMS tools you need, and end your turn with end_turn (or call wait_for_event again, which ends the open turn). Nothing happens in the course while you hold a turn. wait_for_event answers {"type":"run_end"} when the run is over and {"type":"done"} when there is nothing more to tutor.'
      : 'Each wake is POSTed to you; answer with the tool calls you want ({"calls":[{"name":…,"args":{…}}],"end":false}); their results come back in the next POST; answer {"calls":[],"end":true} (or end:true with your last calls) to end your turn.';
  return `You are the tutor of one middle-school learner in an online maths course that runs for ${daysText(horizonDays)}. You act only through the LMS tools: five reads (get_learner_profile, get_course_map, get_gradebook, get_assignments, get_messages), three writes (assign_items, adjust_level, provide_content), send_message, and stay_silent (do nothing this turn). The learner sees only what you send with send_message or provide_content. ${loop} Tool calls that break the rules come back as errors ({"ok":false,"error":{"code","message"}}) and are recorded. What counts: the learner is tested every night on held-out problems they answer alone; practice they work out themselves and instruction on the skill they practise help them; an answer you give away is copied, not learned.`;
}

/** Why an external agent failed. Every code starts with "AGENT_"; the run ends with reason tutor_error and this code in its error event. */
export type AgentErrorCode =
  | 'AGENT_CONFIG' // no transport here, a bad URL, an agent of another name
  | 'AGENT_TIMEOUT' // no reply within timeoutMs, after the retries
  | 'AGENT_NETWORK' // connection refused, reset, DNS, after the retries
  | 'AGENT_HTTP_STATUS' // a status that retrying will not fix (4xx but 408 and 429)
  | 'AGENT_HTTP_RETRY' // 408, 429 or 5xx after the retries
  | 'AGENT_BAD_REPLY' // a reply that is not the protocol's JSON, after the retries
  | 'AGENT_ABORTED' // the run was cancelled while waiting for the agent
  | 'AGENT_LIMIT' // a reply, a tool call's arguments or its name over the bounds (core/limits.ts): the run ends, nothing of it stored
  | 'AGENT_REDIRECT'; // the agent's URL redirected elsewhere (followed only to the same origin, with 307 or 308)

export class AgentError extends Error {
  readonly code: AgentErrorCode;
  constructor(code: AgentErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentError';
    this.code = code;
  }
}

export const isAgentError = (e: unknown): e is AgentError => e instanceof AgentError || String((e as { code?: unknown })?.code ?? '').startsWith('AGENT_');

/** One call's record sent back to an agent: what it asked for and what the LMS answered. */
export interface CallResultView {
  id: string;
  name: string;
  args: unknown;
  result: ToolResult | { ok: false; error: { code: 'TURN_OVER'; message: string } };
}

/**
 * A label part from a name: lower-cased, runs of characters other than letters, digits, "." and
 * "-" made one "-" (run ids are file names; see llmRunLabel).
 */
export const labelPart = (s: string): string => s.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);

/** An external tutor's part of a run id: "<kind>-<agent>[-<model>]". */
export function externalRunLabel(kind: 'mcp' | 'http', agent: string, model: string): string {
  const a = labelPart(agent) || 'agent';
  const m = labelPart(model);
  return m ? `${kind}-${a}-${m}` : `${kind}-${a}`;
}

/**
 * Harness and model of an external tutor from its recorded config: harness "mcp:<agent>" or
 * "http:<name>", model what the agent reported (null when it reported none). Null for other tutors.
 */
export function externalParts(name: string, config: Record<string, unknown>): { harness: string; model: string | null } | null {
  const agent = name === 'mcp' ? config.agent : name === 'http' ? config.name : undefined;
  if (typeof agent !== 'string' || !agent) return null;
  const model = typeof config.model === 'string' && config.model ? config.model : null;
  return { harness: `${name}:${agent}`, model };
}
