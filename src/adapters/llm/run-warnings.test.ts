/**
 * Broken set-ups that score as real results (issue 35): a provider that returns tool calls as text
 * (vLLM without a tool parser, Ollama on a model whose template has no tools), a model that never
 * calls a tool, and an HTTP agent that writes OpenAI's "arguments" or another format's field. Each
 * run either works (the calls are read) or says so by name: a warning in the score report (what
 * `run`, `score`, `sweep`, `report` and the page show), or a named agent error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAi, chat, type MockServer, type WireRequest } from '../../testing/mock-openai-server';
import { bktEnv, miniScenario, onBkt, runWith } from '../../testing/fixtures';
import { OpenAiCompatClient } from './openai-compat';
import { ProviderSchema } from './config';
import { buildBenchmarkReport, executeRun, trajectories, llmTutorConfig, runRecord, runWarnings, scoreTrace, summarizeRun, warningLines, type HttpTransport, type TraceEvent } from '../../core/index';

let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

const of = <K extends TraceEvent['type']>(ev: readonly TraceEvent[], type: K) => ev.filter((e): e is Extract<TraceEvent, { type: K }> => e.type === type);
const codes = (ev: readonly TraceEvent[]) => runWarnings(ev).map((w) => w.code);

async function llmRun() {
  const p = ProviderSchema.parse({ name: 'vllm-no-parser', baseURL: srv.url, backoffMs: 1 });
  return runWith(onBkt(miniScenario()), 'llm', {
    tutorConfig: llmTutorConfig({ harness: 'reactive', model: 'qwen', provider: 'vllm-no-parser' }),
    env: { llm: ({ model }) => new OpenAiCompatClient(p, model) },
  });
}

/** What vLLM without --tool-call-parser sends for a Qwen model: the calls in the content, no tool_calls. */
function hermesAsText(body: WireRequest) {
  const last = body.messages[body.messages.length - 1]!;
  if (last.role === 'tool') return chat('Done.');
  return chat('<tool_call>\n{"name": "send_message", "arguments": {"text": "What is the first step?"}}\n</tool_call>');
}

describe('an LLM tutor whose provider returns tool calls as text', () => {
  it('the calls are run (not a run of implicit silences), and the run is marked TEXT_TOOL_CALLS', async () => {
    srv.setHandler(hermesAsText);
    const res = await llmRun();
    expect(res.reason).toBe('horizon_reached');
    const sent = of(res.events, 'tool_call').filter((c) => c.tool === 'send_message' && c.result.ok);
    expect(sent.length).toBeGreaterThan(0);
    const rep = scoreTrace(res.events);
    // Its replies reach the learner ("What is the first step?" engages nothing of a request: replied, not answered).
    expect((rep.details.responsiveness as { repliedUnengaged: number }).repliedUnengaged).toBeGreaterThan(0);
    expect(rep.warnings!.map((w) => w.code)).toEqual(['TEXT_TOOL_CALLS']);
    expect(rep.warnings![0]!.message).toMatch(/returned their tool calls as text in the content \(hermes\).*--tool-call-parser/);
    expect(warningLines(rep)[0]).toMatch(/^warning: mini-3day__llm-reactive-qwen__s\d+: TEXT_TOOL_CALLS: /);
    // The sweep's run summary and the benchmark report carry it too.
    expect(summarizeRun(res.events, 'x.yaml').warnings?.map((w) => w.code)).toEqual(['TEXT_TOOL_CALLS']);
    const report = buildBenchmarkReport([{ events: res.events }]);
    expect(report.analyses.overview.warned).toEqual([{ runId: rep.runId, tutor: rep.tutor, warnings: ['TEXT_TOOL_CALLS'] }]);
    expect(report.sections[0]!.paragraphs.join('\n')).toMatch(/Warning: 1 run may measure a broken set-up.*TEXT_TOOL_CALLS in mini-3day__llm-reactive-qwen/);
  });

  it('a model that never calls a tool: NO_VALID_ACTION, not a silent 0% that reads as a result', async () => {
    srv.setHandler(() => chat('I would tell the student to try again.'));
    const res = await llmRun();
    expect(res.reason).toBe('horizon_reached');
    expect(of(res.events, 'tool_call')).toHaveLength(0);
    const w = runWarnings(res.events);
    expect(w.map((x) => x.code)).toEqual(['NO_VALID_ACTION']);
    expect(w[0]!.message).toMatch(/no valid action in \d+ turns .*no tool call at all: every turn was an implicit silence/);
  });

  it('a trace recorded before text tool calls were read (calls left in the content) is marked TEXT_TOOL_CALLS_UNREAD', async () => {
    srv.setHandler(hermesAsText);
    const res = await llmRun();
    // As the client wrote it before: no tool calls, the text in the content, nothing run.
    const old = res.events.map((e) => (e.type === 'model_call' && e.response?.textToolCalls ? { ...e, response: { content: '<tool_call>{"name": "send_message", "arguments": {}}</tool_call>', toolCalls: [], finishReason: 'stop' } } : e)) as TraceEvent[];
    expect(codes(old)).toContain('TEXT_TOOL_CALLS_UNREAD');
  });
});

