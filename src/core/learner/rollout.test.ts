import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import type { Interaction, KnowledgeTracer, Query } from './kt/types';
import { abilityCalibration, abilityOffset, decilesBy, fitAbilityOffset, learnerRollout, olsSlope, openLoopAccuracy, rollout, shrinkAbility, type RolloutStudent } from './rollout';

const logit = (p: number) => Math.log(p / (1 - p));

/** A tracer that answers `f(history)` for every query, and records what it was asked. */
function tracerOf(f: (h: readonly Interaction[], q: Query) => number) {
  const calls: { history: number; queries: Query[] }[] = [];
  const t: KnowledgeTracer = {
    info: { name: 'test', version: '0', nSkills: 3 },
    predict: async (h, qs) => {
      calls.push({ history: h.length, queries: [...qs] });
      return qs.map((q) => f(h, q));
    },
  };
  return { t, calls };
}

/** A student of n rows; rows at positions in `right` are correct; question id = row index + 1. */
function student(n: number, right: (k: number) => boolean): RolloutStudent {
  return { skills: Array.from({ length: n }, (_, k) => 1 + (k % 3)), questions: Array.from({ length: n }, (_, k) => k + 1), responses: Array.from({ length: n }, (_, k) => (right(k) ? 1 : 0)) };
}

describe('per-student ability offset (fitted on the warm-up rows only)', () => {
  it('solves Σ σ(logit p + shift + a) = warm-up correct: a constant 0.5 tracer and 30 of 50 right give logit(0.6)', async () => {
    const { t } = tracerOf(() => 0.5);
    const st = student(200, (k) => k % 5 < 3);
    const r = await fitAbilityOffset(t, st, { context: 50, shift: 0, bound: 4 });
    expect(r.clamped).toBe(false);
    expect(r.offset).toBeCloseTo(logit(0.6), 6);
    // The shift is part of the prediction the offset corrects.
    const s = await fitAbilityOffset(t, st, { context: 50, shift: -0.3, bound: 4 });
    expect(s.offset).toBeCloseTo(logit(0.6) + 0.3, 6);
  });

  it('never reads a row past the warm-up', async () => {
    const { t, calls } = tracerOf(() => 0.5);
    await fitAbilityOffset(t, student(200, () => true), { context: 50, shift: 0, bound: 4 });
    expect(calls.length).toBe(50);
    expect(Math.max(...calls.map((c) => c.history))).toBe(49);
    expect(Math.max(...calls.flatMap((c) => c.queries.map((q) => q.question)))).toBe(50);
  });

  it('an all-right or all-wrong warm-up has no finite root: clamped to the bound', async () => {
    const { t } = tracerOf(() => 0.5);
    expect(await fitAbilityOffset(t, student(60, () => true), { context: 50, shift: 0, bound: 3 })).toMatchObject({ offset: 3, clamped: true });
    expect(await fitAbilityOffset(t, student(60, () => false), { context: 50, shift: 0, bound: 3 })).toMatchObject({ offset: -3, clamped: true });
  });

  it('se is the inverse Fisher information at the estimate: 1/√(n·P(1 − P))', async () => {
    const { t } = tracerOf(() => 0.5);
    const r = await fitAbilityOffset(t, student(200, (k) => k % 5 < 3), { context: 50, shift: 0, bound: 4 });
    expect(r.se).toBeCloseTo(1 / Math.sqrt(50 * 0.6 * 0.4), 6);
    // Four times the rows, half the standard error.
    const long = await fitAbilityOffset(t, student(200, (k) => k % 5 < 3), { context: 200, shift: 0, bound: 4 });
    expect(long.se).toBeCloseTo(r.se / 2, 6);
  });

  it('refuses a student shorter than the warm-up', async () => {
    const { t } = tracerOf(() => 0.5);
    await expect(fitAbilityOffset(t, student(10, () => true), { context: 50, shift: 0, bound: 3 })).rejects.toThrow(/10 rows, fewer than the context 50/);
  });
});

describe('closed-loop rollout with per-student offsets', () => {
  const students = [student(40, (k) => k % 4 === 0), student(40, (k) => k % 4 !== 0)];
  const o = { context: 10, steps: 30, repeats: 2, shift: 0 };

  it('zero offsets give exactly the draws of the plain rollout', async () => {
    const { t } = tracerOf(() => 0.6);
    const plain = await rollout(t, students, { ...o, rng: new Rng(7) });
    const zero = await rollout(t, students, { ...o, rng: new Rng(7), offsets: [0, 0] });
    expect(zero.rows).toEqual(plain.rows);
    expect(plain.rows.map((r) => r.offset)).toEqual([0, 0]);
    expect(plain.rows.map((r) => r.warmup)).toEqual([0.3, 0.7]);
    expect(plain.rows[0]!.expected).toBeCloseTo(0.6, 9);
  });

  it('an offset moves that student only; the expected accuracy is the mean of the drawn-from probabilities', async () => {
    const { t } = tracerOf(() => 0.5);
    const r = await rollout(t, students, { ...o, rng: new Rng(7), offsets: [logit(0.9), 0] });
    expect(r.rows[0]!.expected).toBeCloseTo(0.9, 9);
    expect(r.rows[1]!.expected).toBeCloseTo(0.5, 9);
    expect(r.rows[0]!.generated).toBeGreaterThan(0.75);
    await expect(rollout(t, students, { ...o, rng: new Rng(7), offsets: [1] })).rejects.toThrow(/1 offsets for 2 students/);
  });
});

