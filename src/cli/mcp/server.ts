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
 * experimental.educlaw.model: `identityOf`). One agent per server; over HTTP a new client replaces
 * one that started no run, the same agent reattaches, another is refused (409: `serveHttp`). A
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
  mcpTutorConfig,
  openRun,
  summarizeRun,
  type AgentEvent,
  type McpTutorConfig,
  type RunEnv,
  type RunRecord,
  type RunSummary,
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

export class McpTutorHost {
  readonly #o: McpHostOptions;
  #agent: McpTutorConfig | null = null;
  #runs: HostedRun[] = [];
  #index = 0;
  #driver: AgentDriver | null = null;
  #ac: AbortController | null = null;
  #out: TraceAppender | null = null;
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

  log(line: string): void {
    this.#o.log?.(line);
  }

  /** Planned runs not finished (not started, or stopped before their end). */
  get unfinished(): number {
    return this.#runs.length - this.#index + this.finished.filter((f) => f.reason !== 'horizon_reached').length;
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

  /** Whether a run has been opened (a wait_for_event was answered with a wake, or a run is over). Until then, a new client may replace the one that initialized. */
  get started(): boolean {
    return this.#driver !== null || this.#index > 0;
  }

  /** Forgets the agent that initialized but never started a run (an inspector that listed the tools and left), so that another may take its place. */
  forgetAgent(): void {
    if (this.started) throw new Error('a run has started: the agent cannot be replaced');
    this.#agent = null;
    this.#runs = [];
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

  async #open(): Promise<AgentDriver> {
    const run = this.#runs[this.#index]!;
    const record = run.record;
    const ac = new AbortController();
    const out = new TraceAppender(run.path, run.resume?.keepBytes ?? 0);
    const opened = await openRun(record, this.#o.env, { signal: ac.signal, onEvent: (e, replayed) => replayed || out.append(e), ...(run.resume ? { resume: run.resume.stored } : {}) });
    if (opened.entry.name !== 'mcp') throw new Error(`serve-mcp serves the mcp tutor, not ${opened.entry.name}`);
    this.#ac = ac;
    this.#out = out;
    this.#driver = new AgentDriver(opened.session, opened.replay, this.#agent?.agent);
    this.#o.log?.(`${opened.session.runId}: started${run.resume ? ` (resuming ${run.path})` : ''} -> ${run.path}`);
    return this.#driver;
  }

  #close(): void {
    const d = this.#driver;
    const run = this.#runs[this.#index]!;
    this.#out?.close();
    if (d?.ended) {
      const res = d.session.result();
      this.finished.push({ runId: res.runId, reason: res.reason, path: run.path, summary: summarizeRun(res.events, run.source) });
      this.#o.log?.(`${res.runId}: ${res.reason}${res.message ? `: ${res.message}` : ''} (${res.events.length} events)`);
    }
    this.#driver = null;
    this.#out = null;
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
      this.#close();
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
      if (d) this.#close();
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
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...LMS_MCP_TOOLS, ...CONTROL_TOOLS] }));
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
        const r = host.call(name, args ?? {});
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
  /** Resolves when the session is over (deleted, idle too long, or every run done and the session closed) and the host is stopped. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** The headers an agent may name itself with on its initialize request (Streamable HTTP). */
export const IDENTITY_HEADERS = { name: 'x-educlaw-agent-name', version: 'x-educlaw-agent-version', model: 'x-educlaw-model' } as const;

function statedIdentity(headers: IncomingMessage['headers']): AgentIdentity {
  const one = (h: string) => {
    const v = headers[h];
    const x = (Array.isArray(v) ? v[0] : v)?.trim();
    return x ? x.slice(0, 200) : undefined;
  };
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

const rpcError = (res: ServerResponse, status: number, message: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));

/**
 * Serves the host over Streamable HTTP at http://host:port/mcp, one agent at a time, in one
 * session. The session ends when the client deletes it (DELETE /mcp), or after `idleTimeoutS`
 * without a request. A new client's initialize while a session is held:
 *  - replaces it when no run has started yet (a client that only listed the tools and left
 *    without DELETE, such as the MCP Inspector CLI, no longer holds the server until the idle timeout);
 *  - reattaches when it is the same agent (name and version as the trace records them): an agent
 *    that crashed continues the open run where it was, turn and calls made included;
 *  - is refused with 409 otherwise (another agent is tutoring a run).
 * A request with a session id the server does not hold gets 404 (the MCP rule: initialize anew).
 * Every request passes the door check first (adapters/node/local-door.ts): a Host that names this
 * server, and no Origin but a loopback one or one in `allowedOrigins`; otherwise 403.
 */