describe('an LLM run with reasoning and per-call extras', () => {
  it('the reasoning is in the trace and the trajectories; the call\'s extra_content goes back to the provider in the loop', async () => {
    const n0 = srv.requests.length;
    srv.setHandler((body: WireRequest) => {
      const last = body.messages[body.messages.length - 1]!;
      if (last.role === 'tool') return chat('Done.');
      return { kind: 'raw', status: 200, text: JSON.stringify({ choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', content: null, reasoning_content: 'Ask before telling.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send_message', arguments: '{"text":"Which step?"}' }, extra_content: { google: { thought_signature: 'sig' } } }] } }] }) };
    });
    const res = await llmRun();
    expect(res.reason).toBe('horizon_reached');
    const calls = of(res.events, 'model_call');
    expect(calls[0]!.response).toMatchObject({ reasoning: 'Ask before telling.', toolCalls: [{ extra: { extra_content: { google: { thought_signature: 'sig' } } } }] });
    const followUp = srv.requests.slice(n0).find((r) => r.body.messages.some((m) => m.role === 'tool'))!;
    const assistant = followUp.body.messages.find((m) => m.role === 'assistant') as unknown as { tool_calls: Record<string, unknown>[] };
    expect(assistant.tool_calls[0]!.extra_content).toEqual({ google: { thought_signature: 'sig' } });
    const line = trajectories(res.events)[0]!;
    expect(line.messages.find((m) => m.role === 'assistant')).toMatchObject({ reasoning_content: 'Ask before telling.' });
  });
});

/** An HttpTransport that hands each body to an agent function in this process. */
const inProcess = (agent: (body: { type: string; step: number }) => unknown): HttpTransport => ({
  post: async (_url, body) => ({ status: 200, text: JSON.stringify(agent(JSON.parse(body) as never)) }),
  wait: async () => undefined,
});

async function httpRun(call: Record<string, unknown>) {
  const rec = runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'http', config: { url: 'http://agent.test/', name: 'fwd', model: 'm', retries: 0 } }, seed: 3 });
  return executeRun(rec, bktEnv({ http: inProcess((b) => (b.step === 0 ? { calls: [{ name: 'send_message', ...call }], end: true } : { calls: [], end: true })) }));
}

describe('an HTTP agent that writes its arguments under another name', () => {
  it('OpenAI\'s "arguments" (object or JSON text) is read as "args": the messages are sent', async () => {
    for (const args of [{ text: 'Try the first step.' }, '{"text": "Try the first step."}']) {
      const res = await httpRun({ arguments: args });
      expect(res.reason).toBe('horizon_reached');
      const calls = of(res.events, 'tool_call');
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((c) => c.result.ok)).toBe(true);
      expect(codes(res.events)).toEqual([]);
    }
  });

  it('"parameters" or "input" (other formats) is refused by name (a tutor_error), never run as a call with no arguments', async () => {
    for (const k of ['parameters', 'input']) {
      const res = await httpRun({ [k]: { text: 'hi' } });
      expect(res.reason).toBe('tutor_error');
      expect(res.message).toContain(`"${k}" is not read: this protocol's arguments field is "args"`);
    }
    const both = await httpRun({ args: { text: 'a' }, arguments: { text: 'b' } });
    expect(both.reason).toBe('tutor_error');
    expect(both.message).toMatch(/not both/);
  });

  it('an agent whose every action fails: NO_VALID_ACTION and TOOL_CALLS_FAILING name the error', async () => {
    const res = await httpRun({ args: { message: 'wrong field' } });
    expect(res.reason).toBe('horizon_reached');
    const w = runWarnings(res.events);
    expect(w.map((x) => x.code)).toEqual(['NO_VALID_ACTION', 'TOOL_CALLS_FAILING']);
    expect(w[0]!.message).toMatch(/all \d+ tool calls failed, most often INVALID_ARGS \(\d+×, e\.g\. send_message: "/);
  });
});

describe('an HTTP agent is told that its run ended, and how', () => {
  it('one run_end POST after the run (not in the trace): reason, days, calls, failed calls, warnings; a failed notice is reported, not swallowed', async () => {
    const bodies: { type: string; [k: string]: unknown }[] = [];
    const rec = runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'http', config: { url: 'http://agent.test/', name: 'fwd', model: 'm', retries: 0 } }, seed: 3 });
    const agent = (b: { type: string; step: number }) => {
      bodies.push(b as never);
      return b.type === 'wake' ? { calls: [{ name: 'send_message', args: { message: 'wrong field' } }], end: true } : { calls: [], end: true };
    };
    const res = await executeRun(rec, bktEnv({ http: inProcess(agent) }));
    expect(res.reason).toBe('horizon_reached');
    const last = bodies[bodies.length - 1]!;
    expect(last).toMatchObject({ protocol: 'educlaw-http-tutor/1', type: 'run_end', run_id: res.runId, reason: 'horizon_reached', message: null, days: 3 });
    expect(last.failed_calls).toBe(last.calls);
    expect((last.warnings as { code: string }[]).map((w) => w.code)).toEqual(['NO_VALID_ACTION', 'TOOL_CALLS_FAILING']);
    expect(bodies.filter((b) => b.type === 'run_end')).toHaveLength(1);
    expect(res.events[res.events.length - 1]!.type).toBe('run_end');
    expect(res.notices).toBeUndefined();
    // An agent that cannot be reached at the end: the run is complete, the notice says what failed.
    const down: HttpTransport = { post: async (_u, body) => (JSON.parse(body).type === 'run_end' ? { status: 503, text: 'down' } : { status: 200, text: JSON.stringify({ calls: [], end: true }) }), wait: async () => undefined };
    const res2 = await executeRun(rec, bktEnv({ http: down }));
    expect(res2.notices).toEqual(['agent fwd answered HTTP 503 to the run_end notice']);
  });
});

describe('no warning for set-ups that work', () => {
  it('the planner, and the silent control (it calls stay_silent on purpose)', async () => {
    for (const t of ['planner', 'silent']) {
      const res = await runWith(onBkt(miniScenario()), t);
      expect(codes(res.events)).toEqual([]);
    }
  });
});
