/**
 * Kendall's W (concordance.ts) on textbook and hand-checked examples, ties included, its
 * permutation p and bootstrap interval; the ranking analyses (rankings.ts) on hand-made gains.
 */
import { describe, expect, it } from 'vitest';
import { concordanceTest, kendallW } from './concordance';
import { pairsNeeded } from '../stats/paired';
import { orderOf, rankingStability, tracerAgreement, type RankingRun } from './rankings';

describe("Kendall's W", () => {
  it('Siegel (1956), three raters of six objects: S = 25.5, W = 0.16', () => {
    // Siegel, Nonparametric Statistics for the Behavioral Sciences (1956), the W example: rank sums
    // 8, 14, 11, 11, 11, 8; S = 25.5; W = 12·25.5 / (3²·(6³ − 6)) = 306 / 1890 = 0.1619.
    // Ratings are "higher is better", so give the ranks negated (rank 1 = best).
    const ranks = [
      [1, 6, 3, 2, 5, 4],
      [1, 5, 6, 4, 2, 3],
      [6, 3, 2, 5, 4, 1],
    ];
    const r = kendallW(ranks.map((row) => row.map((x) => -x)));
    expect(r.rankSums).toEqual([8, 14, 11, 11, 11, 8]);
    expect(r.ties).toBe(0);
    expect(r.w).toBeCloseTo(306 / 1890, 12);
  });

  it('corrects for ties: mid-ranks and Σ(t³ − t) (the value scipy.stats.friedmanchisquare gives, χ²/(m(n − 1)))', () => {
    // Mid-ranks per rater: [4,1,2.5,2.5], [4,2.5,2.5,1], [1.5,1.5,4,3], [4,2,2,2]; rank sums 13.5, 7, 11, 8.5;
    // S = 24.5; T = 6 + 6 + 6 + 24 = 42; W = 12·24.5 / (16·60 − 4·42) = 294/792 = 49/132.
    // scipy 1.17.1: friedmanchisquare(*M.T).statistic / (4·3) = 0.37121212121212.
    // Without the correction it would be 294/960 = 0.30625; breaking ties by position gives yet another value.
    const m = [
      [3, 1, 2, 2],
      [4, 2, 2, 1],
      [1, 1, 3, 2],
      [5, 3, 3, 3],
    ];
    const r = kendallW(m);
    expect(r.ties).toBe(42);
    expect(r.w).toBeCloseTo(49 / 132, 12);
  });

  it('raters who give the same order with the same ties agree perfectly (W = 1), which only the tie correction gives', () => {
    expect(kendallW([[1, 1, 2], [1, 1, 2]]).w).toBeCloseTo(1, 12);
    expect(kendallW([[0.2, 0.2, 0.5, 0.1], [7, 7, 9, 3], [0, 0, 1, -1]]).w).toBeCloseTo(1, 12);
  });

  it('is 0 when the rank sums are equal, and null with a reason when every rater ties everything', () => {
    expect(kendallW([[1, 2, 3], [3, 2, 1]]).w).toBeCloseTo(0, 12);
    expect(kendallW([[1, 1], [2, 2]])).toMatchObject({ w: null, reason: 'every rater ties every item' });
  });

  it('refuses bad input with what and where', () => {
    expect(() => kendallW([[1, 2, 3]])).toThrow('at least 2 raters');
    expect(() => kendallW([[1], [2]])).toThrow('at least 2 items');
    expect(() => kendallW([[1, 2, 3], [1, 2]])).toThrow('rater 1 rates 2 items, rater 0 rates 3');
    expect(() => kendallW([[1, 2], [1, Number.NaN]])).toThrow('rater 1, item 1 is NaN');
  });

  it('permutation p: small for raters in full agreement, large for random ones; the bootstrap interval holds W; deterministic', () => {
    const agree = Array.from({ length: 12 }, (_, i) => [3 + i, 2 + i, 1 + i, i]);
    const a = concordanceTest(agree, { permutations: 999, resamples: 500 });
    expect(a.w).toBeCloseTo(1, 12);
    // Under the null, W = 1 needs all 12 raters to pick the same one of 24 orders: no permutation reaches it.
    expect(a.p).toBeCloseTo(1 / 1000, 12);
    expect([a.lo, a.hi]).toEqual([1, 1]);
    // Every order of 4 items once: the rank sums are equal, W = 0, p = 1.
    const perms: number[][] = [];
    const rec = (pre: number[], rest: number[]) => (rest.length === 0 ? perms.push(pre) : rest.forEach((x, i) => rec([...pre, x], [...rest.slice(0, i), ...rest.slice(i + 1)])));
    rec([], [1, 2, 3, 4]);
    const b = concordanceTest(perms, { permutations: 199, resamples: 200 });
    expect(b.w).toBeCloseTo(0, 12);
    expect(b.p).toBe(1);
    const mixed = [...agree.slice(0, 6), ...perms.slice(0, 10)];
    const c = concordanceTest(mixed);
    expect(c.lo!).toBeLessThanOrEqual(c.w!);
    expect(c.hi!).toBeGreaterThanOrEqual(c.w!);
    expect(concordanceTest(mixed)).toEqual(c);
  });
});

