/**
 * The LMS as an MCP server (the official @modelcontextprotocol/sdk): any MCP-capable agent acts
 * as the tutor of one run, or of a series of runs (a sweep). `npm run cli -- serve-mcp`
 * (commands/serve-mcp.ts) builds the host and serves it over stdio or Streamable HTTP.
 *
 * Tools (exact protocol: docs/bring-your-own-tutor.md#mcp):
 *  - the ten LMS tools with the JSON Schemas an LLM tutor gets (`toolSpecs()`); each call goes
 *    through the turn's rules (Turn.tools.call), so it is checked, traced and answered exactly as
 *    for any tutor: the result is the ToolResult JSON ({"ok":true,"value":…} or
 *    {"ok":false,"error":{"code","message"}}, then isError);
 *  - wait_for_event: ends the open turn (if any) and waits for the next wake; answers the wake,
 *    {"type":"run_end"} at a run's end, {"type":"done"} when nothing is left to tutor;
 *  - end_turn: ends the open turn now (the world moves on; wait_for_event gives the next wake);
 *  - get_turn_status: the open turn's counters.
 *
 * The trace's tutor is `mcp` with the agent's name, version and base model (the operator's flags,
 * else the X-Educlaw-* headers of an HTTP client's initialize, else clientInfo and the capability
 * experimental.educlaw.model: `identityOf`). A host serves one agent; over stdio the one client is
 * it, over HTTP `serveHttp` gives each agent its own host and session (`--sessions` of them at once),
 * reattaches a returning agent (or one naming its run by id) and refuses with 503, 409 or 404. A
 * client that goes away (stdin closed, the HTTP session deleted, or no request for --idle-timeout)
 * stops the open run: its trace ends with run_end
 * "aborted" and `serve-mcp --resume <trace>` continues it for an agent of the same name and version.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  AGENT_PROTOCOL,
  AgentDriver,
  LMS_TOOL_SPECS,
  TOOLS,
  errorMessage,
  fromStrictArgs,
  toStrictSchema,
  mcpTutorConfig,
  runIdOf,
  startRun,
  summarizeRun,
  type AgentEvent,
  type McpTutorConfig,
  type RunEnv,
  type RunRecord,
  type RunSummary,
  type StartedRun,
  type TraceEvent,
} from '../../core/index';
import { TraceAppender } from '../../adapters/node/trace-file';
import { doorRefusal, refuse } from '../../adapters/node/local-door';

/** One run the host serves: its record, where its trace goes, and the stored events when it is resumed. */
export interface HostedRun {
  record: RunRecord;
  path: string;
  source: string;
  resume?: { stored: TraceEvent[]; keepBytes: number };
}

export interface McpHostOptions {
  /** The runs to serve, planned once the agent is known (its identity is the tutor config). Complete runs left out are `kept`. */
  plan(agent: McpTutorConfig): { runs: HostedRun[]; kept?: { runId: string; path: string; summary: RunSummary }[] };
  env: RunEnv;
  /** The agent's base model as the operator states it (wins over what the client reports). */
  model?: string;
  /** The agent's name and version as the operator states them (`--agent-name`, `--agent-version`): win over the client's clientInfo and headers. */
  agentName?: string;
  agentVersion?: string;
  /** An agent a resumed trace belongs to: a client of another name or version is refused. */
  expectAgent?: { agent: string; version: string };
  /** List the LMS tools in OpenAI's strict form (`LMS_MCP_TOOLS_STRICT`); a null for a property the tool does not require means "not given". */
  strictSchemas?: boolean;
  log?: (line: string) => void;
}

/** An agent's identity as it states it outside clientInfo (HTTP headers of its initialize request). */
export interface AgentIdentity {
  name?: string;
  version?: string;
  model?: string;
}

export type HostEvent = AgentEvent | { type: 'done'; runs: { run_id: string; reason: string; path: string }[] };

const READS = new Set(TOOLS.filter((t) => t.kind === 'read').map((t) => t.name));

