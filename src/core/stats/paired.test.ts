import { describe, expect, it } from 'vitest';
import { clusteredMeanCi95, pairedSummary, pairsNeeded, tQuantile, wilcoxonSignedRank } from './paired';
import fx from './fixtures/paired-stats.json';

// Every expected number below comes from fixtures/paired-stats.json, computed with numpy/scipy by
// scripts/fixtures/paired-stats.py (no project code involved).

describe('clustered mean (CR1 sandwich, t on G − 1 df)', () => {
  it('matches the matrix sandwich estimator on 9 runs of 4 students', () => {
    const c = clusteredMeanCi95(fx.clustered.values, fx.clustered.clusters);
    expect(c.clusters).toBe(4);
    expect(c.n).toBe(9);
    expect(c.df).toBe(fx.clustered.df);
    expect(c.mean).toBeCloseTo(fx.clustered.mean, 12);
    expect(c.se).toBeCloseTo(fx.clustered.se, 12);
    expect(c.lo).toBeCloseTo(fx.clustered.lo, 10);
    expect(c.hi).toBeCloseTo(fx.clustered.hi, 10);
  });
  it('is the ordinary t-interval when every run is its own student, and wider when runs share students', () => {
    const c = clusteredMeanCi95(fx.singletons.values, fx.singletons.values.map((_, i) => `s${i}`));
    expect(c.lo).toBeCloseTo(fx.singletons.lo, 10);
    expect(c.hi).toBeCloseTo(fx.singletons.hi, 10);
    const shared = clusteredMeanCi95(fx.clustered.values, fx.clustered.clusters);
    expect(shared.hi! - shared.lo!).toBeGreaterThan(c.hi! - c.lo!);
  });
  it('has no interval with one student, and refuses mismatched labels', () => {
    const c = clusteredMeanCi95([0.1, 0.2, 0.3], ['a', 'a', 'a']);
    expect(c.mean).toBeCloseTo(0.2, 12);
    expect(c.lo).toBeNull();
    expect(c.clusters).toBe(1);
    expect(() => clusteredMeanCi95([1, 2], ['a'])).toThrow(/2 values but 1 cluster/);
  });
});

describe('paired summary', () => {
  for (const [name, f] of [['no ties (exact Wilcoxon)', fx.pairedExact], ['ties and a zero (normal approximation)', fx.pairedTies]] as const) {
    it(`matches scipy: ${name}`, () => {
      const s = pairedSummary(f.diffs);
      expect(s.mean).toBeCloseTo(f.mean, 12);
      expect(s.sd).toBeCloseTo(f.sd, 12);
      expect(s.dz).toBeCloseTo(f.dz, 12);
      expect(s.lo).toBeCloseTo(f.lo, 10);
      expect(s.hi).toBeCloseTo(f.hi, 10);
      expect([s.wins, s.ties, s.losses]).toEqual([f.wins, f.ties, f.losses]);
      expect(s.wilcoxon!.p).toBeCloseTo(f.wilcoxonP, 10);
      expect(s.wilcoxon!.wPlus).toBe(f.wPlus);
      expect(s.wilcoxon!.method).toBe(f.method === 'exact' ? 'exact' : 'normal approximation');
    });
  }
  it('all ties: no Wilcoxon test, no d_z', () => {
    const s = pairedSummary([0, 0, 1e-15]);
    expect(s.ties).toBe(3);
    expect(s.wilcoxon).toBeNull();
    expect(s.dz).toBeNull();
  });
});

describe('t quantile and pairs needed', () => {
  it('t quantiles match scipy', () => {
    for (const [df, q] of Object.entries(fx.tQuantile975)) expect(tQuantile(0.975, Number(df))).toBeCloseTo(q, 9);
  });
  it('pairs needed for 80% power at alpha 0.05 match the exact noncentral-t search', () => {
    for (const { dz, n } of fx.power) expect(pairsNeeded(dz, 1)).toBe(n);
    expect(pairsNeeded(-0.5, 1)).toBe(34);
    expect(pairsNeeded(0, 1)).toBeNull();
    expect(pairsNeeded(0.1, 0)).toBeNull();
  });
});

describe('wilcoxon edge cases', () => {
  it('one non-zero difference has p = 1', () => {
    expect(wilcoxonSignedRank([0.3])!.p).toBe(1);
  });
});
