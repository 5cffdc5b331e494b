/**
 * Why the page could not reach a provider, when the browser only says "Failed to fetch".
 *
 * In a page, a request the browser blocks for CORS (the server answered without an
 * Access-Control-Allow-Origin that names this page) and a request to a port where nothing
 * listens fail the same way: a TypeError with no status, which the client reports as
 * LLM_NETWORK. Two things tell them apart:
 *  - an http:// URL on another host from an https:// page is mixed content: the browser never
 *    sends it (localhost and 127.0.0.1 are exempt, so local servers are not affected);
 *  - a probe with `mode: 'no-cors'`: the browser sends a plain GET and hands back an opaque
 *    response, without asking the server for permission, when anything answers at all (any
 *    status). So an opaque response means the server is up and the block was CORS; a network
 *    error again means nothing answered (refused, unknown host, firewall). The probe sends no
 *    key and no cookies (`credentials: 'omit'`), and its reply cannot be read.
 * The advice names the fixes for the common local servers. The flags were checked against the
 * servers' documentation and issue threads at the time of writing (llama.cpp: pull request
 * ggml-org/llama.cpp#25655); a server's own docs win where they differ.
 */

export type Unreachable = 'cors' | 'not-listening' | 'mixed-content';

export interface Diagnosis {
  kind: Unreachable;
  /** One sentence: what happened, naming the URL (and the page's origin for CORS). */
  summary: string;
  /** What to do, one line each (the common servers' fixes for CORS). */
  fixes: string[];
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLocalHost(host: string): boolean {
  return LOCAL_HOSTS.has(host) || host.endsWith('.localhost');
}

/** The base URL as a URL, or a clear error naming it (the settings form checks URLs, so this is a guard). */
function parse(baseURL: string): URL {
  try {
    return new URL(baseURL);
  } catch {
    throw new Error(`the provider's base URL "${baseURL}" is not a URL`);
  }
}

/** The URL the probe asks: the models list under the base URL (every OpenAI-compatible server has it; any answer will do). */
export function probeUrl(baseURL: string): string {
  const u = parse(baseURL);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/models`;
  u.search = '';
  u.hash = '';
  return u.toString();
}

/** Mixed content: an http:// URL on a non-local host, called from an https:// page. */
export function isMixedContent(pageOrigin: string, baseURL: string): boolean {
  const u = parse(baseURL);
  return pageOrigin.startsWith('https:') && u.protocol === 'http:' && !isLocalHost(u.hostname);
}

export type ProbeResult = 'answered' | 'no-answer';

/**
 * Asks `url` with a no-cors GET: "answered" when anything answered (an opaque response, or any
 * response), "no-answer" when the request failed or took longer than `timeoutMs`.
 */
export async function probe(url: string, fetchImpl: typeof fetch = fetch, timeoutMs = 5000): Promise<ProbeResult> {
  const ac = new AbortController();
  const t = setTimeout(() => ac.abort(), timeoutMs);
  try {
    await fetchImpl(url, { mode: 'no-cors', credentials: 'omit', cache: 'no-store', signal: ac.signal });
    return 'answered';
  } catch {
    return 'no-answer';
  } finally {
    clearTimeout(t);
  }
}

/** The fixes for a CORS block, for the common servers, with this page's origin filled in. */
export function corsFixes(pageOrigin: string): string[] {
  return [
    `Ollama: start it with OLLAMA_ORIGINS=${pageOrigin} ollama serve (for the desktop app or the system service, set OLLAMA_ORIGINS in its environment and restart it).`,
    `llama.cpp (llama-server): it allows any origin by default, but newer builds limit CORS to localhost when server tools are on: start it with --cors-origins ${pageOrigin}.`,
    'LM Studio: turn on "Enable CORS" in the server settings (or lms server start --cors).',
    `vLLM: start it with --allowed-origins '["${pageOrigin}"]'.`,
    `LiteLLM and other proxies: add ${pageOrigin} to the server's allowed CORS origins, or put a reverse proxy in front that sends Access-Control-Allow-Origin: ${pageOrigin} (and answers OPTIONS).`,
  ];
}

/** The message for each kind (pure: the tests check the words). */
export function describeUnreachable(kind: Unreachable, pageOrigin: string, baseURL: string): Diagnosis {
  const u = parse(baseURL);
  const where = u.origin;
  switch (kind) {
    case 'cors':
      return {
        kind,
        summary: `Blocked by CORS: the server at ${where} answers, but it does not allow this page (origin ${pageOrigin}) to read its replies, so the browser stopped the request. Allow this origin on the server:`,
        fixes: corsFixes(pageOrigin),
      };
    case 'mixed-content':
      return {
        kind,
        summary: `Blocked as mixed content: this page is served over https, and the browser does not send requests from it to the http:// address ${where}.`,
        fixes: [`Serve the provider over https, or open this app over http (e.g. npm start on your machine).`],
      };
    case 'not-listening':
      return {
        kind,
        summary: `Nothing is listening at ${where}: the connection was refused or never answered.`,
        fixes: [
          'Start the server, and check the host and port in the base URL (the usual ports: Ollama 11434, llama.cpp 8080, LM Studio 1234, vLLM 8000, LiteLLM 4000).',
          'A server on another machine must listen on the network (e.g. OLLAMA_HOST=0.0.0.0, llama-server --host 0.0.0.0), and no firewall may be in the way.',
        ],
      };
  }
}

/**
 * Why a request to `baseURL` failed without a status, as seen from a page at `pageOrigin`:
 * mixed content when the URLs say so, otherwise by the no-cors probe.
 */
export async function diagnoseUnreachable(pageOrigin: string, baseURL: string, fetchImpl: typeof fetch = fetch, timeoutMs = 5000): Promise<Diagnosis> {
  if (isMixedContent(pageOrigin, baseURL)) return describeUnreachable('mixed-content', pageOrigin, baseURL);
  const r = await probe(probeUrl(baseURL), fetchImpl, timeoutMs);
  return describeUnreachable(r === 'answered' ? 'cors' : 'not-listening', pageOrigin, baseURL);
}