/** The control tools beside the LMS tools. */
export const CONTROL_TOOLS: Tool[] = [
  {
    name: 'wait_for_event',
    description:
      'Wait for the next course event that wakes you (ends your open turn first, if any). Returns the wake: {"type":"wake","run_id","wake":{turn,reason,day,horizon_days,t,clock,text,payload},"status":{calls,remaining,actions,silent}}; {"type":"run_end",…} when a run is over; {"type":"done"} when nothing is left to tutor.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'end_turn',
    description: 'End your turn now (a turn with no action counts as silence); the course moves on. Then call wait_for_event for the next wake.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'get_turn_status',
    description: 'The open turn: calls made, calls left before the per-turn limit, actions, and whether you chose stay_silent.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true },
  },
];

/** The LMS tools as MCP tools: the same names, descriptions and JSON Schemas as an LLM tutor's. */
export const LMS_MCP_TOOLS: Tool[] = LMS_TOOL_SPECS.map((t) => ({
  name: t.name,
  description: t.description,
  inputSchema: t.parameters as Tool['inputSchema'],
  annotations: READS.has(t.name) ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: false },
}));

/** The LMS tools with their schemas in OpenAI's strict form (`serve-mcp --strict-schemas`: agents whose framework converts tools to strict mode). */
export const LMS_MCP_TOOLS_STRICT: Tool[] = LMS_MCP_TOOLS.map((t) => ({ ...t, inputSchema: toStrictSchema(t.inputSchema) as Tool['inputSchema'] }));
const LMS_SCHEMAS = new Map(LMS_TOOL_SPECS.map((t) => [t.name, t.parameters]));

export class McpTutorHost {
  readonly #o: McpHostOptions;
  #agent: McpTutorConfig | null = null;
  #runs: HostedRun[] = [];
  #index = 0;
  #driver: AgentDriver | null = null;
  /** The open run's stop (the agent went away). */
  #ac: AbortController | null = null;
  /** The open run, under the run runner (engine/runner.ts): its `done` ends when the run has and its trace is closed. */
  #run: StartedRun | null = null;
  /** Runs that failed rather than ended (their outcome never came: a resume that diverged, a trace that could not be written). */
  #failed = 0;
  #chain: Promise<unknown> = Promise.resolve();
  #stopped = false;
  /** Finished (or stopped) runs: their summaries and end reasons. */
  readonly finished: { runId: string; reason: string; path: string; summary: RunSummary }[] = [];

  constructor(o: McpHostOptions) {
    this.#o = o;
  }

  get agent(): McpTutorConfig | null {
    return this.#agent;
  }

  /** The tools are listed in OpenAI's strict form, and the nulls of a call are read as "not given". */
  get strictSchemas(): boolean {
    return this.#o.strictSchemas === true;
  }

  log(line: string): void {
    this.#o.log?.(line);
  }

  /** Planned runs not finished (not started, or stopped before their end). */
  get unfinished(): number {
    return this.#runs.length - this.#index + this.#failed + this.finished.filter((f) => f.reason !== 'horizon_reached').length;
  }

  /** Every run has ended (or the host was stopped). */
  get done(): boolean {
    return this.#stopped || (this.#agent !== null && this.#driver === null && this.#index >= this.#runs.length);
  }

