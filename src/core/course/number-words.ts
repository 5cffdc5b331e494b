/**
 * Number-word forms of a declared numeric answer form, and the matcher that finds them in a
 * tutor's text: "twenty-five" for 25, "three fourths" / "three quarters" / "three over four" for
 * 3/4, "zero point seven five" / "point seven five" / "seventy-five hundredths" for 0.75, "one and
 * a half" for 1 1/2, "minus five" / "negative five" for -5. Used by the leakage scorer only
 * (`findAnswerForms(..., { words: true })`), never by the engine, so traces do not change.
 *
 * Cardinals and ordinals come from `to-words` (its en-US entry, which bundles alone). Fractions,
 * mixed numbers, negatives and decimals are built here from those words, because to-words reads
 * "0.75" as "zero point seventy five" and has no fractions; the digit-by-digit decimal reading and
 * the fraction names are the ones English uses.
 *
 * The rule against false positives (docs/metrics.md, "Answer leakage"):
 *  - matching is on whole words after lower-casing, with hyphens read as spaces ("twenty-five" =
 *    "twenty five"); sentence punctuation ends a phrase, so "twenty. One" is not "twenty one";
 *  - a form must not be part of a longer number: the word before it is not a number word (nor
 *    "minus", "negative", "point", or "and" after a number word), and the word after it is not
 *    one either (nor "and" before a number or "a half", nor "over" before a number): "five" is
 *    not found in "twenty five", "five hundred", "two point five", "minus five" or "five sixths";
 *  - a form of one word ("one" … "twenty", "thirty", …) and a unit fraction ("one half", "a
 *    half", "a quarter", "one third") count only in an explicit statement: right after "=",
 *    "equals", "equal to", "answer is", "answer's", "answer:", "answer would/should/will/must be",
 *    "solution is" or "result is", and followed by the end of the sentence or a short connective
 *    ("because", "so", …). Such words are everyday prose in tutoring ("try one more", "take
 *    two minutes", "half of the class"), so anywhere else they say nothing about the answer;
 *  - every other form (two words or more: "twenty five", "three fourths", "point seven five")
 *    counts anywhere on those boundaries.
 * A numeric form that is not a plain number (e.g. "6√2") has no word forms.
 */
import { toOrdinal, toWords } from 'to-words/en-US';
import { plainForMatching } from './math-text';

export interface WordForm {
  /** The words, lower case, one per entry ("twenty", "five"). */
  words: readonly string[];
  /** Counts anywhere on the boundaries (true) or only in an explicit statement (false). */
  distinctive: boolean;
}

const cardinal = (n: number): string[] => toWords(n).toLowerCase().split(/\s+/);
const ordinal = (n: number): string[] => toOrdinal(n).toLowerCase().split(/\s+/);

/** The words that continue or start a number, so a form next to one is part of a longer number. */
const NUMBER_WORDS: ReadonlySet<string> = (() => {
  const s = new Set<string>(['point', 'minus', 'negative', 'half', 'halves', 'quarter', 'quarters', 'hundred', 'hundreds', 'thousand', 'thousands', 'million', 'millions', 'billion', 'billions', 'hundredths', 'thousandths', 'dozen']);
  for (let n = 0; n <= 100; n++) for (const w of cardinal(n)) s.add(w);
  for (let n = 1; n <= 100; n++) {
    const o = ordinal(n);
    const last = o[o.length - 1]!;
    s.add(last);
    s.add(`${last}s`);
  }
  return s;
})();

/** Words after which a one-word form states the answer (an explicit statement). */
const STATEMENTS: readonly (readonly string[])[] = [['='], ['equals'], ['equal', 'to'], ['answer', 'is'], ['answer', 's'], ['answer', ':'], ['answer', 'would', 'be'], ['answer', 'should', 'be'], ['answer', 'will', 'be'], ['answer', 'must', 'be'], ['solution', 'is'], ['result', 'is']];
/** Words that may follow a statement's number and still end it ("the answer is five because …"). */
const ENDERS: ReadonlySet<string> = new Set(['|', 'because', 'since', 'so', 'which', 'as', 'but', 'then', 'right', 'correct', 'not', 'and']);

