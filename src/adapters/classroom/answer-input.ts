/**
 * How a classroom reads what a student types before the item bank's checker grades it: forms a
 * student writes that the checker (src/core/course/answer-check.ts, shared with the simulated
 * learner and the leakage detector, so left as it is) does not read. Only for number answers:
 *
 * - a vulgar fraction: "½" → "1/2", "5½" → "5 1/2", "-2¾" → "-2 3/4" (also the fraction slash "1⁄2");
 * - a mixed number with "and": "1 and 1/10" → "1 1/10";
 * - a decimal comma: "2,5" → "2.5", "0,125" → "0.125" (a comma before exactly three digits after a
 *   non-zero whole part, "1,200", stays a thousands separator, as the checker reads it);
 * - a percent for a value that is not asked as a percent: "90%" → "0.9", when the item's answers
 *   are not percents, it asks for no form (`format`), and its question does not ask for a decimal
 *   or a fraction. (An item that asks for a percent already accepts "90%" as it is.)
 *
 * The rule never looks at whether the answer is right. What is recorded (the trace's `response`,
 * answers.csv) is the answer as read. A study records the version of these rules it used
 * (`answerReading` in its spec; absent in studies made before them: answers were graded as typed).
 */
import { parseNumber, type Item } from '../../core/index';

/** The version of the rules below; a study created now records it. */
export const ANSWER_READING_VERSION = 1;

const VULGAR: Record<string, string> = {
  '½': '1/2', '⅓': '1/3', '⅔': '2/3', '¼': '1/4', '¾': '3/4', '⅕': '1/5', '⅖': '2/5', '⅗': '3/5', '⅘': '4/5',
  '⅙': '1/6', '⅚': '5/6', '⅐': '1/7', '⅛': '1/8', '⅜': '3/8', '⅝': '5/8', '⅞': '7/8', '⅑': '1/9', '⅒': '1/10', '↉': '0/3',
};
const VULGAR_RE = new RegExp(`(\\d?)\\s*([${Object.keys(VULGAR).join('')}])`, 'g');

type Readable = Pick<Item, 'answerKind' | 'answer' | 'accepted' | 'stem'> & Partial<Pick<Item, 'format'>>;

/** The student's answer as the checker is given it (see above); anything else is returned as typed. */
export function readStudentAnswer(item: Readable, typed: string): string {
  if (item.answerKind !== 'number') return typed;
  let r = typed.trim();
  r = r.replace(/\u2044/g, '/');
  r = r.replace(VULGAR_RE, (_, whole: string, f: string) => (whole ? `${whole} ${VULGAR[f]}` : VULGAR[f]!));
  r = r.replace(/^([-+]?\d+)\s+and\s+(\d+\s*\/\s*\d+)/i, '$1 $2');
  const comma = /^([-+]?)(\d+),(\d+)([^\d,.]*)$/.exec(r);
  if (comma && (comma[2]!.startsWith('0') || comma[3]!.length !== 3)) r = `${comma[1]}${comma[2]}.${comma[3]}${comma[4]}`;
  const n = parseNumber(r, item.stem);
  if (n?.percent && percentAsValue(item)) {
    const value = +(n.value / 100).toPrecision(12);
    r = String(value);
  }
  return r === typed.trim() ? typed : r;
}

/** A percent may stand for the item's value: its answers are not percents, and it asks for no particular form. */
function percentAsValue(item: Readable): boolean {
  if (item.format) return false;
  if (/\b(decimal|fraction|percent)/i.test(item.stem)) return false;
  return [item.answer, ...item.accepted].every((f) => parseNumber(f)?.percent === false);
}

/**
 * The forms an item's answer is read in, in a student's words: shown when an answer is not
 * accepted, so a student whose answer was right but written in a form the checker does not read
 * knows how to write it. Never the answer itself.
 */
export function acceptedForms(item: Pick<Item, 'answerKind'> & Partial<Pick<Item, 'format'>>): string {
  switch (item.format) {
    case 'fraction':
      return 'a fraction in lowest terms, like 3/4 or 1 1/2 (a decimal is not accepted here)';
    case 'scientific':
      return 'scientific notation, like 3.2 × 10^5 or 3.2e5';
    case 'simplified':
      return 'a simplified expression, like 2x + 3';
    case 'factored':
      return 'a factored expression, like (x + 1)(x − 2)';
    case 'radical':
      return 'a simplified radical, like 3√2';
    case 'prime-factorization':
      return 'a product of primes, like 2^2 × 3';
  }
  switch (item.answerKind) {
    case 'number':
      return 'a number: 12, -3, 0.75 or 0,75, 3/4 or ¾, 1 1/2 or 1½ or 1 and 1/2, 90% (when the question is not about a decimal or fraction); a unit after it is fine';
    case 'expression':
      return 'an expression, like 2x + 3 (2*x works too)';
    case 'equation':
      return 'an equation or inequality, like y = 2x + 3 or x < 5';
    case 'set':
      return 'numbers separated by commas, in any order, like 2, 5';
    case 'list':
      return 'numbers in order, like (2, 3)';
    case 'choice':
      return 'the letter of an option (a, b, c, …) or its text';
    case 'text':
      return 'the word or words the question asks for';
  }
}
