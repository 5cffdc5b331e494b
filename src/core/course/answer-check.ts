/**
 * The answer checker: is a learner's response to an item correct?
 *
 * Normalisation rules (documented in src/core/course/README.md):
 * - case, surrounding whitespace, a trailing full stop and inner runs of whitespace are ignored;
 *   the Unicode minus (−), multiplication (×, ·) and division (÷) signs read as -, * and /;
 * - a leading "answer:" or a leading variable assignment "x =" is ignored for number answers;
 * - number answers compare by value: "3/4", "0.75", ".75" and "6/8" are equal; mixed numbers
 *   ("1 1/2") read as their value; thousands separators ("1,200") are accepted;
 * - a percent response ("75%") only matches an answer or accepted form written as a percent;
 * - trailing unit words ("cm", "degrees", "°", "dollars", "$" prefix) are ignored for numbers;
 * - set answers compare as unordered lists of numbers;
 * - choice answers accept the option letter (a, b, …) or the option text.
 * Near misses (a wrong sign, a different value, a rounding beyond 1e-9 relative) are rejected.
 */
import type { Item } from './types';
import { SimError } from '../errors';

export function normalizeText(s: string): string {
  return s
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

export interface ParsedNumber {
  value: number;
  percent: boolean;
}

const UNIT_WORDS =
  /\s*(?:°|degrees?|deg|cm\^?2|cm\^?3|cm|mm|m\^?2|m\^?3|km|m|in(?:ches)?|inch|ft|feet|foot|yd|yards?|miles?|mi|kg|g|grams?|lb|lbs|pounds?|oz|l|ml|liters?|litres?|dollars?|cents?|hours?|hrs?|h|minutes?|mins?|seconds?|s|units?|square units|sq units|cubic units|mph|km\/h)$/;

/** Parses a number answer (integer, decimal, fraction, mixed number, percent). Undefined if not a number. */
export function parseNumber(raw: string): ParsedNumber | undefined {
  let s = normalizeText(raw).replace(/^answer\s*[:=]?\s*/, '').replace(/^[a-z]\s*=\s*/, '');
  s = s.replace(/^\$\s*/, '');
  let prev;
  do {
    prev = s;
    s = s.replace(UNIT_WORDS, '').trim();
  } while (s !== prev && s.length > 0);
  let percent = false;
  if (s.endsWith('%')) {
    percent = true;
    s = s.slice(0, -1).trim();
  } else if (/\s?percent$/.test(s)) {
    percent = true;
    s = s.replace(/\s?percent$/, '').trim();
  }
  s = s.replace(/^\((-?[^()]+)\)$/, '$1');
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, '');
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
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(s)) return { value: Number(s), percent };
  return undefined;
}

function sameNumber(a: ParsedNumber, b: ParsedNumber): boolean {
  if (a.percent !== b.percent) return false;
  const tol = 1e-9 * Math.max(1, Math.abs(a.value), Math.abs(b.value));
  return Math.abs(a.value - b.value) <= tol;
}

function parseSet(raw: string): ParsedNumber[] | undefined {
  const parts = normalizeText(raw).replace(/^[{[(]|[}\])]$/g, '').split(/\s*(?:,|;|\band\b)\s*/).filter(Boolean);
  const nums = parts.map(parseNumber);
  return nums.every((n): n is ParsedNumber => n !== undefined) ? nums : undefined;
}

/** True when the response is a correct answer to the item. */
export function checkAnswer(item: Pick<Item, 'answerKind' | 'answer' | 'accepted' | 'choices'>, response: string): boolean {
  const forms = [item.answer, ...item.accepted];
  const r = normalizeText(response);
  if (r.length === 0) return false;
  switch (item.answerKind) {
    case 'number': {
      const got = parseNumber(response);
      if (!got) return false;
      return forms.some((f) => {
        const want = parseNumber(f);
        if (!want) throw new SimError('ITEM_BANK', `item answer form "${f}" is not a number`);
        return sameNumber(got, want);
      });
    }
    case 'set': {
      const got = parseSet(response);
      if (!got) return false;
      return forms.some((f) => {
        const want = parseSet(f);
        if (!want) throw new SimError('ITEM_BANK', `item answer form "${f}" is not a list of numbers`);
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
    case 'choice': {
      const choices = item.choices ?? [];
      const idx = choices.findIndex((c) => normalizeText(c) === normalizeText(item.answer));
      const letter = idx >= 0 ? String.fromCharCode(97 + idx) : undefined;
      const bare = r.replace(/^\(?([a-z])\)?$/, '$1');
      if (letter && bare === letter) return true;
      return forms.some((f) => normalizeText(f) === r);
    }
    case 'text':
      return forms.some((f) => normalizeText(f) === r);
    case 'expression':
    case 'equation':
      throw new SimError('ITEM_BANK', `answer kind "${item.answerKind}" is not supported by the checker yet`);
  }
}
