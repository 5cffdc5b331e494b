import { describe, expect, it } from 'vitest';
import { miniScenario, runWith } from '../../testing/fixtures';
import { MockLlm, gradeReply, scoreTrace, buildItemBank, Rng, HELP_TEMPLATES, type ChatRequest, type TraceEvent, type ReplyRequest } from '../index';

const of = <K extends TraceEvent['type']>(ev: TraceEvent[], type: K) => ev.filter((e): e is Extract<TraceEvent, { type: K }> => e.type === type);

describe('LLM student voice', () => {
  const s = miniScenario();
  const bank = buildItemBank({ skills: [87], itemsPerLevel: 2, probesPerSkill: 1 }, new Rng(1));
  const item = bank.items[0]!;
  const base: ReplyRequest = { persona: s.learner.persona, item, tutorTexts: ['Try it'], disclosed: false, canStep: false, pKnow: 0.3 };

  it('grades the rendered attempt against the decided correctness', () => {
    expect(gradeReply({ ...base, canStep: true }, { message: `It's ${item.answer}`, answer: item.answer })).toMatchObject({ decided: true, rendered: true, mismatch: false });
    expect(gradeReply({ ...base, canStep: false }, { message: `It's ${item.answer}`, answer: item.answer })).toMatchObject({ decided: false, rendered: true, mismatch: true });
    expect(gradeReply({ ...base, canStep: true }, { message: 'no idea', answer: item.misconceptions[0]!.answer })).toMatchObject({ rendered: false, mismatch: true });
    // No stated answer: not graded, unless the message states the answer the learner was decided not to know.
    expect(gradeReply(base, { message: 'Hmm, I am confused', answer: null })).toMatchObject({ rendered: null, mismatch: false });
    expect(gradeReply(base, { message: `maybe ${item.answer}?`, answer: null })).toMatchObject({ rendered: true, mismatch: true });
    expect(gradeReply({ ...base, disclosed: true }, { message: 'ok', answer: item.answer })).toMatchObject({ decided: true, mismatch: false });
  });

  it('speaks the free-text replies (help requests stay templates), records the check per reply and the mismatch rate', async () => {
    let n = 0;
    const llm = new MockLlm((req: ChatRequest) => {
      n++;
      const u = req.messages[1]!.content ?? '';
      expect(req.messages[0]!.content).toContain('Test Learner');
      if (n === 1) return { content: 'not json' }; // one malformed reply, retried
      if (u.includes('CANNOT')) return { content: JSON.stringify({ message: 'I got 5?', answer: n % 4 === 0 ? '5' : null }) };
      return { content: JSON.stringify({ message: 'Let me try: 2x = 10', answer: null }) };
    }, { model: 'student-m' });
    const res = await runWith(s, 'withholder', { voice: { kind: 'llm', provider: 'mock', model: 'student-m' }, env: { llm: () => llm } });
    expect(res.reason).toBe('horizon_reached');
    const start = res.events[0]!;
    expect(start.type === 'run_start' && start.voice).toBe('llm:mock/student-m');
    const learnerMsgs = of(res.events, 'message').filter((m) => m.from === 'learner');
    const help = learnerMsgs.filter((m) => m.help);
    expect(help.length).toBeGreaterThan(0);
    for (const h of help) expect(Object.values(HELP_TEMPLATES)).toContain(h.text);
    expect(learnerMsgs.some((m) => m.text === 'I got 5?' || m.text === 'Let me try: 2x = 10')).toBe(true);
    const calls = of(res.events, 'model_call').filter((c) => c.role === 'student');
    expect(calls.length).toBe(llm.requests.length);
    expect(calls[0]!.error?.code).toBe('LLM_BAD_RESPONSE');
    const rep = scoreTrace(res.events);
    expect(rep.details.voice).toMatchObject({ malformed: 1 });
    expect(rep.details.voice!.replies).toBe(calls.length - 1);
  });

  it('a voice that stays malformed stops the run with llm_error (no silent template fallback)', async () => {
    const llm = new MockLlm(() => ({ content: 'blah' }));
    const res = await runWith(s, 'withholder', { voice: { kind: 'llm', provider: 'mock', model: 'mock-model' }, env: { llm: () => llm } });
    expect(res.reason).toBe('llm_error');
    expect(of(res.events, 'error')[0]).toMatchObject({ code: 'LLM_BAD_RESPONSE' });
  });
});
