import type { Rng } from '../../rng';
import type { AnswerKind, Figure, ItemContent, ItemGenerator, Level, Misconception, ResponseFormat } from '../types';
import { checkAnswer, normalizeText, parseNumber } from '../answer-check';
import { itemProblems } from '../validate';

/** An integer as written in a sum: negative numbers in parentheses ("(-3)"). */
export const paren = (n: number | string): string => (Number(n) < 0 || String(n).startsWith('-') ? `(${n})` : String(n));

/** A non-zero integer in [lo, hi]. */
export function nonZero(rng: Rng, lo: number, hi: number): number {
  for (;;) {
    const n = rng.int(lo, hi);
    if (n !== 0) return n;
  }
}

/** Numeric forms of an integer answer for leak matching. */
export const intForms = (n: number): string[] => [String(n)];

/** Removes duplicates and the canonical answer itself from a list of wrong answers. */
export function distinctWrong(answer: string, wrong: { answer: string; why: string }[]): { answer: string; why: string }[] {
  const seen = new Set<string>([answer]);
  return wrong.filter((w) => {
    if (seen.has(w.answer)) return false;
    seen.add(w.answer);
    return true;
  });
}

// ---------- numbers ----------

/** A number as text without float noise: 0.1 + 0.2 prints "0.3"; -0 prints "0". */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return String(n === 0 ? 0 : n);
  const r = Number(n.toPrecision(12));
  return String(r === 0 ? 0 : r);
}

/** Rounds to `places` decimals exactly (half away from zero) for values given as integers / 10^k. */
export function roundTo(n: number, places: number): number {
  const f = 10 ** places;
  const v = Number((Math.abs(n) * f).toPrecision(12));
  return (Math.sign(n) * Math.round(v)) / f;
}

/** Fixed-decimal text ("12.50") for money. */
export const money = (n: number): string => roundTo(n, 2).toFixed(2);

export function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}
export const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;

/** A fraction in lowest terms with a positive denominator. */
export type Frac = readonly [number, number];
export function frac(n: number, d: number): Frac {
  if (d === 0) throw new RangeError('zero denominator');
  const g = gcd(n, d) || 1;
  const s = d < 0 ? -1 : 1;
  return [(s * n) / g, (s * d) / g];
}
export const fAdd = (a: Frac, b: Frac): Frac => frac(a[0] * b[1] + b[0] * a[1], a[1] * b[1]);
export const fSub = (a: Frac, b: Frac): Frac => frac(a[0] * b[1] - b[0] * a[1], a[1] * b[1]);
export const fMul = (a: Frac, b: Frac): Frac => frac(a[0] * b[0], a[1] * b[1]);
export const fDiv = (a: Frac, b: Frac): Frac => frac(a[0] * b[1], a[1] * b[0]);
export const fVal = (a: Frac): number => a[0] / a[1];

/** "3/4", "5" or "-7/2". */
export const fStr = (a: Frac): string => (a[1] === 1 ? String(a[0]) : `${a[0]}/${a[1]}`);
/** "1 3/4" for improper fractions, else as fStr. */
export function mixedStr(a: Frac): string {
  const [n, d] = a;
  if (d === 1 || Math.abs(n) < d) return fStr(a);
  const w = Math.trunc(n / d);
  const r = Math.abs(n) % d;
  return r === 0 ? String(w) : `${w} ${r}/${d}`;
}
/** LaTeX for a fraction: \frac{3}{4}, -\frac{7}{2}, or an integer. */
export function fTex(a: Frac): string {
  if (a[1] === 1) return String(a[0]);
  return `${a[0] < 0 ? '-' : ''}\\frac{${Math.abs(a[0])}}{${a[1]}}`;
}
/** LaTeX for a mixed number: 1\frac{3}{4}. */
export function mixedTex(a: Frac): string {
  const [n, d] = a;
  if (d === 1 || Math.abs(n) < d) return fTex(a);
  const w = Math.trunc(n / d);
  const r = Math.abs(n) % d;
  return r === 0 ? String(w) : `${w}\\frac{${r}}{${d}}`;
}
/** Terminating decimal text of a fraction, or undefined (e.g. 1/3). */
export function fDecimal(a: Frac): string | undefined {
  let d = a[1];
  while (d % 2 === 0) d /= 2;
  while (d % 5 === 0) d /= 5;
  return d === 1 ? fmt(fVal(a)) : undefined;
}

/** Numeric leak tokens of a number: its text, its decimal or fraction twins, ".5" for "0.5". */
export function numberTokens(answer: string, extra: Frac | undefined = undefined): string[] {
  const out = new Set<string>([answer]);
  const m = /^(-?)0(\.\d+)$/.exec(answer);
  if (m) out.add(`${m[1]}${m[2]}`);
  if (extra && extra[1] !== 1) {
    out.add(fStr(extra));
    out.add(mixedStr(extra));
    const dec = fDecimal(extra);
    if (dec) out.add(dec);
  }
  return [...out];
}

/** A signed term for display: coefficient and variable ("3x", "-x", "x"). */
export function term(c: number, v: string): string {
  if (v === '') return String(c);
  if (c === 1) return v;
  if (c === -1) return `-${v}`;
  return `${c}${v}`;
}
/** Linear expression text: "3x + 5", "-x - 2", "4x", "7". */
export function linear(terms: readonly [number, string][]): string {
  const parts = terms.filter(([c]) => c !== 0);
  if (parts.length === 0) return '0';
  return parts
    .map(([c, v], i) => {
      const t = term(Math.abs(c), v);
      if (i === 0) return c < 0 ? `-${t}` : t;
      return c < 0 ? `- ${t}` : `+ ${t}`;
    })
    .join(' ');
}
/** "+ 5" / "- 5" for appending a constant. */
export const signed = (n: number): string => (n < 0 ? `- ${-n}` : `+ ${n}`);