describe('open-loop references', () => {
  it('frozen reads the warm-up only; teacher-forced reads the real rows before each step', async () => {
    // Echo: predicts 0.9 after a correct last row, 0.1 after a wrong one (0.5 with no history).
    const { t } = tracerOf((h) => (h.length === 0 ? 0.5 : h[h.length - 1]!.correct ? 0.9 : 0.1));
    const st = student(30, (k) => k >= 10); // warm-up (10 rows) all wrong, then all right
    const r = await openLoopAccuracy(t, st, { context: 10, steps: 20, shift: 0 });
    expect(r.frozen).toBeCloseTo(0.1, 9);
    expect(r.teacherForced).toBeCloseTo((0.1 + 19 * 0.9) / 20, 9);
    const up = await openLoopAccuracy(t, st, { context: 10, steps: 20, shift: 0, offset: logit(0.5) - logit(0.1) });
    expect(up.frozen).toBeCloseTo(0.5, 9);
  });
});

describe('deciles and slope', () => {
  it('groups by the key, reports mean real and value per decile', () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ real: i / 20, v: 1 - i / 20 }));
    const d = decilesBy(rows, (x) => -x.real, (x) => x.v);
    expect(d.length).toBe(10);
    expect(d.every((x) => x.n === 2)).toBe(true);
    expect(d[0]!.real).toBeCloseTo(0.925, 9); // the two highest real first (key is −real)
    expect(d[0]!.generated).toBeCloseTo(0.075, 9);
    expect(olsSlope([0, 1, 2, 3], [1, 3, 5, 7])).toBeCloseTo(2, 12);
  });
});

describe('the engine ability offset: empirical-Bayes shrinkage of the warm-up offset', () => {
  it('w·(c − c̄) with w = τ²/(τ² + se²): a short warm-up moves less than a long one with the same accuracy', async () => {
    expect(shrinkAbility({ offset: 1.2, se: 0.5 }, { center: 0.2, tau: 0.5 })).toBeCloseTo(0.5, 9);
    expect(shrinkAbility({ offset: 1.2, se: 0.5 }, { center: 0.2, tau: 0 })).toBe(0);
    expect(() => shrinkAbility({ offset: 1, se: 0 }, { center: 0, tau: 0.5 })).toThrow(/se > 0/);
    const { t } = tracerOf(() => 0.5);
    const cal = { center: 0, tau: 0.5, bound: 4, fitted: 'test' };
    const rows = (n: number) => Array.from({ length: n }, (_, k) => ({ skill: 1, question: k + 1, correct: k % 5 < 3 }));
    const short = await abilityOffset(t, rows(20), cal);
    const long = await abilityOffset(t, rows(200), cal);
    expect(short.c).toBeCloseTo(logit(0.6), 6);
    expect(long.c).toBeCloseTo(logit(0.6), 6);
    expect(long.offset).toBeGreaterThan(short.offset);
    expect(long.offset).toBeCloseTo(logit(0.6) * 0.25 / (0.25 + 1 / (200 * 0.24)), 6);
  });

  it('is fitted against the uncalibrated tracer, so the stored shift does not move it', async () => {
    const { t } = tracerOf(() => 0.5);
    const a = await abilityOffset(t, Array.from({ length: 40 }, (_, k) => ({ skill: 1, question: k + 1, correct: k % 4 === 0 })), { center: 0.1, tau: 1, bound: 4, fitted: 'test' });
    expect(a.c).toBeCloseTo(logit(0.25), 6);
  });

  it('learnerRollout applies each student offset from its warm-up rows: a weak and a strong warm-up part', async () => {
    const { t } = tracerOf(() => 0.5);
    const students = [student(200, (k) => k % 5 === 0), student(200, (k) => k % 5 !== 0)];
    const cal = { center: 0, tau: 1, bound: 4, fitted: 'test' };
    const r = await learnerRollout(t, students, { context: 50, steps: 150, repeats: 1, rng: new Rng(7), shift: 0, calibration: cal });
    expect(r.rows[0]!.offset).toBeLessThan(-0.8);
    expect(r.rows[1]!.offset).toBeGreaterThan(0.8);
    expect(r.rows[0]!.expected).toBeLessThan(0.35);
    expect(r.rows[1]!.expected).toBeGreaterThan(0.65);
    // Without an offset both would be generated at 0.5.
    const plain = await rollout(t, students, { context: 50, steps: 150, repeats: 1, rng: new Rng(7), shift: 0 });
    expect(plain.rows.map((x) => x.expected)).toEqual([0.5, 0.5]);
    await expect(learnerRollout({ ...t, info: { ...t.info, name: 'unfitted' } }, students, { context: 50, steps: 150, repeats: 1, rng: new Rng(7) })).rejects.toThrow(/no ability calibration for tracer "unfitted"/);
  });

  it('both engine tracers have a stored calibration with a positive τ', () => {
    for (const name of ['akt', 'bkt']) {
      const c = abilityCalibration(name);
      expect(c, name).toBeDefined();
      expect(c!.tau).toBeGreaterThan(0);
      expect(c!.fitted).toMatch(/npm run rollout -- .*--fit-ability/);
    }
  });
});
