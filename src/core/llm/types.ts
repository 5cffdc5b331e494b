/**
 * The LLM port: everything LLM in the engine (tutors, the student voice, judges) talks to an
 * `LlmClient`. The core holds only these types and pure helpers; the clients that do I/O live in
 * src/adapters/llm (OpenAI-compatible chat completions, browser and Node). Tests use MockLlm.
 *
 * Nothing here carries a key: a client knows its provider's *name* and model, and that is all a
 * trace ever records.
 */

import { hashString } from '../rng';

/** A text format of tool calls written in a reply's content (src/core/llm/text-tools.ts). */
export type TextToolFormat = 'hermes' | 'mistral';

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/** A function call the model asked for. `arguments` is the JSON text exactly as the model wrote it. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: string;
  /**
   * Fields the provider put on the call beyond id, type and function, that it requires back with
   * the call in the follow-up request (Gemini's `extra_content` with a thought signature). Present
   * only when the provider sent some; echoed as given.
   */
  extra?: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  /** reasoning: the model's reasoning as the provider returned it (sent back only to providers configured with echoReasoning). */
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCallRequest[]; reasoning?: string }
  | { role: 'tool'; toolCallId: string; content: string };

/** A function the model may call (the LMS tools' `toolSpecs()` have exactly this shape). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: object;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: readonly ToolSpec[];
  /** Default "auto" when tools are given. */
  toolChoice?: 'auto' | 'required' | 'none';
  temperature?: number;
  maxTokens?: number;
  /** Ask for a JSON object reply (`response_format: json_object`) where the provider supports it. */
  json?: boolean;
  /** Seed for providers that honour one (best effort; never relied on for determinism). */
  seed?: number;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatResponse {
  content: string | null;
  toolCalls: ToolCallRequest[];
  finishReason: string | null;
  usage: TokenUsage | null;
  /** Cost in US dollars from the provider's configured prices; null when no price is configured. */
  cost: number | null;
  /** How many times the request was retried (429, 5xx, timeouts) before this reply. */
  retries: number;
  /**
   * Present when the tool calls were read from the reply's text (the server returned none in
   * `tool_calls`, the content held them in a known text format): which format. See text-tools.ts.
   */
  textToolCalls?: TextToolFormat;
  /** The model's reasoning, when the provider returned it beside the content (`reasoning_content`, `reasoning`). */
  reasoning?: string;
}

/** An OpenAI-compatible chat endpoint with one model. */
export interface LlmClient {
  /** Provider name from the configuration (never its URL's secrets or key). */
  readonly provider: string;
  readonly model: string;
  /** Model family ("gpt", "gemini", "llama", …) when configured: the judge panel mixes families. */
  readonly family: string | null;
  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
}

/**
 * Why an LLM call failed. Every code starts with "LLM_": a tutor that throws one ends the run with
 * reason "llm_error" and this code in the trace.
 */
export type LlmErrorCode =
  | 'LLM_CONFIG' // no provider/model/key configured, unknown provider
  | 'LLM_AUTH' // 401/403
  | 'LLM_BAD_REQUEST' // 400/404/422: the request (or model name) is wrong; retrying will not help
  | 'LLM_RATE_LIMITED' // 429 after all retries
  | 'LLM_SERVER' // 5xx after all retries
  | 'LLM_TIMEOUT' // no reply within the timeout, after all retries
  | 'LLM_NETWORK' // connection refused / reset, after all retries
  | 'LLM_BAD_RESPONSE' // the reply could not be used (malformed, after retries)
  | 'LLM_ABORTED' // cancelled by the user
  | 'LLM_BUDGET'; // a spending cap (e.g. a classroom study's call cap) is reached; no request was sent

export class LlmError extends Error {
  readonly code: LlmErrorCode;
  /** HTTP status when there was one. */
  readonly status: number | null;
  /** Retries made before giving up. */
  readonly retries: number;
  constructor(code: LlmErrorCode, message: string, opts: { status?: number | null; retries?: number; cause?: unknown } = {}) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'LlmError';
    this.code = code;
    this.status = opts.status ?? null;
    this.retries = opts.retries ?? 0;
  }
}

export function isLlmError(e: unknown): e is LlmError {
  return e instanceof LlmError || (typeof (e as { code?: unknown })?.code === 'string' && String((e as { code: string }).code).startsWith('LLM_'));
}

