/**
 * A small parser and evaluator for the algebra a 6th–9th grader types: numbers, one-letter
 * variables, + - * / ^, parentheses, √ / sqrt, π / pi. Used by the answer checker to decide
 * whether two expressions are equivalent (by evaluating both at fixed points) and whether a
 * response is written in a required form (simplified, factored, …).
 *
 * Reading rules (documented in docs/item-bank.md):
 * - Variables are single letters, case-insensitive ("C" and "c" are the same variable). A run of
 *   letters is a product ("xy" = x·y), except the names sqrt and pi.
 * - Implicit multiplication ("2x", "3(x+1)", "(x+1)(x-1)", "x y") has the same precedence as * and
 *   /, left to right, so "1/2x" is (1/2)·x, as most calculators and Wolfram Alpha read it; write
 *   "1/(2x)" for the other meaning.
 * - "^" applies to the next factor only and is right-associative: "2x^2" = 2·(x^2), "-x^2" = -(x^2),
 *   "2^-3" is allowed. "√2x" is (√2)·x; write "√(2x)" for the root of 2x.
 * - A letter directly followed by a digit ("x2") is rejected as ambiguous; so is a number directly
 *   after a number or a closing parenthesis ("2 3", "(x)2").
 */

export type Node =
  | { t: 'num'; v: number; text: string }
  | { t: 'var'; n: string }
  | { t: 'pi' }
  | { t: 'neg'; a: Node }
  | { t: 'add' | 'sub' | 'mul' | 'div' | 'pow'; a: Node; b: Node }
  | { t: 'sqrt'; a: Node };

export class ExprError extends Error {}

type Tok = { k: 'num'; v: string } | { k: 'var'; v: string } | { k: 'op'; v: string } | { k: 'sqrt' } | { k: 'pi' };

const SUPERSCRIPTS: Record<string, string> = { '⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9', '⁻': '-' };

/** Superscript digits ("x²", "10⁻⁴") become "^2", "^-4" (before NFKC would turn them into plain digits). */
export function replaceSuperscripts(s: string): string {
  return s.replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+/g, (m) => `^${[...m].map((c) => SUPERSCRIPTS[c]).join('')}`);
}

/** Canonical spelling of an expression string before tokenising. */
export function normalizeExprText(s: string): string {
  return replaceSuperscripts(s)
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013\u2014]/g, '-')
    .replace(/[×·∙⋅]/g, '*')
    .replace(/÷/g, '/')
    .replace(/√/g, ' sqrt ')
    .replace(/π/g, ' pi ')
    .replace(/\*\*/g, '^')
    .toLowerCase()
    .replace(/[[{]/g, '(')
    .replace(/[\]}]/g, ')')
    .trim();
}

