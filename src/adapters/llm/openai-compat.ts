/**
 * LlmClient over OpenAI-compatible chat completions, with the official `openai` SDK (works in the
 * browser and in Node). Robustness is ours, not the SDK's:
 *  - retries: p-retry (the SDK's own retries are off, maxRetries: 0) on 429, 408, 409, 5xx,
 *    timeouts and connection errors, with exponential backoff (backoffMs × 2^n); a Retry-After
 *    (or retry-after-ms) header is honoured: the next try never starts before it has passed, and
 *    one longer than maxRetryAfterMs fails the call at once. We use p-retry rather than the SDK's
 *    retries because the SDK ignores Retry-After above 60 s, adds random jitter and does not tell
 *    us how many retries a reply took (the trace records it).
 *  - concurrency: one p-limit per provider (name and base URL), shared by every client of that
 *    provider in this process/page (every run of a sweep; tutor, voice and judges together); and,
 *    with maxRequestsPerMinute, request starts spaced to stay under it (shared the same way).
 *  - timeouts per try (timeoutMs) and cancellation (AbortSignal) through the SDK.
 *  - errors become LlmError with an LLM_* code and a message naming provider and model, with the
 *    key redacted from anything the server echoed.
 */
import OpenAI from 'openai';
import pRetry, { AbortError } from 'p-retry';
import pLimit, { type LimitFunction } from 'p-limit';
import { LlmError, costOf, requestDigest, type ChatMessage, type ChatRequest, type ChatResponse, type LlmClient, type LlmErrorCode, type ToolCallRequest } from '../../core/index';
import type { ProviderConfig } from './config';
import { familyOf } from './config';

/**
 * What every client of one provider shares in this process or page (all the runs of a sweep, the
 * tutor, voice and judges together): the concurrency limit, and the pacing of request starts.
 */
interface ProviderGate {
  limit: LimitFunction;
  /** When the next request may start under maxRequestsPerMinute (performance.now() time). */
  nextStart: number;
}
const gates = new Map<string, ProviderGate>();

/** The provider's gate: one per provider (name and base URL), whatever the number of clients. A changed maxConcurrency changes the limit in place (calls waiting or running stay counted). */
function gateFor(p: ProviderConfig): ProviderGate {
  const key = `${p.name}|${p.baseURL}`;
  let g = gates.get(key);
  if (!g) {
    g = { limit: pLimit(p.maxConcurrency), nextStart: 0 };
    gates.set(key, g);
  } else if (g.limit.concurrency !== p.maxConcurrency) g.limit.concurrency = p.maxConcurrency;
  return g;
}

/**
 * Under maxRequestsPerMinute, request starts are spaced at least 60 000 / rpm ms apart (each try,
 * retries included): never more than the limit in any minute, and no burst at the start of one.
 * Called inside the concurrency slot, so the spacing is between real starts.
 */
async function paced(g: ProviderGate, p: ProviderConfig, signal?: AbortSignal): Promise<void> {
  if (!p.maxRequestsPerMinute) return;
  const now = performance.now();
  const at = Math.max(now, g.nextStart);
  g.nextStart = at + 60_000 / p.maxRequestsPerMinute;
  if (at > now) await sleep(at - now, signal);
}

