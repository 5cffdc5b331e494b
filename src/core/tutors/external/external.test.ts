/**
 * External tutors as first-class tutors, in process (no network: the HTTP transport answers from
 * the example agent's function; the MCP agent's turns are held through the AgentDriver that the
 * MCP server wraps): their run ids and labels name the agent, and the analyses read an external
 * agent as a harness ("mcp:<agent>", "http:<name>") on the base model it reports, beside LLM
 * tutors in the model × harness table; an agent that reports no model is left out of it, counted.
 */
import { describe, expect, it } from 'vitest';
import { AgentDriver, TrajectoryLineSchema, type TurnLine, digestRun, trajectories, executeRun, mcpTutorConfig, modelHarness, openRun, runRecord, tutorLabel, type HttpTransport, type RunDigest } from '../../index';
import { bktEnv, miniScenario, onBkt } from '../../../testing/fixtures';
import { exampleAgent } from '../../../../examples/http-agent/agent';
import { teach } from '../../../../examples/mcp-client/policy';

/** An HttpTransport that hands each body to an agent function in this process. */
const inProcess = (agent: (body: never) => unknown): HttpTransport => ({
  post: async (_url, body) => ({ status: 200, text: JSON.stringify(agent(JSON.parse(body) as never)) }),
  wait: async () => undefined,
});

async function httpRun(name: string, model: string, seed: number) {
  const rec = runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'http', config: { url: 'http://agent.test/', name, model } }, seed });
  const res = await executeRun(rec, bktEnv({ http: inProcess(exampleAgent({ name, model }) as never) }));
  expect(res.reason).toBe('horizon_reached');
  return res.events;
}

async function mcpRun(agent: string, model: string, seed: number) {
  const rec = runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'mcp', config: mcpTutorConfig({ agent, version: '2.1', model }) }, seed });
  const run = await openRun(rec, bktEnv());
  const d = new AgentDriver(run.session);
  for (let ev = await d.next(); ev.type === 'wake'; ev = await d.next()) {
    const g = teach(ev.wake);
    for (let s = g.next(); !s.done; ) s = g.next(d.call(s.value[0], s.value[1]) as never);
  }
  const res = run.session.result();
  expect(res.reason).toBe('horizon_reached');
  return res.events;
}

describe('external tutors in the analyses', () => {
  it('run ids and labels name the agent; digests make it a harness on its reported model; the model × harness table has them beside an LLM tutor; their trajectories hold the calls they made', async () => {
    const h1 = await httpRun('Acme Tutor', 'org/base-7b', 1);
    const m1 = await mcpRun('my-agent', 'org/base-7b', 1);
    const m2 = await mcpRun('my-agent', 'other-3b', 2);
    const h2 = await httpRun('Acme Tutor', 'other-3b', 2);
    const anon = await mcpRun('no-model-agent', '', 3);
    const start = (ev: typeof h1) => (ev[0]!.type === 'run_start' ? ev[0]! : null)!;
    expect(start(h1).runId).toBe('mini-3day__http-acme-tutor-org-base-7b__s1');
    expect(start(m1).runId).toBe('mini-3day__mcp-my-agent-org-base-7b__s1');
    expect(start(anon).runId).toBe('mini-3day__mcp-no-model-agent__s3');
    expect(tutorLabel(start(h1).tutor)).toBe('http/Acme Tutor/org/base-7b');
    expect(tutorLabel(start(m2).tutor)).toBe('mcp/my-agent/other-3b');

    const digests = [h1, m1, m2, h2, anon].map((events) => digestRun({ events }));
    expect(digests.map((d) => [d.tutorName, d.harness, d.model])).toEqual([
      ['http', 'http:Acme Tutor', 'org/base-7b'],
      ['mcp', 'mcp:my-agent', 'org/base-7b'],
      ['mcp', 'mcp:my-agent', 'other-3b'],
      ['http', 'http:Acme Tutor', 'other-3b'],
      ['mcp', 'mcp:no-model-agent', null],
    ]);
    // An LLM tutor's digest beside them (the shape digestRun gives an llm run).
    const llm: RunDigest = { ...digests[0]!, runId: 'x__llm-reactive-org-base-7b__s1', tutor: 'llm/reactive/org/base-7b', tutorName: 'llm', harness: 'reactive', model: 'org/base-7b' };
    const m = modelHarness([...digests, llm], 'learningGain');
    expect(m.byHarness.cols).toEqual(['http:Acme Tutor', 'mcp:my-agent', 'reactive']);
    expect(m.byHarness.rows).toEqual(['org/base-7b', 'other-3b']);
    expect(m.runs).toBe(5);
    expect(m.unknown).toBe(1);
    expect(m.byHarness.cells['org/base-7b']!['mcp:my-agent']!.n).toBe(1);
    expect(m.byHarness.cells['other-3b']!['reactive']!.n).toBe(0);

    // Trajectories: the HTTP agent's replies are its assistant messages (source model_calls), the MCP agent's calls one each (tool_calls).
    for (const [events, source] of [[h1, 'model_calls'], [m1, 'tool_calls']] as const) {
      const lines = trajectories(events).map((l) => TrajectoryLineSchema.parse(JSON.parse(JSON.stringify(l))) as TurnLine);
      expect(lines.every((l) => l.source === source && l.tutor.harness === digestRun({ events }).harness)).toBe(true);
      const asked = lines.flatMap((l) => l.messages.flatMap((x) => (x.role === 'assistant' && x.tool_calls ? x.tool_calls.map((c) => `${c.function.name} ${c.function.arguments}`) : [])));
      const made = events.flatMap((e) => (e.type === 'tool_call' ? [`${e.tool} ${typeof e.args === 'string' ? e.args : JSON.stringify(e.args)}`] : []));
      expect(asked).toEqual(made);
    }
  });
});
