/**
 * An example MCP client that tutors EduClaw Lab runs: it connects to `npm run cli -- serve-mcp`
 * (over stdio, starting the server itself, or over Streamable HTTP), then loops: wait_for_event →
 * the policy's tool calls (policy.ts) → end_turn, until the server says "done". Any MCP-capable
 * agent framework does the same with its own loop and memory.
 *
 *   npx tsx examples/mcp-client/client.ts --stdio -- npm run -s cli -- serve-mcp --scenario scenarios/fixtures/mini-3day.yaml --tracer bkt --out runs/mcp.jsonl
 *   npm run cli -- serve-mcp --transport http --port 3700 --out runs/mcp.jsonl &   # then:
 *   npx tsx examples/mcp-client/client.ts --url http://127.0.0.1:3700/mcp
 *
 * Protocol: docs/bring-your-own-tutor.md#mcp.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { pathToFileURL } from 'node:url';
import { teach, type ToolResult, type Wake } from './policy';

export const AGENT = { name: 'example-mcp-tutor', version: '1.0.0' };

/** What wait_for_event answers. */
export type ServerEvent =
  | { type: 'wake'; run_id: string; resumed: boolean; wake: Wake; status: { calls: number; remaining: number; actions: number; silent: boolean }; instructions?: string }
  | { type: 'run_end'; run_id: string; reason: string; message: string | null; days: number; runs_left: number }
  | { type: 'done'; runs: { run_id: string; reason: string; path: string }[] };

/** Calls a tool and reads its JSON answer (every tool of the server answers one JSON text). */
export async function callJson<T = unknown>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const res = await client.callTool({ name, arguments: args });
  const content = res.content as { type: string; text?: string }[];
  const text = content.find((c) => c.type === 'text')?.text;
  if (text === undefined) throw new Error(`${name}: no text content in the reply`);
  return JSON.parse(text) as T;
}

export interface TutorStats {
  runs: string[];
  turns: number;
  calls: number;
  errors: Record<string, number>;
}

/** Tutors every run the server has for it, to the end. */
export async function tutor(client: Client, log: (line: string) => void = () => {}): Promise<TutorStats> {
  const stats: TutorStats = { runs: [], turns: 0, calls: 0, errors: {} };
  for (;;) {
    const ev = await callJson<ServerEvent>(client, 'wait_for_event');
    if (ev.type === 'done') return stats;
    if (ev.type === 'run_end') {
      log(`${ev.run_id}: ${ev.reason} after ${ev.days} days (${ev.runs_left} runs left)`);
      continue;
    }
    if (ev.type !== 'wake') throw new Error(`wait_for_event: ${JSON.stringify(ev)}`);
    if (!stats.runs.includes(ev.run_id)) stats.runs.push(ev.run_id);
    stats.turns++;
    // A resumed run may hand over a turn whose first calls were already made: this simple agent
    // just ends such a turn (a real agent would look at get_messages and carry on).
    if (ev.resumed && ev.status.calls > 0) {
      await callJson(client, 'end_turn');
      continue;
    }
    const g = teach(ev.wake);
    for (let step = g.next(); !step.done; ) {
      const [name, args] = step.value;
      const result = await callJson<ToolResult>(client, name, args);
      stats.calls++;
      if (!result.ok) stats.errors[result.error.code] = (stats.errors[result.error.code] ?? 0) + 1;
      step = g.next(result);
    }
    await callJson(client, 'end_turn');
  }
}

/** Connects, tutors, disconnects. */
export async function runClient(transport: Transport, o: { model?: string; log?: (line: string) => void } = {}): Promise<TutorStats> {
  // The base model the agent uses goes in an experimental capability (the server records it).
  const client = new Client(AGENT, { capabilities: o.model ? { experimental: { educlaw: { model: o.model } } } : {} });
  await client.connect(transport);
  try {
    return await tutor(client, o.log);
  } finally {
    if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf('--');
  const flags = at >= 0 ? argv.slice(0, at) : argv;
  const url = flags.includes('--url') ? flags[flags.indexOf('--url') + 1] : undefined;
  const model = flags.includes('--model') ? flags[flags.indexOf('--model') + 1] : undefined;
  let transport: Transport;
  if (url) transport = new StreamableHTTPClientTransport(new URL(url));
  else if (flags.includes('--stdio') && at >= 0) {
    const [command, ...args] = argv.slice(at + 1);
    if (!command) throw new Error('--stdio -- <command to start serve-mcp>');
    transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
  } else throw new Error('usage: client.ts --url http://127.0.0.1:3700/mcp | --stdio -- <serve-mcp command...> [--model <name>]');
  const stats = await runClient(transport, { ...(model ? { model } : {}), log: (l) => console.error(l) });
  console.error(`tutored ${stats.runs.length} run(s): ${stats.turns} turns, ${stats.calls} tool calls; errors: ${JSON.stringify(stats.errors)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  });
}
