/**
 * The MCP tutor ("mcp"): an external agent framework acting as the tutor through an MCP server
 * (`npm run cli -- serve-mcp`). The agent's own loop holds each turn: it waits for the next wake
 * (the wait_for_event tool), calls the LMS tools, and ends the turn (end_turn). So, like a person
 * in the Play view, its turns are held from outside the engine: the entry needs "human" (openRun
 * gives no Tutor object; the MCP server drives the session with an AgentDriver, driver.ts), and
 * executeRun refuses it. Its config is what the trace records about the agent: the name and version
 * from the MCP client's clientInfo, and the base model it reports.
 */
import { z } from 'zod';
import type { TutorEntry } from '../types';
import { SimError } from '../../errors';
import { AGENT_PROTOCOL, externalRunLabel } from './protocol';

export const McpTutorConfigSchema = z
  .object({
    /** The MCP client's clientInfo.name. */
    agent: z.string().trim().min(1).max(120),
    /** The MCP client's clientInfo.version. */
    version: z.string().trim().max(80).default(''),
    /** The base model the agent reports ("" when it reports none). */
    model: z.string().trim().max(200).default(''),
    protocol: z.literal(AGENT_PROTOCOL).default(AGENT_PROTOCOL),
  })
  .strict();
export type McpTutorConfig = z.infer<typeof McpTutorConfigSchema>;

export function mcpTutorConfig(input: Record<string, unknown>): McpTutorConfig {
  const r = McpTutorConfigSchema.safeParse(input);
  if (!r.success) throw new SimError('RUN_INVALID', `mcp tutor config: ${r.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ')}`);
  return r.data;
}

export const mcpTutor: TutorEntry = {
  name: 'mcp',
  description: 'An external agent over MCP (npm run cli -- serve-mcp): its own loop holds each turn through the same tools (docs/bring-your-own-tutor.md).',
  needs: ['human'],
  configSchema: McpTutorConfigSchema,
  parseConfig: (config) => mcpTutorConfig(config),
  runLabel: (config) => {
    const c = mcpTutorConfig(config);
    return externalRunLabel('mcp', c.agent, c.model);
  },
  create() {
    throw new SimError('TUTOR_NOT_AUTOMATED', 'the mcp tutor is an external agent: serve the run with `npm run cli -- serve-mcp` and connect the agent to it');
  },
};
