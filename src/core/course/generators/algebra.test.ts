import { describe, expect, it } from 'vitest';
import { ALGEBRA } from './algebra';
import { type Oracle, fracText, nums, plain, runOracles } from './harness.test-util';
import { evaluate, parseExpr, variables } from '../expr';
import { parseRelation } from '../answer-check';
import type { ItemContent } from '../types';

const ev = (e: string, env: Record<string, number> = {}) => evaluate(parseExpr(e), new Map(Object.entries(env)));
/** The math after "Simplify:", "Expand:", "Solve for x:" … (plain text). */
const mathAfterColon = (s: string) => s.slice(s.indexOf(':') + 1).replace(/\.$/, '').trim();
/** A linear expression in one variable, simplified: "5x - 3". */
function simplifyLinear(e: string): string {
  const v = [...variables(parseExpr(e))][0]!;
  const b = ev(e, { [v]: 0 });
  const a = ev(e, { [v]: 1 }) - b;
  return `${a}*${v} + ${b}`.replace('+ -', '- ').replace(/ \+ 0$/, '');
}
/** Solves a linear equation "L = R" in its one variable. */
function solveLinear(eq: string): number {
  const [l, r] = eq.split('=');
  const v = [...variables(parseExpr(`${l} - (${r})`))][0]!;
  const f = (x: number) => ev(`${l} - (${r})`, { [v]: x });
  return -f(0) / (f(1) - f(0));
}
/** Linear coefficients of L - R in x and y. */
function coeffs(eq: string): [number, number, number] {
  const [l, r] = eq.split('=');
  const f = (x: number, y: number) => ev(`${l} - (${r})`, { x, y });
  const c = f(0, 0);
  return [f(1, 0) - c, f(0, 1) - c, -c];
}
function roots(lhs: string): [number, number, number] {
  const c = ev(lhs, { x: 0 });
  const p = ev(lhs, { x: 1 });
  const m = ev(lhs, { x: -1 });
  return [(p + m) / 2 - c, (p - m) / 2, c];
}
/** Rational number as a fraction p/q (small denominators). */
function asFrac(x: number): [number, number] {
  for (let q = 1; q <= 100; q++) if (Math.abs(Math.round(x * q) - x * q) < 1e-9) return [Math.round(x * q), q];
  throw new Error(`${x} is not a small fraction`);
}
/** Terms of a polynomial in x: [coefficient, exponent]. */
function polyTerms(p: string): [number, number][] {
  return p
    .replace(/\s+/g, '')
    .split(/(?=[+-])/)
    .map((t) => {
      const m = /^([+-]?)(\d*)(x?)(?:\^(\d+))?$/.exec(t)!;
      const c = (m[1] === '-' ? -1 : 1) * (m[2] ? Number(m[2]) : 1);
      const e = m[3] ? (m[4] ? Number(m[4]) : 1) : 0;
      return [c, e];
    });
}
function chooseBySolution(it: ItemContent, want: number): string {
  const hits = it.choices!.filter((c) => Math.abs(solveLinear(c.replace(/\$/g, '')) - want) < 1e-9);
  expect(hits, `exactly one option solves to ${want}: ${it.choices!.join(' | ')}`).toHaveLength(1);
  return hits[0]!;
}

