/**
 * The HTTP tutor's transport in the page (RunEnv.http): fetch from the browser, with a timeout per
 * try and the run's cancel signal. The agent must allow the page's origin (CORS: answer the
 * preflight OPTIONS and send Access-Control-Allow-Origin), like an LLM provider the page calls.
 * A bearer token from an environment variable (tokenEnv) is for the CLI and servers: the page has
 * none, and says so. Errors are AgentErrors with the protocol's codes (AGENT_TIMEOUT,
 * AGENT_NETWORK, AGENT_ABORTED, AGENT_CONFIG; AGENT_LIMIT for a reply over MAX_AGENT_REPLY_BYTES,
 * AGENT_REDIRECT for any redirect); any other HTTP status resolves.
 */
import { AgentError, MAX_AGENT_REPLY_BYTES, readCapped, type HttpReply, type HttpTransport } from '../../core/index';

export function browserHttpTransport(): HttpTransport {
  return {
    async post(url, body, opts): Promise<HttpReply> {
      if (opts.signal?.aborted) throw new AgentError('AGENT_ABORTED', 'the run was cancelled');
      if (opts.tokenEnv) throw new AgentError('AGENT_CONFIG', `the http tutor reads its token from the environment variable ${opts.tokenEnv}, which a page does not have: run it from the CLI, or give the agent no token`);
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      try {
        // Redirects are not followed (a page cannot see where one points): the agent's URL must be the final one.
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body, signal, redirect: 'manual' });
        if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) throw new AgentError('AGENT_REDIRECT', `the agent at ${url} answered with a redirect: refused (a page follows none); give the tutor the final URL`);
        const text = await readCapped(res.body, MAX_AGENT_REPLY_BYTES);
        if (text === null) throw new AgentError('AGENT_LIMIT', `the agent at ${url} sent a reply of more than ${MAX_AGENT_REPLY_BYTES} bytes (HTTP ${res.status}); it was not read or stored, and the run ends`);
        return { status: res.status, text };
      } catch (e) {
        if (e instanceof AgentError) throw e;
        if (opts.signal?.aborted) throw new AgentError('AGENT_ABORTED', 'the run was cancelled while waiting for the agent');
        if (timeout.aborted) throw new AgentError('AGENT_TIMEOUT', `no reply from the agent at ${url} within ${opts.timeoutMs} ms`);
        throw new AgentError('AGENT_NETWORK', `cannot reach the agent at ${url} from this page (${e instanceof Error ? e.message : String(e)}); if the agent runs, it must allow this page's origin (CORS)`);
      }
    },
    wait(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new AgentError('AGENT_ABORTED', 'the run was cancelled'));
        const onAbort = () => {
          clearTimeout(t);
          reject(new AgentError('AGENT_ABORTED', 'the run was cancelled'));
        };
        const t = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
