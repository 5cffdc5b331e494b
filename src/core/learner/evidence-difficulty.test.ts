import { describe, expect, it } from 'vitest';
import { Rng } from '../rng/index';
import { fitLogistic, practiceLevel, questionLevel, solvedGaps, solvedStreakLevel, type Rows } from './evidence-difficulty';

// Skill 1 (Box and Whisker): questions 2, 10 at level 1; 1, 4 at level 2; 3, 5 at level 3
// (src/core/data/assist2009-skills.json). Skill 43 is pooled: its questions are listed at every level.
describe('questionLevel', () => {
  it('reads the bank level of a question of a skill', () => {
    expect([questionLevel(1, 2), questionLevel(1, 10), questionLevel(1, 4), questionLevel(1, 3)]).toEqual([1, 1, 2, 3]);
  });
  it('gives 0 for a question listed at several levels, an unknown question or skill', () => {
    expect(questionLevel(43, 4155)).toBe(0);
    expect(questionLevel(1, 999_999)).toBe(0);
    expect(questionLevel(9999, 2)).toBe(0);
  });
});

const rows = (r: [number, number, number][]): Rows => ({ skills: r.map((x) => x[0]), questions: r.map((x) => x[1]), responses: r.map((x) => x[2]) });

describe('solvedStreakLevel and practiceLevel', () => {
  // skill 1: L1 solved, (other skill), L1 solved, L1 missed, then a level-3 target
  const r = rows([
    [1, 2, 1],
    [2, 1, 1],
    [1, 10, 1],
    [1, 2, 0],
    [1, 3, 1],
  ]);
  it('needs the last k attempts on the skill all solved at one level', () => {
    expect(solvedStreakLevel(r, 3, 2)).toBe(1); // rows 0 and 2, both L1 solved; row 1 is another skill
    expect(solvedStreakLevel(r, 4, 1)).toBe(0); // the last one was missed
    expect(solvedStreakLevel(r, 3, 3)).toBe(0); // only two attempts on the skill before row 3
  });
  it('practiceLevel ignores the outcome but not the level', () => {
    expect(practiceLevel(r, 4, 3)).toBe(1);
    const mixed = rows([
      [1, 2, 1],
      [1, 3, 1],
      [1, 5, 0],
    ]);
    expect(practiceLevel(mixed, 2, 1)).toBe(3);
    expect(practiceLevel(mixed, 2, 2)).toBe(0);
  });
  it('rejects a k below 1', () => {
    expect(() => solvedStreakLevel(r, 3, 0)).toThrow(/k must be ≥ 1/);
    expect(() => practiceLevel(r, 3, 0)).toThrow(/k must be ≥ 1/);
  });
});

describe('solvedGaps', () => {
  it('sums the level gaps of the solved attempts in the window, easier and harder apart', () => {
    // target L2 (question 4); before it on skill 1: L1 solved, L3 solved, L1 missed, L3 solved
    const r = rows([
      [1, 2, 1],
      [1, 3, 1],
      [1, 10, 0],
      [1, 5, 1],
      [1, 4, 1],
    ]);
    expect(solvedGaps(r, 4, 3)).toEqual({ easier: 0, harder: 2 }); // last 3: L3 ✓, L1 ✗, L3 ✓
    expect(solvedGaps(r, 4, 4)).toEqual({ easier: 1, harder: 2 });
  });
  it('is zero when the target question has no level', () => {
    expect(solvedGaps(rows([[1, 2, 1], [1, 999_999, 1]]), 1, 3)).toEqual({ easier: 0, harder: 0 });
  });
});

describe('fitLogistic', () => {
  it('recovers the coefficients of simulated data around a fixed offset', () => {
    const rng = new Rng(5);
    const data: { z: number; y: number; f: number[] }[] = [];
    for (let i = 0; i < 20_000; i++) {
      const z = rng.next() * 2 - 1;
      const x = Math.floor(rng.next() * 4);
      const g = rng.next() < 0.5 ? 1 : 0;
      const p = 1 / (1 + Math.exp(-(z + 0.4 * g - 0.3 * x)));
      data.push({ z, y: rng.next() < p ? 1 : 0, f: [g, -x] });
    }
    const { theta, se } = fitLogistic(data);
    expect(Math.abs(theta[0]! - 0.4)).toBeLessThan(3 * se[0]!);
    expect(Math.abs(theta[1]! - 0.3)).toBeLessThan(3 * se[1]!);
    expect(se[1]!).toBeLessThan(0.03);
  });
  it('says so when a feature never varies', () => {
    expect(() => fitLogistic([{ z: 0, y: 1, f: [0] }, { z: 0, y: 0, f: [0] }])).toThrow(/singular/);
  });
});
