import { describe, expect, it } from 'vitest';
import { miniScenario, runWith } from '../../../testing/fixtures';
import { scoreTrace, toJsonl, type TraceEvent, type ChatRequest, type MockReply } from '../../index';
import { MockLlm, LlmError, llmTutor, llmTutorConfig, LMS_TOOL_SPECS, toolSpecs, HARNESS_NAMES } from '../../index';

const of = <K extends TraceEvent['type']>(ev: TraceEvent[], type: K) => ev.filter((e): e is Extract<TraceEvent, { type: K }> => e.type === type);

/** A tiny tutor policy: on each wake read assignments, then message on help requests, then stop. */
function policy(req: ChatRequest): MockReply {
  const sys = req.messages[0]?.content ?? '';
  if (!req.tools) {
    if (sys.includes('lesson plan')) return { content: JSON.stringify({ objective: 'Solve one-step equations', skill_ids: [87], phases: [{ phase: 'objective', plan: 'say the goal' }, { phase: 'present', plan: 'worked example' }, { phase: 'practice', plan: 'assign 3 items' }] }) };
    if (sys.includes('notebook')) return { content: 'Learner struggles with negatives. Plan: practice skill 68.' };
    return { content: 'ok' };
  }
  const last = req.messages[req.messages.length - 1]!;
  if (last.role === 'user') {
    if (last.content.includes('asks for help')) return { toolCalls: [{ name: 'get_assignments', arguments: {} }] };
    if (last.content.includes('day is ending')) return { toolCalls: [{ name: 'stay_silent', arguments: { reason: 'night' } }] };
    return { content: 'Nothing to do.' };
  }
  if (last.role === 'tool') {
    const prev = [...req.messages].reverse().find((m) => m.role === 'assistant');
    const called = prev && prev.role === 'assistant' ? (prev.toolCalls ?? []).map((c) => c.name) : [];
    if (called.includes('get_assignments')) return { toolCalls: [{ name: 'send_message', arguments: { text: 'What is the first step? Try writing the equation.' } }] };
    return { content: 'Done.' };
  }
  return { content: 'Done.' };
}

async function run(harness: string, llm: MockLlm, extra: Record<string, unknown> = {}, signal?: AbortSignal) {
  const config = llmTutorConfig({ harness, model: llm.model, provider: llm.provider, ...extra });
  return runWith(miniScenario(), 'llm', { tutorConfig: config, env: { llm: () => llm }, ...(signal ? { signal } : {}) });
}