function tokenize(src: string): Tok[] {
  const s = normalizeExprText(src);
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const num = /^(\d+\.?\d*|\.\d+)/.exec(s.slice(i));
    if (num) {
      out.push({ k: 'num', v: num[1]! });
      i += num[1]!.length;
      continue;
    }
    if (s.startsWith('sqrt', i)) {
      out.push({ k: 'sqrt' });
      i += 4;
      continue;
    }
    if (s.startsWith('pi', i)) {
      out.push({ k: 'pi' });
      i += 2;
      continue;
    }
    if (/[a-z]/.test(ch)) {
      if (/\d/.test(s[i + 1] ?? '')) throw new ExprError(`"${ch}${s[i + 1]}" is ambiguous: write ${ch}^${s[i + 1]} or ${s[i + 1]}${ch}`);
      out.push({ k: 'var', v: ch });
      i++;
      continue;
    }
    if ('+-*/^()'.includes(ch)) {
      out.push({ k: 'op', v: ch });
      i++;
      continue;
    }
    throw new ExprError(`unexpected character "${ch}"`);
  }
  return out;
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok | undefined {
    return this.toks[this.i];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t?.k === 'op' && t.v === v;
  }

  parse(): Node {
    if (this.toks.length === 0) throw new ExprError('empty expression');
    const n = this.expr();
    if (this.i < this.toks.length) throw new ExprError('unexpected input after the expression');
    return n;
  }

  private expr(): Node {
    let n = this.term();
    for (;;) {
      if (this.isOp('+')) {
        this.i++;
        n = { t: 'add', a: n, b: this.term() };
      } else if (this.isOp('-')) {
        this.i++;
        n = { t: 'sub', a: n, b: this.term() };
      } else return n;
    }
  }

  private startsFactor(): boolean {
    const t = this.peek();
    if (!t) return false;
    return t.k === 'var' || t.k === 'sqrt' || t.k === 'pi' || (t.k === 'op' && t.v === '(');
  }

  private term(): Node {
    let n = this.unary();
    for (;;) {
      if (this.isOp('*')) {
        this.i++;
        n = { t: 'mul', a: n, b: this.unary() };
      } else if (this.isOp('/')) {
        this.i++;
        n = { t: 'div', a: n, b: this.unary() };
      } else if (this.startsFactor()) {
        n = { t: 'mul', a: n, b: this.power() };
      } else if (this.peek()?.k === 'num') {
        throw new ExprError('a number cannot follow another factor without an operator');
      } else return n;
    }
  }

  private unary(): Node {
    if (this.isOp('-')) {
      this.i++;
      return { t: 'neg', a: this.unary() };
    }
    if (this.isOp('+')) {
      this.i++;
      return this.unary();
    }
    return this.power();
  }

  private power(): Node {
    const base = this.primary();
    if (this.isOp('^')) {
      this.i++;
      return { t: 'pow', a: base, b: this.unary() };
    }
    return base;
  }

  private primary(): Node {
    const t = this.peek();
    if (!t) throw new ExprError('the expression ends too early');
    this.i++;
    if (t.k === 'num') return { t: 'num', v: Number(t.v), text: t.v };
    if (t.k === 'var') return { t: 'var', n: t.v };
    if (t.k === 'pi') return { t: 'pi' };
    if (t.k === 'sqrt') {
      // √ applies to the next factor, including its exponent only when parenthesised.
      return { t: 'sqrt', a: this.primary() };
    }
    if (t.k === 'op' && t.v === '(') {
      const n = this.expr();
      if (!this.isOp(')')) throw new ExprError('missing ")"');
      this.i++;
      return n;
    }
    throw new ExprError(`unexpected "${t.v}"`);
  }
}

/** Parses an expression; throws ExprError when it cannot be read. */
export function parseExpr(src: string): Node {
  return new Parser(tokenize(src)).parse();
}

/** Parses, or undefined when the text is not an expression. */
export function tryParseExpr(src: string): Node | undefined {
  try {
    return parseExpr(src);
  } catch (e) {
    if (e instanceof ExprError) return undefined;
    throw e;
  }
}

export function evaluate(n: Node, env: ReadonlyMap<string, number>): number {
  switch (n.t) {
    case 'num':
      return n.v;
    case 'var':
      return env.get(n.n) ?? NaN;
    case 'pi':
      return Math.PI;
    case 'neg':
      return -evaluate(n.a, env);
    case 'add':
      return evaluate(n.a, env) + evaluate(n.b, env);
    case 'sub':
      return evaluate(n.a, env) - evaluate(n.b, env);
    case 'mul':
      return evaluate(n.a, env) * evaluate(n.b, env);
    case 'div':
      return evaluate(n.a, env) / evaluate(n.b, env);
    case 'pow':
      return Math.pow(evaluate(n.a, env), evaluate(n.b, env));
    case 'sqrt':
      return Math.sqrt(evaluate(n.a, env));
  }
}