  /**
   * Who a client is: the operator's --agent-name/--agent-version/--model, else what the client
   * states in the headers of its initialize request (Streamable HTTP: X-Educlaw-Agent-Name,
   * X-Educlaw-Agent-Version, X-Educlaw-Model), else its MCP clientInfo and the capability
   * experimental.educlaw.model. Frameworks that send a generic clientInfo (FastMCP: "mcp"/"0.1.0")
   * or cannot send experimental capabilities (the Python SDK) name themselves with the headers.
   */
  identityOf(info: { name: string; version: string } | undefined, capabilities: Record<string, unknown> | undefined, stated: AgentIdentity = {}): McpTutorConfig {
    const reported = ((capabilities?.experimental as Record<string, unknown> | undefined)?.educlaw as { model?: unknown } | undefined)?.model;
    const model = this.#o.model ?? stated.model ?? (typeof reported === 'string' ? reported : '');
    return mcpTutorConfig({ agent: this.#o.agentName ?? stated.name ?? (info?.name || 'unnamed-mcp-client'), version: this.#o.agentVersion ?? stated.version ?? info?.version ?? '', model, protocol: AGENT_PROTOCOL });
  }

  /** The run ids of the planned runs not yet over: the open one (if any) first. */
  get openRunIds(): string[] {
    return this.#runs.slice(this.#index).map((r) => runIdOf(r.record));
  }

  /** Where every planned run writes its trace. */
  get runPaths(): string[] {
    return this.#runs.map((r) => r.path);
  }

  /** The host was stopped (its agent went away) before every run was over. */
  get stopped(): boolean {
    return this.#stopped && this.unfinished > 0;
  }

  /** Whether a run has been opened (a wait_for_event was answered with a wake, or a run is over). Until then, a new client may replace the one that initialized. */
  get started(): boolean {
    return this.#driver !== null || this.#index > 0;
  }

  /** Forgets the agent that initialized but never started a run (an inspector that listed the tools and left), so that another may take its place. */
  forgetAgent(): void {
    if (this.started) throw new Error('a run has started: the agent cannot be replaced');
    this.#agent = null;
    this.#runs = [];
    this.#failed = 0;
    this.finished.length = 0;
  }

  /** The agent introduced itself (MCP initialize). */
  setAgent(info: { name: string; version: string } | undefined, capabilities: Record<string, unknown> | undefined, stated: AgentIdentity = {}): McpTutorConfig {
    if (this.#agent) return this.#agent;
    const cfg = this.identityOf(info, capabilities, stated);
    const want = this.#o.expectAgent;
    if (want && (want.agent !== cfg.agent || want.version !== cfg.version)) throw new Error(`this run's trace belongs to the agent ${want.agent} ${want.version}, not ${cfg.agent} ${cfg.version}: resume it with that agent`);
    const plan = this.#o.plan(cfg);
    this.#agent = cfg;
    this.#runs = plan.runs;
    for (const k of plan.kept ?? []) this.finished.push({ runId: k.runId, reason: 'horizon_reached', path: k.path, summary: k.summary });
    this.#o.log?.(`agent: ${cfg.agent} ${cfg.version}${cfg.model ? ` (${cfg.model})` : ''}; ${this.#runs.length} run${this.#runs.length === 1 ? '' : 's'} to tutor${plan.kept?.length ? ` (${plan.kept.length} complete, kept)` : ''}`);
    return cfg;
  }

  /** Runs `f` after every earlier request: tool calls apply in the order they arrived, one at a time. */
  serialize<T>(f: () => T | Promise<T>): Promise<T> {
    const p = this.#chain.then(f, f);
    this.#chain = p.catch(() => undefined);
    return p;
  }

  /**
   * Opens the next planned run under the run runner: its trace file is the sink (cut back to the
   * part a resume replays at the first live event), the agent's driver drives it (`finished`), and
   * `#ac` stops it.
   */
  async #open(): Promise<AgentDriver> {
    const run = this.#runs[this.#index]!;
    if (run.record.tutor.name !== 'mcp') throw new Error(`serve-mcp serves the mcp tutor, not ${run.record.tutor.name}`);
    const ac = new AbortController();
    let driver!: AgentDriver;
    const started = await startRun(run.record, this.#o.env, {
      sink: new TraceAppender(run.path, run.resume?.keepBytes ?? 0),
      signals: [ac.signal],
      drive: (r) => (driver = new AgentDriver(r.session, r.replay, this.#agent?.agent)).finished,
      ...(run.resume ? { resume: run.resume.stored } : {}),
    });
    // Its outcome is read in #close; a failure meanwhile is never an unhandled rejection.
    started.done.catch(() => undefined);
    this.#ac = ac;
    this.#run = started;
    this.#driver = driver;
    this.#o.log?.(`${driver.runId}: started${run.resume ? ` (resuming ${run.path})` : ''} -> ${run.path}`);
    return driver;
  }

  /** The open run is over (or was never started): waits for its outcome (its trace closed), records it and moves to the next. */
  async #close(): Promise<void> {
    const d = this.#driver;
    const started = this.#run;
    const run = this.#runs[this.#index]!;
    // A driver that never advanced has no run under way (nothing was written): there is no outcome to wait for.
    const outcome = d?.started && started ? await started.done.catch((e: unknown) => ({ failed: e })) : null;
    if (outcome && 'failed' in outcome) {
      this.#failed++;
      this.#o.log?.(`${d!.runId}: failed: ${errorMessage(outcome.failed)} (trace ${run.path})`);
    } else if (outcome) {
      this.finished.push({ runId: outcome.runId, reason: outcome.reason, path: run.path, summary: summarizeRun(outcome.events, run.source) });
      this.#o.log?.(`${outcome.runId}: ${outcome.reason}${outcome.message ? `: ${outcome.message}` : ''} (${outcome.events.length} events)`);
    }
    this.#driver = null;
    this.#run = null;
    this.#ac = null;
    this.#index++;
  }

  /** wait_for_event. */
  async next(): Promise<HostEvent> {
    if (!this.#agent) throw new Error('the agent has not introduced itself (MCP initialize)');
    if (this.#stopped || (!this.#driver && this.#index >= this.#runs.length)) return { type: 'done', runs: this.finished.map((f) => ({ run_id: f.runId, reason: f.reason, path: f.path })) };
    const d = this.#driver ?? (await this.#open());
    const ev = await d.next();
    if (ev.type === 'run_end') {
      await this.#close();
      return { ...ev, runs_left: this.#runs.length - this.#index } as HostEvent;
    }
    return ev;
  }

  call(name: string, args: unknown): ReturnType<AgentDriver['call']> {
    return this.#driver ? this.#driver.call(name, args) : { ok: false, error: { code: 'NO_TURN', message: `no turn is open: call wait_for_event for the next wake before ${name}` } };
  }

  endTurn(): ReturnType<AgentDriver['endTurn']> {
    return this.#driver ? this.#driver.endTurn() : { ok: false, error: { code: 'NO_TURN', message: 'no turn is open: call wait_for_event first' } };
  }

  status(): ReturnType<AgentDriver['status']> {
    return this.#driver ? this.#driver.status() : { ok: false, error: { code: 'NO_TURN', message: 'no turn is open' } };
  }

  /** The agent went away: the open run ends "aborted" (resumable); runs not started are not run. */
  async stop(reason: string): Promise<void> {
    await this.serialize(async () => {
      if (this.#stopped) return;
      this.#stopped = true;
      const d = this.#driver;
      if (d && d.started && !d.ended) {
        this.#o.log?.(`${d.runId}: ${reason}; stopping the run (resume it with serve-mcp --resume ${this.#runs[this.#index]!.path})`);
        this.#ac?.abort();
        await d.stop(reason);
      }
      if (d) await this.#close();
    });
  }
}

const text = (x: unknown, isError = false): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(x) }], ...(isError ? { isError: true } : {}) });

/** The MCP server of one connection (one per transport). `stated`: the identity the client gave in its initialize request's headers. */
export function createMcpServer(host: McpTutorHost, o: { instructions?: string; stated?: AgentIdentity } = {}): Server {
  const stated = o.stated ?? {};
  const server = new Server(
    { name: 'educlaw-lab-lms', version: AGENT_PROTOCOL },
    {
      capabilities: { tools: {} },
      instructions:
        o.instructions ??
        'The LMS of one EduClaw Lab run: you are the tutor of a simulated middle-school learner. Call wait_for_event for the first wake; it also gives you the task. In each turn call the LMS tools, then end_turn or wait_for_event. Protocol: docs/bring-your-own-tutor.md.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...(host.strictSchemas ? LMS_MCP_TOOLS_STRICT : LMS_MCP_TOOLS), ...CONTROL_TOOLS] }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { name, arguments: args } = req.params;
    if (!host.agent) host.setAgent(server.getClientVersion(), server.getClientCapabilities() as Record<string, unknown> | undefined, stated);
    return host.serialize(async () => {
      try {
        if (name === 'wait_for_event') return text(await host.next());
        if (name === 'end_turn') {
          const r = host.endTurn();
          return text(r, 'ok' in r && r.ok === false);
        }
        if (name === 'get_turn_status') {
          const r = host.status();
          return text(r, 'ok' in r && r.ok === false);
        }
        const schema = host.strictSchemas ? LMS_SCHEMAS.get(name) : undefined;
        const r = host.call(name, schema ? fromStrictArgs(schema, args ?? {}) : (args ?? {}));
        return text(r, !r.ok);
      } catch (e) {
        return text({ ok: false, error: { code: 'SERVER_ERROR', message: errorMessage(e) } }, true);
      }
    });
  });
  server.oninitialized = () => {
    try {
      host.setAgent(server.getClientVersion(), server.getClientCapabilities() as Record<string, unknown> | undefined, stated);
    } catch (e) {
      host.log(`refused: ${errorMessage(e)}`);
      void server.close();
    }
  };
  return server;
}

/** Serves the host over stdio; resolves when the client has gone and the run is stopped or over. */
export async function serveStdio(host: McpTutorHost): Promise<void> {
  const transport = new StdioServerTransport();
  const server = createMcpServer(host);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await host.stop('the MCP client disconnected (stdin closed)');
}

export interface HttpServing {
  url: string;
  /** Resolves when the server is done (see `serveHttp`) and every host is stopped. */
  closed: Promise<void>;
  close(): Promise<void>;
  /** The agents' hosts, in the order they first initialized (a client replaced before it started a run is left out). */
  hosts(): McpTutorHost[];
}

export interface HttpServeOptions {
  host: string;
  port: number;
  idleTimeoutS: number;
  allowedOrigins?: readonly string[];
  /** How many sessions (agents, each tutoring its own run or series) may be open at once (default 1). */
  maxSessions?: number;
}

/** The headers an agent may name itself with on its initialize request (Streamable HTTP). */
export const IDENTITY_HEADERS = { name: 'x-educlaw-agent-name', version: 'x-educlaw-agent-version', model: 'x-educlaw-model' } as const;

/** The header of an initialize request that reattaches to an open run by its id (Streamable HTTP). */
export const RUN_ID_HEADER = 'x-educlaw-run-id';

function header(headers: IncomingMessage['headers'], h: string): string | undefined {
  const v = headers[h];
  const x = (Array.isArray(v) ? v[0] : v)?.trim();
  return x ? x.slice(0, 200) : undefined;
}

function statedIdentity(headers: IncomingMessage['headers']): AgentIdentity {
  const one = (h: string) => header(headers, h);
  const name = one(IDENTITY_HEADERS.name);
  const version = one(IDENTITY_HEADERS.version);
  const model = one(IDENTITY_HEADERS.model);
  return { ...(name ? { name } : {}), ...(version ? { version } : {}), ...(model ? { model } : {}) };
}

const MAX_INIT_BODY = 1 << 20;

/** The body of a request, read whole (an initialize request is small; larger bodies are refused). */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > MAX_INIT_BODY) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

/** The initialize request's clientInfo and capabilities, when the body is one (a JSON-RPC message or a batch holding one). */
function initializeOf(body: unknown): { clientInfo?: { name: string; version: string }; capabilities?: Record<string, unknown> } | null {
  const msgs = Array.isArray(body) ? body : [body];
  for (const m of msgs) {
    const x = m as { method?: unknown; params?: { clientInfo?: unknown; capabilities?: unknown } } | null;
    if (x && typeof x === 'object' && x.method === 'initialize') {
      const ci = x.params?.clientInfo as { name?: unknown; version?: unknown } | undefined;
      return {
        ...(ci && typeof ci.name === 'string' ? { clientInfo: { name: ci.name, version: typeof ci.version === 'string' ? ci.version : '' } } : {}),
        ...(x.params?.capabilities && typeof x.params.capabilities === 'object' ? { capabilities: x.params.capabilities as Record<string, unknown> } : {}),
      };
    }
  }
  return null;
}

const rpcRefusal = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));