const ORACLES: Record<number, Oracle> = {
  58: (it) => simplifyLinear(mathAfterColon(plain(it))),
  99: (it) => simplifyLinear(mathAfterColon(plain(it))),
  59: (it) => solveLinear(mathAfterColon(plain(it))),
  88: (it) => solveLinear(mathAfterColon(plain(it))),
  60: (it, level) => {
    const n = nums(plain(it));
    if (level === 1) return chooseBySolution(it, n[1]! - n[0]!);
    if (level === 2) {
      const k = ['Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine'].indexOf(/"(\w+) times/.exec(plain(it))![1]!) + 2;
      const dec = plain(it).includes('decreased');
      return chooseBySolution(it, (n[1]! + (dec ? n[0]! : -n[0]!)) / k);
    }
    return chooseBySolution(it, (n[2]! - n[0]!) / n[1]!);
  },
  101: (it) => {
    const [a, b, c] = roots(mathAfterColon(plain(it)));
    const d = Math.sqrt(b * b - 4 * a * c);
    const [p1, q1] = asFrac((-b + d) / (2 * a));
    const [p2, q2] = asFrac((-b - d) / (2 * a));
    return `(${q1}x - (${p1}))(${q2}x - (${p2}))`;
  },
  102: (it, level) => {
    const xs = nums(plain(it).split(/rule|\.\.\./)[1] ?? plain(it)).filter((_, i, arr) => i < arr.length);
    const seq = nums(plain(it).slice(plain(it).indexOf(level === 3 ? 'pattern' : '?')));
    const s = level === 3 ? seq.slice(0, 4) : seq;
    void xs;
    const d1 = s.slice(1).map((v, i) => v - s[i]!);
    const d2 = d1[1]! - d1[0]!;
    if (level < 3) return s[s.length - 1]! + d1[d1.length - 1]! + d2;
    const a = d2 / 2;
    const b = d1[0]! - 3 * a;
    const c = s[0]! - a - b;
    return `${a}n^2 + ${b}n + ${c}`;
  },
  103: (it) => {
    const m = /system: (.+?) and (.+?)\. Write/.exec(plain(it))!;
    const [a1, b1, c1] = coeffs(m[1]!);
    const [a2, b2, c2] = coeffs(m[2]!);
    const det = a1 * b2 - a2 * b1;
    return `(${(c1 * b2 - c2 * b1) / det}, ${(a1 * c2 - a2 * c1) / det})`;
  },
  104: (it, level) => {
    const lhs = /solve (.+?) = 0/.exec(plain(it))![1]!;
    const [a, b, c] = roots(lhs);
    const d = Math.sqrt(b * b - 4 * a * c);
    const r = [(-b + d) / (2 * a), (-b - d) / (2 * a)];
    if (level === 3) return r.map((x) => Math.round(x * 100) / 100).join(', ');
    return r.map((x) => fracText(...asFrac(x))).join(', ');
  },
  105: (it, level) => {
    const s = plain(it);
    if (level === 1) {
      const terms = polyTerms(/polynomial (.+?), what/.exec(s)![1]!);
      const e = s.includes('constant term') ? 0 : Number(/coefficient of x(?:\^(\d+))?\?/.exec(s)![1] ?? 1);
      return terms.find(([, k]) => k === e)![0];
    }
    if (level === 2) {
      if (s.includes('monomial')) return nums(s.replace(/^.*monomial -?\d+/, '')).reduce((a, b) => a + b, 0);
      return Math.max(...polyTerms(/polynomial (.+)\?/.exec(s)![1]!).map(([, e]) => e));
    }
    const terms = polyTerms(/describes (.+)\?/.exec(s)![1]!);
    const deg = ['', 'linear', 'quadratic', 'cubic'][Math.max(...terms.map(([, e]) => e))]!;
    const kind = ['', 'monomial', 'binomial', 'trinomial'][terms.length]!;
    return `${deg[0]!.toUpperCase()}${deg.slice(1)} ${kind}`;
  },
  107: (it) => {
    // Verify the stated answer against the formula at several points (independent of how it was derived).
    const formula = parseRelation(/Solve (.+) for/.exec(plain(it))![1]!)!;
    const answer = parseRelation(it.answer)!;
    const v = (answer.lhs as { n: string }).n;
    const vars = [...new Set([...variables(formula.lhs), ...variables(formula.rhs)])].filter((x) => x !== v);
    for (let k = 0; k < 5; k++) {
      const env = new Map(vars.map((x, i) => [x, 1.3 + 0.7 * i + 0.37 * k] as [string, number]));
      env.set(v, evaluate(answer.rhs, env));
      const diff = evaluate(formula.lhs, env) - evaluate(formula.rhs, env);
      if (Math.abs(diff) > 1e-9 * Math.max(1, Math.abs(evaluate(formula.lhs, env)))) return 'does not satisfy the formula';
    }
    return it.answer;
  },
  108: (it) => {
    const e = mathAfterColon(plain(it)).replace(/·/g, '*');
    const vars = [...variables(parseExpr(e))];
    const c = ev(e, Object.fromEntries(vars.map((v) => [v, 1])));
    const parts = vars.map((v) => {
      const p = Math.round(Math.log2(ev(e, Object.fromEntries(vars.map((w) => [w, w === v ? 2 : 1]))) / c));
      return p === 1 ? v : `${v}^${p}`;
    });
    return `${c === 1 ? '' : c}${parts.join('')}`;
  },
  109: (it) => {
    const rel = parseRelation(mathAfterColon(plain(it)))!;
    // lhs < rhs (or <=): a x + b < c
    const f = (x: number) => evaluate(rel.lhs, new Map([['x', x]])) - evaluate(rel.rhs, new Map([['x', x]]));
    const a = f(1) - f(0);
    const x0 = -f(0) / a;
    const strict = rel.op === '<';
    return a > 0 ? `x ${strict ? '<' : '<='} ${x0}` : `x ${strict ? '>' : '>='} ${x0}`;
  },
};

describe('algebra generators', () => {
  it('answers agree with an independent computation', () => runOracles(ALGEBRA, ORACLES));
});
