import { describe, expect, it } from 'vitest';
import { brier, ece, meanCi95, rocAuc } from './index';

describe('stats', () => {
  it('AUC is 1 for perfect ranking, 0.5 for constant, handles ties', () => {
    expect(rocAuc([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1])).toBe(1);
    expect(rocAuc([0.5, 0.5, 0.5, 0.5], [0, 1, 0, 1])).toBe(0.5);
    expect(rocAuc([0.9, 0.1], [0, 1])).toBe(0);
    // one positive above one of two negatives
    expect(rocAuc([0.3, 0.5, 0.7], [0, 1, 0])).toBeCloseTo(0.5);
  });
  it('ECE and Brier on a known case', () => {
    expect(brier([1, 0], [1, 0])).toBe(0);
    expect(brier([0.5, 0.5], [1, 0])).toBe(0.25);
    // all predictions 0.25 in one bin, observed rate 0.5 -> ECE 0.25
    expect(ece([0.25, 0.25, 0.25, 0.25], [1, 0, 1, 0])).toBeCloseTo(0.25);
  });
  it('95% interval uses t quantiles', () => {
    const r = meanCi95([1, 2, 3]);
    expect(r.mean).toBe(2);
    expect(r.hi! - r.mean).toBeCloseTo((4.303 * 1) / Math.sqrt(3), 3);
    expect(meanCi95([5]).lo).toBeNull();
  });
});
