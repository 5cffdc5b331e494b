/**
 * The answer checker: is a learner's response to an item correct?
 *
 * Normalisation rules (also in docs/item-bank.md, "The answer checker"):
 * - Everywhere: case, surrounding whitespace, a trailing full stop and inner runs of whitespace are
 *   ignored; the Unicode minus (−) and dashes read as -, × and · as *, ÷ as /; superscript digits
 *   read as powers ("x²" = "x^2", "10⁻⁴" = "10^-4"); math typed in LaTeX ($\frac{3}{4}$) reads as
 *   its plain form (3/4). A leading "answer:", "the answer is" or "my answer is" is ignored.
 * - number: compared by value within 1e-9 (relative): "3/4", "0.75", ".75" and "6/8" are equal;
 *   mixed numbers ("1 1/2"), thousands separators ("1,200") and scientific notation
 *   ("3.2 × 10^5", "3.2*10^5", "3.2e5") are read as their value. A leading variable assignment
 *   ("x = 4") is ignored. A percent response ("75%", "75 percent") only matches an answer or
 *   accepted form written as a percent (items that ask for a percent list the bare number as an
 *   accepted form). Trailing units are ignored: lengths, areas ("cm^2", "square feet"), volumes,
 *   masses, times, money ("$" prefix, "dollars", "cents"), degrees ("°"), rates ("mph", "km/h",
 *   "miles per hour"), and any word that also appears in the item's stem ("12 students").
 *   Number words ("3 fourths") are never stripped.
 * - expression: equivalent expressions are equal, whatever the order of terms or factors and
 *   whether multiplication is written or implicit: "2x+3" = "3 + 2x" = "2*x+3"; "2x+4" is not.
 *   Equivalence is decided by evaluating both at ten fixed non-integer points of both signs (see
 *   expr.ts for how implicit multiplication, ^ and √ are read: "1/2x" is (1/2)·x). Variable names
 *   are case-insensitive. A leading "=" or "y =" (a variable the answer does not use) is ignored.
 * - equation (and inequality): when the answer isolates a variable ("y = 2x + 3", "x < 5",
 *   "t = d/r"), the response must isolate the same variable on either side, with the same
 *   relation read from that variable ("5 > x" = "x < 5"), and the other side equivalent
 *   ("y = 3 + 2x"). Otherwise two equations are equal when one's (left - right) is a non-zero
 *   constant multiple of the other's ("2x + 4y = 8" = "x + 2y = 4"), and two inequalities when the
 *   multiple is positive and both are strict or both not.
 * - set: an unordered list of numbers (a multiset), separated by commas, semicolons or "and",
 *   with or without braces; each element as in number (plus √ and π).
 * - list: an ordered list of numbers: "(2, 3)", "2, 3", "[2, 3]". When every element of the
 *   response names a variable ("x = 2, y = 3", "y = 3, x = 2") the elements are read in
 *   alphabetical order of the variables. Thousands separators cannot be used inside lists.
 * - choice: the option letter ("b", "(b)", "b)", "option b") or the option's text.
 * - text: exact after normalisation (spaces around commas ignored).
 * - format (when the item asks for a form): see ResponseFormat in types.ts; a response with the
 *   right value in another form ("0.75" when a fraction in lowest terms is asked) is not correct.
 * Near misses (a wrong sign, a different value, a rounding beyond 1e-9 relative, an unsimplified
 * form when a simplified one is asked, a non-strict inequality for a strict one) are rejected.
 */
import type { Item, ResponseFormat } from './types';
import { SimError } from '../errors';
import { toPlain } from './math-text';
import {
  type Node,
  close,
  equivalent,
  evaluate,
  isFactored,
  isPrimeFactorization,
  isSimplifiedPolynomial,
  isSimplifiedRadical,
  proportional,
  replaceSuperscripts,
  tryParseExpr,
  variables,
} from './expr';

