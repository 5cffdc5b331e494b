/**
 * Issue 36's campaign: what an agent sends past the bounds, the doors of the local servers,
 * secrets and redirects, forged traces, and outputs cut off half-way.
 *
 *  - agent replies and tool calls over the bounds: HTTP agents replying 1 MiB + 1 byte to 20 MB,
 *    arguments 33 to 20,000 levels deep or 70,000 characters, tool names of 10,000 characters;
 *    MCP agents calling with the same arguments. Handled: the run ends tutor_error AGENT_LIMIT
 *    naming the agent, its trace reads back strictly with no line over 1 MiB. Controls at the
 *    bounds (a legal reply of 50 calls; arguments 30 deep) complete.
 *  - the doors of serve-mcp over HTTP and a worker's status port: foreign Host headers (DNS
 *    rebinding) and foreign Origins get 403 and take no session; the real agent still gets it.
 *  - secrets and redirects: a bearer token echoed by an agent (as written, JSON-escaped,
 *    URL-encoded; in 4xx and 5xx bodies) never reaches the trace or the run's message; redirects
 *    (an HTTP agent's, and an LLM provider's: LLM_BAD_REQUEST) to another origin or that turn the POST into a GET end the run AGENT_REDIRECT and the target
 *    never sees a request; a Redis password never reaches a queue error.
 *  - forged traces (src/testing/forgery.ts): refused with file:line, or read with no score moved.
 *  - outputs cut off: a report directory and an export file failing after k of their files or
 *    lines: the old output stays whole, nothing stray beside it.
 *  - scenarios (item 6): what run cannot build (the item bank) or should not run (probes before
 *    the day's work, overlapping blocks, minutes and bank size over the bounds), a second YAML
 *    document and prototype keys: refused at their field and line; controls at the bounds accepted.
 *
 * FAULTS_DOORS_SCALE (default 1): below 1, every k-th case only (npm test runs it at 0.3).
 */
