/**
 * Error bodies as OpenAI-compatible servers really send them, read into one shape. The SDK reads
 * only `{"error": {...}}`; anything else became "400 status code (no body)" and the provider's
 * reason was lost. Known shapes:
 *  - OpenAI, OpenRouter, LM Studio, llama.cpp: `{"error": {"message", "type", "code"}}`
 *  - Ollama: `{"error": "model \"x\" not found"}` (a string)
 *  - vLLM (older releases): `{"object": "error", "message", "type", "code"}`
 *  - Gemini's compatible endpoint: `[{"error": {"code", "message", "status"}}]`
 *  - FastAPI-based servers and proxies: `{"detail": "…"}` or `{"detail": [{"msg": …}]}`
 *  - anything else with a top-level `"message"`
 * The same shapes on a 200 (OpenRouter reports an upstream failure that way) are errors too.
 */

export interface ProviderErrorBody {
  message: string;
  type: string | null;
  /** The provider's code: a string (context_length_exceeded) or an HTTP-like number (OpenRouter, Gemini). */
  code: string | number | null;
}

const str = (x: unknown): string | null => (typeof x === 'string' && x.trim() !== '' ? x : null);

function fromObject(o: Record<string, unknown>): ProviderErrorBody | null {
  const e = o.error;
  if (typeof e === 'string' && e.trim()) return { message: e, type: null, code: null };
  if (e && typeof e === 'object' && !Array.isArray(e)) {
    const x = e as Record<string, unknown>;
    const message = str(x.message) ?? (x.message !== undefined ? JSON.stringify(x.message) : JSON.stringify(x));
    const code = typeof x.code === 'number' || typeof x.code === 'string' ? x.code : null;
    return { message, type: str(x.type) ?? str(x.status), code };
  }
  if (o.object === 'error' || (str(o.message) && !('choices' in o))) {
    const code = typeof o.code === 'number' || typeof o.code === 'string' ? o.code : null;
    return { message: str(o.message) ?? JSON.stringify(o), type: str(o.type), code };
  }
  if (o.detail !== undefined && !('choices' in o)) {
    const d = o.detail;
    if (typeof d === 'string') return { message: d, type: null, code: null };
    if (Array.isArray(d)) return { message: d.map((x) => str((x as { msg?: unknown })?.msg) ?? JSON.stringify(x)).join('; '), type: null, code: null };
    return { message: JSON.stringify(d), type: null, code: null };
  }
  return null;
}

/** The error a body carries, in any of the known shapes; null when it carries none. */
export function providerErrorOf(body: unknown): ProviderErrorBody | null {
  if (Array.isArray(body)) {
    const first = body[0] as unknown;
    return first && typeof first === 'object' && !Array.isArray(first) ? fromObject(first as Record<string, unknown>) : null;
  }
  if (body && typeof body === 'object') return fromObject(body as Record<string, unknown>);
  return null;
}

/** A request the model cannot take whatever the retries: its context is too small for it. */
export const CONTEXT_LENGTH = /context[ _-]?(length|window|size)|maximum context|context_length_exceeded|too many tokens|prompt is too long|exceeds the available context/i;

/** vLLM refuses `tool_choice: "auto"` unless started with a tool parser. */
const VLLM_TOOL_CHOICE = /enable-auto-tool-choice|tool-call-parser/i;

/** What to do about a provider's message, when we know (appended to the error). */
export function hintFor(message: string): string | null {
  if (VLLM_TOOL_CHOICE.test(message)) return 'vLLM needs a tool parser for tool calls: start it with --enable-auto-tool-choice --tool-call-parser <parser> (hermes for Qwen and Hermes models, llama3_json for Llama 3.1+, mistral for Mistral); see docs/llm.md#providers';
  if (CONTEXT_LENGTH.test(message)) return "the conversation no longer fits the model's context: use a model with a longer context, or a harness with shorter conversations (reactive)";
  return null;
}

/**
 * A fetch that rewrites a failed reply's body into OpenAI's `{"error": {...}}` shape when it holds
 * an error in another known shape, so the SDK's error carries the provider's message. Replies
 * that succeed, and bodies already in that shape or not JSON, pass through untouched.
 */
export function normalisingFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (res.ok || [101, 204, 205, 304].includes(res.status)) return res;
    const text = await res.text();
    let out = text;
    try {
      const body = JSON.parse(text) as unknown;
      const hasOpenAiShape = !!body && typeof body === 'object' && !Array.isArray(body) && typeof (body as { error?: unknown }).error === 'object' && (body as { error?: unknown }).error !== null;
      const err = hasOpenAiShape ? null : providerErrorOf(body);
      if (err) out = JSON.stringify({ error: { message: err.message, type: err.type, code: err.code } });
    } catch {
      // not JSON: the SDK shows the text as it is
    }
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(out, { status: res.status, statusText: res.statusText, headers });
  };
}
