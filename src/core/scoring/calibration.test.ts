import { describe, expect, it } from 'vitest';
import { calibration, dayPairs } from './calibration';
import type { TraceEvent } from '../trace/types';

const att = (day: number, p: number, correct: boolean, source: 'own' | 'disclosed' = 'own', boost = 0) =>
  ({ type: 'attempt', seq: 0, t: day * 1440 + 600, itemId: 'x', skill: 1, level: 1, assignmentId: null, attemptNo: 1, p, boost, source, response: '', correct, evidence: source === 'own' }) as TraceEvent;

describe('simulated-run calibration', () => {
  it('pairs (run, day) predicted vs observed accuracy, leaving out copied answers', () => {
    const t = [att(0, 0.5, true), att(0, 0.5, false), att(1, 0.2, false, 'own', 0.5), att(1, 0.9, true, 'disclosed')];
    const pairs = dayPairs(t);
    expect(pairs.map((p) => [p.obs, p.n])).toEqual([[0.5, 2], [0, 1]]);
    expect(pairs[0]!.pred).toBeCloseTo(0.5, 12);
    expect(pairs[1]!.pred).toBeCloseTo(0.6, 12);
    const r = calibration([t]);
    expect(r.pairs).toBe(2);
    expect(r.attempts).toBe(3);
    expect(r.brier).toBeCloseTo((0 + 0.36) / 2);
    expect(r.ece).toBeCloseTo(0.5 * 0 + 0.5 * 0.6);
    expect(calibration([t], true).attempts).toBe(4);
  });
  it('is null (not zero) with no attempts', () => {
    expect(calibration([[]]).ece).toBeNull();
  });
});