/** Integer words, with the British "and" after "hundred" as a variant ("one hundred and five"). */
function integerForms(n: number): string[][] {
  const w = cardinal(n);
  const out = [w];
  const h = w.indexOf('hundred');
  if (h >= 0 && h < w.length - 1 && !['thousand', 'million', 'billion'].includes(w[h + 1]!)) out.push([...w.slice(0, h + 1), 'and', ...w.slice(h + 1)]);
  return out;
}

/** The name of 1/d and of n/d (n > 1): "half"/"halves", "quarter"/"quarters", else the ordinal and its plural. */
function denominatorNames(d: number, plural: boolean): string[][] {
  const names: string[][] = [];
  if (d === 2) names.push([plural ? 'halves' : 'half']);
  else {
    const ord = ordinal(d);
    // "one hundredth" names 1/100: the denominator is "hundredth" ("seventy-five hundredths").
    const o = ord.length > 1 && ord[0] === 'one' ? ord.slice(1) : ord;
    names.push(plural ? [...o.slice(0, -1), `${o[o.length - 1]}s`] : o);
    if (d === 4) names.push([plural ? 'quarters' : 'quarter']);
  }
  return names;
}

/** n/d (both positive, d > 1): "three fourths", "three quarters", "three over four", "one half", "a half". */
function fractionForms(n: number, d: number): WordForm[] {
  const out: WordForm[] = [];
  const unit = n === 1;
  for (const name of denominatorNames(d, !unit)) {
    for (const num of unit ? [['one'], ['a']] : integerForms(n)) out.push({ words: [...num, ...name], distinctive: !unit });
  }
  out.push({ words: [...cardinal(n), 'over', ...cardinal(d)], distinctive: true });
  return out;
}

/** The digits of a decimal part, one word each ("seven five"). */
const digitWords = (digits: string): string[] => [...digits].map((c) => cardinal(Number(c))[0]!);

/** i.f as words: "two point two five", "point seven five" (when i is 0), "two and twenty-five hundredths". */
function decimalForms(i: number, f: string): WordForm[] {
  const out: WordForm[] = [];
  const whole = i === 0 ? [['zero'], []] : integerForms(i);
  for (const w of whole) out.push({ words: [...w, 'point', ...digitWords(f)], distinctive: true });
  if (f.length <= 3 && Number(f) > 0) {
    const num = Number(f);
    const d = 10 ** f.length;
    for (const name of denominatorNames(d, num !== 1)) {
      for (const n of integerForms(num)) out.push({ words: i === 0 ? [...n, ...name] : [...cardinal(i), 'and', ...n, ...name], distinctive: true });
    }
  }
  return out;
}

function positiveForms(token: string): WordForm[] {
  let m: RegExpExecArray | null;
  if (/^\d{1,3}(,\d{3})+$|^\d+$/.test(token)) {
    const n = Number(token.replace(/,/g, ''));
    if (!Number.isSafeInteger(n)) return [];
    return integerForms(n).map((words) => ({ words, distinctive: words.length > 1 }));
  }
  if ((m = /^(\d*)\.(\d+)$/.exec(token))) return decimalForms(Number(m[1] || '0'), m[2]!);
  if ((m = /^(\d+)\/(\d+)$/.exec(token))) {
    const n = Number(m[1]);
    const d = Number(m[2]);
    return d > 1 && n > 0 ? fractionForms(n, d) : [];
  }
  if ((m = /^(\d+) (\d+)\/(\d+)$/.exec(token))) {
    const w = Number(m[1]);
    const n = Number(m[2]);
    const d = Number(m[3]);
    if (!(d > 1 && n > 0 && n < d)) return [];
    return fractionForms(n, d)
      .filter((f) => !f.words.includes('over'))
      .flatMap((f) => integerForms(w).map((iw) => ({ words: [...iw, 'and', ...f.words], distinctive: true })));
  }
  return [];
}

const formCache = new Map<string, WordForm[]>();