/** One open Streamable HTTP session: the connection of one agent to its host. */
interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  host: McpTutorHost;
  idle: NodeJS.Timeout | null;
  over: boolean;
}

const who = (c: McpTutorConfig) => `${c.agent} ${c.version}`;
const keyOf = (c: McpTutorConfig) => JSON.stringify([c.agent, c.version, c.model]);

/**
 * Serves agents over Streamable HTTP at http://host:port/mcp. Each agent (name, version and model,
 * `identityOf`) gets a host of its own from `newHost`, tutoring its own run (or series), and one
 * session; at most `maxSessions` sessions are open at once. An initialize request (no Mcp-Session-Id):
 *  - with the header X-Educlaw-Run-Id: reattaches to that open run, whichever session held it
 *    (404 when no open run has that id; 409 when the run is another agent's: another name or version);
 *  - from an agent that already has a host: reattaches to it (a crashed agent continues its open run
 *    where it was, turn and calls made included; its old session is closed);
 *  - from a new agent: a new host and session. When `maxSessions` are open, the oldest session whose
 *    agent started no run (or whose runs are all over) is closed to make room (a client that only
 *    listed the tools and left without DELETE, such as the MCP Inspector CLI, holds no place);
 *    otherwise 503 with Retry-After. A host whose plan is refused (a resumed trace of another agent)
 *    or whose trace file another session is writing gets 409.
 * A request with a session id the server does not hold gets 404 (the MCP rule: initialize anew).
 * A session ends when the client deletes it (DELETE /mcp) or after `idleTimeoutS` without a request
 * on it; its open run stops (run_end "aborted", resumable). With one session (the default) the
 * server is done when its session ends; with more, after `idleTimeoutS` without any request (or
 * `close()`, on Ctrl-C). Every request passes the door check first (adapters/node/local-door.ts):
 * a Host that names this server, and no Origin but a loopback one or one in `allowedOrigins`;
 * otherwise 403.
 */
