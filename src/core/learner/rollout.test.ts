import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import type { Interaction, KnowledgeTracer, Query } from './kt/types';
import { decilesBy, fitAbilityOffset, olsSlope, openLoopAccuracy, rollout, type RolloutStudent } from './rollout';

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
    expect(await fitAbilityOffset(t, student(60, () => true), { context: 50, shift: 0, bound: 3 })).toEqual({ offset: 3, clamped: true });
    expect(await fitAbilityOffset(t, student(60, () => false), { context: 50, shift: 0, bound: 3 })).toEqual({ offset: -3, clamped: true });
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