/** Replaces the key, and anything that looks like an API key, in text a server sent back. */
export function redact(text: string, key: string | undefined): string {
  let t = text;
  if (key && key.length >= 4) t = t.split(key).join('[redacted key]');
  return t.replace(/\b(sk|pk|rk|key|api)[-_][A-Za-z0-9*_-]{6,}/gi, '[redacted key]').replace(/Bearer\s+[^\s"']+/gi, 'Bearer [redacted]');
}

class Classified extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly status: number | null,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

function retryAfterOf(headers: Headers | undefined): number | null {
  const ms = headers?.get?.('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers?.get?.('retry-after');
  if (!ra) return null;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Math.max(0, Number(ra) * 1000);
  const at = Date.parse(ra);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

function classify(e: unknown, key: string | undefined): Classified {
  if (e instanceof Classified) return e;
  const msg = redact(e instanceof Error ? e.message : String(e), key);
  if (e instanceof OpenAI.APIUserAbortError || (e instanceof Error && e.name === 'AbortError')) return new Classified('LLM_ABORTED', 'cancelled', false, null, null);
  if (e instanceof OpenAI.APIConnectionTimeoutError) return new Classified('LLM_TIMEOUT', 'no reply within the timeout', true, null, null);
  if (e instanceof OpenAI.APIConnectionError) return new Classified('LLM_NETWORK', `connection failed: ${msg}`, true, null, null);
  if (e instanceof OpenAI.APIError) {
    const s = e.status ?? 0;
    const ra = retryAfterOf(e.headers);
    if (s === 429) return new Classified('LLM_RATE_LIMITED', `rate limited (429): ${msg}`, true, s, ra);
    if (s === 401 || s === 403) return new Classified('LLM_AUTH', `not authorised (${s}): check the key: ${msg}`, false, s, null);
    if (s === 408 || s === 409) return new Classified('LLM_SERVER', `${s}: ${msg}`, true, s, ra);
    if (s >= 500) return new Classified('LLM_SERVER', `server error (${s}): ${msg}`, true, s, ra);
    return new Classified('LLM_BAD_REQUEST', `request rejected (${s}): ${msg}`, false, s, null);
  }
  return new Classified('LLM_BAD_RESPONSE', msg, false, null, null);
}

function toOpenAi(m: ChatMessage): OpenAI.Chat.Completions.ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        ...(m.toolCalls?.length ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Classified('LLM_ABORTED', 'cancelled', false, null, null));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Classified('LLM_ABORTED', 'cancelled', false, null, null));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface ClientOptions {
  /** The key (resolved from settings or the environment). Empty for servers without auth. */
  apiKey?: string;
  family?: string;
  /** Custom fetch (tests, proxies). */
  fetch?: typeof fetch;
}

export class OpenAiCompatClient implements LlmClient {
  readonly provider: string;
  readonly model: string;
  readonly family: string | null;
  readonly #p: ProviderConfig;
  readonly #key: string | undefined;
  readonly #sdk: OpenAI;

  constructor(p: ProviderConfig, model: string, opts: ClientOptions = {}) {
    if (!model) throw new LlmError('LLM_CONFIG', `provider ${p.name}: no model given`);
    this.provider = p.name;
    this.model = model;
    this.family = familyOf(p, model, opts.family);
    this.#p = p;
    this.#key = opts.apiKey || undefined;
    this.#sdk = new OpenAI({
      baseURL: p.baseURL,
      // Servers without auth (Ollama, llama.cpp) accept any bearer; the SDK insists on one.
      apiKey: this.#key ?? 'no-key',
      maxRetries: 0,
      timeout: p.timeoutMs,
      dangerouslyAllowBrowser: true,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
  }

  /** Keys never leave the object: not in JSON, not in console output. */
  toJSON(): object {
    return { provider: this.provider, model: this.model, family: this.family };
  }

  async chat(req: ChatRequest, outer?: AbortSignal): Promise<ChatResponse> {
    // The SDK and p-retry each add an abort listener per call to the signal they are given and do
    // not remove it; a run's signal lives for hundreds of calls. So each call gets its own signal,
    // linked to the caller's by one listener that is removed when the call is over.
    if (!outer) return this.#chat(req);
    const local = new AbortController();
    const onAbort = () => local.abort(outer.reason);
    if (outer.aborted) local.abort(outer.reason);
    else outer.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.#chat(req, local.signal);
    } finally {
      outer.removeEventListener('abort', onAbort);
    }
  }

  async #chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const p = this.#p;
    const gate = gateFor(p);
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: this.model,
      messages: req.messages.map(toOpenAi),
      ...(req.tools?.length ? { tools: req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters as Record<string, unknown> } })), tool_choice: req.toolChoice ?? 'auto' } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
      ...(req.json && p.jsonMode && !req.tools?.length ? { response_format: { type: 'json_object' as const } } : {}),
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
    };
    const backoff = (consumed: number) => p.backoffMs * 2 ** consumed;
    let attempts = 0;
    try {
      const res = await pRetry(
        async () => {
          attempts++;
          try {
            return await gate.limit(async () => {
              await paced(gate, p, signal);
              if (signal?.aborted) throw new Classified('LLM_ABORTED', 'cancelled', false, null, null);
              return this.#sdk.chat.completions.create(body, { ...(signal ? { signal } : {}) });
            });
          } catch (e) {
            const c = classify(e, this.#key);
            if (c.code === 'LLM_ABORTED') throw new AbortError(c);
            throw c;
          }
        },
        {
          retries: p.maxRetries,
          factor: 2,
          minTimeout: p.backoffMs,
          maxTimeout: 60_000,
          randomize: false,
          ...(signal ? { signal } : {}),
          shouldRetry: ({ error }) => error instanceof Classified && error.retryable,
          onFailedAttempt: async ({ error, retriesLeft, retriesConsumed }) => {
            if (!(error instanceof Classified) || !error.retryable || retriesLeft <= 0 || error.retryAfterMs === null) return;
            if (error.retryAfterMs > p.maxRetryAfterMs) {
              throw new Classified(error.code, `${error.message}; the server asks to wait ${Math.round(error.retryAfterMs / 1000)} s, more than the ${Math.round(p.maxRetryAfterMs / 1000)} s allowed (maxRetryAfterMs)`, false, error.status, error.retryAfterMs);
            }
            // p-retry waits backoff(retriesConsumed) next; wait the rest of Retry-After first.
            const extra = error.retryAfterMs - Math.min(backoff(retriesConsumed), 60_000);
            if (extra > 0) await sleep(extra, signal);
          },
        },
      );
      const choice = res.choices?.[0];
      // Servers that send no tool-call ids get ids derived from the request, so a resumed run's
      // conversation is the uninterrupted run's (a per-client counter would restart at 1).
      const idBase = requestDigest(req);
      if (!choice) throw new Classified('LLM_BAD_RESPONSE', 'the reply has no choices', false, null, null);
      const toolCalls: ToolCallRequest[] = (choice.message.tool_calls ?? [])
        .filter((c): c is OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall => c.type === 'function')
        .map((c, i) => ({ id: c.id || `call_${idBase}_${i}`, name: c.function?.name ?? '', arguments: c.function?.arguments ?? '' }));
      const usage = res.usage ? { promptTokens: res.usage.prompt_tokens ?? 0, completionTokens: res.usage.completion_tokens ?? 0 } : null;
      const price = p.models[this.model];
      return {
        content: choice.message.content ?? null,
        toolCalls,
        finishReason: choice.finish_reason ?? null,
        usage,
        cost: costOf(usage, price ? { input: price.input, output: price.output } : null),
        retries: attempts - 1,
      };
    } catch (e) {
      const c = classify(e, this.#key);
      const retries = Math.max(0, attempts - 1);
      if (c.code === 'LLM_ABORTED' || signal?.aborted) throw new LlmError('LLM_ABORTED', `${this.provider}/${this.model}: cancelled`, { retries });
      throw new LlmError(c.code, `${this.provider}/${this.model}: ${c.message}${retries ? ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : ''}`, { status: c.status, retries });
    }
  }
}