/** normalizeText's results by input (a pure function of its string; the learner and the detectors ask about the same texts again and again). */
const normalized = new Map<string, string>();
const NORMALIZED_MAX = 8192;

export function normalizeText(s: string): string {
  const hit = normalized.get(s);
  if (hit !== undefined) return hit;
  const out = normalizeTextOnce(s);
  if (normalized.size >= NORMALIZED_MAX) normalized.clear();
  normalized.set(s, out);
  return out;
}

function normalizeTextOnce(s: string): string {
  return replaceSuperscripts(toPlain(s))
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013\u2014]/g, '-')
    .replace(/[×·]/g, '*')
    .replace(/÷/g, '/')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/\.$/, '')
    .trim();
}

/** "answer:", "the answer is", "my answer is" before a response. */
const ANSWER_PREFIX = /^(?:(?:the|my)\s+)?answer(?:\s+is)?\s*[:=]?\s*/;

export interface ParsedNumber {
  value: number;
  percent: boolean;
}

const UNIT =
  '(?:°\\s*[cf]?|degrees?(?:\\s+(?:celsius|fahrenheit))?|deg|mm|cm|km|m|meters?|metres?|centimeters?|centimetres?|millimeters?|kilometers?|in|inch|inches|ft|feet|foot|yd|yards?|mi|miles?|kg|g|grams?|kilograms?|lb|lbs|pounds?|oz|ounces?|tons?|l|ml|liters?|litres?|milliliters?|gal|gallons?|qt|quarts?|pt|pints?|cups?|fl oz|dollars?|cents?|¢|hours?|hrs?|h|minutes?|mins?|min|seconds?|secs?|s|days?|weeks?|months?|years?|units?|mph|kph)';
const UNIT_RE = new RegExp(
  `(?<![a-z])\\s*(?:(?:square|sq\\.?|cubic|cu\\.?)\\s+)?${UNIT}(?:\\s*\\^\\s*[23]|\\s+(?:squared|cubed))?(?:\\s*(?:/|per)\\s*${UNIT}(?:\\s*\\^\\s*[23])?)?$`,
);
const NUMBER_WORDS = new Set(
  'half halves third thirds fourth fourths quarter quarters fifth fifths sixth sixths seventh sevenths eighth eighths ninth ninths tenth tenths hundred hundreds hundredth hundredths thousand thousands thousandth thousandths million millions billion billions dozen dozens times squared cubed percent'.split(' '),
);

function stemWords(stem: string | undefined): Set<string> {
  const out = new Set<string>();
  if (!stem) return out;
  for (const w of normalizeText(stem).split(/[^a-z]+/)) if (w.length >= 2 && !NUMBER_WORDS.has(w)) out.add(w);
  return out;
}

/** Removes trailing units (and stem nouns) from a number response. */
function stripUnits(s: string, words?: Set<string>): string {
  let prev;
  do {
    prev = s;
    s = s.replace(UNIT_RE, '').trim();
    if (words && words.size) {
      const m = /^(.*?\d[^a-z]*?)\s+([a-z]+(?:\s+[a-z]+)?)$/.exec(s);
      if (m && m[2]!.split(' ').every((w) => words.has(w) || words.has(w.replace(/e?s$/, '')) || words.has(`${w}s`))) s = m[1]!.trim();
    }
  } while (s !== prev && s.length > 0);
  return s;
}

function cleanNumberText(raw: string, words?: Set<string>): { s: string; percent: boolean } {
  let s = normalizeText(raw).replace(ANSWER_PREFIX, '').replace(/^[a-z]\s*=\s*/, '').replace(/^≈\s*/, '');
  s = s.replace(/^([-+]?)\$\s*/, '$1');
  let percent = false;
  if (/\s?percent$/.test(s)) {
    percent = true;
    s = s.replace(/\s?percent$/, '').trim();
  }
  s = stripUnits(s, words);
  if (s.endsWith('%')) {
    percent = true;
    s = s.slice(0, -1).trim();
  }
  s = s.replace(/^\((-?[^()]+)\)$/, '$1');
  return { s, percent };
}

