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
import { LlmError, MAX_PROVIDER_REPLY_BYTES, costOf, fromStrictArgs, toStrictSchema, hasTextToolCalls, parseTextToolCalls, readCapped, requestDigest, type TextToolFormat, type ChatMessage, type ChatRequest, type ChatResponse, type LlmClient, type LlmErrorCode, type ToolCallRequest } from '../../core/index';
import type { ProviderConfig } from './config';
import { familyOf } from './config';
import { CONTEXT_LENGTH, hintFor, normalisingFetch, providerErrorOf, type ProviderErrorBody } from './provider-errors';

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

/** Characters that end a token in text a server sends back (spaces, quotes, brackets, separators). */
const TOKEN_SPLIT = /([\s"'`<>()[\]{},;|&?]+)/;
/** Looks like an API key: "sk-" and 8 key characters, or another known prefix and a separator, then at least 16 key characters with a digit (or a mask *) among them. */
const KEYLIKE = /^(?:(?:sk|pk|rk|gsk|xai|key|api|hf|ghp|glpat)[-_](?=[A-Za-z0-9*_.+/=-]*[0-9*])[A-Za-z0-9*_.+/=-]{16,}|sk-[A-Za-z0-9*_.+/=-]{8,}|AIza[A-Za-z0-9_-]{20,})$/;
const BEARER = /(Bearer)(\s+)(\S+)/gi;

/**
 * Replaces the key, and anything that looks like an API key, in text a server sent back, whole
 * token by whole token: a token (a run of characters between spaces, quotes, brackets and
 * separators) that holds the key, the key as JSON or URL encodes it, a masked echo of it
 * ("sk-proj-****…abcd", sharing its first and last characters), or a key-like string becomes
 * "[redacted key]", keeping the text around it as it was. A short key (under 8 characters, e.g.
 * "none" for a local server) is redacted only as a whole token, never inside other words.
 */
export function redact(text: string, key: string | undefined): string {
  const k = key && key.length >= 4 ? key : undefined;
  const forms = k ? [...new Set([k, JSON.stringify(k).slice(1, -1), encodeURIComponent(k), k.replace(/\//g, '\\/')])] : [];
  const head = k && k.length >= 8 ? k.slice(0, Math.min(8, Math.floor(k.length / 3))) : null;
  const tail = k && k.length >= 8 ? k.slice(-4) : null;
  const hides = (tok: string): boolean => {
    if (!tok) return false;
    if (k) {
      if (k.length < 8) {
        if (forms.includes(tok.replace(/[.:!?]+$/, ''))) return true;
      } else if (forms.some((f) => tok.includes(f))) return true;
      // A masked echo: the key's start and end around a run of * (or …).
      if (head && tail && /[*•…]{3,}/.test(tok) && tok.includes(head) && tok.replace(/[.:!?]+$/, '').endsWith(tail)) return true;
    }
    return KEYLIKE.test(tok.replace(/[.:!?\\]+$/, ''));
  };
  const trail = (tok: string) => /[.:!?\\]+$/.exec(tok)?.[0] ?? '';
  const one = (tok: string): string => {
    if (!hides(tok)) return tok;
    // "api_key=<key>" or "?key=<key>&…": keep the name, hide the value.
    const eq = tok.indexOf('=');
    if (eq > 0 && eq < tok.length - 1 && !hides(tok.slice(0, eq)) && hides(tok.slice(eq + 1))) return `${tok.slice(0, eq + 1)}${one(tok.slice(eq + 1))}`;
    return `[redacted key]${trail(tok)}`;
  };
  const out = text
    .split(TOKEN_SPLIT)
    .map((tok, i) => (i % 2 === 0 ? one(tok) : tok))
    .join('');
  return out.replace(BEARER, (_m, b: string, sp: string, v: string) => (v.startsWith('[redacted') ? `${b}${sp}${v}` : `${b}${sp}[redacted]`));
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

/** Thrown by the capped fetch for a reply over MAX_PROVIDER_REPLY_BYTES (the SDK wraps it as a connection error). */
class ReplyTooLarge extends Error {
  constructor(readonly max: number) {
    super(`the reply is more than ${max} bytes; it was not read`);
    this.name = 'ReplyTooLarge';
  }
}

/** fetch whose response body is read up to `max` bytes (then ReplyTooLarge): a provider cannot make a run hold a reply of any size. */
function cappedFetch(base: typeof fetch, max: number): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    if (!res.body) return res;
    const declared = Number(res.headers.get('content-length') ?? NaN);
    const text = declared > max ? null : await readCapped(res.body, max);
    if (text === null) throw new ReplyTooLarge(max);
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** Thrown for a provider redirect that is not followed (sameOriginFetch). */
class ProviderRedirect extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderRedirect';
  }
}

const MAX_PROVIDER_REDIRECTS = 3;

/**
 * fetch that follows a provider's redirect only within the provider's own origin and only with 307
 * or 308 (which keep the POST and its body); any other redirect is refused, saying where it
 * pointed. Followed silently, a 302 turned the request into a bodiless GET that still "answered",
 * and a redirect to another host carried the key's request there (issue 36). In a page, fetch
 * cannot see where a redirect points (an opaque redirect), so every redirect is refused.
 */
function sameOriginFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    let url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    for (let hop = 0; ; hop++) {
      const res = await base(url, { ...init, redirect: 'manual' });
      const redirect = res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400 && res.status !== 304);
      if (!redirect) return res;
      const where = res.headers.get('location');
      const next = where ? new URL(where, url) : null;
      const same = next !== null && next.origin === new URL(url).origin;
      if (same && (res.status === 307 || res.status === 308) && hop < MAX_PROVIDER_REDIRECTS) {
        url = next.href;
        continue;
      }
      const why = res.type === 'opaqueredirect' ? 'a page cannot see where a redirect points' : !same ? "redirects are followed only within the provider's own origin" : hop >= MAX_PROVIDER_REDIRECTS ? `more than ${MAX_PROVIDER_REDIRECTS} redirects` : `a ${res.status} would turn the POST into a GET; only 307 and 308 are followed`;
      throw new ProviderRedirect(`the provider answered ${res.type === 'opaqueredirect' ? 'with a redirect' : `HTTP ${res.status}`}${next ? ` redirecting to ${next.href}` : ''}: refused (${why}); set baseURL to the final address`);
    }
  };
}

function classify(e: unknown, key: string | undefined): Classified {
  if (e instanceof Classified) return e;
  const redirected = e instanceof ProviderRedirect ? e : (e as { cause?: unknown } | null)?.cause instanceof ProviderRedirect ? ((e as { cause: ProviderRedirect }).cause) : null;
  if (redirected) return new Classified('LLM_BAD_REQUEST', redact(redirected.message, key), false, null, null);
  const tooLarge = e instanceof ReplyTooLarge ? e : (e as { cause?: unknown } | null)?.cause instanceof ReplyTooLarge ? ((e as { cause: ReplyTooLarge }).cause) : null;
  if (tooLarge) return new Classified('LLM_BAD_RESPONSE', `malformed reply: ${tooLarge.message}`, false, null, null);
  const msg = redact(e instanceof Error ? e.message : String(e), key);
  // A queue-backed sweep's shared slot lost mid-request (adapters/node/queue/limiter.ts): said as it is, not retried here.
  const slotLost = (e as { name?: unknown } | null)?.name === 'SharedSlotLost' ? e : (e as { cause?: { name?: unknown } } | null)?.cause?.name === 'SharedSlotLost' ? (e as { cause: Error }).cause : null;
  if (slotLost instanceof Error) return new Classified('LLM_NETWORK', redact(slotLost.message, key), false, null, null);
  if (e instanceof OpenAI.APIUserAbortError || (e instanceof Error && e.name === 'AbortError')) return new Classified('LLM_ABORTED', 'cancelled', false, null, null);
  if (e instanceof OpenAI.APIConnectionTimeoutError) return new Classified('LLM_TIMEOUT', 'no reply within the timeout', true, null, null);
  if (e instanceof OpenAI.APIConnectionError) return new Classified('LLM_NETWORK', `connection failed: ${msg}`, true, null, null);
  if (e instanceof OpenAI.APIError) {
    const s = e.status ?? 0;
    const ra = retryAfterOf(e.headers);
    const hint = hintFor(msg);
    // The context is too small for the request: no retry can help, whatever status the server chose.
    if (CONTEXT_LENGTH.test(msg) && s !== 429) return new Classified('LLM_BAD_REQUEST', `request rejected (${s}): ${msg}${hint ? ` (${hint})` : ''}`, false, s, null);
    if (hint && s >= 400 && s < 500 && s !== 429 && s !== 408 && s !== 409) return new Classified('LLM_BAD_REQUEST', `request rejected (${s}): ${msg} (${hint})`, false, s, null);
    if (s === 429) return new Classified('LLM_RATE_LIMITED', `rate limited (429): ${msg}`, true, s, ra);
    if (s === 401 || s === 403) return new Classified('LLM_AUTH', `not authorised (${s}): check the key: ${msg}`, false, s, null);
    if (s === 408 || s === 409) return new Classified('LLM_SERVER', `${s}: ${msg}`, true, s, ra);
    if (s >= 500) return new Classified('LLM_SERVER', `server error (${s}): ${msg}`, true, s, ra);
    return new Classified('LLM_BAD_REQUEST', `request rejected (${s}): ${msg}`, false, s, null);
  }
  // A 200 whose body is not JSON (a proxy's error page, a reply cut off): transient, retried like a 5xx.
  if (e instanceof SyntaxError) return new Classified('LLM_BAD_RESPONSE', `malformed reply: the body is not JSON (${msg})`, true, null, null);
  return new Classified('LLM_BAD_RESPONSE', msg, false, null, null);
}

/** The reply as we use it, or why it cannot be used (a malformed 200 is retried like other transient faults). */
/** The reasoning a message carries beside its content: `reasoning_content` (DeepSeek, vLLM, Qwen), `reasoning` (OpenRouter, Ollama), or `reasoning_details` text parts (OpenRouter). */
function reasoningOf(m: Record<string, unknown>): string | undefined {
  if (typeof m.reasoning_content === 'string' && m.reasoning_content !== '') return m.reasoning_content;
  if (typeof m.reasoning === 'string' && m.reasoning !== '') return m.reasoning;
  if (Array.isArray(m.reasoning_details)) {
    const t = m.reasoning_details.map((d) => (d && typeof d === 'object' && typeof (d as { text?: unknown }).text === 'string' ? (d as { text: string }).text : '')).join('');
    if (t) return t;
  }
  return undefined;
}

/** Fields of a tool call beyond id, type, function (and a streaming index) that the provider wants back: Gemini's `extra_content`. */
function extrasOf(call: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(call)) if (!['id', 'type', 'function', 'index'].includes(k) && v !== undefined && v !== null) out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

function readCompletion(res: unknown): { choice: { content: string | null; toolCalls: { id: string; name: string; arguments: string; extra?: Record<string, unknown> }[]; finishReason: string | null; reasoning?: string }; usage: { promptTokens: number; completionTokens: number } | null } {
  const bad = (why: string) => new Classified('LLM_BAD_RESPONSE', `malformed reply: ${why}`, true, null, null);
  if (!res || typeof res !== 'object' || Array.isArray(res)) throw bad(`the body is ${res === null ? 'null' : Array.isArray(res) ? 'a list' : typeof res}, not a completion object`);
  const r = res as { choices?: unknown; usage?: unknown };
  if (!Array.isArray(r.choices)) {
    // An error sent with status 200 (OpenRouter reports upstream failures so): the provider's reason, classified by its code.
    const err = providerErrorOf(res);
    if (err) throw errorOn200(err);
    throw bad('the reply has no "choices" list');
  }
  if (r.choices.length === 0) throw bad('the reply has no choices ("choices": [])');
  const c = r.choices[0] as { message?: unknown; finish_reason?: unknown } | null;
  if (!c || typeof c !== 'object') throw bad('the first choice is not an object');
  const m = c.message as { content?: unknown; tool_calls?: unknown } | null | undefined;
  if (!m || typeof m !== 'object') throw bad('the first choice has no message');
  let content: string | null;
  if (m.content === null || m.content === undefined) content = null;
  else if (typeof m.content === 'string') content = m.content;
  else if (Array.isArray(m.content) && m.content.every((p) => p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string')) content = m.content.map((p) => (p as { text: string }).text).join('');
  else throw bad(`the message content is ${typeof m.content}, not text`);
  const tc = m.tool_calls ?? [];
  if (!Array.isArray(tc)) throw bad('"tool_calls" is not a list');
  const toolCalls: { id: string; name: string; arguments: string; extra?: Record<string, unknown> }[] = [];
  for (const [i, x] of tc.entries()) {
    const call = x as { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } } | null;
    if (!call || typeof call !== 'object') throw bad(`tool call ${i} is not an object`);
    if (call.type !== undefined && call.type !== 'function') continue;
    const f = call.function;
    if (!f || typeof f !== 'object') throw bad(`tool call ${i} has no function`);
    // Arguments are JSON text; a server that sends an object gets it written as JSON (the tutor checks it like any other).
    const args = typeof f.arguments === 'string' ? f.arguments : f.arguments === undefined || f.arguments === null ? '' : JSON.stringify(f.arguments);
    const extra = extrasOf(call as Record<string, unknown>);
    toolCalls.push({ id: typeof call.id === 'string' ? call.id : '', name: typeof f.name === 'string' ? f.name : '', arguments: args, ...(extra ? { extra } : {}) });
  }
  const u = r.usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined;
  const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? Math.round(x) : 0);
  const usage = u && typeof u === 'object' ? { promptTokens: n(u.prompt_tokens), completionTokens: n(u.completion_tokens) } : null;
  const reasoning = reasoningOf(m as Record<string, unknown>);
  return { choice: { content, toolCalls, finishReason: typeof c.finish_reason === 'string' ? c.finish_reason : null, ...(reasoning !== undefined ? { reasoning } : {}) }, usage };
}

/** An error object in a 200 reply: classified like the status its code names; a context-length error is permanent; otherwise retried like a 5xx. */
function errorOn200(err: ProviderErrorBody): Classified {
  const hint = hintFor(err.message);
  const code = err.code === null ? '' : ` [${err.code}]`;
  const what = `the provider answered 200 with an error${code}: ${err.message}${hint ? ` (${hint})` : ''}`;
  const n = typeof err.code === 'number' ? err.code : /^\d{3}$/.test(String(err.code ?? '')) ? Number(err.code) : null;
  if (CONTEXT_LENGTH.test(err.message) || err.code === 'context_length_exceeded') return new Classified('LLM_BAD_REQUEST', what, false, 200, null);
  if (n === 429 || err.type === 'rate_limit_exceeded' || err.code === 'rate_limit_exceeded') return new Classified('LLM_RATE_LIMITED', what, true, 200, null);
  if (n === 401 || n === 403 || err.code === 'invalid_api_key') return new Classified('LLM_AUTH', what, false, 200, null);
  if (hint || (n !== null && n >= 400 && n < 500 && n !== 408 && n !== 409) || err.type === 'invalid_request_error') return new Classified('LLM_BAD_REQUEST', what, false, 200, null);
  return new Classified('LLM_SERVER', what, true, 200, null);
}

function toOpenAi(m: ChatMessage, echoReasoning: boolean): OpenAI.Chat.Completions.ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant':
      // A call's extras (Gemini's thought signature) go back as the provider sent them; the reasoning only where the provider asks for it.
      return {
        role: 'assistant',
        content: m.content,
        ...(m.toolCalls?.length ? { tool_calls: m.toolCalls.map((c) => ({ ...(c.extra ?? {}), id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
        ...(echoReasoning && m.reasoning !== undefined ? { reasoning_content: m.reasoning } : {}),
      } as OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam;
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
      // Replies are read up to MAX_PROVIDER_REPLY_BYTES; error bodies in other servers' shapes are
      // rewritten into OpenAI's, so the SDK's error carries the provider's reason.
      fetch: normalisingFetch(cappedFetch(sameOriginFetch(opts.fetch ?? ((input, init) => globalThis.fetch(input, init))), MAX_PROVIDER_REPLY_BYTES)),
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
      messages: req.messages.map((m) => toOpenAi(m, p.echoReasoning)),
      ...(req.tools?.length
        ? { tools: req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: p.strictTools ? toStrictSchema(t.parameters) : (t.parameters as Record<string, unknown>), ...(p.strictTools ? { strict: true } : {}) } })), tool_choice: req.toolChoice ?? 'auto' }
        : {}),
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
              // Checked inside the try: a malformed 200 is retried (bounded by maxRetries), like a 5xx.
              return readCompletion(await this.#sdk.chat.completions.create(body, { ...(signal ? { signal } : {}) }));
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
      // Servers that send no tool-call ids get ids derived from the request, so a resumed run's
      // conversation is the uninterrupted run's (a per-client counter would restart at 1).
      const idBase = requestDigest(req);
      let toolCalls: ToolCallRequest[] = res.choice.toolCalls.map((c, i) => ({ id: c.id || `call_${idBase}_${i}`, name: c.name, arguments: c.arguments, ...(c.extra ? { extra: c.extra } : {}) }));
      let content = res.choice.content;
      // A server without a tool parser (vLLM without --tool-call-parser, Ollama on a model whose
      // template has no tools, llama.cpp without --jinja) returns the calls as text in the content.
      // They are read the way the in-browser provider reads them, and the reply is marked so the
      // run's warnings say so (scoring/warnings.ts): never a run of silent turns that scores as one.
      let textToolCalls: TextToolFormat | undefined;
      if (!toolCalls.length && req.tools?.length && hasTextToolCalls(content)) {
        const parsed = parseTextToolCalls(content!, (i) => `call_${idBase}_${i}`);
        if (parsed.format) {
          textToolCalls = parsed.format;
          toolCalls = parsed.toolCalls;
          content = parsed.content;
        }
      }
      if (p.strictTools && req.tools?.length) {
        // Strict mode: a null stands for a property not given; the tool's own schema wants it left out.
        const specs = new Map(req.tools.map((t) => [t.name, t.parameters]));
        toolCalls = toolCalls.map((c) => {
          const schema = specs.get(c.name);
          return schema ? { ...c, arguments: fromStrictArgs(schema, c.arguments) } : c;
        });
      }
      const usage = res.usage;
      const price = p.models[this.model];
      return {
        content,
        toolCalls,
        finishReason: res.choice.finishReason,
        usage,
        cost: costOf(usage, price ? { input: price.input, output: price.output } : null),
        retries: attempts - 1,
        ...(textToolCalls ? { textToolCalls } : {}),
        ...(res.choice.reasoning !== undefined ? { reasoning: res.choice.reasoning } : {}),
      };
    } catch (e) {
      const c = classify(e, this.#key);
      const retries = Math.max(0, attempts - 1);
      if (c.code === 'LLM_ABORTED' || signal?.aborted) throw new LlmError('LLM_ABORTED', `${this.provider}/${this.model}: cancelled`, { retries });
      throw new LlmError(c.code, `${this.provider}/${this.model}: ${c.message}${retries ? ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : ''}`, { status: c.status, retries });
    }
  }
}
