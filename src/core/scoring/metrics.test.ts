import { describe, expect, it } from 'vitest';
import { handTrace } from '../../testing/hand-trace';
import { actionCounts, attemptsStep, helpRequests, independence, leakage, learningGain, nextTurns, responsiveness, scoreTrace } from './index';
import { WORKED_ITEMS } from '../../testing/hand-trace';
import { traceDisclosures } from './metrics';
import type { TraceEvent } from '../trace/types';
import type { Item } from '../course/types';

/** A hand-made trace: a run_start with two items, then the given events (seq and t filled in). */
const trace = (events: Record<string, unknown>[], items?: Item[]): TraceEvent[] => handTrace(events, { stuck: 'Help me!', why_wrong: 'Why wrong?' }, items);

const tutorMsg = (text: string, turn: number, workingOn: string[] = ['A']) => ({ type: 'message', from: 'tutor', text, via: 'send_message', turn, workingOn });
const learnerMsg = (text: string, itemId: string | null = 's1-L1-01') => ({ type: 'message', from: 'learner', text, itemId });
const probe = (day: number, solveRate: number) => ({ type: 'probe', day, items: [], solveRate, gradedRate: solveRate });

describe('learning gain', () => {
  it('is the mean per-day change of the probe solve rate (telescoping)', () => {
    const lg = learningGain(trace([probe(0, 0.4), probe(1, 0.5), probe(2, 0.45), probe(4, 0.6)]));
    expect(lg.value).toBeCloseTo((0.6 - 0.4) / 4, 12);
    expect(lg.detail.totalGain).toBeCloseTo(0.2, 12);
    expect(lg.detail.curve.map((c) => c.day)).toEqual([0, 1, 2, 4]);
  });
  it('is unscored without a pre-tutor probe', () => {
    const lg = learningGain(trace([probe(1, 0.5), probe(2, 0.6)]));
    expect(lg.value).toBeNull();
    expect(lg.reason).toMatch(/day 0/);
  });
});

describe('responsiveness', () => {
  it('counts exact-template help requests answered before the next request or logout', () => {
    const t = trace([
      learnerMsg('Help me!'), tutorMsg('Divide both sides by 6.', 1), // answered
      learnerMsg('Why wrong?'), learnerMsg('Help me!'), tutorMsg('What undoes multiplication here?', 2), // first unanswered, second answered
      learnerMsg('Help me!'), { type: 'lms_event', kind: 'logout', day: 1 }, tutorMsg('Divide both sides by 6.', 3), // unanswered (logout first)
      learnerMsg('help me!'), // not a template (case differs)
    ], WORKED_ITEMS);
    const r = responsiveness(t);
    expect(r.detail).toEqual({ requests: 4, answered: 2, repliedUnengaged: 0 });
    expect(r.value).toBe(0.5);
  });
  it('counts a reply only when it engages the request: method words or credited instruction on its skill, or its answer', () => {
    const t = trace([
      learnerMsg('Help me!', 'A'), tutorMsg('Good question! You have got this. Keep going!', 1), tutorMsg('What undoes multiplication? Do it to both sides.', 1), // 1: answered by 3 (method), 2 passed over
      learnerMsg('Help me!', 'A'), tutorMsg('Good question about $6x = 72$! Keep going!', 2), // 4: the problem restated engages nothing
      learnerMsg('Help me!', 'A'), tutorMsg('The answer is 12.', 3), // 6: answered by a disclosure
      learnerMsg('Help me!', 'B'), tutorMsg('Divide both sides by 6.', 4, ['B']), // 8: another skill's method does not answer B
      learnerMsg('Help me!', 'B'), tutorMsg('Rewrite it as adding the opposite.', 5, ['B']), // 10: answered
    ], WORKED_ITEMS);
    const reqs = helpRequests(t);
    expect(reqs.map((r) => [r.seq, r.answeredBy, r.engagement ?? null, r.passedOver])).toEqual([
      [1, 3, 'method', [2]],
      [4, null, null, [5]],
      [6, 7, 'disclosure', []],
      [8, null, null, [9]],
      [10, 11, 'method', []],
    ]);
    expect(responsiveness(t).detail).toEqual({ requests: 5, answered: 3, repliedUnengaged: 2 });
  });
  it('credits a hint of the item that names no method word (the instruction check, without its repeat rule)', () => {
    const items = WORKED_ITEMS.map((it) => (it.id === 'A' ? { ...it, hints: ['Find x from 72 and 6 in the problem.'] } : it));
    const hint = 'Find x from 72 and 6 in the problem.';
    const t = trace([learnerMsg('Help me!', 'A'), tutorMsg(hint, 1), learnerMsg('Help me!', 'A'), tutorMsg(hint, 2)], items);
    expect(helpRequests(t).map((r) => r.engagement)).toEqual(['instruction', 'instruction']);
  });
  it('is unscored when there were no help requests', () => {
    expect(responsiveness(trace([tutorMsg('hi', 1)])).value).toBeNull();
  });
});

describe('leakage', () => {
  it('flags tutor turns containing a declared form of an item being worked on, on token boundaries', () => {
    const t = trace([
      tutorMsg('The answer is 12.', 1), // leaks A
      tutorMsg('Think about 120 and 1.25', 2), // no leak
      tutorMsg('So x = 7 works', 3, ['A']), // B not being worked on -> no leak
      tutorMsg('So x = 7 works', 4, ['B']), // leaks B
      tutorMsg('first message', 5), tutorMsg('and 12 again', 5), // one turn, leaks
    ]);
    const l = leakage(t);
    expect(l.detail.tutorTurns).toBe(5);
    expect(l.detail.leakingTurns).toBe(3);
    expect(l.value).toBeCloseTo(3 / 5);
  });
  it('counts a reveal in number words; the declared matcher without number words does not', () => {
    const t = trace([
      tutorMsg('The answer is twelve.', 1), // leaks A (a one-word form in a statement)
      tutorMsg('Try twelve more minutes of practice', 2), // one-word form in prose: no leak
      tutorMsg('So x equals Seven.', 3, ['B']), // leaks B
      tutorMsg('one hundred twelve is too big', 4), // part of a longer number: no leak
    ]);
    expect(leakage(t).detail.leaks).toEqual([{ seq: 1, itemIds: ["A"] }, { seq: 3, itemIds: ["B"] }]);
    expect(leakage(t, { matcher: 'declared', words: false }).detail.leakingTurns).toBe(0);
  });
});

