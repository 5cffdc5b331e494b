/**
 * The HTTP tutor's transport in Node (RunEnv.http): fetch with a timeout per try and the run's
 * cancel signal; a bearer token from the environment variable the tutor config names (tokenEnv),
 * never recorded. Errors are AgentErrors with the protocol's codes (AGENT_TIMEOUT, AGENT_NETWORK,
 * AGENT_ABORTED); any HTTP status resolves (the tutor decides what it means).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { AgentError, type HttpReply, type HttpTransport } from '../../core/index';

export function nodeHttpTransport(o: { env?: NodeJS.ProcessEnv } = {}): HttpTransport {
  const env = o.env ?? process.env;
  return {
    async post(url, body, opts): Promise<HttpReply> {
      if (opts.signal?.aborted) throw new AgentError('AGENT_ABORTED', 'the run was cancelled');
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (opts.tokenEnv) {
        const token = env[opts.tokenEnv];
        if (!token) throw new AgentError('AGENT_CONFIG', `the http tutor's token variable ${opts.tokenEnv} is not set`);
        headers.authorization = `Bearer ${token}`;
      }
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      try {
        const res = await fetch(url, { method: 'POST', headers, body, signal });
        const text = await res.text();
        return { status: res.status, text };
      } catch (e) {
        if (opts.signal?.aborted) throw new AgentError('AGENT_ABORTED', 'the run was cancelled while waiting for the agent');
        if (timeout.aborted) throw new AgentError('AGENT_TIMEOUT', `no reply from the agent at ${url} within ${opts.timeoutMs} ms`);
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        throw new AgentError('AGENT_NETWORK', `cannot reach the agent at ${url}: ${cause?.code ?? ''}${cause?.code ? ' ' : ''}${cause?.message ?? (e instanceof Error ? e.message : String(e))}`);
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
