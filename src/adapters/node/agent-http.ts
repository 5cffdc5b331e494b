/**
 * The HTTP tutor's transport in Node (RunEnv.http): fetch with a timeout per try and the run's
 * cancel signal; a bearer token from the environment variable the tutor config names (tokenEnv),
 * never recorded, and redacted from anything the agent sends back. Errors are AgentErrors with the
 * protocol's codes (AGENT_TIMEOUT, AGENT_NETWORK, AGENT_ABORTED; AGENT_LIMIT for a reply over
 * MAX_AGENT_REPLY_BYTES, read no further; AGENT_REDIRECT for a redirect to another origin, or
 * one that would turn the POST into a GET); any other HTTP status resolves (the tutor decides
 * what it means). A 307 or 308 to the same origin is followed (at most 5 times).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { AgentError, MAX_AGENT_REPLY_BYTES, readCapped, redactSecret, type HttpReply, type HttpTransport } from '../../core/index';

const MAX_REDIRECTS = 5;

export function nodeHttpTransport(o: { env?: NodeJS.ProcessEnv; maxReplyBytes?: number } = {}): HttpTransport {
  const env = o.env ?? process.env;
  const maxBytes = o.maxReplyBytes ?? MAX_AGENT_REPLY_BYTES;
  return {
    async post(url, body, opts): Promise<HttpReply> {
      if (opts.signal?.aborted) throw new AgentError('AGENT_ABORTED', 'the run was cancelled');
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      let token: string | undefined;
      if (opts.tokenEnv) {
        token = env[opts.tokenEnv];
        if (!token) throw new AgentError('AGENT_CONFIG', `the http tutor's token variable ${opts.tokenEnv} is not set`);
        headers.authorization = `Bearer ${token}`;
      }
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      let at = url;
      try {
        for (let hop = 0; ; hop++) {
          const res = await fetch(at, { method: 'POST', headers, body, signal, redirect: 'manual' });
          const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
          if (location !== null) {
            await res.body?.cancel().catch(() => undefined);
            let to: URL | null = null;
            try {
              to = new URL(location, at);
            } catch {
              /* not a URL: refused below */
            }
            const same = to !== null && to.origin === new URL(url).origin;
            if (!same || (res.status !== 307 && res.status !== 308) || hop >= MAX_REDIRECTS) {
              const where = to ? (same ? to.pathname : `another origin (${to.origin})`) : 'an address that is not a URL';
              const why = !same ? 'redirects are followed only within the agent’s own origin' : hop >= MAX_REDIRECTS ? `more than ${MAX_REDIRECTS} redirects` : `a ${res.status} would turn the POST into a GET; only 307 and 308 are followed`;
              throw new AgentError('AGENT_REDIRECT', `the agent at ${url} answered HTTP ${res.status} redirecting to ${redactSecret(where, token)}: refused (${why}); give the tutor the final URL`);
            }
            at = to!.href;
            continue;
          }
          const declared = Number(res.headers.get('content-length') ?? NaN);
          const text = declared > maxBytes ? null : await readCapped(res.body, maxBytes);
          if (text === null) throw new AgentError('AGENT_LIMIT', `the agent at ${url} sent a reply of more than ${maxBytes} bytes (HTTP ${res.status}); it was not read or stored, and the run ends`);
          return { status: res.status, text: redactSecret(text, token) };
        }
      } catch (e) {
        if (e instanceof AgentError) throw e;
        if (opts.signal?.aborted) throw new AgentError('AGENT_ABORTED', 'the run was cancelled while waiting for the agent');
        if (timeout.aborted) throw new AgentError('AGENT_TIMEOUT', `no reply from the agent at ${url} within ${opts.timeoutMs} ms`);
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        throw new AgentError('AGENT_NETWORK', redactSecret(`cannot reach the agent at ${url}: ${cause?.code ?? ''}${cause?.code ? ' ' : ''}${cause?.message ?? (e instanceof Error ? e.message : String(e))}`, token));
      }
    },
    async wait(ms, signal) {
      try {
        await delay(ms, undefined, signal ? { signal } : {});
      } catch (e) {
        if (signal?.aborted) throw new AgentError('AGENT_ABORTED', 'the run was cancelled');
        throw e;
      }
    },
  };
}
