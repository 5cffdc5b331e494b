/**
 * LLM tutors, the LLM voice and the judge panel end to end against a real local HTTP server that
 * speaks OpenAI chat completions (src/testing/mock-openai-server.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAi, policyReply, chat, type MockServer, type WireRequest } from '../../testing/mock-openai-server';
import { defaultScenario, miniScenario, runWith } from '../../testing/fixtures';
import { OpenAiCompatClient } from './openai-compat';
import { ProviderSchema } from './config';
import { formatAxisTable, judgeTrace, llmTutorConfig, parseJsonl, scoreTrace, toJsonl, withVerdicts, PANEL_DEFAULTS, type Scenario, type TraceEvent } from '../../core/index';

const KEY = 'sk-live-TOPSECRET-abcdef123456';
let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

const of = <K extends TraceEvent['type']>(ev: TraceEvent[], type: K) => ev.filter((e): e is Extract<TraceEvent, { type: K }> => e.type === type);
const provider = (name = 'local', extra: Record<string, unknown> = {}) => ProviderSchema.parse({ name, baseURL: srv.url, backoffMs: 5, models: { 'tutor-m': { input: 0.5, output: 1.5 } }, ...extra });

async function llmRun(scenario: Scenario, harness: string, opts: { voice?: boolean; providerExtra?: Record<string, unknown> } = {}) {
  const p = provider('local', opts.providerExtra);
  const config = llmTutorConfig({ harness, model: 'tutor-m', provider: 'local' });
  return runWith(scenario, 'llm', {
    tutorConfig: config,
    ...(opts.voice ? { voice: { kind: 'llm' as const, provider: 'local', model: 'student-m' } } : {}),
    env: { llm: ({ model }) => new OpenAiCompatClient(p, model, { apiKey: KEY }) },
  });
}

describe('LLM runs over HTTP', () => {
  it('a full 30-day LLM-tutor run completes, with malformed tool calls answered as tool errors', async () => {
    let injected = 0;
    srv.setHandler((body: WireRequest, n) => {
      const last = body.messages[body.messages.length - 1]!;
      if (body.tools && last.role === 'user' && injected < 2) {
        injected++;
        return chat(null, [
          { name: 'send_message', arguments: '{"text": "unterminated' },
          { name: 'summon_answer_key', arguments: '{}' },
        ]);
      }
      return policyReply(body);
    });
    const n0 = srv.requests.length;
    const t0 = performance.now();
    const res = await llmRun(defaultScenario(), 'reactive');
    const secs = (performance.now() - t0) / 1000;
    expect(res.reason).toBe('horizon_reached');
    expect(res.events[res.events.length - 1]).toMatchObject({ type: 'run_end', days: 30 });
    const calls = of(res.events, 'model_call');
    expect(calls.length).toBe(srv.requests.length - n0);
    const bad = of(res.events, 'tool_call').filter((c) => !c.result.ok);
    expect(bad.filter((c) => c.tool === 'summon_answer_key' && !c.result.ok && c.result.error.code === 'UNKNOWN_TOOL')).toHaveLength(2);
    expect(bad.filter((c) => c.args === '{"text": "unterminated' && !c.result.ok && c.result.error.code === 'INVALID_ARGS')).toHaveLength(2);
    const rep = scoreTrace(res.events);
    expect(rep.complete).toBe(true);
    // The stand-in model replies to most help requests, with a prompt that names nothing of the
    // item ("What is the problem asking you to find? Try the first step."): replied, not answered.
    const help = rep.details.responsiveness as { requests: number; answered: number; repliedUnengaged: number };
    expect((help.answered + help.repliedUnengaged) / help.requests).toBeGreaterThan(0.5);
    expect(rep.responsiveness).toBe(0);
    expect(rep.details.llm!.tutor.promptTokens).toBe(100 * calls.length);
    expect(rep.details.llm!.tutor.cost).toBeCloseTo((calls.length * (100 * 0.5 + 20 * 1.5)) / 1e6, 9);
    const text = toJsonl(res.events);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('TOPSECRET');
    console.log(`30-day reactive LLM run over HTTP: ${calls.length} model calls, ${res.events.length} events, ${secs.toFixed(1)} s`);
  });

  it.each(['notes', 'curriculum'])('%s harness over HTTP, with the LLM student voice', async (harness) => {
    srv.setHandler(policyReply);
    const res = await llmRun(miniScenario(), harness, { voice: true });
    expect(res.reason).toBe('horizon_reached');
    const calls = of(res.events, 'model_call');
    expect(calls.some((c) => c.purpose === (harness === 'notes' ? 'notes:update' : 'lesson:plan'))).toBe(true);
    const student = calls.filter((c) => c.role === 'student');
    expect(student.length).toBeGreaterThan(0);
    expect(student.every((c) => c.model === 'student-m' && c.voiceCheck)).toBe(true);
    const rep = scoreTrace(res.events);
    expect(rep.details.voice!.replies).toBe(student.length);
    // The mock's student voice never submits an answer and its messages ("x = 5") reveal none of
    // these items' answers, so no reply can be graded: the rate is n/a, said so, never a 0 %.
    expect(student.some((c) => c.voiceCheck!.decided) && student.some((c) => !c.voiceCheck!.decided)).toBe(true);
    expect(rep.details.voice).toEqual({ replies: student.length, graded: 0, mismatches: 0, mismatchRate: null, malformed: 0 });
    expect(formatAxisTable([rep])).toMatch(new RegExp(`student voice mismatch\\s+n/a \\(0 of ${student.length} replies graded\\)`));
  });

  it('429s (Retry-After), 500s and a timeout mid-run are retried; the retries are in the trace', async () => {
    let k = 0;
    srv.setHandler((body: WireRequest) => {
      k++;
      if (k === 2) return { kind: 'status', status: 429, headers: { 'retry-after-ms': '20' } };
      if (k === 5 || k === 6) return { kind: 'status', status: 500 };
      if (k === 9) return { kind: 'delay', ms: 400, then: chat('late') };
      return policyReply(body);
    });
    const res = await llmRun(miniScenario(), 'reactive', { providerExtra: { timeoutMs: 150 } });
    expect(res.reason).toBe('horizon_reached');
    const retries = of(res.events, 'model_call').reduce((a, c) => a + c.retries, 0);
    expect(retries).toBe(4);
    expect(scoreTrace(res.events).details.llm!.tutor.retries).toBe(4);
  });

  it('a provider that keeps failing stops the run cleanly with llm_error and the reason', async () => {
    srv.setHandler(() => ({ kind: 'status', status: 503 }));
    const res = await llmRun(miniScenario(), 'reactive', { providerExtra: { maxRetries: 2 } });
    expect(res.reason).toBe('llm_error');
    const end = res.events[res.events.length - 1]!;
    expect(end.type === 'run_end' && end.message).toMatch(/local\/tutor-m: server error \(503\).*after 2 retries/);
    expect(of(res.events, 'error')[0]!.code).toBe('LLM_SERVER');
  });
});

describe('judge panel over HTTP', () => {
  it('scores stored runs; a judge sending malformed replies ends unscored (never a default number); no key in the file', async () => {
    srv.setHandler(policyReply);
    const run = await runWith(miniScenario(), 'withholder');
    let malformed = 0;
    srv.setHandler((body: WireRequest) => {
      if (body.model === 'judge-bad') {
        malformed++;
        return malformed % 2 ? chat('Overall the tutor did well, I would say 4 out of 5.') : chat('{"g1_attention": "four"}');
      }
      return policyReply(body);
    });
    const p = provider('judges', { models: { 'judge-4': { input: 1, output: 2 } } });
    const judges = ['judge-4', 'judge-2', 'judge-bad'].map((m) => ({ id: m, client: new OpenAiCompatClient(p, m, { apiKey: KEY }) }));
    const out = await judgeTrace(run.events, { ...PANEL_DEFAULTS, id: 'http-panel', judges, daysPerRun: null });
    const file = toJsonl(withVerdicts(run.events, out.events));
    expect(file).not.toContain(KEY);
    const back = parseJsonl(file);
    const rep = scoreTrace(back.events);
    expect(rep.judged.gagne).toBeCloseTo(3, 6); // mean of judge-4 and judge-2; judge-bad unscored
    expect(rep.judged.helpfulness).toBeCloseTo(3, 6);
    expect(rep.judged.answerHolding).toBe(1);
    const bad = of(back.events, 'judge_verdict').filter((v) => v.judge === 'judge-bad');
    expect(bad.length).toBeGreaterThan(0);
    expect(bad.every((v) => v.status === 'unscored' && v.scores === null && v.holds === null)).toBe(true);
    expect(bad.filter((v) => v.rubric !== 'answer_holding').every((v) => /malformed reply after 3 attempts/.test(v.reason ?? ''))).toBe(true);
    expect(rep.details.judged.detail.gagne!.perJudge.find((j) => j.judge === 'judge-bad')).toMatchObject({ mean: null, scored: 0 });
    expect(rep.details.llm!.judge.cost).toBeGreaterThan(0);
  });
});
