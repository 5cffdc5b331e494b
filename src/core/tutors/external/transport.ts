/**
 * The network port of the HTTP tutor (http.ts): the environment supplies it (`RunEnv.http`;
 * adapters/node/agent-http.ts in Node). Its own file so that tutors/types.ts can name it without
 * importing the tutor.
 */

/** What a POST came back with. */
export interface HttpReply {
  status: number;
  text: string;
}

/**
 * `post` resolves with any HTTP status and the body as text; it rejects with an AgentError:
 * AGENT_TIMEOUT (no reply within timeoutMs), AGENT_NETWORK, or AGENT_ABORTED (the signal).
 * `wait` is the backoff before a retry (instant when replaying).
 */
export interface HttpTransport {
  post(url: string, body: string, o: { timeoutMs: number; signal?: AbortSignal; tokenEnv?: string }): Promise<HttpReply>;
  wait(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Reads a reply body as UTF-8 text, up to `maxBytes`: null as soon as it is longer (the rest is
 * not read, the stream cancelled), so an agent cannot make the run hold a reply of any size.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string | null> {
  if (!body) return '';
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.byteLength;
    if (n > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    parts.push(value);
  }
  const all = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** `text` with every occurrence of `secret` (as written, JSON-escaped or URL-encoded) replaced by "[redacted]". Secrets under 4 characters are left (they would hide ordinary words). */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  let out = text;
  for (const f of new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])) out = out.split(f).join('[redacted]');
  return out;
}