/** Price of a model in US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

export function costOf(usage: TokenUsage | null, price: ModelPrice | null | undefined): number | null {
  if (!usage || !price) return null;
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1e6;
}

export type ModelRole = 'tutor' | 'student' | 'judge';

/**
 * What the trace keeps of one model call (the `model_call` event without seq/t/type). The request
 * is summarised (sizes, not the full prompt, which the harness version and the trace reproduce);
 * the reply is kept in full so a run can be audited. No keys, no wall-clock timing.
 */
export interface ModelCallRecord {
  role: ModelRole;
  /** What the call was for, e.g. "reactive:step", "notes:update", "lesson:plan", "voice:reply". */
  purpose: string;
  provider: string;
  model: string;
  /** Sizes of the request, and a digest of all of it (messages, tools, parameters) that a resumed run checks its replayed calls against. */
  request: { messages: number; chars: number; tools: number; temperature: number | null; digest?: string };
  /** `textToolCalls`: the tool calls were read from the content's text in this format (the provider returned none natively). */
  response: { content: string | null; toolCalls: ToolCallRequest[]; finishReason: string | null; textToolCalls?: TextToolFormat; reasoning?: string } | null;
  usage: TokenUsage | null;
  cost: number | null;
  retries: number;
  error?: { code: string; message: string };
  /** Student voice only: the correctness the learner model decided and what the reply rendered. */
  voiceCheck?: { decided: boolean; rendered: boolean | null; mismatch: boolean; answer: string | null };
}

/**
 * Replies are kept whole so a resumed run can answer its recorded calls from the trace exactly;
 * only a runaway reply beyond this is cut (and such a call cannot be replayed: resume refuses it).
 */
export const MAX_RECORDED_CONTENT = 100_000;
/** The marker a cut reply ends with. */
export const CUT_MARKER = /… \[\d+ more characters\]$/;

function messageChars(m: ChatMessage): number {
  let n = (m.content?.length ?? 0) + (m.role === 'assistant' ? (m.reasoning?.length ?? 0) : 0);
  if (m.role === 'assistant') for (const c of m.toolCalls ?? []) n += c.name.length + c.arguments.length;
  return n;
}

/**
 * A digest of everything a request sends (32-bit FNV-1a of its JSON, hex): enough to notice that a
 * resumed run asks something other than what the trace recorded, not a cryptographic hash.
 */
export function requestDigest(req: ChatRequest): string {
  const { messages, tools, toolChoice, temperature, maxTokens, json, seed } = req;
  return hashString(JSON.stringify({ messages, tools: tools ?? null, toolChoice: toolChoice ?? null, temperature: temperature ?? null, maxTokens: maxTokens ?? null, json: json ?? null, seed: seed ?? null }))
    .toString(16)
    .padStart(8, '0');
}

const cutText = (t: string): string => (t.length > MAX_RECORDED_CONTENT ? `${t.slice(0, MAX_RECORDED_CONTENT)}… [${t.length - MAX_RECORDED_CONTENT} more characters]` : t);

/** The trace record of a call (successful when `res` is given, failed when `error` is). */
export function modelCallRecord(
  role: ModelRole,
  purpose: string,
  client: Pick<LlmClient, 'provider' | 'model'>,
  req: ChatRequest,
  outcome: { res: ChatResponse } | { error: unknown },
): ModelCallRecord {
  const base = {
    role,
    purpose,
    provider: client.provider,
    model: client.model,
    request: { messages: req.messages.length, chars: req.messages.reduce((a, m) => a + messageChars(m), 0), tools: req.tools?.length ?? 0, temperature: req.temperature ?? null, digest: requestDigest(req) },
  };
  if ('res' in outcome) {
    const r = outcome.res;
    const content = r.content === null ? null : cutText(r.content);
    return { ...base, response: { content, toolCalls: r.toolCalls, finishReason: r.finishReason, ...(r.textToolCalls ? { textToolCalls: r.textToolCalls } : {}), ...(r.reasoning !== undefined ? { reasoning: cutText(r.reasoning) } : {}) }, usage: r.usage, cost: r.cost, retries: r.retries };
  }
  const e = outcome.error;
  const code = isLlmError(e) ? e.code : 'LLM_UNKNOWN';
  return { ...base, response: null, usage: null, cost: null, retries: e instanceof LlmError ? e.retries : 0, error: { code, message: e instanceof Error ? e.message : String(e) } };
}
