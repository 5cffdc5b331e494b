import { describe, it } from 'vitest';
import { STATISTICS } from './statistics';
import { type Oracle, med, numList, nums, plain, runOracles, sortNum, table, total } from './harness.test-util';

const modes = (xs: number[]) => {
  const c = new Map<number, number>();
  for (const x of xs) c.set(x, (c.get(x) ?? 0) + 1);
  const top = Math.max(...c.values());
  return [...c.entries()].filter(([, k]) => k === top).map(([v]) => v);
};

const ORACLES: Record<number, Oracle> = {
  9: (it, level) => {
    const s = plain(it);
    if (level < 3) {
      const xs = numList(s);
      return total(xs) / xs.length;
    }
    const [n, m] = nums(s);
    const known = numList(s.slice(s.indexOf('scores are')));
    return n! * m! - total(known);
  },
  10: (it, level) => {
    if (level < 3) return med(numList(plain(it)));
    const xs = table(it).rows.flatMap(([v, f]) => Array<number>(Number(f)).fill(Number(v)));
    return med(xs);
  },
  11: (it, level) => {
    if (level === 1) return modes(numList(plain(it)))[0]!;
    if (level === 2) {
      const rows = table(it).rows;
      const top = Math.max(...rows.map((r) => Number(r[1])));
      return rows.find((r) => Number(r[1]) === top)![0]!;
    }
    return modes(numList(plain(it))).join(', ');
  },
  12: (it, level) => {
    const s = plain(it);
    if (level < 3) {
      const xs = sortNum(numList(s));
      return xs[xs.length - 1]! - xs[0]!;
    }
    const xs = numList(s);
    const r = nums(s.slice(s.indexOf('range of')))[0]!;
    return Math.min(...xs) + r;
  },
};

describe('statistics generators', () => {
  it('answers agree with an independent computation', () => runOracles(STATISTICS, ORACLES));
});