export function variables(n: Node, out = new Set<string>()): Set<string> {
  switch (n.t) {
    case 'var':
      out.add(n.n);
      break;
    case 'neg':
    case 'sqrt':
      variables(n.a, out);
      break;
    case 'add':
    case 'sub':
    case 'mul':
    case 'div':
    case 'pow':
      variables(n.a, out);
      variables(n.b, out);
      break;
    default:
  }
  return out;
}

// Fixed evaluation points: non-integers of both signs, so that coincidences such as x^2 = 2x
// or |x| = x at a lucky point cannot make two different expressions look equal.
const POINT_VALUES = [1.37, -0.71, 2.93, 0.43, -2.29, 3.61, 1.91, -1.57, 0.83, 4.27];
const TOL = 1e-8;

export function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= TOL * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Variable assignments for point k (deterministic). */
export function pointEnv(vars: readonly string[], k: number): Map<string, number> {
  const env = new Map<string, number>();
  vars.forEach((v, j) => env.set(v, POINT_VALUES[(k + 3 * j) % POINT_VALUES.length]! + 0.11 * j));
  return env;
}

export const POINT_COUNT = POINT_VALUES.length;

/**
 * Equivalent when both are finite and equal at every fixed point where either is defined (at least
 * four points must be defined for both; a point where only one side is defined means different).
 */
export function equivalent(a: Node, b: Node): boolean {
  const vars = [...new Set([...variables(a), ...variables(b)])].sort();
  let defined = 0;
  for (let k = 0; k < POINT_COUNT; k++) {
    const env = pointEnv(vars, k);
    const x = evaluate(a, env);
    const y = evaluate(b, env);
    const fx = Number.isFinite(x);
    const fy = Number.isFinite(y);
    if (!fx && !fy) continue;
    if (fx !== fy) return false;
    if (!close(x, y)) return false;
    defined++;
    if (vars.length === 0) return true;
  }
  return defined >= 4;
}

/** a(point) = k · b(point) for one constant k (returned), or undefined. */
export function proportional(a: Node, b: Node): number | undefined {
  const vars = [...new Set([...variables(a), ...variables(b)])].sort();
  let k: number | undefined;
  let defined = 0;
  for (let p = 0; p < POINT_COUNT; p++) {
    const env = pointEnv(vars, p);
    const x = evaluate(a, env);
    const y = evaluate(b, env);
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (Math.abs(y) < 1e-12) {
      if (Math.abs(x) > 1e-9) return undefined;
      continue;
    }
    const r = x / y;
    if (k === undefined) k = r;
    else if (!close(k, r)) return undefined;
    defined++;
  }
  return defined >= 4 && k !== undefined && Math.abs(k) > 1e-12 ? k : undefined;
}

// ---------- form checks ----------

const isConst = (n: Node): boolean => variables(n).size === 0;

function sumTerms(n: Node, sign = 1, out: { sign: number; node: Node }[] = []): { sign: number; node: Node }[] {
  if (n.t === 'add') {
    sumTerms(n.a, sign, out);
    sumTerms(n.b, sign, out);
  } else if (n.t === 'sub') {
    sumTerms(n.a, sign, out);
    sumTerms(n.b, -sign, out);
  } else if (n.t === 'neg' && (n.a.t === 'add' || n.a.t === 'sub')) {
    // -(a + b) is not simplified; report as a single term containing a sum.
    out.push({ sign, node: n });
  } else out.push({ sign, node: n });
  return out;
}

function productFactors(n: Node, out: { node: Node; den: boolean }[] = [], den = false): { node: Node; den: boolean }[] {
  if (n.t === 'mul') {
    productFactors(n.a, out, den);
    productFactors(n.b, out, den);
  } else if (n.t === 'div') {
    productFactors(n.a, out, den);
    productFactors(n.b, out, !den);
  } else if (n.t === 'neg') productFactors(n.a, out, den);
  else out.push({ node: n, den });
  return out;
}

