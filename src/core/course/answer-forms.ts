/**
 * Deterministic answer-leak matching (after Fan et al. 2026, arXiv 2607.28128, protocol/leakage.py):
 * a text reveals an item's answer when
 *  (a) a declared numeric form appears on token boundaries: not preceded by a digit or ".", not
 *      followed by a digit or by "." and a digit, so "12" does not match inside "120" or "1.25"; or
 *  (b) a declared solution phrase appears after normalising both sides (lower case, keep only
 *      [0-9a-z/=.+<>-] and spaces, collapse spaces), on word boundaries at its ends: a phrase that
 *      starts with a letter or digit must not be glued to a preceding letter or digit ("x = 1"
 *      is not in "2x = 1"), and one that ends with a digit must not continue with a digit or a
 *      decimal ("x = 1" is not in "x = 12" or "x = 1.5").
 * Math written in LaTeX ($\frac{3}{4}$, \dfrac{3}{4}) is read as its plain form (3/4) first, so a
 * tutor cannot hide a reveal in markup; "×" and "·" read as "*".
 * With `words` (the leakage scorer), (c) the number-word forms of the numeric forms count too
 * ("twenty-five" for 25, "three fourths" for 3/4), under the rule in number-words.ts.
 * Paraphrased reveals are not caught, so leakage measured this way is a lower bound.
 */
import type { ItemContent } from './types';
import { plainForMatching } from './math-text';

export { plainForMatching };
import { findNumberWords } from './number-words';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function normalizeForPhrase(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013\u2014]/g, '-')
    .replace(/≤/g, '<=')
    .replace(/≥/g, '>=')
    .toLowerCase()
    .replace(/[^0-9a-z/=.\s+<>-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const numericCache = new Map<string, RegExp>();
const phraseCache = new Map<string, RegExp>();

function phraseRe(np: string): RegExp {
  let re = phraseCache.get(np);
  if (!re) {
    const before = /^[0-9a-z]/.test(np) ? '(?<![0-9a-z])' : '';
    const after = /[0-9]$/.test(np) ? '(?!\\d)(?!\\.\\d)' : /[a-z]$/.test(np) ? '(?![a-z])' : '';
    re = new RegExp(`${before}${escapeRe(np)}${after}`);
    phraseCache.set(np, re);
  }
  return re;
}


function numericRe(token: string): RegExp {
  let re = numericCache.get(token);
  if (!re) {
    // A negative token must not be glued to a preceding digit either ("5-2" is a subtraction).
    re = new RegExp(`(?<![\\d.])${escapeRe(token)}(?!\\d)(?!\\.\\d)`);
    numericCache.set(token, re);
  }
  return re;
}

export interface MatchOptions {
  /**
   * Also match the number-word forms of the numeric forms ("twenty-five" for 25, "three fourths"
   * for 3/4), under the false-positive rule of number-words.ts. The leakage scorer sets it; the
   * engine (learner, reference tutors, item validity) does not, so traces are unchanged by it.
   */
  words?: boolean;
}

/**
 * A text as the matcher reads it (plain, and normalised for phrases), remembered: a run checks
 * the same tutor messages and the same item phrases against many items, and turning LaTeX into
 * plain text is most of a check. A Map emptied when it reaches MATCHABLE_MAX entries bounds the
 * memory (the core imports no cache library; an LRU would keep a few more hits, nothing else).
 */
const MATCHABLE_MAX = 4096;
const matchableCache = new Map<string, { plain: string; phrase: string }>();
function matchable(text: string): { plain: string; phrase: string } {
  let m = matchableCache.get(text);
  if (!m) {
    if (matchableCache.size >= MATCHABLE_MAX) matchableCache.clear();
    const plain = plainForMatching(text);
    m = { plain, phrase: normalizeForPhrase(plain) };
    matchableCache.set(text, m);
  }
  return m;
}

/** Which declared forms of the item the text contains (empty when it leaks nothing); with `words`, number-word hits are written "twenty five (25)". */
export function findAnswerForms(text: string, forms: ItemContent['answerForms'], opts: MatchOptions = {}): string[] {
  const { plain: t, phrase: tp } = matchable(text);
  const hits: string[] = [];
  for (const n of forms.numeric) if (n && numericRe(n).test(t)) hits.push(n);
  for (const p of forms.phrases) {
    const np = matchable(p).phrase;
    if (np && phraseRe(np).test(tp)) hits.push(p);
  }
  if (opts.words && forms.numeric.length) hits.push(...findNumberWords(text, forms.numeric));
  return hits;
}

export function revealsAnswer(text: string, forms: ItemContent['answerForms'], opts: MatchOptions = {}): boolean {
  return findAnswerForms(text, forms, opts).length > 0;
}
