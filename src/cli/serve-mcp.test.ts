/**
 * Bring your own tutor over MCP, end to end: the example MCP client (examples/mcp-client) tutors
 * the 3-day scenario through `npm run cli -- serve-mcp`, over stdio and over Streamable HTTP,
 * using every tool and waiting for each wake; its trace equals the trace of a built-in tutor that
 * issues the same calls (the same policy), apart from who the tutor is.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LMS_TOOL_SPECS, TOOL_NAMES, TUTORS, executeRun, parseJsonl, runRecord, toJsonl, wakeView, type TraceEvent, type Tutor } from '../core/index';
import { bktEnv, customEntry, miniScenario, MINI_PATH } from '../testing/fixtures';
import { AGENT, callJson, runClient, tutor } from '../../examples/mcp-client/client';
import { teach } from '../../examples/mcp-client/policy';

const SEED = 9;
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const serveArgs = (out: string, extra: string[] = []) => [...CLI, 'serve-mcp', '--scenario', MINI_PATH, '--tracer', 'bkt', '--seed', String(SEED), '--out', out, ...extra];

/** The example's policy as a built-in tutor: the same decisions on the same wakes. */
const scripted: Tutor = {
  async onWake(ctx) {
    const g = teach(wakeView(ctx.wake));
    for (let s = g.next(); !s.done; ) s = g.next(ctx.tools.call(s.value[0], s.value[1]));
  },
};

async function scriptedTrace(): Promise<TraceEvent[]> {
  const scenario = miniScenario();
  const rec = runRecord({ scenario, source: MINI_PATH, tutor: { name: 'custom', config: {} }, tracer: 'bkt', seed: SEED });
  const res = await executeRun(rec, bktEnv({ tutors: new Map([...TUTORS, ['custom', customEntry(scripted)]]) }));
  expect(res.reason).toBe('horizon_reached');
  return res.events;
}

/** The trace without the tutor's identity (run_start holds the run id and the tutor). */
const anonymous = (events: readonly TraceEvent[]) => toJsonl(events).split('\n').slice(1).join('\n');

function checkTrace(path: string, twin: readonly TraceEvent[], model = '') {
  const t = parseJsonl(readFileSync(path, 'utf8'));
  expect(t.complete).toBe(true);
  const start = t.events[0]!;
  expect(start.type === 'run_start' && start.tutor).toEqual({ name: 'mcp', config: { agent: AGENT.name, version: AGENT.version, model, protocol: 'educlaw-agent/1' } });
  expect(start.type === 'run_start' && start.runId).toBe(`mini-3day__mcp-example-mcp-tutor${model ? `-${model}` : ''}__s${SEED}`);
  const end = t.events.find((e) => e.type === 'run_end');
  expect(end).toMatchObject({ reason: 'horizon_reached', days: 3 });
  // Every tool, each at least once successfully, and the malformed call answered INVALID_ARGS.
  const calls = t.events.filter((e): e is Extract<TraceEvent, { type: 'tool_call' }> => e.type === 'tool_call');
  for (const name of TOOL_NAMES) expect(calls.some((c) => c.tool === name && c.result.ok), name).toBe(true);
  expect(calls.some((c) => !c.result.ok && c.result.error.code === 'INVALID_ARGS')).toBe(true);
  expect(t.events.filter((e) => e.type === 'wake').length).toBe(t.events.filter((e) => e.type === 'turn_end').length);
  expect(anonymous(t.events)).toBe(anonymous(twin));
  return t.events;
}