export async function serveHttp(newHost: () => McpTutorHost, o: HttpServeOptions): Promise<HttpServing> {
  const max = o.maxSessions ?? 1;
  if (!Number.isInteger(max) || max < 1) throw new Error(`the number of sessions must be a whole number of at least 1, not ${max}`);
  const hosts: McpTutorHost[] = [];
  const byKey = new Map<string, McpTutorHost>();
  const sessions = new Map<McpTutorHost, Session>();
  const bySid = new Map<string, Session>();
  const log = (line: string) => (hosts[0] ?? newHost()).log(line);
  let finish!: () => void;
  const ended = new Promise<void>((r) => (finish = r));
  let idle: NodeJS.Timeout | null = null;
  const touchServer = () => {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      log(`no request for ${o.idleTimeoutS} s: closing ${max === 1 ? 'the session' : 'the server'}`);
      finish();
    }, o.idleTimeoutS * 1000);
    idle.unref();
  };
  const touch = (s: Session) => {
    if (s.idle) clearTimeout(s.idle);
    s.idle = setTimeout(() => endSession(s, `no request for ${o.idleTimeoutS} s`), o.idleTimeoutS * 1000);
    s.idle.unref();
  };
  /** Closes a session's connection without stopping its host (it was replaced, or its agent reattached). */
  const detach = (s: Session) => {
    if (s.over) return;
    s.over = true;
    if (s.idle) clearTimeout(s.idle);
    if (sessions.get(s.host) === s) sessions.delete(s.host);
    if (s.transport.sessionId) bySid.delete(s.transport.sessionId);
    s.server.onclose = undefined;
    void s.server.close().catch(() => undefined);
  };
  /** Drops the host of an agent that started no run (its place goes to another). */
  const forget = (h: McpTutorHost) => {
    const i = hosts.indexOf(h);
    if (i >= 0) hosts.splice(i, 1);
    if (h.agent && byKey.get(keyOf(h.agent)) === h) byKey.delete(keyOf(h.agent));
  };
  /** The session is over (deleted, closed or idle): its open run stops. */
  const endSession = (s: Session, why: string) => {
    if (s.over) return;
    detach(s);
    if (max === 1) return finish();
    if (!s.host.started) {
      forget(s.host);
      return;
    }
    if (!s.host.done) log(`${who(s.host.agent!)}: ${why}`);
    void s.host.stop(`the MCP session ended (${why})`);
  };
  const open = async (host: McpTutorHost, req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const s: Session = {
      host,
      idle: null,
      over: false,
      server: createMcpServer(host, { stated: statedIdentity(req.headers) }),
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void bySid.set(sid, s),
        onsessionclosed: () => endSession(s, 'the session was deleted'),
      }),
    };
    sessions.set(host, s);
    s.server.onclose = () => endSession(s, 'the connection closed');
    touch(s);
    await s.server.connect(s.transport);
    await s.transport.handleRequest(req, res, body);
  };
  /** An initialize request: which host the client gets, or why none (status and message). */
  const admit = (req: IncomingMessage, init: NonNullable<ReturnType<typeof initializeOf>>): McpTutorHost | { status: number; message: string; headers?: Record<string, string> } => {
    const stated = statedIdentity(req.headers);
    const fresh = newHost();
    const cfg = fresh.identityOf(init.clientInfo, init.capabilities, stated);
    const runId = header(req.headers, RUN_ID_HEADER);
    let host: McpTutorHost | undefined;
    if (runId !== undefined) {
      host = hosts.find((h) => !h.done && h.openRunIds.includes(runId));
      if (!host) {
        const openIds = hosts.filter((h) => !h.done).flatMap((h) => h.openRunIds);
        return { status: 404, message: `no open run has the id "${runId}" on this server (${openIds.length ? `open runs: ${openIds.join(', ')}` : 'no run is open'}): initialize without ${RUN_ID_HEADER} to start one` };
      }
      const holder = host.agent!;
      if (holder.agent !== cfg.agent || holder.version !== cfg.version) return { status: 409, message: `the run ${runId} belongs to the agent ${who(holder)}, not ${who(cfg)}: only the same agent (name and version) may reattach to it` };
      log(`${who(cfg)} reattached to ${runId} by its id: the open run continues`);
    } else {
      host = byKey.get(keyOf(cfg));
      if (host?.started && !host.done) log(`${who(cfg)} reattached: the open run continues`);
    }
    if (host?.stopped) {
      const last = host.finished.at(-1);
      return { status: 409, message: `the run${last ? ` ${last.runId}` : ''} of ${who(cfg)} was stopped when its session ended${last ? `; continue it with serve-mcp --resume ${last.path}` : ''}` };
    }
    let conflict: string | null = null;
    if (!host) {
      try {
        fresh.setAgent(init.clientInfo, init.capabilities, stated);
      } catch (e) {
        return { status: 409, message: errorMessage(e) };
      }
      // A host that started no run has written nothing (and is replaced below when there is no room).
      const others = hosts.filter((h) => h.started);
      const taken = fresh.runPaths.find((p) => others.some((h) => h.runPaths.includes(p)));
      const other = taken && others.find((h) => h.runPaths.includes(taken));
      if (other) conflict = `the trace ${taken} is ${other.done ? 'the run' : 'being written for the run'} of the agent ${who(other.agent!)}: give each agent its own trace (serve-mcp --sessions <n> --out <dir>)`;
    }
    const current = host ? sessions.get(host) : undefined;
    const victim = sessions.size - (current ? 1 : 0) >= max ? ([...sessions.values()].find((s) => s !== current && (!s.host.started || s.host.done)) ?? null) : undefined;
    if (victim === null) {
      const busy = [...sessions.values()].map((s) => `${who(s.host.agent!)} (${s.host.openRunIds[0] ?? 'runs over'})`);
      return {
        status: 503,
        headers: { 'retry-after': String(o.idleTimeoutS) },
        message: `this server tutors for ${max} agent${max === 1 ? '' : 's'} at a time (--sessions) and ${max === 1 ? 'its session is' : `all ${max} sessions are`} tutoring: ${busy.join(', ')}; a session is freed when deleted (DELETE /mcp) or after ${o.idleTimeoutS} s without a request (--idle-timeout); the same agent (name, version and model) reattaches, and X-Educlaw-Run-Id: <run id> reattaches to a run by its id`,
      };
    }
    if (conflict) return { status: 409, message: conflict };
    if (victim) {
      const v = victim.host.agent!;
      log(`a new client (${who(cfg)}) replaces ${who(v)}, which ${victim.host.started ? 'has no run left to tutor' : 'started no run'}`);
      detach(victim);
      if (!victim.host.started) forget(victim.host);
    }
    if (!host) {
      host = fresh;
      hosts.push(host);
      byKey.set(keyOf(cfg), host);
    }
    if (current) detach(current);
    return host;
  };
  let boundPort = o.port;
  const http: HttpServer = createServer((req, res) => {
    // Host and Origin first: a page of another site (or one reached by DNS rebinding) never gets the session.
    const why = doorRefusal(req, { host: o.host, port: boundPort, ...(o.allowedOrigins ? { allowedOrigins: o.allowedOrigins } : {}) });
    if (why) {
      log(`refused a request: ${why}`);
      return refuse(res, why);
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'the MCP endpoint is /mcp' }));
      return;
    }
    touchServer();
    const sid = req.headers['mcp-session-id'];
    if (sid !== undefined) {
      const s = typeof sid === 'string' ? bySid.get(sid) : undefined;
      if (!s || s.over) {
        rpcRefusal(res, 404, 'unknown session (ended or replaced): initialize a new one');
        return;
      }
      touch(s);
      void s.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      rpcRefusal(res, 400, 'no session: initialize first (POST /mcp without Mcp-Session-Id)');
      return;
    }
    void (async () => {
      const text = await readBody(req);
      if (text === null) return rpcRefusal(res, 413, `an initialize request is at most ${MAX_INIT_BODY} bytes`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return rpcRefusal(res, 400, 'the body is not JSON');
      }
      const init = initializeOf(body);
      if (!init) return rpcRefusal(res, 400, 'no session: initialize first (this request has no Mcp-Session-Id and is not initialize)');
      const got = admit(req, init);
      if (!(got instanceof McpTutorHost)) {
        log(`refused an initialize (${got.status}): ${got.message}`);
        return rpcRefusal(res, got.status, got.message, got.headers);
      }
      await open(got, req, res, body);
    })().catch((e: unknown) => {
      log(`request failed: ${errorMessage(e)}`);
      if (!res.headersSent) rpcRefusal(res, 500, errorMessage(e));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(o.port, o.host, () => resolve());
  });
  const addr = http.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  boundPort = port;
  touchServer();
  const close = async () => {
    finish();
    await closed;
  };
  const closed = (async () => {
    await ended;
    if (idle) clearTimeout(idle);
    const open = [...sessions.values()];
    for (const s of open) detach(s);
    await Promise.all(hosts.map((h) => h.stop(max === 1 ? 'the MCP session ended' : 'the MCP server closed')));
    await Promise.all(open.map((s) => s.server.close().catch(() => undefined)));
    await new Promise<void>((r) => http.close(() => r()));
    http.closeAllConnections();
  })();
  return { url: `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}/mcp`, closed, close, hosts: () => [...hosts] };
}