describe('rankings', () => {
  const run = (tutor: string, scenario: string, persona: string, seed: number, gain: number): RankingRun => ({ tutor, scenario, persona, seed, gain });

  it('orders with ties joined by "="', () => {
    expect(orderOf(['a', 'b', 'c'], [0.1, 0.3, 0.1])).toBe('b > a = c');
  });

  it('W over scenarios, single seeds, split agreement, persona orders and neighbours on hand-made gains', () => {
    // Two personas × two scenarios × two seeds; tutor a beats b everywhere except s4 at seed 2, by far.
    const runs: RankingRun[] = [];
    const gains: Record<string, [number, number, number, number]> = {
      // scenario: [a seed 1, b seed 1, a seed 2, b seed 2]
      s1: [0.3, 0.1, 0.4, 0.2],
      s2: [0.5, 0.2, 0.3, 0.1],
      s3: [0.2, 0.1, 0.3, 0.0],
      s4: [0.4, 0.3, 0.1, 0.9],
    };
    for (const [s, [a1, b1, a2, b2]] of Object.entries(gains)) {
      const p = s === 's1' || s === 's2' ? 'p' : 'q';
      runs.push(run('a', s, p, 1, a1), run('b', s, p, 1, b1), run('a', s, p, 2, a2), run('b', s, p, 2, b2));
    }
    const r = rankingStability(runs, ['a', 'b']);
    expect(r.order).toBe('a > b');
    expect(r.scenarios).toBe(4);
    // Seed-averaged: s4 is a 0.25 vs b 0.6, so 3 of 4 scenarios put a first: rank sums 5, 7 (1 = best);
    // S = 2, W = 12·2 / (16·6) = 0.25.
    expect(r.seedAveraged.w).toBeCloseTo(0.25, 12);
    // Seed 1: a first everywhere (W = 1); seed 2: 3 of 4 (W = 0.25).
    expect(r.perSeed.map((x) => x.test.w)).toEqual([1, 0.25].map((x) => expect.closeTo(x, 12)));
    expect(r.byK[0]).toMatchObject({ k: 1, w: expect.closeTo(0.625, 12), subsets: 2 });
    // Seed 1 vs seed 2: s4 disagrees.
    expect(r.splitAgreement).toEqual([{ k: 1, share: 0.75, comparisons: 4 }]);
    // Seed 2 alone: a 0.275, b 0.3 over the four scenarios: the overall order flips.
    expect(r.singleSeedOverall).toEqual({ same: 1, of: 2, orders: { 'a > b': 1, 'b > a': 1 } });
    // Persona q: a 0.25, b 0.325.
    expect(r.perPersona).toEqual([{ persona: 'p', order: 'a > b' }, { persona: 'q', order: 'b > a' }]);
    expect(r.personaOrders).toBe(2);
    // Differences a − b over the 8 students: 0.2, 0.2, 0.3, 0.2, 0.1, 0.3, 0.1, −0.8 (mean 0.075).
    expect(r.neighbours).toHaveLength(1);
    expect(r.neighbours[0]).toMatchObject({ a: 'a', b: 'b', summary: { n: 8, wins: 7, losses: 1, mean: expect.closeTo(0.075, 12) } });
    expect(r.neighbours[0]!.seedsNeeded).toBe(Math.ceil(r.neighbours[0]!.studentsNeeded! / 4));
    // Within scenarios: s1 differs by 0.2 at both seeds (1 seed tells them apart), s2 by 0.3 and 0.2,
    // s3 by 0.1 and 0.3, s4 by 0.1 and −0.8; the median of the four is the mean of s3's and s2's.
    const need = [pairsNeeded(0.25, Math.SQRT2 / 20)!, pairsNeeded(0.2, Math.SQRT2 / 10)!, pairsNeeded(-0.35, 0.9 / Math.SQRT2)!];
    expect(need[0]).toBe(3);
    expect(need[1]).toBe(7);
    expect(need[2]).toBeGreaterThan(7);
    expect(r.neighbours[0]!.perScenarioSeeds).toEqual({ median: 5, never: 0 });
    // A scenario where the two tutors gain the same at every seed can never be told apart.
    const tied = rankingStability([...runs.filter((x) => x.scenario !== 's1'), run('a', 's1', 'p', 1, 0.3), run('b', 's1', 'p', 1, 0.3), run('a', 's1', 'p', 2, 0.4), run('b', 's1', 'p', 2, 0.4)], ['a', 'b']);
    // 3, 7, s4's, never: the median is the mean of 7 and s4's.
    expect(tied.neighbours[0]!.perScenarioSeeds).toEqual({ median: (7 + need[2]!) / 2, never: 1 });
  });

  it('a missing or repeated cell is an error naming it', () => {
    const runs = [run('a', 's1', 'p', 1, 0.1), run('b', 's1', 'p', 1, 0.2), run('a', 's2', 'p', 1, 0.1)];
    expect(() => rankingStability(runs, ['a', 'b'])).toThrow('s2 × b × seed 1: no run');
    expect(() => rankingStability([...runs, run('b', 's2', 'p', 1, 0), run('b', 's2', 'p', 1, 0)], ['a', 'b'])).toThrow('s2 × b × seed 1: more than one run');
  });

  it('tracer agreement: flipped pairs, tau-b, per-scenario agreement', () => {
    const mk = (vals: Record<string, [number, number, number]>) => Object.entries(vals).flatMap(([s, v]) => ['x', 'y', 'z'].map((t, i) => run(t, s, 'p', 1, v[i]!)));
    const akt = mk({ s1: [0.3, 0.2, 0.1], s2: [0.3, 0.2, 0.1] });
    const bkt = mk({ s1: [0.3, 0.2, 0.1], s2: [0.1, 0.4, 0.0] });
    const t = tracerAgreement(akt, bkt, ['x', 'y', 'z']);
    // Overall: AKT x 0.3 > y 0.2 > z 0.1; BKT y 0.3 > x 0.2 > z 0.05: x vs y flipped, tau-b (2 − 1)/3.
    expect(t.flipped).toEqual(['x vs y']);
    expect(t.sameOrder).toBe(false);
    expect(t.tau).toBeCloseTo(1 / 3, 12);
    expect(t.scenarioSameOrder).toBe(0.5);
    expect(t.scenarioTau).toBeCloseTo((1 + 1 / 3) / 2, 12);
  });
});