/** Signature of a monomial term ("x^2*y"), or undefined when the term is not a simplified monomial. */
function monomialSignature(term: Node): string | undefined {
  const factors = productFactors(term);
  let numeric = 0;
  let numericDen = 0;
  const powers = new Map<string, number>();
  for (const f of factors) {
    if (f.node.t === 'num') {
      if (f.den) numericDen++;
      else numeric++;
      continue;
    }
    if (f.den) return undefined; // a variable in a denominator is not a polynomial term
    let v: string | undefined;
    let e = 1;
    if (f.node.t === 'var') v = f.node.n;
    else if (f.node.t === 'pow' && f.node.a.t === 'var' && f.node.b.t === 'num' && Number.isInteger(f.node.b.v) && f.node.b.v >= 1) {
      v = f.node.a.n;
      e = f.node.b.v;
    } else return undefined;
    if (powers.has(v)) return undefined; // the same variable twice: x·x or x^2·x^3
    powers.set(v, e);
  }
  if (numeric > 1 || numericDen > 1) return undefined;
  return [...powers.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([v, e]) => `${v}^${e}`)
    .join('*');
}

/**
 * Simplified polynomial form: a sum of monomials, each a single number times distinct variables
 * with whole-number exponents (a numeric denominator is fine: "x/2"), no two like terms, no
 * parentheses around sums, no zero terms.
 */
export function isSimplifiedPolynomial(n: Node): boolean {
  const terms = sumTerms(n);
  const seen = new Set<string>();
  for (const { node } of terms) {
    if (node.t === 'num' && node.v === 0 && terms.length > 1) return false;
    const sig = monomialSignature(node);
    if (sig === undefined || seen.has(sig)) return false;
    seen.add(sig);
  }
  return true;
}

/**
 * Factored form: a product (optionally negated) with at least two non-constant factors, none of
 * which is a constant multiple of the whole expression.
 */
export function isFactored(n: Node): boolean {
  const nonConst: Node[] = [];
  for (const f of productFactors(n)) {
    if (f.den || isConst(f.node)) continue;
    const p = f.node;
    // a power of a non-constant factor, e.g. (x + 3)^2, counts as that factor repeated
    if (p.t === 'pow' && p.b.t === 'num' && Number.isInteger(p.b.v) && p.b.v >= 2 && p.b.v <= 6 && !isConst(p.a)) {
      for (let i = 0; i < p.b.v; i++) nonConst.push(p.a);
    } else nonConst.push(p);
  }
  if (nonConst.length < 2) return false;
  return nonConst.every((f) => proportional(f, n) === undefined);
}

function isSquareFree(k: number): boolean {
  for (let d = 2; d * d <= k; d++) if (k % (d * d) === 0) return false;
  return true;
}

/** Simplified radical: an integer, √n or a·√n with n a square-free whole number > 1. */
export function isSimplifiedRadical(n: Node): boolean {
  const f = productFactors(n);
  let roots = 0;
  for (const { node, den } of f) {
    if (den) return false;
    if (node.t === 'num') {
      if (!Number.isInteger(node.v)) return false;
      continue;
    }
    if (node.t === 'sqrt' && node.a.t === 'num' && Number.isInteger(node.a.v) && node.a.v > 1 && isSquareFree(node.a.v)) {
      roots++;
      continue;
    }
    return false;
  }
  return roots <= 1 && f.filter((x) => x.node.t === 'num').length <= 1;
}

function isPrime(k: number): boolean {
  if (!Number.isInteger(k) || k < 2) return false;
  for (let d = 2; d * d <= k; d++) if (k % d === 0) return false;
  return true;
}

/** A product of primes or prime powers ("2^2 × 3 × 5", "2·2·3·5"). */
export function isPrimeFactorization(n: Node): boolean {
  if (n.t === 'neg') return false;
  return productFactors(n).every(({ node, den }) => {
    if (den) return false;
    if (node.t === 'num') return isPrime(node.v);
    return node.t === 'pow' && node.a.t === 'num' && isPrime(node.a.v) && node.b.t === 'num' && Number.isInteger(node.b.v) && node.b.v >= 1;
  });
}