function parseCleanNumber(s: string, percent: boolean, allowThousands = true): ParsedNumber | undefined {
  if (allowThousands && /^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, '');
  let m = /^([-+]?)(\d+)\s+(\d+)\s*\/\s*(\d+)$/.exec(s); // mixed number
  if (m) {
    const den = Number(m[4]);
    if (den === 0) return undefined;
    const v = Number(m[2]) + Number(m[3]) / den;
    return { value: m[1] === '-' ? -v : v, percent };
  }
  m = /^([-+]?\d*\.?\d+)\s*\/\s*([-+]?\d*\.?\d+)$/.exec(s); // fraction
  if (m) {
    const den = Number(m[2]);
    if (den === 0) return undefined;
    return { value: Number(m[1]) / den, percent };
  }
  m = /^([-+]?(?:\d+\.?\d*|\.\d+))\s*(?:\*|x)\s*10\s*\^\s*\(?\s*([-+]?\d+)\s*\)?$/.exec(s); // a × 10^n
  if (m) return { value: Number(`${m[1]}e${m[2]}`), percent };
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(s)) return { value: Number(s), percent };
  return undefined;
}

/** Parses a number answer (integer, decimal, fraction, mixed number, percent, scientific). Undefined if not a number. */
export function parseNumber(raw: string, stem?: string): ParsedNumber | undefined {
  const { s, percent } = cleanNumberText(raw, stemWords(stem));
  return parseCleanNumber(s, percent);
}

function sameNumber(a: ParsedNumber, b: ParsedNumber): boolean {
  if (a.percent !== b.percent) return false;
  const tol = 1e-9 * Math.max(1, Math.abs(a.value), Math.abs(b.value));
  return Math.abs(a.value - b.value) <= tol;
}

/** One element of a set or list: a number, or a constant expression such as √10 or 2π. */
function parseElement(raw: string): ParsedNumber | undefined {
  const { s, percent } = cleanNumberText(raw);
  const n = parseCleanNumber(s, percent, false);
  if (n) return n;
  const e = tryParseExpr(s);
  if (!e || variables(e).size > 0) return undefined;
  const v = evaluate(e, new Map());
  return Number.isFinite(v) ? { value: v, percent } : undefined;
}

function splitList(raw: string): string[] {
  const s = normalizeText(raw)
    .replace(/^\([a-z](\s*,\s*[a-z])+\)\s*=\s*/, '') // "(x, y) = (2, 3)"
    .replace(/^[{[(]\s*/, '')
    .replace(/\s*[}\])]$/, '');
  return s.split(/\s*(?:,|;|\band\b)\s*/).filter(Boolean);
}

function parseSet(raw: string): ParsedNumber[] | undefined {
  const nums = splitList(raw).map(parseElement);
  return nums.length > 0 && nums.every((n): n is ParsedNumber => n !== undefined) ? nums : undefined;
}

function parseList(raw: string): ParsedNumber[] | undefined {
  const parts = splitList(raw);
  if (parts.length === 0) return undefined;
  const named = parts.map((p) => /^([a-z])\s*=\s*(.+)$/.exec(p));
  const allNamed = named.every((m) => m !== null);
  const ordered = allNamed
    ? named
        .map((m) => ({ v: m![1]!, text: m![2]! }))
        .sort((a, b) => a.v.localeCompare(b.v))
        .map((x) => x.text)
    : parts;
  if (allNamed && new Set(named.map((m) => m![1])).size !== named.length) return undefined;
  const nums = ordered.map(parseElement);
  return nums.every((n): n is ParsedNumber => n !== undefined) ? nums : undefined;
}

// ---------- expressions and equations ----------

function exprText(raw: string): string {
  return normalizeText(raw).replace(ANSWER_PREFIX, '');
}

