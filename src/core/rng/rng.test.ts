import { describe, expect, it } from 'vitest';
import { Rng } from './index';

describe('Rng', () => {
  it('is reproducible and forks independent named streams', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    expect([a.next(), a.int(1, 6), a.next()]).toEqual([b.next(), b.int(1, 6), b.next()]);
    const f1 = new Rng(42).fork('probes');
    const f2 = new Rng(42).fork('probes');
    const g = new Rng(42).fork('voice');
    const x = f1.next();
    expect(x).toBe(f2.next());
    expect(g.next()).not.toBe(x);
  });
  it('stays in range', () => {
    const r = new Rng(1);
    for (let i = 0; i < 1000; i++) {
      const u = r.next();
      expect(u >= 0 && u < 1).toBe(true);
      const k = r.int(-3, 3);
      expect(k >= -3 && k <= 3 && Number.isInteger(k)).toBe(true);
    }
    expect(() => r.pick([])).toThrow();
  });
});
