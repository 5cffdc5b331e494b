/**
 * The HTTP tutor over a real local HTTP server and the Node transport: a well-behaved agent (the
 * example agent, examples/http-agent) gives the trace of a built-in tutor making the same calls,
 * with its exchanges recorded; an agent that times out, answers garbage and names unknown tools
 * leaves a trace with every failure recorded and a named end reason; a failed run resumes without
 * POSTing the recorded tries again; the CLI runs an agent from its URL (hello) and a sweep runs it
 * as an async run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOOL_NAMES, executeRun, httpTutorConfig, parseJsonl, resumePoint, runRecord, toJsonl, type RunEnv, type TraceEvent } from '../core/index';
import { bktEnv, miniScenario, MINI_PATH, onBkt } from '../testing/fixtures';
import { nodeHttpTransport } from '../adapters/node/agent-http';
import { exampleAgent, serveAgent } from '../../examples/http-agent/agent';
import { runNodeSweep } from '../adapters/node/sweep/run-sweep';

const SEED = 9;
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); })));
});

/** A local agent: `answer(body, n)` gives each POST's status, reply text and delay. */
async function agentServer(answer: (body: Record<string, any>, n: number) => { status?: number; text: string; delayMs?: number }) {
  const bodies: Record<string, any>[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, any>;
      bodies.push(body);
      const a = answer(body, bodies.length - 1);
      const send = () => {
        if (!res.destroyed) res.writeHead(a.status ?? 200, { 'content-type': 'application/json' }).end(a.text);
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/agent`, bodies };
}

const env = (): RunEnv => bktEnv({ http: nodeHttpTransport() });
const record = (config: Record<string, unknown>) => runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'http', config }, seed: SEED });
const calls = (ev: readonly TraceEvent[]) => ev.filter((e): e is Extract<TraceEvent, { type: 'tool_call' }> => e.type === 'tool_call');
const modelCalls = (ev: readonly TraceEvent[]) => ev.filter((e): e is Extract<TraceEvent, { type: 'model_call' }> => e.type === 'model_call');

describe('the http tutor', () => {
  it('a well-behaved agent (the example agent) tutors the 3-day scenario with every tool; each exchange is recorded, and every call it asked for is in the trace', async () => {
    const { server, url } = await serveAgent(exampleAgent(), 0);
    servers.push(server);
    const res = await executeRun(record({ url, name: 'example-http-tutor' }), env());
    expect(res.reason).toBe('horizon_reached');
    const start = res.events[0]!;
    expect(start.type === 'run_start' && start.runId).toBe(`mini-3day__http-example-http-tutor__s${SEED}`);
    expect(start.type === 'run_start' && start.tutor.config).toEqual(httpTutorConfig({ url, name: 'example-http-tutor' }));
    const tc = calls(res.events);
    for (const name of TOOL_NAMES) expect(tc.some((c) => c.tool === name && c.result.ok), name).toBe(true);
    expect(tc.some((c) => !c.result.ok && c.result.error.code === 'INVALID_ARGS')).toBe(true);
    // Each exchange is a model_call of provider "http", the reply in full; the calls it asked for are the turn's tool calls, in order.
    const mc = modelCalls(res.events);
    expect(mc.every((m) => m.provider === 'http' && m.model === 'example-http-tutor' && m.role === 'tutor' && m.response !== null && !m.error && /^http:(wake|continue)$/.test(m.purpose))).toBe(true);
    const asked = new Map<number, string[]>();
    for (const m of mc) asked.set(m.turn!, [...(asked.get(m.turn!) ?? []), ...m.response!.toolCalls.map((c) => `${c.name} ${c.arguments}`)]);
    const made = new Map<number, string[]>();
    for (const c of tc) made.set(c.turn, [...(made.get(c.turn) ?? []), `${c.tool} ${JSON.stringify(c.args)}`]);
    expect(made).toEqual(new Map([...asked].filter(([, v]) => v.length > 0)));
    expect(res.events.filter((e) => e.type === 'wake').length).toBe(res.events.filter((e) => e.type === 'turn_end').length);
  });

  it('an agent that times out, answers garbage and names unknown tools: every failure recorded, then a named end', async () => {
    const agent = await agentServer((b) => {
      if (b.type !== 'wake' && b.type !== 'continue') return { status: 404, text: '' };
      const turn = b.wake.turn as number;
      if (turn === 1) {
        if (b.step === 0 && b.attempt === 1) return { text: '{"calls": []}', delayMs: 600 }; // too late
        if (b.step === 0 && b.attempt === 2) return { text: 'I think the learner should practise.' }; // not JSON
        if (b.step === 0) return { text: JSON.stringify({ calls: [{ name: 'teleport', args: {} }, { name: 'get_gradebook', args: { last_n: 2 } }] }) };
        if (b.step === 1 && b.attempt === 1) return { status: 503, text: 'busy' };
        return { text: JSON.stringify({ calls: [{ name: 'send_message', args: '{"text": "Hi!"}' }], end: true }) };
      }
      if (turn === 2) return { text: JSON.stringify({ calls: [{ name: 'stay_silent' }, { name: 'send_message', args: { text: 'not sent' } }] }) };
      return { text: JSON.stringify({ calls: 'all of them' }) }; // malformed, every time
    });
    const res = await executeRun(record({ url: agent.url, name: 'flaky', timeoutMs: 300, retries: 2, backoffMs: 0 }), env());
    expect(res.reason).toBe('tutor_error');
    expect(res.message).toMatch(/^agent flaky: the reply is not \{"calls".*calls: .*\(3 tries\)$/);
    const ev = res.events;
    const err = ev.find((e) => e.type === 'error');
    expect(err).toMatchObject({ code: 'AGENT_BAD_REPLY', turn: 3 });
    expect(ev[ev.length - 1]).toMatchObject({ type: 'run_end', reason: 'tutor_error' });
    const mc = modelCalls(ev);
    const t1 = mc.filter((m) => m.turn === 1);
    expect(t1.map((m) => [m.purpose, m.error?.code ?? 'ok', m.retries])).toEqual([
      ['http:wake', 'AGENT_TIMEOUT', 0],
      ['http:wake', 'AGENT_BAD_REPLY', 1],
      ['http:wake', 'ok', 2],
      ['http:continue', 'AGENT_HTTP_RETRY', 0],
      ['http:continue', 'ok', 1],
    ]);
    expect(t1[0]!.response).toBeNull();
    expect(t1[1]!.response).toMatchObject({ content: 'I think the learner should practise.', finishReason: 'malformed' });
    expect(t1[3]!.response).toMatchObject({ content: 'busy', finishReason: 'http_503' });
    // The retry after the garbage told the agent what was wrong.
    const retry = agent.bodies.find((b) => b.wake?.turn === 1 && b.step === 0 && b.attempt === 3)!;
    expect(retry.error).toMatchObject({ code: 'BAD_REPLY', message: expect.stringMatching(/not JSON/) });
    // The unknown tool is a traced tool error the agent got back as a result; the JSON-text arguments were parsed.
    const tc = calls(ev);
    expect(tc.find((c) => c.tool === 'teleport')).toMatchObject({ turn: 1, kind: 'unknown', result: { ok: false, error: { code: 'UNKNOWN_TOOL' } } });
    const cont = agent.bodies.find((b) => b.wake?.turn === 1 && b.type === 'continue')!;
    expect(cont.results.map((r: any) => [r.name, r.result.ok])).toEqual([['teleport', false], ['get_gradebook', true]]);
    expect(cont.status).toMatchObject({ calls: 2, actions: 0 });
    expect(tc.find((c) => c.tool === 'send_message' && c.turn === 1)).toMatchObject({ args: '{"text": "Hi!"}', result: { ok: true } });
    // stay_silent ends the turn: the call after it in the same reply is not run.
    expect(tc.filter((c) => c.turn === 2).map((c) => c.tool)).toEqual(['stay_silent']);
    // Turn 3: three malformed replies, each recorded with its text, then the run's end.
    const t3 = mc.filter((m) => m.turn === 3);
    expect(t3.map((m) => m.error?.code)).toEqual(['AGENT_BAD_REPLY', 'AGENT_BAD_REPLY', 'AGENT_BAD_REPLY']);
    expect(t3.every((m) => m.response?.content === '{"calls":"all of them"}')).toBe(true);
    // The first POST of the run carried the task; every POST carried the tools.
    expect(agent.bodies[0]!.instructions).toMatch(/tutor of one middle-school learner/);
    expect(agent.bodies.filter((b) => b.type !== 'run_end').every((b) => b.tools.length === 10 && b.protocol === 'educlaw-http-tutor/1' && b.run_id === res.runId)).toBe(true);
    // Statuses that retrying will not fix end the run at once; an agent nobody answers for is AGENT_NETWORK.
    const gone = await agentServer(() => ({ status: 401, text: 'who are you' }));
    const r401 = await executeRun(record({ url: gone.url, name: 'locked', retries: 3, backoffMs: 0 }), env());
    expect(r401.events.find((e) => e.type === 'error')).toMatchObject({ code: 'AGENT_HTTP_STATUS' });
    expect(gone.bodies.filter((b) => b.type !== 'run_end')).toHaveLength(1);
    const rNet = await executeRun(record({ url: 'http://127.0.0.1:9/', name: 'nobody', retries: 1, backoffMs: 0, timeoutMs: 2000 }), env());
    expect(rNet).toMatchObject({ reason: 'tutor_error' });
    expect(rNet.events.find((e) => e.type === 'error')).toMatchObject({ code: 'AGENT_NETWORK' });
    expect(modelCalls(rNet.events)).toHaveLength(2);
  });

  it('a failed run resumes: the recorded tries are answered from the trace, never POSTed again', async () => {
    let healed = false;
    const ok = exampleAgent({ name: 'moody' });
    const agent = await agentServer((b) => {
      if (!healed && b.wake?.turn === 4) return { text: 'no' };
      return { text: JSON.stringify(ok(b as never)) };
    });
    const config = { url: agent.url, name: 'moody', retries: 1, backoffMs: 0 };
    const failed = await executeRun(record(config), env());
    expect(failed.reason).toBe('tutor_error');
    const posted = agent.bodies.length;
    healed = true;
    const resumed = await executeRun(record(config), env(), { resume: failed.events });
    expect(resumed.reason).toBe('horizon_reached');
    // Nothing before turn 4 was POSTed again, and the replayed part is the stored one.
    expect(agent.bodies.slice(posted).every((b) => b.type === 'run_end' || b.wake.turn >= 4)).toBe(true);
    // Each run, the failed one too, ended with one run_end notice to the agent (not traced).
    expect(agent.bodies.filter((b) => b.type === 'run_end').map((b) => b.reason)).toEqual(['tutor_error', 'horizon_reached']);
    const keep = resumePoint(failed.events);
    expect(toJsonl(resumed.events.slice(0, keep.length))).toBe(toJsonl(keep));
  });

  it('from the CLI: run --tutor http --agent-url (the hello names the agent); a sweep runs it as an async run, and the CLI sweep takes two agents as two tutors', async () => {
    const { server, url } = await serveAgent(exampleAgent({ model: 'tiny-1' }), 0);
    servers.push(server);
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-http-'));
    const out = join(dir, 'http.jsonl');
    const a = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', '--scenario', MINI_PATH, '--tracer', 'bkt', '--tutor', 'http', '--agent-url', url, '--out', out]);
    expect(a.stdout).toMatch(/mini-3day__http-example-http-tutor-tiny-1__s\d+: horizon_reached/);
    const t = parseJsonl(readFileSync(out, 'utf8'));
    const start = t.events[0]!;
    expect(start.type === 'run_start' && start.tutor).toMatchObject({ name: 'http', config: { url, name: 'example-http-tutor', version: '1.0.0', model: 'tiny-1' } });

    const sweep = await runNodeSweep({ files: [MINI_PATH], base: { voice: { kind: 'templates' }, tracer: 'bkt' }, tutors: [{ name: 'http', config: { url, name: 'example-http-tutor', model: 'tiny-1' } }, { name: 'planner', config: {} }], seeds: [1, 2], threads: 1, outDir: join(dir, 'sweep') });
    expect(sweep.results.every((r) => r.error === null)).toBe(true);
    expect(sweep.summary.byTutor?.map((s) => [s.tutor, s.runs])).toEqual([['http/example-http-tutor/tiny-1', 2], ['planner', 2]]);

    // The CLI's sweep: --tutor http with two --agent-url (one tutor per agent, named by its hello).
    const { server: s2, url: url2 } = await serveAgent(exampleAgent({ name: 'second-agent', model: 'tiny-2' }), 0);
    servers.push(s2);
    const outDir = join(dir, 'cli-sweep');
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sweep', '--scenarios', MINI_PATH, '--tracer', 'bkt', '--seeds', '1', '--tutor', 'http', '--agent-url', url, '--agent-url', url2, '--out', outDir, '--quiet']);
    const summary = JSON.parse(readFileSync(join(outDir, 'summary.json'), 'utf8')) as { summary: { byTutor: { tutor: string; runs: number }[] }; errors: unknown[] };
    expect(summary.errors).toEqual([]);
    expect(summary.summary.byTutor.map((t) => [t.tutor, t.runs])).toEqual([['http/example-http-tutor/tiny-1', 1], ['http/second-agent/tiny-2', 1]]);
  });
});