function parseExpressionResponse(raw: string, answerVars?: Set<string>): Node | undefined {
  let s = exprText(raw).replace(/^=\s*/, '');
  const m = /^([a-z])\s*=\s*(.+)$/.exec(s);
  if (m && answerVars && !answerVars.has(m[1]!)) s = m[2]!;
  return tryParseExpr(s);
}

type Rel = '=' | '<' | '<=';
interface Relation {
  lhs: Node;
  op: Rel;
  rhs: Node;
}

/** Parses "a = b", "a < b", "a ≥ b", …, normalised so that the relation is =, < or <=. */
export function parseRelation(raw: string): Relation | undefined {
  const s = exprText(raw).replace(/≤|=<|<=/g, ' LE ').replace(/≥|=>|>=/g, ' GE ').replace(/==/g, '=');
  const m = /^(.*?)\s*(LE|GE|=|<|>)\s*(.*)$/.exec(s);
  if (!m) return undefined;
  if (/LE|GE|=|<|>/.test(m[3]!)) return undefined; // a chain such as 2 < x < 5 is not supported
  const a = tryParseExpr(m[1]!);
  const b = tryParseExpr(m[3]!);
  if (!a || !b) return undefined;
  switch (m[2]) {
    case '=':
      return { lhs: a, op: '=', rhs: b };
    case '<':
      return { lhs: a, op: '<', rhs: b };
    case 'LE':
      return { lhs: a, op: '<=', rhs: b };
    case '>':
      return { lhs: b, op: '<', rhs: a };
    default:
      return { lhs: b, op: '<=', rhs: a };
  }
}

/** The variable an equation isolates and on which side, if one side is a lone variable absent from the other. */
function isolated(r: Relation): { v: string; side: 'lhs' | 'rhs'; other: Node } | undefined {
  if (r.lhs.t === 'var' && !variables(r.rhs).has(r.lhs.n)) return { v: r.lhs.n, side: 'lhs', other: r.rhs };
  if (r.rhs.t === 'var' && !variables(r.lhs).has(r.rhs.n)) return { v: r.rhs.n, side: 'rhs', other: r.lhs };
  return undefined;
}

function sameRelation(want: Relation, got: Relation): boolean {
  const wi = isolated(want);
  if (wi) {
    if (got.op !== want.op) return false;
    const candidates: { v: string; side: 'lhs' | 'rhs'; other: Node }[] = [];
    if (got.lhs.t === 'var' && !variables(got.rhs).has(got.lhs.n)) candidates.push({ v: got.lhs.n, side: 'lhs', other: got.rhs });
    if (got.rhs.t === 'var' && !variables(got.lhs).has(got.rhs.n)) candidates.push({ v: got.rhs.n, side: 'rhs', other: got.lhs });
    return candidates.some((c) => c.v === wi.v && (want.op === '=' || c.side === wi.side) && equivalent(c.other, wi.other));
  }
  if (got.op !== want.op) return false;
  const dw: Node = { t: 'sub', a: want.lhs, b: want.rhs };
  const dg: Node = { t: 'sub', a: got.lhs, b: got.rhs };
  const k = proportional(dg, dw);
  if (k === undefined) return false;
  return want.op === '=' || k > 0;
}

// ---------- required forms ----------

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

function numberFormOk(format: ResponseFormat, response: string, stem?: string): boolean {
  const { s } = cleanNumberText(response, stemWords(stem));
  if (format === 'fraction') {
    if (/^[-+]?\d+$/.test(s)) return true;
    let m = /^[-+]?(\d+)\s*\/\s*(\d+)$/.exec(s);
    if (m) return Number(m[2]) > 1 && gcd(Number(m[1]), Number(m[2])) === 1;
    m = /^[-+]?\d+\s+(\d+)\s*\/\s*(\d+)$/.exec(s);
    if (m) return Number(m[1]) < Number(m[2]) && Number(m[1]) > 0 && gcd(Number(m[1]), Number(m[2])) === 1;
    return false;
  }
  if (format === 'scientific') {
    const m = /^[-+]?(\d(?:\.\d+)?)\s*(?:(?:\*|x)\s*10\s*\^\s*\(?\s*[-+]?\d+\s*\)?|e[-+]?\d+)$/.exec(s);
    if (!m) return false;
    const a = Number(m[1]);
    return a >= 1 && a < 10;
  }
  return true;
}