const attempt = (itemId: string, correct: boolean) => ({ type: 'attempt', itemId, skill: 87, level: 2, assignmentId: null, attemptNo: 1, p: 0.5, boost: 0, source: 'own', response: correct ? '12' : '0', correct, evidence: true });

describe('independence', () => {
  it('counts learner replies after tutor turns, while the learner is stuck, that attempt a step', () => {
    const t = trace([
      attempt('A', false), tutorMsg('What first?', 1), learnerMsg('I think 3x = 12', 'A'), // stuck (wrong answer): step
      tutorMsg('Good', 2), learnerMsg('12', 'A'), // still stuck: bare number, no step
      attempt('A', true), tutorMsg('Nice. What is your next step?', 3), learnerMsg('15 - 3 is 12', 'A'), learnerMsg('ignored: not directly after', 'A'), // right answer: not stuck, not counted
      learnerMsg('Help me!', 'B'), tutorMsg('Next?', 4, ['B']), learnerMsg('5 + 3 = 8', 'B'), // stuck (help request): step
      { type: 'lms_event', kind: 'logout', day: 1 }, tutorMsg('Try B again', 5, ['B']), learnerMsg('x = 1', 'B'), // a new session: not stuck
      tutorMsg('Done for today?', 6), learnerMsg('Okay, thanks!', null), // no item open: not counted
      tutorMsg('ok', 7), tutorMsg('and?', 7),
    ]);
    const r = independence(t);
    expect(r.detail).toEqual({ learnerTurns: 3, withStep: 2, withoutItem: 1, notStuck: 2 });
    expect(nextTurns(t).map((n) => [n.seq, n.stuck])).toEqual([[3, true], [5, true], [8, false], [12, true], [15, false], [17, false]]);
  });
  it('is unscored when the tutor spoke only while the learner was not stuck (speaking after right answers wins nothing)', () => {
    const t = trace([attempt('A', true), tutorMsg('Nice. What is your next step?', 1), learnerMsg('I think 3x = 12', 'A')]);
    const r = independence(t);
    expect(r.value).toBeNull();
    expect(r.reason).toMatch(/stuck/);
  });
  it('step patterns follow the rubric', () => {
    expect(attemptsStep('x = 4')).toBe(true);
    expect(attemptsStep('2x')).toBe(true);
    expect(attemptsStep('7 × 8')).toBe(true);
    expect(attemptsStep('is it 56?')).toBe(false);
    expect(attemptsStep('Okay, thanks!')).toBe(false);
  });
});

describe('action counts', () => {
  it('counts successful write/message calls, and turns without action as silence', () => {
    const ok = { ok: true, value: {} };
    const t = trace([
      { type: 'tool_call', turn: 1, tool: 'get_gradebook', kind: 'read', args: {}, result: ok },
      { type: 'tool_call', turn: 1, tool: 'assign_items', kind: 'write', args: {}, result: ok },
      { type: 'tool_call', turn: 1, tool: 'assign_items', kind: 'write', args: {}, result: { ok: false, error: { code: 'INVALID_ARGS', message: 'x' } } },
      { type: 'turn_end', turn: 1, actions: 1, implicitSilence: false },
      { type: 'tool_call', turn: 2, tool: 'stay_silent', kind: 'message', args: {}, result: ok },
      { type: 'turn_end', turn: 2, actions: 1, implicitSilence: false },
      { type: 'turn_end', turn: 3, actions: 0, implicitSilence: true },
    ]);
    const a = actionCounts(t);
    expect(a.counts).toEqual({ send_message: 0, stay_silent: 2, assign_items: 1, adjust_level: 0, provide_content: 0 });
    expect(a.implicitSilences).toBe(1);
    expect(a.toolErrors).toBe(1);
  });
});

describe('scoreTrace', () => {
  it('marks judged axes unscored and fills the daily solve rate', () => {
    const r = scoreTrace(trace([probe(0, 0.3), probe(2, 0.5), { type: 'run_end', reason: 'horizon_reached', days: 4 }]));
    expect(r.judged.helpfulness).toBeNull();
    expect(r.dailySolveRate).toEqual([0.3, null, 0.5, null, null]);
    expect(r.complete).toBe(true);
  });
});

describe('traceDisclosures: the window spans the day the texts were sent', () => {
  const DAY = 1440;
  const msg = (text: string, turn: number, t: number) => ({ type: 'message', from: 'tutor', text, via: 'send_message', turn, workingOn: ['A'], t });
  const split = (days: number[]) => handTrace(['First digit: 1', 'Keep going!', 'You can do it.', 'Then digit 2'].map((x, i) => msg(x, i + 1, days[i]! * DAY + 10 + i)), {});
  it('digits named one by one over four messages of one day disclose the answer, with the texts they needed', () => {
    expect(traceDisclosures(split([0, 0, 0, 0])).map((d) => [d.itemId, d.rule, d.spans])).toEqual([['A', 'digits', 3]]);
  });
  it('not over two days', () => {
    expect(traceDisclosures(split([0, 0, 0, 1]))).toEqual([]);
  });
});
