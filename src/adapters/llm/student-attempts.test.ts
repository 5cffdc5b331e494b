/**
 * Coupling "student-attempts" end to end against the scripted OpenAI-compatible server: the LLM
 * student writes each attempt it works out, the item bank's checker grades it, and the graded
 * outcome enters the tracer's history (docs/learning-model.md, "Coupling"). A correct attempt is
 * graded correct and raises the belief; a wrong one is graded wrong; a copied disclosed answer is
 * not evidence; a malformed or empty attempt is a graded wrong answer with the reason recorded.
 * And the calibration of such runs, per student model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat, policyReply, startMockOpenAi, type MockServer, type WireRequest } from '../../testing/mock-openai-server';
import { isAttemptRequest, itemsByStem, readAttemptPrompt, scriptedStudentHandler } from '../../testing/scripted-student';
import { miniScenario, onBkt, runWith } from '../../testing/fixtures';
import { OpenAiCompatClient } from './openai-compat';
import { ProviderSchema } from './config';
import { ATTEMPT_CALLS, ATTEMPT_PROMPT_VERSION, calibrationByMode, runRecord, scoreTrace, type EventOf, type Scenario, type TraceEvent } from '../../core/index';

let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

const of = <K extends TraceEvent['type']>(ev: readonly TraceEvent[], type: K) => ev.filter((e): e is EventOf<K> => e.type === type);

/** The student's runs: tutor × seed on the mini scenario (BKT), coupling student-attempts, with a student model on the scripted server. */
async function studentRun(tutor: string, model: string, opts: { seed?: number; scenario?: Scenario; horizonDays?: number; handler?: (b: WireRequest) => ReturnType<typeof policyReply> } = {}) {
  const scenario = opts.scenario ?? miniScenario();
  const seed = opts.seed ?? 1;
  const items = itemsByStem(runRecord({ scenario: onBkt(scenario), tutor: { name: tutor, config: {} }, seed }));
  srv.setHandler(opts.handler ?? scriptedStudentHandler(items));
  return runWith(scenario, tutor, {
    seed,
    ...(opts.horizonDays ? { horizonDays: opts.horizonDays } : {}),
    voice: { kind: 'llm', provider: 'local', model },
    coupling: 'student-attempts',
    env: { llm: ({ model: m }) => new OpenAiCompatClient(ProviderSchema.parse({ name: 'local', baseURL: srv.url, backoffMs: 5 }), m, { apiKey: 'sk-test' }) },
  });
}

/** The mastery of `skill` in the last snapshot before event `seq`, and in the one right after it. */
function beliefAround(events: readonly TraceEvent[], seq: number, skill: number): [number, number] {
  const ms = of(events, 'mastery');
  const before = [...ms].reverse().find((m) => m.seq < seq)!;
  const after = ms.find((m) => m.seq > seq)!;
  const at = (m: EventOf<'mastery'>) => m.values[m.skills.indexOf(skill)]!;
  return [at(before), at(after)];
}

