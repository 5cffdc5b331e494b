/**
 * The HTTP tutor's transport in the page (RunEnv.http): fetch from the browser, with a timeout per
 * try and the run's cancel signal. The agent must allow the page's origin (CORS: answer the
 * preflight OPTIONS and send Access-Control-Allow-Origin), like an LLM provider the page calls.
 * A bearer token from an environment variable (tokenEnv) is for the CLI and servers: the page has
 * none, and says so. Errors are AgentErrors with the protocol's codes (AGENT_TIMEOUT,
 * AGENT_NETWORK, AGENT_ABORTED, AGENT_CONFIG); any HTTP status resolves.
 */
import { AgentError, type HttpReply, type HttpTransport } from '../../core/index';

export function browserHttpTransport(): HttpTransport {
  return {
    async post(url, body, opts): Promise<HttpReply> {
      if (opts.signal?.aborted) throw new AgentError('AGENT_ABORTED', 'the run was cancelled');
      if (opts.tokenEnv) throw new AgentError('AGENT_CONFIG', `the http tutor reads its token from the environment variable ${opts.tokenEnv}, which a page does not have: run it from the CLI, or give the agent no token`);
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      try {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body, signal });
        return { status: res.status, text: await res.text() };
      } catch (e) {
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
