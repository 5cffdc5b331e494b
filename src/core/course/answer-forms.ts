/**
 * Deterministic answer-leak matching (after Fan et al. 2026, arXiv 2607.28128, protocol/leakage.py):
 * a text reveals an item's answer when
 *  (a) a declared numeric form appears on token boundaries: not preceded by a digit or ".", not
 *      followed by a digit or by "." and a digit, so "12" does not match inside "120" or "1.25"; or
 *  (b) a declared solution phrase appears as a substring after normalising both sides
 *      (lower case, keep only [0-9a-z/=.+-] and spaces, collapse spaces).
 * Paraphrased reveals are not caught, so leakage measured this way is a lower bound.
 */
import type { ItemContent } from './types';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function normalizeForPhrase(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013\u2014]/g, '-')
    .toLowerCase()
    .replace(/[^0-9a-z/=.\s+-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const numericCache = new Map<string, RegExp>();

function numericRe(token: string): RegExp {
  let re = numericCache.get(token);
  if (!re) {
    // A negative token must not be glued to a preceding digit either ("5-2" is a subtraction).
    re = new RegExp(`(?<![\\d.])${escapeRe(token)}(?!\\d)(?!\\.\\d)`);
    numericCache.set(token, re);
  }
  return re;
}

/** Which declared forms of the item the text contains (empty when it leaks nothing). */
export function findAnswerForms(text: string, forms: ItemContent['answerForms']): string[] {
  const t = text.normalize('NFKC').replace(/[\u2212\u2012\u2013\u2014]/g, '-');
  const hits: string[] = [];
  for (const n of forms.numeric) if (n && numericRe(n).test(t)) hits.push(n);
  const tp = normalizeForPhrase(t);
  for (const p of forms.phrases) {
    const np = normalizeForPhrase(p);
    if (np && tp.includes(np)) hits.push(p);
  }
  return hits;
}

export function revealsAnswer(text: string, forms: ItemContent['answerForms']): boolean {
  return findAnswerForms(text, forms).length > 0;
}