describe('coupling "student-attempts" against the scripted server', () => {
  it('a correct attempt is graded correct and raises the belief; a wrong one is graded wrong; run_start records the mode', async () => {
    const res = await studentRun('withholder', 'student-calibrated');
    expect(res.reason).toBe('horizon_reached');
    const start = res.events[0]!;
    expect(start.type === 'run_start' && start.scenario.learner.coupling).toBe('student-attempts');
    expect(start.type === 'run_start' && start.voice).toBe('llm:local/student-calibrated');
    const own = of(res.events, 'attempt').filter((a) => a.source === 'own');
    expect(own.length).toBeGreaterThan(3);
    // Every worked-out attempt was written by the student (one model call before it) and graded by the checker.
    const calls = of(res.events, 'model_call').filter((c) => c.purpose === 'student:attempt');
    expect(calls.length).toBe(own.length);
    for (const a of own) expect(a.student).toMatchObject({ prompt: ATTEMPT_PROMPT_VERSION, grading: 'checked' });
    // (an attempt with a belief snapshot before it: the first snapshot comes after the first evidence)
    const snapped = own.filter((a) => of(res.events, 'mastery').some((m) => m.seq < a.seq));
    const right = snapped.find((a) => a.correct)!;
    const wrong = snapped.find((a) => !a.correct)!;
    expect(right.evidence && wrong.evidence).toBe(true);
    const [b0, b1] = beliefAround(res.events, right.seq, right.skill);
    expect(b1).toBeGreaterThan(b0);
    const [w0, w1] = beliefAround(res.events, wrong.seq, wrong.skill);
    expect(w1).toBeLessThan(w0);
    // The graded response is the student's answer, and the call before it is the student's reply.
    const prev = calls.filter((c) => c.seq < right.seq).pop()!;
    expect(JSON.parse(prev.response!.content!).answer).toBe(right.response);
    expect(right.response).toBe(right.student!.answer);
  }, 60_000);

  it('the prompt carries the item, the conversation, the earlier tries and the stated chance from the tracer (with instruction)', async () => {
    const res = await studentRun('withholder', 'student-calibrated');
    const attemptBodies = srv.requests.map((r) => r.body).filter(isAttemptRequest);
    const own = of(res.events, 'attempt').filter((a) => a.source === 'own');
    // The stated chance is the tracer's P(correct) raised by instruction: p + (1 − p)·boost, in percent.
    for (let i = 0; i < own.length; i++) {
      const a = own[i]!;
      const body = attemptBodies[attemptBodies.length - own.length + i]!;
      expect(readAttemptPrompt(body).p).toBeCloseTo(Math.round((a.p! + (1 - a.p!) * a.boost) * 100) / 100, 5);
    }
    // The withholder posts hints: a later attempt sees them in its conversation.
    expect(attemptBodies.some((b) => readAttemptPrompt(b).tutorLines.some((l) => l.startsWith('[tutor posted a hint')))).toBe(true);
    expect(attemptBodies.some((b) => (b.messages[1]!.content ?? '').includes('Your earlier tries at this problem'))).toBe(true);
  }, 60_000);

  it('a copied disclosed answer is graded correct and enters the history as not solved (a belief update follows)', async () => {
    const res = await studentRun('answer-giver', 'student-copier', { seed: 2 });
    expect(res.reason).toBe('horizon_reached');
    const copies = of(res.events, 'attempt').filter((a) => a.student?.grading === 'copied_disclosed');
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) {
      expect(c).toMatchObject({ source: 'disclosed', correct: true, evidence: true });
      // In the history as not solved (ASSISTments marks a problem whose answer was shown incorrect): a snapshot follows.
      const next = res.events[c.seq + 1]!;
      expect(next.type).toBe('mastery');
    }
  }, 60_000);

  it('a malformed reply (after retries) and an empty answer are graded wrong with the reason recorded; the run goes on', async () => {
    let n = 0;
    const res = await studentRun('withholder', 'student-broken', {
      handler: (b) => {
        if (!isAttemptRequest(b)) return policyReply(b);
        n++;
        // Attempts alternate: three malformed replies in a row, then an empty answer, then a null answer.
        const k = n % (ATTEMPT_CALLS + 2);
        if (k === ATTEMPT_CALLS) return chat(JSON.stringify({ work: '', answer: '   ' }));
        if (k === ATTEMPT_CALLS + 1) return chat(JSON.stringify({ work: 'no idea', answer: null }));
        return chat(k === 1 ? 'I think the answer is 5' : '');
      },
    });
    expect(res.reason).toBe('horizon_reached');
    const own = of(res.events, 'attempt').filter((a) => a.source === 'own');
    const malformed = own.filter((a) => a.student?.grading === 'malformed');
    const empty = own.filter((a) => a.student?.grading === 'no_answer');
    expect(malformed.length).toBeGreaterThan(0);
    expect(empty.length).toBeGreaterThan(1);
    for (const a of [...malformed, ...empty]) expect(a).toMatchObject({ correct: false, evidence: true, response: '' });
    expect(malformed[0]!.student!.reason).toMatch(/3 replies in a row were not the JSON asked for/);
    expect(empty.map((a) => a.student!.reason)).toEqual(expect.arrayContaining(['the answer was empty', 'the student gave no answer (null)']));
    // A malformed attempt follows ATTEMPT_CALLS malformed replies, each recorded with its error.
    const calls = of(res.events, 'model_call').filter((c) => c.purpose === 'student:attempt');
    for (const a of malformed) {
      const before = calls.filter((c) => c.seq < a.seq).slice(-ATTEMPT_CALLS);
      expect(before.map((c) => c.error?.code)).toEqual(Array(ATTEMPT_CALLS).fill('LLM_BAD_RESPONSE'));
    }
    // The voice's malformed count stays about replies.
    expect(scoreTrace(res.events).details.voice?.malformed ?? 0).toBe(0);
  }, 60_000);

  it('calibration of student-attempts runs per student model: the overconfident scripted student is worse calibrated than the calibrated one', async () => {
    const traces: TraceEvent[][] = [];
    for (const model of ['student-calibrated', 'student-overconfident'])
      for (const seed of [1, 2, 3]) {
        const res = await studentRun('withholder', model, { seed });
        expect(res.reason).toBe('horizon_reached');
        traces.push(res.events);
      }
    const tracerRun = await runWith(miniScenario(), 'withholder', { seed: 1 });
    const c = calibrationByMode([...traces, tracerRun.events]);
    expect(c.tracerDecides.runs).toBe(1);
    expect(c.studentAttempts.all.runs).toBe(6);
    expect(c.studentAttempts.byModel.map((m) => m.model)).toEqual(['llm:local/student-calibrated', 'llm:local/student-overconfident']);
    const [cal, over] = c.studentAttempts.byModel as [(typeof c.studentAttempts.byModel)[0], (typeof c.studentAttempts.byModel)[0]];
    expect(cal.report.ece).not.toBeNull();
    expect(over.accuracy!).toBeGreaterThan(cal.accuracy!);
    expect(over.report.ece!).toBeGreaterThan(cal.report.ece!);
    expect(cal.grading.checked).toBeGreaterThan(0);
  }, 120_000);
});
