import { describe, expect, it } from 'vitest';
import { mannWhitneyU } from './field';

describe('Mann–Whitney U', () => {
  it('matches known values: exact for small samples without ties, normal with ties', () => {
    // x = 1..5, y = 6..10: complete separation, U = 0; exact two-sided p = 2 / C(10,5) = 2/252.
    const sep = mannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])!;
    expect(sep).toMatchObject({ u: 0, method: 'exact' });
    expect(sep.p).toBeCloseTo(2 / 252, 10);
    // Interleaved: x = 1,3,5,7 ; y = 2,4,6,8 → R1 = 16, U1 = 6, U = 6; exact p (n1 = n2 = 4) = 2·P(U ≤ 6) = 2·(34/70)... counted by hand below.
    const inter = mannWhitneyU([1, 3, 5, 7], [2, 4, 6, 8])!;
    expect(inter.u).toBe(6);
    // Distribution of U for (4,4): counts for U = 0..6: 1,1,2,3,5,5,7 → 24 of 70; two-sided 48/70.
    expect(inter.p).toBeCloseTo(48 / 70, 10);
    // Identical samples: no evidence of a difference.
    expect(mannWhitneyU([1, 1, 2, 2], [1, 1, 2, 2])!.p).toBeCloseTo(1, 6);
    const tied = mannWhitneyU([1, 2, 2, 3, 3, 3, 4], [3, 4, 4, 5, 5, 6])!;
    expect(tied.method).toBe('normal');
    // scipy.stats.mannwhitneyu(x, y, method='asymptotic', use_continuity=True): U = 3.5, p = 0.012999854364387305
    expect(tied.u).toBe(3.5);
    expect(tied.p).toBeCloseTo(0.012999854364387305, 6);
    // scipy: U = 59.5, p = 1.0 (|U − n1·n2/2| is under the continuity correction)
    const f = [6.1, 5.0, 7.2, 6.6, 4.9, 5.5, 7.0, 6.3, 5.8, 6.9];
    const s = [6.2, 6.0, 6.5, 5.9, 6.4, 6.8, 6.1, 6.3, 5.7, 6.6, 6.0, 6.2];
    expect(mannWhitneyU(f, s)).toMatchObject({ u: 59.5, p: 1, method: 'normal' });
    expect(mannWhitneyU([], [1])).toBeNull();
  });
});
