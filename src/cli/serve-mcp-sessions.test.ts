/**
 * serve-mcp over Streamable HTTP with clients as they really behave (issue 35): the MCP Inspector
 * CLI lists the tools and leaves without DELETE; an agent crashes mid-run and comes back; a second
 * agent knocks while a run is going; frameworks that send a generic clientInfo (FastMCP: "mcp",
 * "0.1.0") and cannot send experimental capabilities name themselves with headers, or the operator
 * names them.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseJsonl, strictSchemaProblems, type TraceEvent } from '../core/index';
import { MINI_PATH } from '../testing/fixtures';
import { AGENT, callJson, runClient, tutor } from '../../examples/mcp-client/client';
import { teach } from '../../examples/mcp-client/policy';

const SEED = 9;
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];

async function serve(out: string, extra: string[] = []) {
  const proc = spawn(process.execPath, [...CLI, 'serve-mcp', '--scenario', MINI_PATH, '--tracer', 'bkt', '--seed', String(SEED), '--out', out, '--transport', 'http', '--port', '0', ...extra], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (\S+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`serve-mcp exited (${code}): ${stderr}`)));
  });
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { url, exited, stderr: () => stderr, kill: (sig?: NodeJS.Signals) => proc.kill(sig) };
}

const initialize = (name: string, version: string) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version } } });
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

function trace(out: string) {
  const t = parseJsonl(readFileSync(out, 'utf8'));
  const start = t.events[0] as Extract<TraceEvent, { type: 'run_start' }>;
  return { t, start, end: t.events.find((e) => e.type === 'run_end') };
}

describe('serve-mcp over HTTP: sessions as real clients use them', () => {
  it('a client that lists the tools and leaves without DELETE (the Inspector CLI) no longer holds the server: the next agent tutors the run', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'educlaw-mcp-')), 'inspected.jsonl');
    const s = await serve(out);
    try {
      const inspector = new Client({ name: 'inspector-client', version: '0.15.0' });
      await inspector.connect(new StreamableHTTPClientTransport(new URL(s.url)));
      expect((await inspector.listTools()).tools).toHaveLength(13);
      await inspector.close(); // closes the connection; sends no DELETE
      const stats = await runClient(new StreamableHTTPClientTransport(new URL(s.url)), { model: 'gpt-test' });
      expect(stats.runs).toEqual([`mini-3day__mcp-example-mcp-tutor-gpt-test__s${SEED}`]);
      expect(await s.exited).toBe(0);
      const { start, end } = trace(out);
      expect(start.tutor.config).toMatchObject({ agent: AGENT.name, version: AGENT.version, model: 'gpt-test' });
      expect(end).toMatchObject({ reason: 'horizon_reached' });
      expect(s.stderr()).toMatch(/a new client \(example-mcp-tutor 1\.0\.0\) replaces inspector-client 0\.15\.0, which started no run/);
    } finally {
      s.kill();
    }
  });

  it('an agent that crashed mid-run reattaches (same name and version) and finishes it; another agent gets 503 (one session); an unknown session 404', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'educlaw-mcp-')), 'reattach.jsonl');
    const s = await serve(out);
    try {
      const first = new Client(AGENT);
      await first.connect(new StreamableHTTPClientTransport(new URL(s.url)));
      for (let turns = 0; turns < 4; turns++) {
        const ev = await callJson<{ type: string; wake: Parameters<typeof teach>[0] }>(first, 'wait_for_event');
        expect(ev.type).toBe('wake');
        const g = teach(ev.wake);
        for (let st = g.next(); !st.done; ) st = g.next(await callJson(first, st.value[0], st.value[1]));
        await callJson(first, 'end_turn');
      }
      await first.close(); // the agent "crashes": no DELETE

      const other = await post(s.url, initialize('someone-else', '2.0'));
      expect(other.status).toBe(503);
      expect(other.headers.get('retry-after')).toBe('900');
      expect(((await other.json()) as { error: { message: string } }).error.message).toMatch(/1 agent at a time \(--sessions\).*example-mcp-tutor 1\.0\.0 \(mini-3day__mcp-example-mcp-tutor__s9\).*DELETE \/mcp.*--idle-timeout.*reattaches.*X-Educlaw-Run-Id/);
      const stale = await post(s.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 'not-a-session', 'mcp-protocol-version': '2025-06-18' });
      expect(stale.status).toBe(404);

      const second = new Client(AGENT);
      await second.connect(new StreamableHTTPClientTransport(new URL(s.url)));
      const stats = await tutor(second);
      expect(stats.turns).toBeGreaterThan(3);
      await second.close();
      expect(s.stderr()).toMatch(/example-mcp-tutor 1\.0\.0 reattached: the open run continues/);
      for (let i = 0; i < 100 && !readFileSync(out, 'utf8').includes('"run_end"'); i++) await new Promise((r) => setTimeout(r, 50));
      const { t, end } = trace(out);
      expect(end).toMatchObject({ reason: 'horizon_reached', days: 3 });
      // One run, its turns numbered without a gap across the reattach.
      const turns = t.events.filter((e): e is Extract<TraceEvent, { type: 'wake' }> => e.type === 'wake').map((e) => e.turn);
      expect(turns).toEqual(turns.map((_, i) => i + 1));
    } finally {
      s.kill();
    }
  });

  it('an agent with a generic clientInfo (FastMCP: "mcp" 0.1.0) names itself and its model with headers; the operator\'s --agent-version wins', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'educlaw-mcp-')), 'named.jsonl');
    const s = await serve(out, ['--agent-version', '7']);
    try {
      const c = new Client({ name: 'mcp', version: '0.1.0' });
      const tr = new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { 'X-Educlaw-Agent-Name': 'fast-agent', 'X-Educlaw-Agent-Version': '0.9', 'X-Educlaw-Model': 'qwen2.5-7b' } } });
      await c.connect(tr);
      const stats = await tutor(c);
      expect(stats.runs).toEqual([`mini-3day__mcp-fast-agent-qwen2.5-7b__s${SEED}`]);
      await tr.terminateSession();
      await c.close();
      expect(await s.exited).toBe(0);
      expect(trace(out).start.tutor.config).toMatchObject({ agent: 'fast-agent', version: '7', model: 'qwen2.5-7b' });
    } finally {
      s.kill();
    }
  });

  it('--sessions 2: two agents tutor at once, each its own run and trace; a third gets 503; reattach by run id (404 unknown, 409 another agent); Ctrl-C writes the summary of both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-mcp-'));
    const s = await serve(dir, ['--sessions', '2']);
    try {
      expect(s.stderr()).toMatch(/up to 2 agents at once/);
      const connect = async (info: { name: string; version: string }, headers: Record<string, string> = {}) => {
        const c = new Client(info);
        await c.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers } }));
        return c;
      };
      const first = await connect(AGENT);
      const beta = { name: 'beta-tutor', version: '2.0.0' };
      const second = await connect(beta);
      // Both start their runs, interleaved.
      const [w1, w2] = await Promise.all([callJson<{ type: string; run_id: string }>(first, 'wait_for_event'), callJson<{ type: string; run_id: string }>(second, 'wait_for_event')]);
      expect([w1.type, w2.type]).toEqual(['wake', 'wake']);
      expect(w1.run_id).toBe(`mini-3day__mcp-example-mcp-tutor__s${SEED}`);
      expect(w2.run_id).toBe(`mini-3day__mcp-beta-tutor__s${SEED}`);

      const third = await post(s.url, initialize('gamma', '1'));
      expect(third.status).toBe(503);
      expect(third.headers.get('retry-after')).toBe('900');
      expect(((await third.json()) as { error: { message: string } }).error.message).toMatch(/2 agents at a time \(--sessions\) and all 2 sessions are tutoring: example-mcp-tutor 1\.0\.0 \(mini-3day__mcp-example-mcp-tutor__s9\), beta-tutor 2\.0\.0 \(mini-3day__mcp-beta-tutor__s9\)/);

      await first.close(); // crashes: no DELETE
      const unknown = await post(s.url, initialize(AGENT.name, AGENT.version), { 'X-Educlaw-Run-Id': 'no-such-run' });
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/no open run has the id "no-such-run".*open runs: mini-3day__mcp-example-mcp-tutor__s9, mini-3day__mcp-beta-tutor__s9/);
      const thief = await post(s.url, initialize('gamma', '1'), { 'X-Educlaw-Run-Id': w1.run_id });
      expect(thief.status).toBe(409);
      expect(((await thief.json()) as { error: { message: string } }).error.message).toMatch(/belongs to the agent example-mcp-tutor 1\.0\.0, not gamma 1/);

      // The crashed agent comes back under a generic clientInfo and names its run: it continues it.
      const back = await connect({ name: AGENT.name, version: AGENT.version }, { 'X-Educlaw-Run-Id': w1.run_id });
      const [a, b] = await Promise.all([tutor(back), tutor(second)]);
      expect(a.runs).toEqual([w1.run_id]);
      expect(b.runs).toEqual([w2.run_id]);
      expect(s.stderr()).toMatch(/example-mcp-tutor 1\.0\.0 reattached to mini-3day__mcp-example-mcp-tutor__s9 by its id/);
      await back.close();
      await second.close();
      s.kill('SIGINT');
      expect(await s.exited).toBe(0);

      expect(readdirSync(join(dir, 'traces')).sort()).toEqual([`${w2.run_id}.jsonl`, `${w1.run_id}.jsonl`]);
      const one = trace(join(dir, 'traces', `${w1.run_id}.jsonl`));
      const two = trace(join(dir, 'traces', `${w2.run_id}.jsonl`));
      expect(one.end).toMatchObject({ reason: 'horizon_reached' });
      expect(two.end).toMatchObject({ reason: 'horizon_reached' });
      // Same policy, same student, same steps: the runs are the same apart from who tutored (no cross-talk between sessions).
      const body = (t: ReturnType<typeof trace>) => JSON.stringify(t.t.events.slice(1)).replaceAll(/mini-3day__mcp-[a-z-]+__s9/g, 'RUN');
      expect(body(one)).toBe(body(two));
      const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { tutors: { config: { agent: string } }[]; runs: { runId: string }[] };
      expect(summary.tutors.map((t) => t.config.agent)).toEqual([AGENT.name, 'beta-tutor']);
      expect(summary.runs.map((r) => r.runId).sort()).toEqual([w2.run_id, w1.run_id].sort());
    } finally {
      s.kill();
    }
  });

  it('--strict-schemas: the LMS tools are listed in OpenAI strict form, and a null is read as "not given" (the trace records the call without it)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'educlaw-mcp-')), 'strict.jsonl');
    const s = await serve(out, ['--strict-schemas']);
    try {
      const c = new Client(AGENT);
      const tr = new StreamableHTTPClientTransport(new URL(s.url));
      await c.connect(tr);
      const tools = (await c.listTools()).tools;
      const lms = tools.filter((t) => !['wait_for_event', 'end_turn', 'get_turn_status'].includes(t.name));
      expect(lms).toHaveLength(10);
      for (const t of lms) expect(strictSchemaProblems(t.inputSchema), t.name).toEqual([]);
      expect((await callJson<{ type: string }>(c, 'wait_for_event')).type).toBe('wake');
      const r = await callJson<{ ok: boolean }>(c, 'get_gradebook', { skill_id: null, last_n: 2 });
      expect(r.ok).toBe(true);
      await tr.terminateSession();
      await c.close();
      await s.exited;
      const call = trace(out).t.events.find((e) => e.type === 'tool_call');
      expect(call).toMatchObject({ tool: 'get_gradebook' });
      expect(call?.type === 'tool_call' && call.args).toEqual({ last_n: 2 });
    } finally {
      s.kill();
    }
  });

  it('--sessions 2: a session left idle stops its own run only (aborted, resumable; its agent coming back gets 409 with the resume command); the server ends after --idle-timeout without any request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-mcp-'));
    const s = await serve(dir, ['--sessions', '2', '--idle-timeout', '2']);
    try {
      const idle = new Client(AGENT);
      await idle.connect(new StreamableHTTPClientTransport(new URL(s.url)));
      const busy = new Client({ name: 'busy-tutor', version: '1' });
      await busy.connect(new StreamableHTTPClientTransport(new URL(s.url)));
      const w = await callJson<{ run_id: string }>(idle, 'wait_for_event');
      await callJson(busy, 'wait_for_event');
      // The busy agent keeps calling; the idle one says nothing for longer than --idle-timeout.
      for (let i = 0; i < 10; i++) {
        await callJson(busy, 'get_turn_status');
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(s.stderr()).toMatch(/example-mcp-tutor 1\.0\.0: no request for 2 s/);
      const back = await post(s.url, initialize(AGENT.name, AGENT.version));
      expect(back.status).toBe(409);
      expect(((await back.json()) as { error: { message: string } }).error.message).toMatch(new RegExp(`the run ${w.run_id} of example-mcp-tutor 1\\.0\\.0 was stopped when its session ended; continue it with serve-mcp --resume .*${w.run_id}\\.jsonl`));
      // The busy agent's run goes on, to its end.
      expect((await tutor(busy)).runs).toEqual([`mini-3day__mcp-busy-tutor__s${SEED}`]);
      await idle.close();
      await busy.close();
      expect(await s.exited).toBe(3); // one run was stopped
      expect(trace(join(dir, 'traces', `${w.run_id}.jsonl`)).end).toMatchObject({ reason: 'aborted' });
      expect(trace(join(dir, 'traces', `mini-3day__mcp-busy-tutor__s${SEED}.jsonl`)).end).toMatchObject({ reason: 'horizon_reached' });
      expect(s.stderr()).toMatch(/no request for 2 s: closing the server/);
    } finally {
      s.kill();
    }
  });
});
