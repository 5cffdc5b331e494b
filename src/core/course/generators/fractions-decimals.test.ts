import { describe, it } from 'vitest';
import { FRACTIONS_DECIMALS } from './fractions-decimals';
import { type Oracle, fracText, nums, plain, runOracles } from './harness.test-util';
import { evaluate, parseExpr } from '../expr';

/** Evaluates plain-text arithmetic with fractions and mixed numbers ("(2 1/3) ÷ (3/4)"). */
function evalPlain(e: string): number {
  return evaluate(parseExpr(e.replace(/(\d+) (\d+)\/(\d+)/g, '($1 + $2/$3)')), new Map());
}
/** "3/4", "1 3/5", "0.35", "12.5%" → value. */
function readNum(t: string): number {
  const m = /^(\d+) (\d+)\/(\d+)$/.exec(t);
  if (m) return Number(m[1]) + Number(m[2]) / Number(m[3]);
  if (t.endsWith('%')) return Number(t.slice(0, -1)) / 100;
  return evalPlain(t);
}
const reduce = (x: number) => {
  for (let d = 1; d <= 100000; d++) if (Math.abs(Math.round(x * d) - x * d) < 1e-9) return fracText(Math.round(x * d), d);
  throw new Error('not rational');
};
const between = (s: string, a: string, b: string) => s.slice(s.indexOf(a) + a.length, s.indexOf(b, s.indexOf(a) + a.length)).trim();

const ORACLES: Record<number, Oracle> = {
  30: (it) => {
    const s = plain(it);
    const x = readNum(between(s, 'Write ', ' as'));
    if (s.includes('as a percent')) return `${Number((x * 100).toFixed(6))}%`;
    if (s.includes('as a decimal')) return x;
    return reduce(x);
  },
  31: (it, level) => {
    const s = plain(it);
    const m = /(\d+|\?)\/(\d+|\?) = (\d+|\?)\/(\d+|\?)/.exec(s);
    if (level === 3 || !m) return reduce(readNum(between(s, 'Write ', ' in simplest')));
    const [a, b, c, d] = m.slice(1).map((x) => (x === '?' ? NaN : Number(x)));
    if (Number.isNaN(c!)) return (a! * d!) / b!;
    return (b! * c!) / a!;
  },
  32: (it, level) => {
    const xs = nums(plain(it));
    if (level === 1) return Math.max(...xs);
    const asc = [...xs].sort((a, b) => a - b);
    return (plain(it).includes('least to greatest') ? asc : asc.reverse()).join(', ');
  },
  33: (it, level) => {
    if (level === 1) return it.choices!.reduce((a, b) => (readNum(a) > readNum(b) ? a : b));
    const items = plain(it).split(': ')[1]!.split(', ');
    return items.sort((a, b) => readNum(a) - readNum(b)).join(', ');
  },
  38: (it) => String(evalPlain(between(plain(it), 'What is ', '?'))),
  42: (it) => String(evalPlain(between(plain(it), 'What is ', '?'))),
  40: (it, level) => {
    const s = plain(it);
    if (level < 3) {
      const f = /(\d+)\/(\d+)/.exec(s)!;
      const w = nums(s.replace(f[0], ' ')).find((x) => x > 1)!;
      return (w * Number(f[1])) / Number(f[2]);
    }
    const amount = readNum(between(s, 'uses ', ' ').concat(/uses \d+ \d+\//.test(s) ? ` ${s.split('uses ')[1]!.split(' ')[1]}` : ''));
    const part = readNum(between(s, 'makes ', ' of'));
    return String(amount * part);
  },
  67: (it) => String(evalPlain(between(plain(it), 'What is ', '?'))),
  69: (it) => String(evalPlain(between(plain(it), 'What is ', '?'))),
  71: (it) => String(evalPlain(between(plain(it), 'What is ', '?'))),
};

describe('fraction and decimal generators', () => {
  it('answers agree with an independent computation', () => runOracles(FRACTIONS_DECIMALS, ORACLES));
});
