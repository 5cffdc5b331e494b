import { describe, it } from 'vitest';
import { NUMBER_SENSE } from './number-sense';
import { type Oracle, gcd, numList, nums, plain, runOracles } from './harness.test-util';
import { evaluate, parseExpr } from '../expr';

const lcm = (a: number, b: number) => (a * b) / gcd(a, b);
/** Evaluates the math of a stem such as "Evaluate 24 ÷ 4 + 2 × 3." or "What is |−7|?". */
function evalMath(s: string): number {
  const m = /(?:Evaluate|What is) (.+?)(?:[.?]$|\? )/.exec(s)!;
  let e = m[1]!;
  for (let i = 0; i < 5; i++) e = e.replace(/\|([^|]*)\|/, 'abs($1)');
  return evalWithAbs(e);
}
function evalWithAbs(e: string): number {
  // abs(...) is not part of the student-facing grammar; evaluate innermost abs() first
  const inner = /abs\(([^()]*)\)/.exec(e);
  if (inner) return evalWithAbs(e.replace(inner[0], `(${Math.abs(evaluate(parseExpr(inner[1]!), new Map()))})`));
  return evaluate(parseExpr(e), new Map());
}
/** A number as written in a stem: 3/4, 1 3/4, 45%, √23, π, -0.5. */
function readReal(t: string): number {
  t = t.trim();
  if (t.endsWith('%')) return Number(t.slice(0, -1)) / 100;
  const mixed = /^(-?)(\d+) (\d+)\/(\d+)$/.exec(t);
  if (mixed) return (mixed[1] ? -1 : 1) * (Number(mixed[2]) + Number(mixed[3]) / Number(mixed[4]));
  return evaluate(parseExpr(t), new Map());
}
const roundPlace = (n: number, place: number) => Math.round(Number((n / place).toFixed(6))) * place;
function largestSquare(n: number): number {
  let best = 1;
  for (let k = 1; k * k <= n; k++) if (n % (k * k) === 0) best = k;
  return best;
}
function primeFactorization(n: number): string {
  const out: number[] = [];
  for (let d = 2; n > 1; d++) while (n % d === 0) {
    out.push(d);
    n /= d;
  }
  return out.join(' * ');
}
const isPrime = (n: number) => n > 1 && [...Array(Math.floor(Math.sqrt(n))).keys()].every((i) => i < 1 || n % (i + 1) !== 0);

const ORACLES: Record<number, Oracle> = {
  34: (it, level) => {
    const xs = numList(plain(it));
    if (level === 1) return Math.max(...xs);
    const asc = [...xs].sort((a, b) => a - b);
    return (plain(it).includes('least to greatest') ? asc : asc.reverse()).join(', ');
  },
  35: (it) => {
    const parts = [...plain(it).matchAll(/([A-D]): ([^;]+)/g)].map((m) => [m[1]!, readReal(m[2]!)] as const);
    return parts.sort((a, b) => a[1] - b[1]).map((p) => p[0]).join(', ');
  },
  36: (it) => {
    const s = plain(it);
    const n = Number(/Round ([\d,.]+) to/.exec(s)![1]!.replace(/,/g, ''));
    const place = s.includes('nearest ten.') ? 10 : s.includes('hundred.') ? 100 : s.includes('tenth') ? 0.1 : 0.01;
    return Number(roundPlace(n, place).toFixed(2));
  },
  37: (it) => nums(plain(it)).reduce((a, b) => a + b, 0),
  45: (it) => {
    const [a, b] = nums(plain(it));
    return a! - b!;
  },
  43: (it) => {
    const [a, b] = nums(plain(it));
    return a! * b!;
  },
  39: (it, level) => {
    const [a, b] = nums(plain(it));
    if (level === 1) return roundPlace(a!, 10) + roundPlace(b!, 10);
    if (level === 2) {
      const lead = (n: number) => roundPlace(n, 10 ** (String(n).length - 1));
      return lead(a!) * lead(b!);
    }
    return Math.round(a!) * Math.round(b!);
  },
  41: (it) => {
    const s = plain(it);
    return nums(s.split('They')[0]!).reduce(lcm);
  },
  90: (it) => nums(plain(it)).reduce(gcd),
  46: (it, level) => {
    const n = nums(plain(it))[0]!;
    if (level === 1) return Math.sqrt(n);
    if (level === 2) return `${Math.floor(Math.sqrt(n))}, ${Math.floor(Math.sqrt(n)) + 1}`;
    const k = largestSquare(n);
    return `${k}√${n / (k * k)}`;
  },
  51: (it, level) => {
    const s = plain(it);
    if (level === 1) {
      const m = /([\d.]+) × 10\^(\d+)/.exec(s)!;
      return Number(`${m[1]}e${m[2]}`);
    }
    const x = Number(/Write ([\d,.]+) in/.exec(s)![1]!.replace(/,/g, ''));
    const e = Math.floor(Math.log10(x) + 1e-12);
    const mant = Number((x / 10 ** e).toPrecision(10));
    return `${mant} × 10^${e}`;
  },
  52: (it, level) => {
    const s = plain(it);
    if (level < 3) {
      const d = nums(s)[0]!;
      return it.choices!.find((c) => Number(c) % d === 0)!;
    }
    const m = /(\d)_(\d) is divisible by (\d)/.exec(s)!;
    return [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].find((x) => Number(`${m[1]}${x}${m[2]}`) % Number(m[3]) === 0)!;
  },
  53: (it, level) => {
    const s = plain(it);
    if (level === 1) return it.choices!.find((c) => isPrime(Number(c)))!;
    const n = nums(s);
    if (level === 2) {
      let k = 0;
      for (let x = n[0]! + 1; x < n[1]!; x++) if (isPrime(x)) k++;
      return k;
    }
    return primeFactorization(n[0]!);
  },
  54: (it) => evalMath(plain(it)),
  55: (it) => String(evalMath(plain(it).replace(/ Write your answer as a fraction\./, ''))),
  56: (it, level) => {
    const s = plain(it);
    const xs = numList(s);
    if (level === 3) {
      const d = xs[1]! - xs[0]!;
      return `${d}n + ${xs[0]! - d}`;
    }
    if (s.includes('term number')) {
      const n = nums(s.slice(s.indexOf('term number')))[0]!;
      return xs[0]! + (n - 1) * (xs[1]! - xs[0]!);
    }
    const k = xs.length;
    if (xs[2]! - xs[1]! === xs[1]! - xs[0]!) return xs[k - 1]! + (xs[1]! - xs[0]!);
    return xs[k - 1]! * (xs[1]! / xs[0]!);
  },
  85: (it) => evalMath(plain(it)),
  91: (it) => String(evalMath(plain(it).replace(/ Write your answer as a fraction in simplest form\./, ''))),
};

describe('number sense generators', () => {
  it('answers agree with an independent computation', () => runOracles(NUMBER_SENSE, ORACLES));
});