export async function serveHttp(host: McpTutorHost, o: { host: string; port: number; idleTimeoutS: number; allowedOrigins?: readonly string[] }): Promise<HttpServing> {
  let transport: StreamableHTTPServerTransport | null = null;
  let server: Server | null = null;
  let finish!: () => void;
  const ended = new Promise<void>((r) => (finish = r));
  let idle: NodeJS.Timeout | null = null;
  const touch = () => {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      host.log(`no request for ${o.idleTimeoutS} s: closing the session`);
      finish();
    }, o.idleTimeoutS * 1000);
    idle.unref();
  };
  /** A new session for the client whose initialize request this is (the old one, if any, is closed without stopping the host). */
  const open = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const old = { transport, server };
    if (old.server) old.server.onclose = undefined;
    const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessionclosed: () => {
        if (transport === t) finish();
      } });
    const sv = createMcpServer(host, { stated: statedIdentity(req.headers) });
    transport = t;
    server = sv;
    sv.onclose = () => {
      if (transport === t) finish();
    };
    await old.server?.close().catch(() => undefined);
    await sv.connect(t);
    await t.handleRequest(req, res, body);
  };
  let boundPort = o.port;
  const http: HttpServer = createServer((req, res) => {
    // Host and Origin first: a page of another site (or one reached by DNS rebinding) never gets the session.
    const why = doorRefusal(req, { host: o.host, port: boundPort, ...(o.allowedOrigins ? { allowedOrigins: o.allowedOrigins } : {}) });
    if (why) {
      host.log(`refused a request: ${why}`);
      return refuse(res, why);
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'the MCP endpoint is /mcp' }));
      return;
    }
    touch();
    const sid = req.headers['mcp-session-id'];
    if (sid !== undefined) {
      if (!transport || sid !== transport.sessionId) {
        rpcError(res, 404, 'unknown session (ended or replaced): initialize a new one');
        return;
      }
      void transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      rpcError(res, 400, 'no session: initialize first (POST /mcp without Mcp-Session-Id)');
      return;
    }
    void (async () => {
      const text = await readBody(req);
      if (text === null) return rpcError(res, 413, `an initialize request is at most ${MAX_INIT_BODY} bytes`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return rpcError(res, 400, 'the body is not JSON');
      }
      const init = initializeOf(body);
      if (!init) return rpcError(res, 400, 'no session: initialize first (this request has no Mcp-Session-Id and is not initialize)');
      if (transport) {
        const who = host.identityOf(init.clientInfo, init.capabilities, statedIdentity(req.headers));
        const holder = host.agent;
        if (holder && host.started) {
          if (who.agent !== holder.agent || who.version !== holder.version) {
            return rpcError(res, 409, `this server tutors for one agent at a time: ${holder.agent} ${holder.version} holds it and has started a run; it is freed when that session is deleted (DELETE /mcp) or after ${o.idleTimeoutS} s without a request (--idle-timeout); the same agent (name and version) may reattach`);
          }
          host.log(`${who.agent} ${who.version} reattached: the open run continues`);
        } else {
          if (holder) host.log(`a new client (${who.agent} ${who.version}) replaces ${holder.agent} ${holder.version}, which started no run`);
          host.forgetAgent();
        }
      }
      await open(req, res, body);
    })().catch((e: unknown) => {
      host.log(`request failed: ${errorMessage(e)}`);
      if (!res.headersSent) rpcError(res, 500, errorMessage(e));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(o.port, o.host, () => resolve());
  });
  const addr = http.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  boundPort = port;
  touch();
  const close = async () => {
    finish();
    await closed;
  };
  const closed = (async () => {
    await ended;
    if (idle) clearTimeout(idle);
    await host.stop('the MCP session ended');
    await (server as Server | null)?.close().catch(() => undefined);
    await new Promise<void>((r) => http.close(() => r()));
    http.closeAllConnections();
  })();
  return { url: `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}/mcp`, closed, close };
}