export function pickDistinct<T>(rng: Rng, items: readonly T[], k: number): T[] {
  return rng.shuffle(items).slice(0, k);
}

/** k distinct integers in [lo, hi]. */
export function distinctInts(rng: Rng, lo: number, hi: number, k: number): number[] {
  const out = new Set<number>();
  while (out.size < k) out.add(rng.int(lo, hi));
  return [...out];
}

// ---------- item builder ----------

export interface ItemSpec {
  stem: string;
  answer: string | number;
  kind?: AnswerKind;
  accepted?: string[];
  choices?: string[];
  format?: ResponseFormat;
  figure?: Figure;
  /** Leak tokens; default: the answer's number tokens (number kind) or none. */
  numeric?: string[];
  /** Leak phrases, added to the defaults of the kind. */
  phrases?: string[];
  /** A fraction twin of the answer, for leak tokens ("3/4" for 0.75). */
  asFrac?: Frac;
  /** For answers that appear in the given data (a mode, a largest value): declare phrases only. */
  phrasesOnly?: string;
  steps: string[];
  hints: string[];
  wrong: [string | number, string][];
}

const squashed = (s: string) => s.replace(/\s+/g, '');

/** Builds an item, deriving leak forms and filtering misconceptions the checker would accept. */
export function mk(s: ItemSpec): ItemContent {
  const kind = s.kind ?? 'number';
  const answer = typeof s.answer === 'number' ? fmt(s.answer) : s.answer;
  const accepted = (s.accepted ?? []).filter((a) => a !== answer);
  let numeric: string[] = [];
  const phrases: string[] = [...(s.phrases ?? [])];
  if (s.phrasesOnly) {
    phrases.push(`${s.phrasesOnly} is ${answer}`, `${s.phrasesOnly} = ${answer}`, `answer is ${answer}`);
  } else if (s.numeric) numeric = s.numeric;
  else if (kind === 'number') numeric = numberTokens(answer.replace(/%$/, ''), s.asFrac);
  if (kind === 'expression' || kind === 'equation' || kind === 'list') {
    for (const f of [answer, ...accepted]) phrases.push(f, squashed(f));
  }
  if (kind === 'text') phrases.push(`answer is ${answer}`, `is ${answer}`);
  if (kind === 'choice') {
    const idx = (s.choices ?? []).findIndex((c) => normalizeText(c) === normalizeText(answer));
    const letter = String.fromCharCode(97 + idx);
    phrases.push(`answer is ${letter}`, `answer is ${answer}`, `choice ${letter}`, `option ${letter}`, `it is ${answer}`);
  }
  const item: ItemContent = {
    stem: s.stem,
    ...(s.figure ? { figure: s.figure } : {}),
    answerKind: kind,
    answer,
    accepted,
    ...(s.choices ? { choices: s.choices } : {}),
    ...(s.format ? { format: s.format } : {}),
    answerForms: { numeric: [...new Set(numeric)], phrases: [...new Set(phrases)] },
    steps: s.steps,
    hints: s.hints,
    misconceptions: [],
  };
  const seen = new Set<string>();
  const mis: Misconception[] = [];
  for (const [w, why] of s.wrong) {
    const a = typeof w === 'number' ? fmt(w) : w;
    const num = kind === 'number' ? parseNumber(a) : undefined;
    const key = num ? `${fmt(num.value)}${num.percent ? '%' : ''}` : normalizeText(a);
    if (!a || /NaN|Infinity/.test(a) || seen.has(key)) continue;
    seen.add(key);
    let ok = false;
    try {
      ok = checkAnswer(item, a);
    } catch {
      ok = true;
    }
    if (!ok) mis.push({ answer: a, why });
  }
  item.misconceptions = mis;
  return item;
}

/** Choice item: options shuffled, the answer among them; `wrong` become both options and misconceptions. */
export function mkChoice(rng: Rng, s: Omit<ItemSpec, 'kind' | 'choices'> & { answer: string; options?: string[]; keepOrder?: boolean }): ItemContent {
  const opts = s.options ?? [s.answer, ...s.wrong.map(([w]) => String(w))];
  const uniq = [...new Set(opts)];
  const choices = s.keepOrder ? uniq : rng.shuffle(uniq);
  return mk({ ...s, kind: 'choice', choices });
}

export interface GeneratorDef {
  skillId: number;
  levels: readonly [string, string, string];
  /** One draw; undefined asks for a redraw (numbers that do not fit). */
  make(rng: Rng, level: Level): ItemContent | undefined;
}

const TRIES = 40;

/**
 * A generator that redraws (from the same stream) until the item passes itemProblems, so that
 * number collisions (the answer also appearing in the stem or a hint) never reach the bank.
 */
export function defineGenerator(def: GeneratorDef): ItemGenerator {
  return {
    skillId: def.skillId,
    levels: def.levels,
    generate(rng: Rng, level: Level): ItemContent {
      let last: ItemContent | undefined;
      for (let i = 0; i < TRIES * 5; i++) {
        const c = def.make(rng, level);
        if (!c) continue;
        last = c;
        if (itemProblems(c).length === 0) return c;
        if (i >= TRIES) break;
      }
      if (!last) throw new Error(`skill ${def.skillId} level ${level}: the generator found no numbers that fit`);
      return last;
    },
  };
}
