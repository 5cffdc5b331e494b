import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION, MockLlm, ReplayLlm, modelCallRecord, resumePoint, type ChatRequest, type TraceEvent } from '../index';

const req = (text: string): ChatRequest => ({ messages: [{ role: 'user', content: text }], temperature: 0.2 });
const startEv = { seq: 0, t: 0, type: 'run_start', engine: ENGINE_VERSION } as unknown as TraceEvent;

describe('ReplayLlm', () => {
  it('answers recorded calls from the trace, checks each request against the recorded digest, then goes live', async () => {
    const live = new MockLlm(() => ({ content: 'live reply' }), { provider: 'p', model: 'm' });
    const recorded = modelCallRecord('tutor', 'reactive:step', live, req('hello'), { res: { content: 'recorded reply', toolCalls: [], finishReason: 'stop', usage: null, cost: null, retries: 0 } });
    const prefix = [startEv, { seq: 1, t: 0, type: 'model_call', turn: 1, ...recorded } as TraceEvent];
    const r = new ReplayLlm(live, prefix, 'tutor');
    expect((await r.chat(req('hello'))).content).toBe('recorded reply');
    expect(live.requests).toHaveLength(0);
    expect((await r.chat(req('next'))).content).toBe('live reply');
    expect(live.requests).toHaveLength(1);
    // The same position asked with another request (same length, other text) is a divergence, not a recorded answer.
    const r2 = new ReplayLlm(live, prefix, 'tutor');
    await expect(r2.chat(req('hellO'))).rejects.toMatchObject({ code: 'RESUME_DIVERGED', message: expect.stringContaining('model call 1') });
    // Another role's calls are not this client's to answer.
    expect(new ReplayLlm(live, prefix, 'student').counts).toEqual({ replayed: 0, left: 0 });
  });
});

describe('resumePoint', () => {
  it('keeps everything before run_end without the failure that ended the run, and refuses complete runs', () => {
    const ev = (seq: number, e: Record<string, unknown>) => ({ seq, t: 0, ...e }) as unknown as TraceEvent;
    const failed = [startEv, ev(1, { type: 'wake', turn: 1 }), ev(2, { type: 'model_call', response: null }), ev(3, { type: 'error', code: 'LLM_SERVER', message: 'x' }), ev(4, { type: 'run_end', reason: 'llm_error', days: 1 })];
    expect(resumePoint(failed).map((e) => e.seq)).toEqual([0, 1]);
    const done = [startEv, ev(1, { type: 'run_end', reason: 'horizon_reached', days: 1 })];
    expect(() => resumePoint(done)).toThrow(/complete/);
    const halfCall = [startEv, ev(1, { type: 'wake', turn: 1 }), ev(2, { type: 'message', from: 'tutor', text: 'hi' })];
    expect(resumePoint(halfCall).map((e) => e.seq)).toEqual([0, 1]);
    // Another engine version's trace reads and scores but does not resume: the error names both versions.
    const old = [{ ...startEv, engine: 'educlaw-lab-engine-1' } as TraceEvent, ev(1, { type: 'wake', turn: 1 })];
    expect(() => resumePoint(old)).toThrow(/engine educlaw-lab-engine-1 .*educlaw-lab-engine-5/);
  });
});