describe('serve-mcp: an MCP agent is the tutor', () => {
  it('the example client tutors the 3-day scenario over stdio; the trace equals the scripted built-in tutor\'s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-mcp-'));
    const out = join(dir, 'stdio.jsonl');
    const twin = await scriptedTrace();
    const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(out), cwd: process.cwd(), stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const stats = await runClient(transport);
    expect(stats.runs).toEqual([`mini-3day__mcp-example-mcp-tutor__s${SEED}`]);
    expect(stats.errors).toEqual({ INVALID_ARGS: stats.errors.INVALID_ARGS });
    checkTrace(out, twin);
    expect(stderr).toMatch(/horizon_reached/);
  });

  it('over Streamable HTTP, with the model the agent reports; the same trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-mcp-'));
    const out = join(dir, 'http.jsonl');
    const twin = await scriptedTrace();
    const proc = spawn(process.execPath, serveArgs(out, ['--transport', 'http', '--port', '0']), { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
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
    const stats = await runClient(new StreamableHTTPClientTransport(new URL(url)), { model: 'gpt-test' });
    expect(stats.turns).toBeGreaterThan(5);
    expect(await exited).toBe(0);
    checkTrace(out, twin, 'gpt-test');
  });

  it('a client that goes away mid-run leaves an aborted trace that serve-mcp --resume continues to the same trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-mcp-'));
    const out = join(dir, 'cut.jsonl');
    const twin = await scriptedTrace();
    // Tutor the first few turns, then disconnect in the middle of a turn (after its first call).
    const first = new Client(AGENT);
    const t1 = new StdioClientTransport({ command: process.execPath, args: serveArgs(out), cwd: process.cwd(), stderr: 'pipe' });
    await first.connect(t1);
    // The ten LMS tools with exactly an LLM tutor's names, descriptions and JSON Schemas, and the three control tools.
    const { tools } = await first.listTools();
    expect(tools.slice(0, 10).map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema }))).toEqual(LMS_TOOL_SPECS.map((t) => JSON.parse(JSON.stringify(t))));
    expect(tools.slice(10).map((t) => t.name)).toEqual(['wait_for_event', 'end_turn', 'get_turn_status']);
    const beforeWake = await callJson<{ ok: boolean; error?: { code: string } }>(first, 'get_messages', {});
    expect(beforeWake).toMatchObject({ ok: false, error: { code: 'NO_TURN' } });
    let turns = 0;
    let cutTurn = 0;
    for (;;) {
      const ev = await callJson<{ type: string; wake: Parameters<typeof teach>[0] }>(first, 'wait_for_event');
      expect(ev.type).toBe('wake');
      turns++;
      const g = teach(ev.wake);
      const step = g.next();
      // Cut a turn whose first call's result the policy does not use (every reason but a help request).
      if (turns >= 4 && ev.wake.reason !== 'help_request' && !step.done) {
        await callJson(first, step.value[0], step.value[1]);
        cutTurn = ev.wake.turn;
        break;
      }
      for (let s = step; !s.done; ) s = g.next(await callJson(first, s.value[0], s.value[1]));
      await callJson(first, 'end_turn');
    }
    await first.close();
    // The server stops the run when its stdin closes: give it a moment to write run_end.
    for (let i = 0; i < 100 && !readFileSync(out, 'utf8').includes('"run_end"'); i++) await new Promise((r) => setTimeout(r, 50));
    const cut = parseJsonl(readFileSync(out, 'utf8'));
    expect(cut.events[cut.events.length - 1]).toMatchObject({ type: 'run_end', reason: 'aborted' });

    // Resume: the recorded turns are replayed; the open turn is handed over with its first call made.
    const t2 = new StdioClientTransport({ command: process.execPath, args: [...CLI, 'serve-mcp', '--resume', out], cwd: process.cwd(), stderr: 'pipe' });
    const second = new Client(AGENT);
    await second.connect(t2);
    const ev = await callJson<{ type: string; resumed: boolean; status: { calls: number }; wake: Parameters<typeof teach>[0] }>(second, 'wait_for_event');
    expect(ev).toMatchObject({ type: 'wake', resumed: true, status: { calls: 1 } });
    expect(ev.wake.turn).toBe(cutTurn);
    expect(await callJson(second, 'get_turn_status')).toMatchObject({ calls: 1, remaining: 49 });
    // Finish that turn with the rest of the policy's calls (the first one's result is not used), then tutor on as usual.
    const g = teach(ev.wake);
    g.next();
    for (let s = g.next({ ok: true, value: null }); !s.done; ) s = g.next(await callJson(second, s.value[0], s.value[1]));
    await callJson(second, 'end_turn');
    await tutor(second);
    await second.close();
    for (let i = 0; i < 100 && !readFileSync(out, 'utf8').includes('"horizon_reached"'); i++) await new Promise((r) => setTimeout(r, 50));
    checkTrace(out, twin);
  });
});
