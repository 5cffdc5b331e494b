/**
 * Issue 36: what an agent sends is bounded before it is stored (a reply of any size, arguments
 * nested 20,000 levels deep, over HTTP and over MCP: the run ends tutor_error AGENT_LIMIT naming
 * the agent, and its trace reads back and resumes); a redirect to another origin is refused; a
 * bearer token the agent echoes never reaches the trace or an error; the MCP server and the
 * worker's status port refuse a foreign Host or Origin.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MAX_ARGS_DEPTH, argsOverLimit, executeRun, jsonDepth, parseJsonl, resumePoint, runRecord, toJsonl, type RunEnv, type TraceEvent } from '../core/index';
import { bktEnv, miniScenario, MINI_PATH, onBkt } from '../testing/fixtures';
import { nodeHttpTransport } from '../adapters/node/agent-http';
import { doorRefusal } from '../adapters/node/local-door';
import { McpTutorHost, serveHttp } from './mcp/server';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); })));
});

/** A local agent answering every POST with `answer(n)` (status, headers, body). */
async function agent(answer: (n: number, req: { url: string; auth: string | undefined }) => { status?: number; headers?: Record<string, string>; body: string | Buffer }) {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const a = answer(n++, { url: req.url ?? '', auth: req.headers.authorization });
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers }).end(a.body);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/agent`, port, posts: () => n };
}

const deep = (n: number) => {
  let v: unknown = { text: 'hi' };
  for (let i = 0; i < n; i++) v = { x: v };
  return v;
};
const deepText = (n: number) => `${'{"x":'.repeat(n)}1${'}'.repeat(n)}`;
const record = (config: Record<string, unknown>) => runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'http', config }, seed: 9 });
const endOf = (ev: readonly TraceEvent[]) => ev.find((e) => e.type === 'run_end') as Extract<TraceEvent, { type: 'run_end' }> | undefined;
const errorOf = (ev: readonly TraceEvent[]) => ev.find((e) => e.type === 'error') as Extract<TraceEvent, { type: 'error' }> | undefined;

describe('limits on what an agent sends', () => {
  it('depth is measured without recursion, and arguments over the bounds are named', () => {
    expect(jsonDepth({ a: [1, { b: 2 }] })).toBe(3);
    expect(jsonDepth(deep(100_000), MAX_ARGS_DEPTH)).toBeGreaterThan(MAX_ARGS_DEPTH);
    expect(argsOverLimit(deep(20_000))).toMatch(/nest more than 32 levels/);
    expect(argsOverLimit({ text: 'x'.repeat(70_000) })).toMatch(/characters as JSON/);
    expect(argsOverLimit({ text: 'hello' })).toBeNull();
    const cyc: Record<string, unknown> = {};
    cyc.self = cyc;
    expect(argsOverLimit(cyc)).toMatch(/refer to themselves/);
  });

  it('an HTTP agent replying 20 MB: the run ends tutor_error AGENT_LIMIT naming the agent, the reply not stored, the trace reads back', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024, 'a');
    const a = await agent(() => ({ body: big }));
    const res = await executeRun(record({ url: a.url, name: 'big-agent', retries: 0 }), bktEnv({ http: nodeHttpTransport() }));
    expect(res.reason).toBe('tutor_error');
    expect(errorOf(res.events)).toMatchObject({ code: 'AGENT_LIMIT' });
    expect(res.message).toMatch(/^agent big-agent: the agent at .* sent a reply of more than 1048576 bytes/);
    const text = toJsonl(res.events);
    expect(text.length).toBeLessThan(200_000);
    expect(parseJsonl(text).events.length).toBe(res.events.length);
    // The wake, not tried again, and the notice of how the run ended (agents are told: docs/bring-your-own-tutor.md).
    expect(a.posts()).toBe(2);
  });

  it('an HTTP agent sending arguments 20,000 levels deep: AGENT_LIMIT before anything of them is stored; the stored trace resumes to the same end', async () => {
    const a = await agent(() => ({ body: `{"calls":[{"name":"send_message","args":${deepText(20_000)}}],"end":true}` }));
    const env = bktEnv({ http: nodeHttpTransport() });
    const rec = record({ url: a.url, name: 'deep-agent', retries: 0 });
    const res = await executeRun(rec, env);
    expect(res.reason).toBe('tutor_error');
    expect(res.message).toMatch(/^agent deep-agent: call 0 \(send_message\) refused: its arguments nest more than 32 levels deep/);
    const mc = res.events.find((e) => e.type === 'model_call') as Extract<TraceEvent, { type: 'model_call' }>;
    expect(mc.response?.toolCalls).toEqual([]);
    const back = parseJsonl(toJsonl(res.events));
    expect(back.complete).toBe(true);
    // Resumed from the stored trace (the failed turn is tried again): the same agent ends it the same way, the kept prefix byte-identical.
    const again = await executeRun(rec, env, { resume: back.events });
    expect(again.reason).toBe('tutor_error');
    expect(again.message).toBe(res.message);
    const keep = resumePoint(back.events);
    expect(toJsonl(again.events.slice(0, keep.length))).toBe(toJsonl(keep));
  });

  it('an MCP agent calling with arguments 20,000 levels deep, a foreign Host or a foreign Origin: the run ends AGENT_LIMIT naming the agent; the doors answer 403', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-mcp-limits-'));
    const path = join(dir, 't.jsonl');
    const scenario = onBkt(miniScenario());
    const newHost = () => new McpTutorHost({ env: bktEnv(), plan: () => ({ runs: [{ record: runRecord({ scenario, source: MINI_PATH, tutor: { name: 'mcp', config: { agent: 'deep-client', version: '1' } }, seed: 9 }), path, source: MINI_PATH }] }) });
    const s = await serveHttp(newHost, { host: '127.0.0.1', port: 0, idleTimeoutS: 60 });
    try {
      const u = new URL(s.url);
      const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '1' } } });
      const hdr = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      // A page reached by DNS rebinding: its own host name in Host.
      const rebound = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: Number(u.port), path: '/mcp', method: 'POST', headers: { ...hdr, host: `evil.example:${u.port}` } }, (r) => { r.resume(); resolve(r.statusCode ?? 0); });
        req.on('error', reject);
        req.end(init);
      });
      expect(rebound).toBe(403);
      const foreign = await fetch(s.url, { method: 'POST', headers: { ...hdr, origin: 'https://evil.example' }, body: init });
      expect(foreign.status).toBe(403);
      expect((await foreign.json()).error).toMatch(/Origin "https:\/\/evil.example" is not allowed/);
      // The real agent still gets the session (the refused requests took nothing).
      const client = new Client({ name: 'deep-client', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(u));
      const textOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0]!.text);
      const wake = textOf(await client.callTool({ name: 'wait_for_event', arguments: {} }));
      expect(wake.type).toBe('wake');
      const r = await client.callTool({ name: 'send_message', arguments: deep(20_000) as Record<string, unknown> }).catch((e: unknown) => e);
      // The SDK may refuse to serialise 20,000 levels itself; then send 40 (over the bound of 32).
      const r2 = r instanceof Error ? await client.callTool({ name: 'send_message', arguments: deep(40) as Record<string, unknown> }) : r;
      const answer = textOf(r2);
      expect(answer.error.code).toBe('AGENT_LIMIT');
      expect(answer.error.message).toMatch(/^agent deep-client: a call to send_message was refused \(its arguments nest more than 32 levels deep\); the run ends/);
      const end = textOf(await client.callTool({ name: 'wait_for_event', arguments: {} }));
      expect(end).toMatchObject({ type: 'run_end', reason: 'tutor_error' });
      await client.close();
    } finally {
      await s.close();
    }
    const t = parseJsonl(readFileSync(path, 'utf8'));
    expect(t.complete).toBe(true);
    expect(endOf(t.events)).toMatchObject({ reason: 'tutor_error' });
    expect(errorOf(t.events)).toMatchObject({ code: 'AGENT_LIMIT' });
    const refused = t.events.find((e) => e.type === 'tool_call' && e.tool === 'send_message') as Extract<TraceEvent, { type: 'tool_call' }>;
    expect(refused.args).toEqual({ refused: 'its arguments nest more than 32 levels deep' });
  });
});

describe('redirects and secrets', () => {
  it('a 302 to another host is refused (AGENT_REDIRECT), not followed as a GET; a 307 within the origin is followed', async () => {
    const other = await agent(() => ({ body: '{"calls":[],"end":true}' }));
    const a = await agent(() => ({ status: 302, headers: { location: other.url }, body: '' }));
    const res = await executeRun(record({ url: a.url, name: 'redirecting', retries: 0 }), bktEnv({ http: nodeHttpTransport() }));
    expect(res.reason).toBe('tutor_error');
    expect(errorOf(res.events)).toMatchObject({ code: 'AGENT_REDIRECT' });
    expect(res.message).toMatch(/answered HTTP 302 redirecting to another origin/);
    expect(other.posts()).toBe(0);
    const b = await agent((n, req) => (req.url === '/agent' ? { status: 307, headers: { location: '/v2' }, body: '' } : { body: '{"calls":[],"end":true}' }));
    const ok = await executeRun(record({ url: b.url, name: 'moved', retries: 0 }), bktEnv({ http: nodeHttpTransport() }));
    expect(ok.reason).toBe('horizon_reached');
  });

  it('a bearer token the agent echoes in a 4xx body is redacted in the trace, the error event, run_end and the message', async () => {
    const token = 'tok-3f9a7c2e11b04d5e';
    const a = await agent((_, req) => ({ status: 401, body: `{"error":"bad token ${req.auth?.slice(7)} for ${encodeURIComponent(req.auth ?? '')}"}` }));
    const env: RunEnv = bktEnv({ http: nodeHttpTransport({ env: { AGENT_TOKEN: token } }) });
    const res = await executeRun(record({ url: a.url, name: 'echo', tokenEnv: 'AGENT_TOKEN', retries: 0 }), env);
    expect(res.reason).toBe('tutor_error');
    const text = toJsonl(res.events);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(token);
    expect(res.message).not.toContain(token);
  });
});

describe('the door check', () => {
  const o = { host: '127.0.0.1', port: 3700 };
  it.each([
    [{ host: '127.0.0.1:3700' }, null],
    [{ host: 'localhost:3700' }, null],
    [{ host: 'localhost:3700', origin: 'http://localhost:5173' }, null],
    [{ host: 'evil.example:3700' }, /Host "evil.example:3700" is not this server/],
    [{ host: '127.0.0.1:3701' }, /is not this server/],
    [{}, /Host header null is missing/],
    [{ host: '127.0.0.1:3700', origin: 'https://evil.example' }, /Origin "https:\/\/evil.example" is not allowed/],
    [{ host: '127.0.0.1:3700', origin: 'null' }, /Origin "null" is not allowed/],
  ])('%j', (headers, want) => {
    const r = doorRefusal({ headers }, o);
    if (want === null) expect(r).toBeNull();
    else expect(r).toMatch(want);
  });
  it('an origin the operator allowed passes; listening on every network, any host name but not any Origin', () => {
    expect(doorRefusal({ headers: { host: '127.0.0.1:3700', origin: 'https://lab.example' } }, { ...o, allowedOrigins: ['https://lab.example'] })).toBeNull();
    expect(doorRefusal({ headers: { host: 'box.lan:3700' } }, { host: '0.0.0.0', port: 3700 })).toBeNull();
    expect(doorRefusal({ headers: { host: 'box.lan:3700', origin: 'https://evil.example' } }, { host: '0.0.0.0', port: 3700 })).toMatch(/Origin/);
  });
});
