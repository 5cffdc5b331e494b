/**
 * Arithmetic a text states, checked (docs/learning-model.md, "Instruction"): instruction whose
 * computations are wrong does not carry the skill's method. A *claim* is `L = R` where L is a
 * computation (numbers with + − × ÷ · * / ^ and parentheses, at least one operator) and R a number
 * or another computation, both standing apart from words ("8y", "20%", "x^(5 + 7)" are not
 * computations; a chain "6 × 18^2 = 6 × 324 = 1944" is two claims). A claim is wrong when the two
 * sides differ by more than the rounding R shows (R = 2.33 accepts 7 ÷ 3). Anything this parser
 * cannot read is not a claim: the check only refuses what it can show to be false.
 *
 * Computations are read by the course's expression parser (`course/expr.ts`: −2^2 is −4, as in
 * maths); what counts as a claim is decided here.
 */
import { evaluate as evalExpr, tryParseExpr, variables } from '../course/expr';

const OPERATOR_CHARS = '+-*/^';
/** Characters a computation is made of (after normalise). */
const IN_RUN = /[0-9.+\-*/^() \t]/;

function normalise(text: string): string {
  return text
    // A list number opening a line ("3. 36 - 82 = -46") is not part of the computation.
    .replace(/^[ \t]*\d+[.)][ \t]+/gm, '')
    .replace(/\\(?:times|cdot|ast)/g, '*')
    .replace(/\\div/g, '/')
    .replace(/\\left|\\right/g, '')
    .replace(/[$]/g, '')
    .replace(/[{}]/g, (c) => (c === '{' ? '(' : ')'))
    .replace(/[×·⋅∙∗✕]/g, '*')
    .replace(/[÷∕]/g, '/')
    .replace(/[−–‒]/g, '-')
    // Thousands separators: "77,000" is 77000 (a list "1, 2, 3" has spaces).
    .replace(/\b(\d{1,3})((?:,\d{3})+)(?![\d,])/g, (_, a: string, b: string) => a + b.replace(/,/g, ''));
}

/** The value of a computation on numbers; null when it is not one (the course's expression parser, no variables). */
export function evaluate(expr: string): number | null {
  // A mixed number "1 1/2" is 1 + 1/2; any other two numbers side by side are not a computation.
  const mixed = expr.replace(/(\d+)\s+(\d+)\s*\/\s*(\d+)/g, '($1+$2/$3)');
  // Nor is a number or a bracket right before a bracket ("25(32)": a product only where the text says so).
  if (/[\d.]\s+[\d.]/.test(mixed) || /[\d.)]\s*\(/.test(mixed) || !/\d/.test(mixed)) return null;
  const node = tryParseExpr(mixed);
  if (!node || variables(node).size > 0) return null;
  const v = evalExpr(node, NO_VARIABLES);
  return Number.isFinite(v) ? v : null;
}
const NO_VARIABLES: ReadonlyMap<string, number> = new Map();

/** Has a binary operator (a minus after a number or a closing parenthesis), not only a sign. */
function hasOperator(expr: string): boolean {
  const s = expr.replace(/\s+/g, '');
  for (let k = 1; k < s.length; k++) if (OPERATOR_CHARS.includes(s[k]!) && /[0-9)]/.test(s[k - 1]!)) return true;
  return false;
}

/** The computation standing against position `at` (exclusive) going left or right, or null when it touches a word. */
function runAt(line: string, at: number, dir: -1 | 1): string | null {
  let a = at;
  if (dir === -1) {
    while (a > 0 && IN_RUN.test(line[a - 1]!)) a--;
    const run = line.slice(a, at);
    const start = a + (run.length - run.trimStart().length);
    // Touching a word, a percent, a subscript or another symbol: not a computation of its own.
    if (start > 0 && start === a && !/[:=;,(]/.test(line[a - 1]!)) return null;
    const trimmed = run.trim();
    // "5x - 21 + 126": a run that starts with an operator continues the expression before it.
    if (/^[-+*/^]/.test(trimmed) && a > 0 && /[\p{L}\d)]/u.test(line.slice(0, a).trimEnd().slice(-1))) return null;
    return trimmed || null;
  }
  while (a < line.length && IN_RUN.test(line[a]!)) a++;
  const run = line.slice(at, a);
  const end = at + run.trimEnd().length;
  if (end < line.length && end === a && !/[.,;:!?=]/.test(line[a]!)) return null;
  // "3 R 2", "3 remainder 2": a quotient with a remainder, not a number.
  if (/^\s*(?:r|rem|remainder)\b/i.test(line.slice(a))) return null;
  // A sentence's full stop after the number is not a decimal point.
  return run.trim().replace(/\.$/, '') || null;
}

const decimals = (s: string) => (/\.(\d+)\s*$/.exec(s)?.[1]?.length ?? 0);

export interface ArithmeticClaim {
  left: string;
  right: string;
  correct: boolean;
}

/** Every arithmetic claim of the text, each marked correct or not. */
export function arithmeticClaims(text: string): ArithmeticClaim[] {
  const out: ArithmeticClaim[] = [];
  for (const line of normalise(text).split(/\n/)) {
    for (let k = line.indexOf('='); k >= 0; k = line.indexOf('=', k + 1)) {
      if (line[k - 1] === '<' || line[k - 1] === '>' || line[k - 1] === '!' || line[k + 1] === '=') continue;
      const left = runAt(line, k, -1);
      const right = runAt(line, k + 1, 1);
      if (left === null || right === null || !hasOperator(left)) continue;
      const l = evaluate(left);
      const r = evaluate(right);
      if (l === null || r === null) continue;
      const tol = hasOperator(right) ? 1e-9 * Math.max(1, Math.abs(l)) : 0.5 * 10 ** -decimals(right) + 1e-9 * Math.max(1, Math.abs(l));
      out.push({ left, right, correct: Math.abs(l - r) <= tol });
    }
  }
  return out;
}

/** The first wrong claim of the text, or null when every claim it makes checks out. */
export function wrongArithmetic(text: string): ArithmeticClaim | null {
  return arithmeticClaims(text).find((c) => !c.correct) ?? null;
}
