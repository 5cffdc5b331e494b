/**
 * Coupling "student-attempts" (student-attempts.ts, learner.ts): the conditioning rule, the
 * grading, how the mode is recorded (only when chosen: tracer-decides runs keep their bytes), the
 * refusals, and resume (the attempts' recorded model calls are answered from the trace). The
 * end-to-end checks against the scripted HTTP server are in src/adapters/llm/student-attempts.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { AFTER_DISCLOSURE, ATTEMPT_PROMPT_VERSION, Rng, attemptMessages, buildItemBank, effectiveScenario, gradeAttempt, knowledgeInstruction, parseJsonl, recordFromTrace, runIdOf, runRecord, toJsonl, type TraceEvent } from '../index';
import { miniScenario, onBkt, runWith } from '../../testing/fixtures';
import { itemsByStem, scriptedStudentLlm } from '../../testing/scripted-student';

const bank = buildItemBank({ skills: [87], itemsPerLevel: 2, probesPerSkill: 1 }, new Rng(1));
const item = bank.items[0]!;

describe('the LLM student: conditioning and grading', () => {
  it('states the tracer\'s P(correct) as a band in words and a percentage', () => {
    expect(knowledgeInstruction(0.93)).toMatch(/^You know this kind of problem well\. .* about 93%/);
    expect(knowledgeInstruction(0.7)).toMatch(/^You mostly know how .* about 70%/);
    expect(knowledgeInstruction(0.5)).toMatch(/^You are unsure .* about 50%/);
    expect(knowledgeInstruction(0.3)).toMatch(/^You mostly do not know the method .* about 30%/);
    expect(knowledgeInstruction(0.05)).toMatch(/^You do not know how .* about 5%/);
  });

  it('the prompt holds the persona, the stated chance, the typical mistake, the conversation and earlier tries, never the answer', () => {
    const s = miniScenario();
    const [sys, user] = attemptMessages({
      persona: s.learner.persona,
      learnerName: 'Test Learner',
      item,
      pKnow: 0.42,
      conversation: [
        { from: 'learner', text: "I'm stuck on this one. Can you help me?" },
        { from: 'tutor', text: 'What undoes multiplication?' },
        { from: 'tutor', text: 'Step 1. Divide both sides.', content: { kind: 'worked_example', title: 'An example' } },
      ],
      earlier: [{ response: '7', correct: false }],
    });
    expect(sys!.content).toContain('Test Learner');
    expect(sys!.content).toContain(s.learner.persona.name);
    expect(sys!.content).toContain('about 42%');
    expect(sys!.content).toContain(`(which gives ${item.misconceptions[0]!.answer}).`);
    expect(user!.content).toContain(`The problem: ${item.stem}`);
    expect(user!.content).toContain('[you] I\'m stuck');
    expect(user!.content).toContain('[tutor] What undoes multiplication?');
    expect(user!.content).toContain('[tutor posted a worked example: An example] Step 1.');
    expect(user!.content).toContain('Your earlier tries at this problem: 7 (marked wrong).');
    for (const m of [sys!, user!]) expect(m.content).not.toContain(`right answer is ${item.answer}`);
  });

  it('grades with the answer checker; no answer and malformed replies are wrong with a reason; a correct attempt at a disclosed item is a copy', () => {
    expect(gradeAttempt(item, { ok: true, answer: item.answer, work: null }, false)).toMatchObject({ correct: true, response: item.answer, record: { prompt: ATTEMPT_PROMPT_VERSION, grading: 'checked', answer: item.answer } });
    expect(gradeAttempt(item, { ok: true, answer: `the answer is ${item.answer}`, work: null }, false).correct).toBe(true);
    expect(gradeAttempt(item, { ok: true, answer: item.misconceptions[0]!.answer, work: null }, false)).toMatchObject({ correct: false, record: { grading: 'checked' } });
    expect(gradeAttempt(item, { ok: true, answer: null, work: 'hmm' }, false)).toMatchObject({ correct: false, response: '', record: { grading: 'no_answer', answer: null, reason: 'the student gave no answer (null)' } });
    expect(gradeAttempt(item, { ok: true, answer: '  ', work: null }, false)).toMatchObject({ correct: false, record: { grading: 'no_answer', reason: 'the answer was empty' } });
    expect(gradeAttempt(item, { ok: false, reason: 'not JSON' }, false)).toMatchObject({ correct: false, response: '', record: { grading: 'malformed', reason: 'not JSON' } });
    expect(gradeAttempt(item, { ok: true, answer: item.answer, work: null }, false).evidence).toBe(true);
    expect(gradeAttempt(item, { ok: true, answer: item.answer, work: null }, true)).toMatchObject({ correct: true, evidence: false, record: { grading: 'copied_disclosed' } });
    // After a disclosure no attempt is evidence, right or wrong (keeping only the wrong ones would bias the belief down).
    expect(gradeAttempt(item, { ok: true, answer: item.misconceptions[0]!.answer, work: null }, true)).toMatchObject({ correct: false, evidence: false, record: { grading: 'after_disclosure', reason: AFTER_DISCLOSURE } });
    expect(gradeAttempt(item, { ok: true, answer: null, work: null }, true)).toMatchObject({ correct: false, evidence: false, record: { grading: 'no_answer', reason: `the student gave no answer (null); ${AFTER_DISCLOSURE}` } });
  });
});

describe('the coupling mode in runs', () => {
  const s = miniScenario();
  const items = itemsByStem(runRecord({ scenario: onBkt(s), tutor: { name: 'withholder', config: {} }, seed: 4 }));
  const voice = { kind: 'llm' as const, provider: 'mock', model: 'student-calibrated' };

  it('tracer-decides is the default and is not recorded: run_start has no coupling key, and an explicit tracer-decides gives the same trace', async () => {
    const plain = await runWith(s, 'withholder', { seed: 4 });
    const explicit = await runWith(s, 'withholder', { seed: 4, coupling: 'tracer-decides', chatInstruction: false });
    expect(toJsonl(explicit.events)).toBe(toJsonl(plain.events));
    const start = plain.events[0]!;
    expect(start.type === 'run_start' && 'coupling' in start.scenario.learner).toBe(false);
    expect(start.type === 'run_start' && 'chatInstruction' in start.scenario.learner).toBe(false);
    expect(plain.events.some((e) => e.type === 'attempt' && e.student)).toBe(false);
  });

  it('after the tutor disclosed an item\'s answer, no attempt at it is the student\'s own evidence: a right one is a copy, and both enter the history as not solved', async () => {
    const s2 = miniScenario();
    const its = itemsByStem(runRecord({ scenario: onBkt(s2), tutor: { name: 'answer-giver', config: {} }, seed: 2 }));
    const llm = () => scriptedStudentLlm(its);
    const res = await runWith(s2, 'answer-giver', { seed: 2, voice, coupling: 'student-attempts', env: { llm } });
    const attempts = res.events.filter((e) => e.type === 'attempt' && e.student);
    const after = attempts.filter((e) => e.type === 'attempt' && e.student!.grading === 'after_disclosure');
    const copies = attempts.filter((e) => e.type === 'attempt' && e.student!.grading === 'copied_disclosed');
    expect(after.length).toBeGreaterThan(0);
    expect(copies.length).toBeGreaterThan(0);
    for (const e of [...after, ...copies]) {
      expect(e).toMatchObject({ evidence: true });
      // In the history (as not solved): a belief snapshot follows.
      expect(res.events[e.seq + 1]!.type).toBe('mastery');
    }
    for (const e of after) expect(e).toMatchObject({ source: 'own', correct: false, student: { reason: AFTER_DISCLOSURE } });
  });

  it('student-attempts needs an LLM student voice', async () => {
    await expect(runWith(s, 'withholder', { coupling: 'student-attempts' })).rejects.toThrow(/needs an LLM student voice/);
  });

  it('is recorded in run_start (schema key order), read back by recordFromTrace, and a resumed run replays the attempts\' calls from the trace', async () => {
    let asked = 0;
    const llm = () => {
      const m = scriptedStudentLlm(items);
      return { provider: m.provider, model: m.model, family: null, chat: (r: Parameters<typeof m.chat>[0], sig?: AbortSignal) => (asked++, m.chat(r, sig)) };
    };
    const full = await runWith(s, 'withholder', { seed: 4, voice, coupling: 'student-attempts', env: { llm } });
    expect(full.reason).toBe('horizon_reached');
    const start = full.events[0]!;
    if (start.type !== 'run_start') throw new Error('no run_start');
    expect(Object.keys(start.scenario.learner)).toEqual(['name', 'ability', 'tracer', 'coupling', 'persona']);
    const rec = recordFromTrace(full.events);
    expect(effectiveScenario(rec).learner.coupling).toBe('student-attempts');
    expect(runIdOf(rec)).toBe('mini-3day__withholder__s4__voice-student-calibrated');
    expect(full.runId).toBe(runIdOf(rec));
    const calls = full.events.filter((e) => e.type === 'model_call').length;
    expect(asked).toBe(calls);
    // Resume from the middle: the stored part's calls are answered from the trace, the rest asked live.
    const cut = Math.floor(full.events.length / 2);
    const stored: TraceEvent[] = parseJsonl(toJsonl(full.events.slice(0, cut))).events;
    const before = full.events.slice(0, cut).filter((e) => e.type === 'model_call').length;
    asked = 0;
    const resumed = await runWith(s, 'withholder', { seed: 4, voice, coupling: 'student-attempts', env: { llm }, resume: stored });
    expect(toJsonl(resumed.events)).toBe(toJsonl(full.events));
    expect(asked).toBe(calls - before);
  });
});
