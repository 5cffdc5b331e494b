import { describe, it } from 'vitest';
import { PROBABILITY } from './probability';
import { type Oracle, fracText, nums, plain, runOracles } from './harness.test-util';

/** "3 red, 4 blue and 2 white marbles" → counts by colour and the total. */
function bag(s: string): { count: Map<string, number>; n: number } {
  const count = new Map<string, number>();
  for (const m of s.matchAll(/(\d+) (red|blue|green|yellow|purple|white)(?: marbles)?/g)) count.set(m[2]!, Number(m[1]));
  return { count, n: [...count.values()].reduce((a, b) => a + b, 0) };
}
/** Reads "0", "1", "1/2", "0.5", "50%" as a number. */
function readP(t: string): number {
  if (t.endsWith('%')) return Number(t.slice(0, -1)) / 100;
  if (t.includes('/')) {
    const [a, b] = t.split('/').map(Number);
    return a! / b!;
  }
  return Number(t);
}

const ORACLES: Record<number, Oracle> = {
  13: (it, level) => {
    const s = plain(it);
    const n = nums(s);
    if (level === 1) return n[0]! * n[1]!;
    if (level === 2) return n[0]! * n[1]! * n[2]!;
    const k = s.includes('third') || s.includes('secretary') ? 3 : 2;
    let r = 1;
    for (let i = 0; i < k; i++) r *= n[0]! - i;
    return r;
  },
  14: (it, level) => {
    const s = plain(it);
    if (level === 1) {
      const ev = /and (an even number|an odd number|a multiple of 3|a number greater than \d|a number less than \d|a \d)\?/.exec(s)![1]!;
      const k = nums(ev)[0] ?? 0;
      const pred: (x: number) => boolean = ev === 'an even number' ? (x) => x % 2 === 0 : ev === 'an odd number' ? (x) => x % 2 === 1 : ev === 'a multiple of 3' ? (x) => x % 3 === 0 : ev.includes('greater') ? (x) => x > k : ev.includes('less') ? (x) => x < k : (x) => x === k;
      const fav = [1, 2, 3, 4, 5, 6].filter(pred).length;
      return fracText(fav, 12);
    }
    const { count, n } = bag(s);
    const m = /first is (\w+) and the second is (\w+)/.exec(s)!;
    const a = count.get(m[1]!)!;
    const b = count.get(m[2]!)!;
    if (s.includes('put it back')) return fracText(a * b, n * n);
    return fracText(a * (m[1] === m[2] ? a - 1 : b), n * (n - 1));
  },
  15: (it, level) => {
    const s = plain(it);
    if (level === 3) {
      const [total] = nums(s);
      const m = /is (\d+)\/(\d+)\./.exec(s)!;
      return (total! * Number(m[1])) / Number(m[2]);
    }
    if (s.includes('spinner')) {
      const [sides, , , k] = [nums(s)[0], 0, 0, nums(s.slice(s.indexOf('greater than')))[0]];
      return fracText(sides! - k!, sides!);
    }
    const { count, n } = bag(s);
    const color = /it is (?:NOT )?(\w+)[?.]/.exec(s)![1]!;
    const a = count.get(color)!;
    return s.includes('NOT') ? fracText(n - a, n) : fracText(a, n);
  },
  57: (it, level) => {
    const s = plain(it);
    if (level === 1) {
      const p = readP(/event is (\S+)\./.exec(s)![1]!);
      return p === 0 ? 'Impossible' : p === 1 ? 'Certain' : p === 0.5 ? 'Equally likely as not' : p < 0.5 ? 'Unlikely' : 'Likely';
    }
    if (level === 2) {
      const [a1, n1, a2, n2] = nums(s);
      return a1! / n1! > a2! / n2! ? 'Bag A' : 'Bag B';
    }
    const m = /blue is (\d+)\/(\d+)\. If you spin it (\d+) times/.exec(s)!;
    return (Number(m[1]) / Number(m[2])) * Number(m[3]);
  },
};

describe('probability generators', () => {
  it('answers agree with an independent computation', () => runOracles(PROBABILITY, ORACLES));
});