import { afterAll, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { executeRun, parseJsonl, runRecord, toJsonl, type TraceEvent } from '../../src/core/index';
import { bktEnv, miniScenario, MINI_PATH, onBkt, runWith } from '../../src/testing/fixtures';
import { baseTrace } from '../../src/testing/fuzz';
import { FORGERIES, tryForgery } from '../../src/testing/forgery';
import { nodeHttpTransport } from '../../src/adapters/node/agent-http';
import { AtomicFile, replaceDirAtomic } from '../../src/adapters/node/files';
import { queueError } from '../../src/adapters/node/queue/connection';
import { McpTutorHost, serveHttp } from '../../src/cli/mcp/server';
import { writeReport } from '../../src/cli/commands/report';
import { newTally, note, writeTallies } from './tally';
import { OpenAiCompatClient } from '../../src/adapters/llm/openai-compat';
import { ProviderSchema } from '../../src/adapters/llm/config';

const SCALE = Math.min(1, Math.max(0.05, Number(process.env.FAULTS_DOORS_SCALE ?? 1)));
/** Every case at scale 1; otherwise an evenly spread share of them (the first always). */
const pick = <T>(xs: readonly T[]): T[] => xs.filter((_, i) => SCALE >= 1 || i % Math.round(1 / SCALE) === 0);

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))));
});

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
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/agent`, posts: () => n };
}

const nest = (depth: number): string => `${'{"x":'.repeat(depth - 1)}{"text":"hi"}${'}'.repeat(depth - 1)}`;
const nestObj = (depth: number): Record<string, unknown> => JSON.parse(nest(depth)) as Record<string, unknown>;
const reply = (calls: string) => `{"calls":[${calls}],"end":true}`;
const record = (config: Record<string, unknown>) => runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'http', config }, seed: 5 });
const maxLine = (events: readonly TraceEvent[]) => Math.max(...toJsonl(events).split('\n').map((l) => l.length));

it('doors, limits, secrets, forgeries and cut-off outputs', async () => {
  const limits = newTally('agent replies and tool calls over the bounds (HTTP and MCP agents)');
  const doors = newTally("local servers' doors: foreign Host or Origin (serve-mcp over HTTP, status port)");
  const secrets = newTally('secrets echoed and redirects (agent tokens, Redis passwords, 30x)');
  const forged = newTally('forged traces: one field edited to move a score');
  const outputs = newTally('outputs cut off half-way (report directory, export file)');
  const scenarios = newTally('scenarios run cannot build or should not run, YAML errors placed (validate)');
  const notes: string[] = [];

  // ---- limits over HTTP
  const httpCases: { name: string; body: () => string | Buffer; over: boolean }[] = [
    ...[1024 * 1024 + 1, 2 * 1024 * 1024, 20 * 1024 * 1024].map((n) => ({ name: `a reply of ${n} bytes`, body: () => Buffer.alloc(n, 0x20), over: true })),
    ...[33, 100, 1000, 20_000].map((d) => ({ name: `arguments ${d} levels deep`, body: () => reply(`{"name":"send_message","args":${nest(d)}}`), over: true })),
    { name: 'arguments of 70,000 characters', body: () => reply(`{"name":"send_message","args":{"text":"${'a'.repeat(70_000)}"}}`), over: true },
    { name: 'arguments of 70,000 characters as JSON text', body: () => reply(`{"name":"send_message","args":${JSON.stringify(JSON.stringify({ text: 'a'.repeat(70_000) }))}}`), over: true },
    { name: 'the legal reply: 50 calls of 4,000 characters', body: () => reply(Array.from({ length: 50 }, () => `{"name":"send_message","args":{"text":"${'b'.repeat(4000)}"}}`).join(',')), over: false },
    { name: 'arguments 30 levels deep (under the bound)', body: () => reply(`{"name":"send_message","args":${nest(30)}}`), over: false },
  ];
  for (const c of pick(httpCases)) {
    const a = await agent(() => ({ body: c.body() }));
    try {
      const res = await executeRun(record({ url: a.url, name: 'limits-agent', retries: 1, backoffMs: 0 }), bktEnv({ http: nodeHttpTransport() }));
      const back = parseJsonl(toJsonl(res.events), 'limits.jsonl');
      const err = res.events.find((e) => e.type === 'error');
      if (maxLine(res.events) > 1024 * 1024) note(limits, 'dataLost', `${c.name}: a trace line of ${maxLine(res.events)} characters`);
      else if (!c.over) note(limits, res.reason === 'horizon_reached' && back.complete ? 'completed' : 'crashed', `${c.name}: under the bounds but ${res.reason}: ${res.message}`);
      else if (res.reason === 'tutor_error' && err?.type === 'error' && err.code === 'AGENT_LIMIT' && /^agent limits-agent: /.test(res.message ?? '')) note(limits, 'clearError');
      else note(limits, res.reason === 'horizon_reached' ? 'silentlyWrong' : 'crashed', `${c.name}: ended ${res.reason}: ${res.message}`);
    } catch (e) {
      note(limits, 'crashed', `${c.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  // ---- limits and doors over MCP (serve-mcp's HTTP server, in this process)
  const mcpCases: { name: string; args: () => Record<string, unknown>; tool?: string; over: boolean }[] = [
    ...[33, 100, 1000].map((d) => ({ name: `MCP arguments ${d} levels deep`, args: () => nestObj(d), over: true })),
    { name: 'MCP arguments of 70,000 characters', args: () => ({ text: 'a'.repeat(70_000) }), over: true },
    { name: 'MCP tool name of 10,000 characters', args: () => ({}), tool: 'x'.repeat(10_000), over: true },
    { name: 'MCP arguments 30 levels deep (under the bound)', args: () => nestObj(30), over: false },
  ];
  const hostCases = ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', '[::2]', 'localhost:1', ''];
  const originCases = ['https://evil.example', 'null', 'http://localhost.evil.example', 'http://127.0.0.1.evil.example:80', 'file://'];
  for (const [k, c] of pick(mcpCases).entries()) {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-doors-mcp-'));
    const path = join(dir, 't.jsonl');
    const newHost = () => new McpTutorHost({ env: bktEnv(), plan: () => ({ runs: [{ record: runRecord({ scenario: onBkt(miniScenario()), source: MINI_PATH, tutor: { name: 'mcp', config: { agent: 'doors-client', version: '1' } }, seed: 5 }), path, source: MINI_PATH }] }) });
    const s = await serveHttp(newHost, { host: '127.0.0.1', port: 0, idleTimeoutS: 120 });
    try {
      const u = new URL(s.url);
      const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '1' } } });
      const hdr = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      // The doors, once per server (the first case's): every foreign Host and Origin.
      if (k === 0) {
        for (const h of hostCases.filter(Boolean)) {
          const status = await new Promise<number>((resolve, reject) => {
            const req = request({ host: '127.0.0.1', port: Number(u.port), path: '/mcp', method: 'POST', headers: { ...hdr, host: h ? (h.includes(':') && !h.startsWith('[') ? h : `${h}:${u.port}`) : '' } }, (r) => (r.resume(), resolve(r.statusCode ?? 0)));
            req.on('error', reject);
            req.end(init);
          });
          note(doors, status === 403 ? 'clearError' : 'silentlyWrong', `Host ${h}: HTTP ${status}`);
        }
        for (const o of originCases) {
          const r = await fetch(s.url, { method: 'POST', headers: { ...hdr, origin: o }, body: init });
          note(doors, r.status === 403 ? 'clearError' : 'silentlyWrong', `Origin ${o}: HTTP ${r.status}`);
        }
      }
      const client = new Client({ name: 'doors-client', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(u));
      const text = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0]!.text) as Record<string, any>;
      const wake = text(await client.callTool({ name: 'wait_for_event', arguments: {} }));
      if (k === 0) note(doors, wake.type === 'wake' ? 'completed' : 'crashed', `the real agent after the refused requests: ${JSON.stringify(wake).slice(0, 200)}`);
      const answer = text(await client.callTool({ name: c.tool ?? 'send_message', arguments: c.args() }));
      let ev = text(await client.callTool({ name: 'wait_for_event', arguments: {} }));
      while (ev.type === 'wake') ev = text(await client.callTool({ name: 'wait_for_event', arguments: {} }));
      await client.close();
      await s.close();
      const t = parseJsonl(readFileSync(path, 'utf8'), path);
      const end = t.events.find((e) => e.type === 'run_end');
      if (maxLine(t.events) > 1024 * 1024) note(limits, 'dataLost', `${c.name}: a trace line of ${maxLine(t.events)} characters`);
      else if (!c.over) note(limits, end?.type === 'run_end' && end.reason === 'horizon_reached' ? 'completed' : 'crashed', `${c.name}: ${JSON.stringify(end)}`);
      else if (answer.error?.code === 'AGENT_LIMIT' && /^agent doors-client: /.test(answer.error.message) && end?.type === 'run_end' && end.reason === 'tutor_error') note(limits, 'clearError');
      else note(limits, end?.type === 'run_end' && end.reason === 'horizon_reached' ? 'silentlyWrong' : 'crashed', `${c.name}: answered ${JSON.stringify(answer).slice(0, 200)}, ended ${JSON.stringify(end)}`);
    } catch (e) {
      note(limits, 'crashed', `${c.name}: ${e instanceof Error ? e.message : String(e)}`);
      await s.close().catch(() => undefined);
    }
  }

  // ---- the status port's door (the check itself; a worker without Redis answers nothing else)
  const { doorRefusal } = await import('../../src/adapters/node/local-door');
  for (const h of hostCases) note(doors, doorRefusal({ headers: { host: h ? `${h}:9000` : '' } }, { host: '127.0.0.1', port: 9000 }) ? 'clearError' : 'silentlyWrong', `status port, Host ${h}`);
  for (const o of originCases) note(doors, doorRefusal({ headers: { host: '127.0.0.1:9000', origin: o } }, { host: '127.0.0.1', port: 9000 }) ? 'clearError' : 'silentlyWrong', `status port, Origin ${o}`);

  // ---- secrets and redirects
  const token = 'tok-8c1e5a90f2b34d77';
  const echoes: { name: string; status: number; body: (auth: string) => string }[] = [
    { name: '401 echoing the token', status: 401, body: (a) => `{"error":"bad token ${a.slice(7)}"}` },
    { name: '403 echoing the Authorization header', status: 403, body: (a) => `denied: ${a}` },
    { name: '400 echoing it URL-encoded', status: 400, body: (a) => `see /login?t=${encodeURIComponent(a.slice(7))}` },
    { name: '500 echoing it JSON-escaped', status: 500, body: (a) => JSON.stringify({ detail: `header was ${a}` }) },
    { name: '200 echoing it in a malformed reply', status: 200, body: (a) => `not json ${a.slice(7)}` },
  ];
  for (const c of pick(echoes)) {
    const a = await agent((_, req) => ({ status: c.status, body: c.body(req.auth ?? '') }));
    const res = await executeRun(record({ url: a.url, name: 'echo-agent', tokenEnv: 'DOORS_TOKEN', retries: 1, backoffMs: 0 }), bktEnv({ http: nodeHttpTransport({ env: { DOORS_TOKEN: token } }) }));
    const text = `${toJsonl(res.events)}${res.message ?? ''}`;
    note(secrets, text.includes(token) || text.includes(encodeURIComponent(token)) ? 'dataLost' : res.reason === 'tutor_error' ? 'clearError' : 'silentlyWrong', `${c.name}: the token is in the trace or message (${res.reason})`);
  }
  const redirects: { name: string; status: number; same: boolean; ok: boolean }[] = [
    ...[301, 302, 303, 307, 308].map((status) => ({ name: `${status} to another origin`, status, same: false, ok: false })),
    ...[301, 302, 303].map((status) => ({ name: `${status} within the origin (POST would become GET)`, status, same: true, ok: false })),
    { name: '307 within the origin', status: 307, same: true, ok: true },
  ];
  for (const c of pick(redirects)) {
    const target = await agent(() => ({ body: reply('') }));
    const a = await agent((_, req) => (req.url === '/moved' ? { body: reply('') } : { status: c.status, headers: { location: c.same ? '/moved' : target.url }, body: '' }));
    const res = await executeRun(record({ url: a.url, name: 'redirecting', retries: 0 }), bktEnv({ http: nodeHttpTransport() }));
    const err = res.events.find((e) => e.type === 'error');
    if (c.ok) note(secrets, res.reason === 'horizon_reached' ? 'completed' : 'crashed', `${c.name}: ${res.reason}: ${res.message}`);
    else if (target.posts() > 0) note(secrets, 'dataLost', `${c.name}: the other origin got ${target.posts()} requests`);
    else note(secrets, res.reason === 'tutor_error' && err?.type === 'error' && err.code === 'AGENT_REDIRECT' ? 'clearError' : 'silentlyWrong', `${c.name}: ${res.reason}: ${res.message}`);
  }
  // The same rule for an LLM provider: its request (with the key) never reaches another origin.
  const completion = JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  for (const c of pick(redirects)) {
    const target = await agent(() => ({ body: completion }));
    const a = await agent((_, req) => (req.url.endsWith('/moved') ? { body: completion } : { status: c.status, headers: { location: c.same ? '/moved' : `${target.url}/chat/completions` }, body: '' }));
    const client = new OpenAiCompatClient(ProviderSchema.parse({ name: 'redirecting-provider', baseURL: a.url, backoffMs: 0, maxRetries: 0, timeoutMs: 5000 }), 'm', { apiKey: 'sk-doors-0123456789' });
    const r = await client.chat({ messages: [{ role: 'user', content: 'hi' }] }).then((x) => ({ ok: x.content === 'ok', err: null as unknown }), (err: unknown) => ({ ok: false, err }));
    const code = (r.err as { code?: string } | null)?.code;
    if (c.ok) note(secrets, r.ok ? 'completed' : 'crashed', `provider ${c.name}: ${String(r.err)}`);
    else if (target.posts() > 0) note(secrets, 'dataLost', `provider ${c.name}: the other origin got ${target.posts()} requests`);
    else note(secrets, code === 'LLM_BAD_REQUEST' && /redirect/.test(String((r.err as Error).message)) ? 'clearError' : 'silentlyWrong', `provider ${c.name}: ${code}: ${String(r.err)}`);
  }
  for (const msg of ['WRONGPASS invalid username-password pair', 'connect ECONNREFUSED redis://:pw-77Hq2x@10.0.0.1:6379', 'NOAUTH Authentication required. pw-77Hq2x']) {
    const e = queueError(new Error(msg), 'redis://:pw-77Hq2x@10.0.0.1:6379/0');
    note(secrets, e.message.includes('pw-77Hq2x') ? 'dataLost' : 'clearError', `a queue error printed the Redis password: ${e.message}`);
  }

  // ---- forged traces
  const base = await baseTrace();
  for (const f of pick(FORGERIES)) {
    const r = tryForgery(base, f);
    note(forged, r.kind, r.kind === 'clearError' || r.kind === 'completed' ? '' : r.why);
  }

  // ---- outputs cut off after k of their files / lines
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-doors-out-'));
  mkdirSync(join(dir, 'traces'));
  for (const [tutor, seed] of [['planner', 1], ['withholder', 2]] as const) writeFileSync(join(dir, 'traces', `${tutor}.jsonl`), toJsonl((await runWith(miniScenario(), tutor, { seed })).events));
  const out = join(dir, 'report');
  await writeReport([join(dir, 'traces')], { out }, () => undefined);
  const snapshot = () => readdirSync(out, { recursive: true }).sort().map((f) => String(f)).join('\n') + readFileSync(join(out, 'report.json'), 'utf8') + readFileSync(join(out, 'report.md'), 'utf8');
  const before = snapshot();
  const owned = (n: string) => ['report.md', 'report.html', 'report.json', 'csv', 'svg'].includes(n);
  for (const k of pick([0, 1, 2, 5, 10, 20])) {
    try {
      await replaceDirAtomic(out, owned, (staging) => {
        mkdirSync(join(staging, 'csv'));
        for (let i = 0; i < k; i++) writeFileSync(join(staging, i % 2 ? 'report.md' : `csv/t${i}.csv`), 'new');
        throw Object.assign(new Error(`could not write ${out}/csv/t${k}.csv: ENOSPC: no space left on device`), { code: 'ENOSPC' });
      });
      note(outputs, 'silentlyWrong', `report failing after ${k} files: no error`);
    } catch (e) {
      const whole = snapshot() === before && readdirSync(dir).sort().join() === 'report,traces';
      note(outputs, whole && /ENOSPC.*report is unchanged/.test((e as Error).message) ? 'clearError' : 'dataLost', `report failing after ${k} files: ${(e as Error).message}; ${readdirSync(dir).join(', ')}`);
    }
  }
  const exp = join(dir, 'export.jsonl');
  writeFileSync(exp, 'OLD EXPORT\n');
  for (const k of pick([0, 1, 10, 100])) {
    const f = new AtomicFile(exp);
    for (let i = 0; i < k; i++) f.write(`{"line":${i}}\n`);
    f.abort();
    note(outputs, readFileSync(exp, 'utf8') === 'OLD EXPORT\n' && readdirSync(dir).sort().join() === 'export.jsonl,report,traces' ? 'clearError' : 'dataLost', `export stopped after ${k} lines`);
  }

  // ---- scenarios: what validate must refuse at the field and line run would fail or overrun at
  const good = readFileSync(MINI_PATH, 'utf8');
  const gl = good.split('\n');
  const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  const scenarioCases: { name: string; text: string; path: string | null; line?: (t: string) => number }[] = [
    { name: 'skill 107, 60 items per level, 30 probes (the bank cannot be built)', text: good.replace('skills: [68, 87]', 'skills: [107]').replace('itemsPerLevel: 4', 'itemsPerLevel: 60').replace('probesPerSkill: 3', 'probesPerSkill: 30'), path: 'course.itemsPerLevel', line: (t) => lineOf(t, 'itemsPerLevel') },
    { name: 'probes at 00:00', text: good + 'probes:\n  time: "00:00"\n', path: 'probes.time', line: (t) => lineOf(t, '"00:00"') },
    { name: 'probes a minute before the last block ends', text: good + 'probes:\n  time: "16:44"\n', path: 'probes.time', line: (t) => lineOf(t, '"16:44"') },
    { name: '48 overlapping 600-minute blocks over 60 days', text: good.replace('horizonDays: 3', 'horizonDays: 60') + '    - {days: [mon, tue, wed, thu, fri, sat, sun], start: "08:00", minutes: 600}\n'.repeat(48), path: 'schedule.blocks[2].start' },
    { name: 'two blocks overlapping on one shared day', text: good + '    - {days: [sun, wed], start: "16:44", minutes: 30}\n', path: 'schedule.blocks[1].start' },
    { name: '900 minutes on a day, no overlap', text: good.replace('start: "16:00"', 'start: "12:00"').replace('minutes: 45', 'minutes: 600') + '    - {days: [mon], start: "00:30", minutes: 300}\nprobes:\n  time: "23:00"\n', path: 'schedule.blocks' },
    { name: '16,200 minutes over 60 days', text: good.replace('horizonDays: 3', 'horizonDays: 60').replace('minutes: 45', 'minutes: 600').replace('start: "16:00"', 'start: "08:00"'), path: 'horizonDays', line: (t) => lineOf(t, 'horizonDays') },
    { name: 'a bank of 2,196 items', text: good.replace('itemsPerLevel: 4', 'itemsPerLevel: 60').replace('skills: [68, 87]', 'skills: [68, 87, 1, 15, 52, 53, 91, 29, 17, 14, 50, 103]'), path: 'course.itemsPerLevel' },
    { name: 'a second YAML document at the end', text: good + '---\nfoo: 1\n', path: '(document)', line: (t) => lineOf(t, '---') },
    { name: 'a second YAML document in the middle', text: good.replace('horizonDays: 3\n', 'horizonDays: 3\n---\n'), path: '(document)', line: (t) => lineOf(t, '---') },
    { name: '__proto__ at line 7', text: [...gl.slice(0, 6), '__proto__: {x: 1}', ...gl.slice(6)].join('\n'), path: '__proto__', line: () => 7 },
    { name: 'constructor at line 7', text: [...gl.slice(0, 6), 'constructor: 5', ...gl.slice(6)].join('\n'), path: 'constructor', line: () => 7 },
    { name: '__proto__ inside learner', text: good.replace('  ability: low', '  ability: low\n  __proto__:\n    a: 1'), path: 'learner.__proto__', line: (t) => lineOf(t, '__proto__') },
    // Controls: at the bounds, accepted.
    { name: 'control: probes when the last block ends', text: good + 'probes:\n  time: "16:45"\n', path: null },
    { name: 'control: two blocks that touch', text: good + '    - {days: [mon], start: "16:45", minutes: 30}\n', path: null },
    { name: 'control: skill 107 with the default counts', text: good.replace('skills: [68, 87]', 'skills: [107]'), path: null },
  ];
  const { parseScenario, ScenarioError } = await import('../../src/core/index');
  for (const c of pick(scenarioCases)) {
    const t0 = performance.now();
    try {
      parseScenario(c.text, 'case.yaml');
      note(scenarios, c.path === null ? 'completed' : 'silentlyWrong', `${c.name}: accepted`);
    } catch (e) {
      const i = e instanceof ScenarioError ? e.issues[0] : undefined;
      const placed = i && i.path === c.path && (!c.line || i.line === c.line(c.text)) && Number(i.line) > 0;
      note(scenarios, placed && performance.now() - t0 < 5000 ? 'clearError' : 'crashed', `${c.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  void notes;
  writeTallies('6-doors', [limits, doors, secrets, forged, outputs, scenarios]);
});
