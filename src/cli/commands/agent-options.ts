/**
 * CLI options for the HTTP tutor (`--tutor http`, in `run` and `sweep`): the agent's URL and how
 * to talk to it. Before a run the CLI says hello to the agent (docs/bring-your-own-tutor.md#http)
 * and records the name, version and model it reports in the tutor config; --agent-name and
 * --agent-model state them for an agent that does not answer hello.
 */
import type { Command } from 'commander';
import { AgentError, errorMessage, helloAgent, httpTutorConfig, type HttpTutorConfig } from '../../core/index';
import { nodeHttpTransport } from '../../adapters/node/agent-http';
import { int } from './common';

export interface AgentCliOptions {
  agentUrl?: string[];
  agentName?: string;
  agentModel?: string;
  agentTimeout?: number;
  agentRetries?: number;
  agentTokenEnv?: string;
}

const collect = (v: string, prev: string[] = []) => (prev.includes(v) ? prev : [...prev, v]);

export function addAgentOptions(cmd: Command, o: { repeatable?: boolean } = {}): Command {
  return cmd
    .option('--agent-url <url>', o.repeatable ? 'for --tutor http: the agent\'s URL (POST); repeatable: one tutor per agent' : "for --tutor http: the agent's URL (POST)", collect)
    .option('--agent-name <name>', "for --tutor http: the agent's name, if it does not answer hello")
    .option('--agent-model <name>', 'for --tutor http: the base model the agent uses, if it does not report one')
    .option('--agent-timeout <ms>', 'for --tutor http: how long to wait for each reply (default 30000)', int('--agent-timeout'))
    .option('--agent-retries <n>', 'for --tutor http: tries again per step after a timeout, network error, 408/429/5xx or malformed reply (default 2)', int('--agent-retries'))
    .option('--agent-token-env <var>', 'for --tutor http: an environment variable with a bearer token for the agent (never recorded)');
}

export const hasAgentOptions = (o: AgentCliOptions): boolean => Boolean(o.agentUrl?.length || o.agentName || o.agentModel || o.agentTimeout !== undefined || o.agentRetries !== undefined || o.agentTokenEnv);

/** The http tutor's config for each --agent-url: the agent's hello (or the flags), validated. */
export async function agentTutorConfigs(o: AgentCliOptions): Promise<HttpTutorConfig[]> {
  const urls = o.agentUrl ?? [];
  if (!urls.length) throw new Error('--tutor http needs --agent-url <url>');
  if (o.agentName && urls.length > 1) throw new Error('--agent-name names one agent: give one --agent-url with it');
  const http = nodeHttpTransport();
  const out: HttpTutorConfig[] = [];
  for (const url of urls) {
    httpTutorConfig({ url }); // the URL itself is checked first
    let id: { name: string; version: string; model: string } | null = null;
    try {
      id = await helloAgent(http, { url, ...(o.agentTimeout !== undefined ? { timeoutMs: o.agentTimeout } : {}), ...(o.agentTokenEnv ? { tokenEnv: o.agentTokenEnv } : {}) });
    } catch (e) {
      const unreachable = e instanceof AgentError && (e.code === 'AGENT_NETWORK' || e.code === 'AGENT_TIMEOUT' || e.code === 'AGENT_CONFIG');
      if (unreachable || !o.agentName) throw new Error(`${errorMessage(e)}${unreachable ? '' : ' (give --agent-name to run an agent that does not answer hello)'}`);
    }
    out.push(
      httpTutorConfig({
        url,
        name: o.agentName ?? id!.name,
        version: id?.version ?? '',
        model: o.agentModel ?? id?.model ?? '',
        ...(o.agentTimeout !== undefined ? { timeoutMs: o.agentTimeout } : {}),
        ...(o.agentRetries !== undefined ? { retries: o.agentRetries } : {}),
        ...(o.agentTokenEnv ? { tokenEnv: o.agentTokenEnv } : {}),
      }),
    );
  }
  return out;
}
