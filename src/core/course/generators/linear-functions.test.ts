import { describe, it } from 'vitest';
import { LINEAR_FUNCTIONS } from './linear-functions';
import { type Oracle, alt, fracText, nums, plain, runOracles, table } from './harness.test-util';
import { evaluate, parseExpr } from '../expr';
import { parseRelation } from '../answer-check';

const ev = (e: string, env: Record<string, number> = {}) => evaluate(parseExpr(e), new Map(Object.entries(env)));
/** Coefficients [a, b, c] of a line a x + b y = c given as any equation in x and y. */
function std(eq: string): [number, number, number] {
  const r = parseRelation(eq)!;
  const f = (x: number, y: number) => evaluate(r.lhs, new Map([['x', x], ['y', y]])) - evaluate(r.rhs, new Map([['x', x], ['y', y]]));
  const c0 = f(0, 0);
  return [f(1, 0) - c0, f(0, 1) - c0, -c0];
}
const slopeInt = ([a, b, c]: [number, number, number]) => [-a / b, c / b] as const;
const frac = (x: number) => {
  for (let q = 1; q <= 60; q++) if (Math.abs(Math.round(x * q) - x * q) < 1e-9) return fracText(Math.round(x * q), q);
  throw new Error(String(x));
};
const eqText = (m: number, b: number, y = 'y', x = 'x') => `${y} = (${frac(m)})*${x} + (${b})`;
const points = (s: string) => [...s.matchAll(/\((-?\d+), (-?\d+)\)/g)].map((m) => [Number(m[1]), Number(m[2])] as [number, number]);
const firstEq = (s: string) => /(y = [^$?]+?|-?\d*x [+-] \d*y = -?\d+)(?:\?|,|$| in the form| cross| when)/.exec(s)![1]!.trim();

const ORACLES: Record<number, Oracle> = {
  61: (it, level) => {
    const s = plain(it);
    if (level < 3) {
      const [m, b] = slopeInt(std(firstEq(s)));
      return level === 1 ? b : -b / m;
    }
    const [a, b, c] = std(/line (.+?) cross/.exec(s)![1]!);
    return s.includes('x-axis') ? `(${c / a}, 0)` : `(0, ${c / b})`;
  },
  62: (it, level) => {
    const s = plain(it);
    if (level === 1) {
      const [m, b] = slopeInt(std(/line (.+?), what/.exec(s)![1]!));
      return m * nums(s.slice(s.indexOf('when')))[0]! + b;
    }
    if (level === 2) {
      const [m, b] = slopeInt(std(/line (.+?), what/.exec(s)![1]!));
      return (nums(s.slice(s.indexOf('when')))[0]! - b) / m;
    }
    const [m, b] = slopeInt(std(/Write (.+?) in the form/.exec(s)![1]!));
    return eqText(m, b);
  },
  66: (it) => {
    const [[x1, y1], [x2, y2]] = points(alt(it)) as [[number, number], [number, number]];
    return frac((y2 - y1) / (x2 - x1));
  },
  95: (it) => {
    const [[x1, y1], [x2, y2]] = points(alt(it)) as [[number, number], [number, number]];
    const m = (y2 - y1) / (x2 - x1);
    return eqText(m, y1 - m * x1);
  },
  98: (it) => {
    const [[x1, y1], [x2, y2]] = points(plain(it)) as [[number, number], [number, number]];
    return frac((y2 - y1) / (x2 - x1));
  },
  97: (it) => {
    const s = plain(it);
    const [m] = slopeInt(std(/line (.+)\?/.exec(s)![1]!));
    return frac(m);
  },
  96: (it, level) => {
    const n = nums(plain(it));
    if (level === 1) return n[1]!;
    const [y1, t1, y2, t2] = n as [number, number, number, number];
    return (y2 - y1) / (t2 - t1);
  },
  92: (it, level) => {
    const pts = level === 1 ? table(it).rows.map((r) => [Number(r[0]), Number(r[1])] as [number, number]) : points(plain(it));
    const [[x1, y1], [x2, y2]] = pts as [[number, number], [number, number]];
    const m = (y2 - y1) / (x2 - x1);
    return eqText(m, y1 - m * x1);
  },
  93: (it) => {
    const s = plain(it);
    const [Y, X] = [/\b([A-Z])\b (?:of|after|left|printed)/.exec(s)![1]!, /\b([a-z])\b (?:tickets|months|minutes|bags|hours)/.exec(s)![1]!];
    const n = nums(s);
    if (!s.includes('sign-up') && !s.includes('drains')) return `${Y} = ${n[0]}*${X}`;
    if (s.includes('sign-up')) return `${Y} = ${n[1]}*${X} + ${n[0]}`;
    return `${Y} = ${n[0]} - ${n[1]}*${X}`;
  },
  94: (it, level) => {
    if (level === 2) {
      return it.choices!.find((c) => {
        const ys = points(c).map((p) => p[1]);
        const d = ys.slice(1).map((v, i) => v - ys[i]!);
        return d.every((x) => x === d[0]);
      })!;
    }
    const rows = table(it).rows.filter((r) => r[1] !== '?').map((r) => [Number(r[0]), Number(r[1])] as [number, number]);
    const [[x1, y1], [x2, y2]] = rows as [[number, number], [number, number]];
    const m = (y2 - y1) / (x2 - x1);
    if (level === 1) return y1 + m * (5 - x1);
    return eqText(m, y1 - m * x1);
  },
  110: (it, level) => {
    const s = plain(it);
    if (level < 3) {
      const m = /lines (.+?) and (.+?)\. What/.exec(s)!;
      const [a1, b1, c1] = std(m[1]!);
      const [a2, b2, c2] = std(m[2]!);
      const det = a1 * b2 - a2 * b1;
      return `(${(c1 * b2 - c2 * b1) / det}, ${(a1 * c2 - a2 * c1) / det})`;
    }
    const m = /system (.+?) and (.+?) have/.exec(s)!;
    const [a1, b1, c1] = std(m[1]!);
    const [a2, b2, c2] = std(m[2]!);
    if (Math.abs(a1 * b2 - a2 * b1) > 1e-9) return 'Exactly one solution';
    const k = a2 / a1;
    return Math.abs(c2 - k * c1) < 1e-9 ? 'Infinitely many solutions' : 'No solution';
  },
};
void ev;

describe('linear function generators', () => {
  it('answers agree with an independent computation', () => runOracles(LINEAR_FUNCTIONS, ORACLES));
});