describe('LLM tutors (MockLlm)', () => {
  it('see exactly the LMS tools, as toolSpecs() describes them', async () => {
    expect(LMS_TOOL_SPECS).toEqual(toolSpecs());
    const llm = new MockLlm(policy);
    await run('reactive', llm);
    const withTools = llm.requests.filter((r) => r.tools);
    expect(withTools.length).toBeGreaterThan(0);
    for (const r of withTools) expect(r.tools).toEqual(toolSpecs());
  });

  it.each(HARNESS_NAMES)("%s: tells the model the run's horizon (the mini scenario's 3 days), never a fixed 30", async (harness) => {
    const llm = new MockLlm(policy);
    await run(harness, llm);
    const text = llm.requests.flatMap((r) => r.messages.map((m) => m.content ?? '')).join('\n');
    expect(text).toContain('in an online maths course that runs for 3 days.');
    expect(text).toMatch(/It is day 1 \(\w+day\), \d\d:\d\d of the 3-day course\./);
    if (harness === 'notes') expect(text).toContain('across a 3-day course');
    if (harness === 'curriculum') expect(text).toContain('Today is day 1 of 3.');
    if (harness === 'curriculum') expect(text).toContain('in a 3-day online maths course');
    expect(text).not.toMatch(/30-day|30 days|of 30\./);
  });

  it.each(HARNESS_NAMES)('%s: completes the mini scenario, records harness and model, traces every model call', async (harness) => {
    const llm = new MockLlm(policy, { model: 'm1', provider: 'p1', price: { input: 1, output: 2 } });
    const res = await run(harness, llm);
    expect(res.reason).toBe('horizon_reached');
    const start = res.events[0]!;
    expect(start.type === 'run_start' && start.tutor).toMatchObject({ name: 'llm', config: { harness, model: 'm1', provider: 'p1' } });
    const calls = of(res.events, 'model_call');
    expect(calls.length).toBe(llm.requests.length);
    expect(calls.every((c) => c.role === 'tutor' && c.provider === 'p1' && c.model === 'm1')).toBe(true);
    const rep = scoreTrace(res.events);
    expect(rep.tutor).toBe(`llm/${harness}/m1`);
    expect(rep.details.llm!.tutor.calls).toBe(calls.length);
    expect(rep.details.llm!.tutor.cost).toBeGreaterThan(0);
    expect(rep.actions.send_message).toBeGreaterThan(0);
    if (harness === 'notes') expect(calls.some((c) => c.purpose === 'notes:update')).toBe(true);
    if (harness === 'curriculum') {
      expect(calls.some((c) => c.purpose === 'lesson:plan')).toBe(true);
      const later = llm.requests.filter((r) => r.tools).map((r) => r.messages[0]!.content ?? '');
      expect(later.some((s) => s.includes("Today's lesson plan") && s.includes('Solve one-step equations'))).toBe(true);
    }
    if (harness === 'notes') {
      const sys = llm.requests.filter((r) => r.tools).map((r) => r.messages[0]!.content ?? '');
      expect(sys.some((s) => s.includes('Learner struggles with negatives'))).toBe(true);
    }
  });

  it('the same mock replies give a byte-identical trace', async () => {
    const a = toJsonl((await run('notes', new MockLlm(policy))).events);
    const b = toJsonl((await run('notes', new MockLlm(policy))).events);
    expect(a).toBe(b);
  });

  it('malformed calls (bad JSON, unknown tool, invalid args) go back to the model as tool errors and are traced; the run goes on', async () => {
    let n = 0;
    const llm = new MockLlm((req) => {
      const last = req.messages[req.messages.length - 1]!;
      if (last.role === 'user' && n++ < 3) return { toolCalls: [{ name: 'send_message', arguments: '{"text": "hi' }, { name: 'teleport', arguments: {} }, { name: 'assign_items', arguments: { count: 99 } }] };
      return { content: 'ok' };
    });
    const res = await run('reactive', llm);
    expect(res.reason).toBe('horizon_reached');
    const errs = of(res.events, 'tool_call').filter((c) => !c.result.ok);
    const codes = errs.map((e) => (e.result.ok ? '' : e.result.error.code));
    expect(codes).toContain('INVALID_ARGS');
    expect(codes).toContain('UNKNOWN_TOOL');
    const badJson = errs.find((e) => e.args === '{"text": "hi');
    expect(badJson && !badJson.result.ok && badJson.result.error.message).toMatch(/not valid JSON/);
    // The model saw the errors as tool results.
    const toolMsgs = llm.requests.flatMap((r) => r.messages).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolMsgs.some((t) => t.includes('UNKNOWN_TOOL'))).toBe(true);
    expect(toolMsgs.some((t) => t.includes('not valid JSON'))).toBe(true);
  });

  it('a model that never stops calling tools is cut off after maxStepsPerWake model steps', async () => {
    const llm = new MockLlm(() => ({ toolCalls: [{ name: 'get_gradebook', arguments: {} }] }));
    const res = await run('reactive', llm, { maxStepsPerWake: 3 });
    expect(res.reason).toBe('horizon_reached');
    const wakes = of(res.events, 'wake').length;
    expect(llm.requests.length).toBe(wakes * 3);
  });

  it('a provider that keeps failing stops the run cleanly with reason llm_error and the code', async () => {
    const llm = new MockLlm(() => new LlmError('LLM_SERVER', 'p1 answered 500 three times'));
    const res = await run('reactive', llm);
    expect(res.reason).toBe('llm_error');
    const err = of(res.events, 'error')[0]!;
    expect(err.code).toBe('LLM_SERVER');
    const call = of(res.events, 'model_call')[0]!;
    expect(call.error).toMatchObject({ code: 'LLM_SERVER' });
    expect(res.events[res.events.length - 1]).toMatchObject({ type: 'run_end', reason: 'llm_error' });
  });

  it('cancelling mid-call ends the run as aborted', async () => {
    const ac = new AbortController();
    let n = 0;
    const llm = new MockLlm(() => {
      if (++n === 3) ac.abort();
      return n === 3 ? new LlmError('LLM_ABORTED', 'cancelled') : { content: 'ok' };
    });
    const res = await run('reactive', llm, {}, ac.signal);
    expect(res.reason).toBe('aborted');
  });

  it('refuses to start without a client, or with a config that names another model', () => {
    const config = llmTutorConfig({ harness: 'reactive', model: 'a', provider: 'p' });
    expect(() => llmTutor.create({ config })).toThrow(/needs a model client/);
    expect(() => llmTutor.create({ config, llm: new MockLlm([], { model: 'b', provider: 'p' }) })).toThrow(/names p\/a/);
    expect(() => llmTutorConfig({ harness: 'nope', model: 'a', provider: 'p' })).toThrow(/harness/);
  });
});