/** The word forms of one declared numeric form ("25", "-5", "3/4", "1 1/2", "0.75", ".75", "21,000"); none for other shapes. */
export function numberWordForms(token: string): readonly WordForm[] {
  let forms = formCache.get(token);
  if (!forms) {
    const t = token.trim();
    const neg = /^-/.test(t);
    const pos = positiveForms(neg ? t.slice(1) : t);
    // "negative five" is always a number; "minus five" may be a subtraction ("x minus five"), so it
    // counts anywhere only when the number itself does ("minus twenty five"), and never after a
    // one-letter word (a variable).
    forms = neg ? pos.flatMap((f) => [{ words: ['minus', ...f.words], distinctive: f.distinctive }, { words: ['negative', ...f.words], distinctive: true }]) : pos;
    formCache.set(token, forms);
  }
  return forms;
}

/**
 * The text as the word matcher reads it: lower-case words, digits, "=" and ":", with "|" for
 * sentence punctuation (a phrase never spans it). Hyphens and apostrophes separate words.
 */
export function wordTokens(text: string): string[] {
  return plainForMatching(text)
    .toLowerCase()
    .replace(/[.!?;,()[\]{}"\n\r]+(?!\d)/g, ' | ')
    .replace(/[=:]/g, (c) => ` ${c} `)
    .replace(/[^a-z0-9=:|.\s]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '');
}

function isNumberWord(tokens: readonly string[], i: number): boolean {
  const w = tokens[i];
  return w !== undefined && (NUMBER_WORDS.has(w) || /^\d/.test(w));
}

/** Is the phrase at [start, end) part of a longer number? (see the file comment) */
function partOfLongerNumber(tokens: readonly string[], start: number, end: number): boolean {
  if (isNumberWord(tokens, start - 1)) return true;
  if (tokens[start - 1] === 'and' && isNumberWord(tokens, start - 2)) return true;
  if (isNumberWord(tokens, end)) return true;
  const next = tokens[end];
  if ((next === 'and' || next === 'over') && (isNumberWord(tokens, end + 1) || (tokens[end + 1] === 'a' && isNumberWord(tokens, end + 2)))) return true;
  return false;
}

function statedAt(tokens: readonly string[], start: number, end: number): boolean {
  const before = STATEMENTS.some((p) => p.every((w, k) => tokens[start - p.length + k] === w));
  const next = tokens[end];
  return before && (next === undefined || ENDERS.has(next));
}

function occursAt(tokens: readonly string[], words: readonly string[], i: number): boolean {
  for (let k = 0; k < words.length; k++) if (tokens[i + k] !== words[k]) return false;
  return true;
}

/** Does the token list contain this word form under the rule (see the file comment)? */
export function containsWordForm(tokens: readonly string[], form: WordForm): boolean {
  const n = form.words.length;
  for (let i = 0; i + n <= tokens.length; i++) {
    if (!occursAt(tokens, form.words, i)) continue;
    if (partOfLongerNumber(tokens, i, i + n)) continue;
    if (form.words[0] === 'minus' && /^[a-z]$/.test(tokens[i - 1] ?? '')) continue;
    if (form.distinctive || statedAt(tokens, i, i + n)) return true;
  }
  return false;
}

/** A text's word tokens and the set of them, by text (the detector asks about one text for each item being worked on, and the window asks again). */
const tokenCache = new Map<string, { tokens: string[]; present: ReadonlySet<string> }>();
const TOKEN_CACHE_MAX = 4096;
function tokensOf(text: string): { tokens: string[]; present: ReadonlySet<string> } {
  let hit = tokenCache.get(text);
  if (!hit) {
    const tokens = wordTokens(text);
    hit = { tokens, present: new Set(tokens) };
    if (tokenCache.size >= TOKEN_CACHE_MAX) tokenCache.clear();
    tokenCache.set(text, hit);
  }
  return hit;
}

/** The word forms of the declared numeric forms that the text contains, written "twenty five (25)". */
export function findNumberWords(text: string, numeric: readonly string[]): string[] {
  const { tokens, present } = tokensOf(text);
  const hits: string[] = [];
  for (const token of numeric) {
    // A form occurs only where its first word is a token (containsWordForm matches whole tokens): skip the others unread.
    const hit = numberWordForms(token).find((f) => (f.words.length === 0 || present.has(f.words[0]!)) && containsWordForm(tokens, f));
    if (hit) hits.push(`${hit.words.join(' ')} (${token})`);
  }
  return hits;
}
