import { describe, expect, it } from 'vitest';
import { Lru } from './lru';

describe('Lru', () => {
  it('keeps the most recently used entries: a read or a write makes an entry the newest', () => {
    const c = new Lru<string, number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now newer than b
    c.set('c', 3); // drops b
    expect([c.get('b'), c.get('a'), c.get('c'), c.size]).toEqual([undefined, 1, 3, 2]);
    c.set('a', 4); // rewriting keeps one entry
    expect([c.get('a'), c.size]).toEqual([4, 2]);
  });

  it('removes an entry only while it holds the given value, and refuses a size below 1', () => {
    const c = new Lru<string, number>(3);
    c.set('k', 1);
    c.deleteIf('k', 2);
    expect(c.get('k')).toBe(1);
    c.deleteIf('k', 1);
    expect(c.get('k')).toBeUndefined();
    expect(() => new Lru(0)).toThrow(/max must be a whole number ≥ 1/);
  });
});