function exprFormOk(format: ResponseFormat, n: Node): boolean {
  switch (format) {
    case 'simplified':
      return isSimplifiedPolynomial(n);
    case 'factored':
      return isFactored(n);
    case 'radical':
      return isSimplifiedRadical(n);
    case 'prime-factorization':
      return isPrimeFactorization(n);
    default:
      return true;
  }
}

const squash = (s: string) => normalizeText(s).replace(/\s+/g, '').replace(/\*/g, '');

type Checkable = Pick<Item, 'answerKind' | 'answer' | 'accepted'> & Partial<Pick<Item, 'choices' | 'format' | 'stem'>>;

/** True when the response is a correct answer to the item. */
export function checkAnswer(item: Checkable, rawResponse: string): boolean {
  const forms = [item.answer, ...item.accepted];
  const response = normalizeText(rawResponse).replace(ANSWER_PREFIX, '');
  const r = response;
  if (r.length === 0) return false;
  const bad = (f: string, what: string) => new SimError('ITEM_BANK', `item answer form "${f}" is not ${what}`);
  switch (item.answerKind) {
    case 'number': {
      const got = parseNumber(response, item.stem);
      if (!got) return false;
      if (item.format && !numberFormOk(item.format, response, item.stem)) return false;
      return forms.some((f) => {
        const want = parseNumber(f);
        if (!want) throw bad(f, 'a number');
        return sameNumber(got, want);
      });
    }
    case 'set': {
      const got = parseSet(response);
      if (!got) return false;
      return forms.some((f) => {
        const want = parseSet(f);
        if (!want) throw bad(f, 'a list of numbers');
        if (want.length !== got.length) return false;
        const left = [...want];
        for (const g of got) {
          const i = left.findIndex((w) => sameNumber(g, w));
          if (i < 0) return false;
          left.splice(i, 1);
        }
        return true;
      });
    }
    case 'list': {
      const got = parseList(response);
      if (!got) return false;
      return forms.some((f) => {
        const want = parseList(f);
        if (!want) throw bad(f, 'an ordered list of numbers');
        return want.length === got.length && want.every((w, i) => sameNumber(w, got[i]!));
      });
    }
    case 'choice': {
      const choices = item.choices ?? [];
      const idx = choices.findIndex((c) => squash(c) === squash(item.answer));
      const letter = idx >= 0 ? String.fromCharCode(97 + idx) : undefined;
      const m = /^(?:option|choice|answer)?\s*\(?([a-z])\s*[).]?$/.exec(r);
      if (m) return m[1] === letter;
      return forms.some((f) => squash(f) === squash(response));
    }
    case 'text': {
      const t = (s: string) => normalizeText(s).replace(/\s*,\s*/g, ',');
      return forms.some((f) => t(f) === t(response));
    }
    case 'expression': {
      const wants = forms.map((f) => {
        const n = tryParseExpr(exprText(f));
        if (!n) throw bad(f, 'an expression');
        return n;
      });
      const got = parseExpressionResponse(response, variables(wants[0]!));
      if (!got) return false;
      if (item.format && !exprFormOk(item.format, got)) return false;
      return wants.some((w) => equivalent(w, got));
    }
    case 'equation': {
      const got = parseRelation(response);
      if (!got) return false;
      return forms.some((f) => {
        const want = parseRelation(f);
        if (!want) throw bad(f, 'an equation or inequality');
        return sameRelation(want, got);
      });
    }
  }
}

/** Numeric value of a number-kind answer (for tests and tools); NaN when not a number. */
export function numberValue(s: string): number {
  return parseNumber(s)?.value ?? NaN;
}

export { close as closeNumbers };
