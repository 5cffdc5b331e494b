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
