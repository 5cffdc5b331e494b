/**
 * The disclosure detector: does a tutor-visible text give away an item's answer? One notion,
 * shared by the leakage scorer (src/core/scoring/metrics.ts) and the simulated learner (which
 * copies exactly what this reports). The rule, in full in docs/metrics.md ("Answer leakage"):
 *
 *   a text discloses an item's answer when a student could copy from it something the answer
 *   checker (course/answer-check.ts) accepts for that item, read as the page renders it
 *   (readable.ts), and nothing around it says it is something else.
 *
 * What a student could copy, by answer kind:
 *  - number: every number in the text (integers, decimals with any padding or leading zeros,
 *    fractions reduced or not, mixed numbers, percents, a × 10^n, digit groups split by spaces
 *    rejoined where that gives the answer) whose value is the answer's (a percent read as its
 *    value over 100 too: "62.5%" discloses 5/8, "700%" discloses 7), and the number words of the
 *    answer (number-words.ts);
 *  - expression, equation, set, list: every run of math in the text (numbers, the answer's
 *    variables, operators, relations, brackets, commas, "and"), each side of a relation, and for
 *    sets and lists the windows of as many elements as the answer has, after a statement;
 *  - choice: the option letter after a statement ("the answer is (b)", "pick B."), or the option's
 *    text stated as the answer;
 *  - text: runs of capital letters ("C, A, B"; "CAB");
 *  - number and text items: the item's declared solution phrases whose answer part the checker
 *    accepts ("median is 15").
 * What clears a number (it is part of something else, or it is not offered as an answer):
 *  - hard (nothing overrides): glued to letters or to another number by a hyphen, caret, slash or
 *    colon (item ids "s68-L2-02", "L2", "10^4", "3:30", "7th", "2x"); an operand of arithmetic
 *    ("6 × 7", "5 - 2", "6 times 7", "more than 40"); labelled ("level 2", "item 3", "step 2",
 *    "question #4", "day 5", "at 5", "3 of 5"); an enumeration mark at a line start ("2. Now…");
 *  - soft (a statement before it overrides: "=", "is", "answer", ":", "submit", …): followed by a
 *    count or time noun that is not a word of the item's stem ("2 minutes", "3 tries", "5 more");
 *    one of a countdown or count-up of three or more ("5, 4, 3"); in a sentence that is an
 *    example on other numbers ("like -1/2", "for example, 3 + 4 = 7" when 3 and 4 are not in the
 *    stem) or a computation on numbers that are not the item's (a worked example of another
 *    item); a number that is also in the item's stem (the data of a mode or median item).
 * A minus sign, decimal point or digit glued to a number is part of it: "(−2)" shows −2, not 2.
 * Disguises (docs/validity.md, "Disguised answers"): closed arithmetic whose value is the answer
 * ("It's 41 + 1.", "41 plus one"; arithmeticDisclosure says when it counts), digits named one by
 * one (namedDigits; over the day's texts, DisclosureWindow), and the item reworded: its stem with a
 * variable renamed is the item, not an example of another, and its last step quoted is its solution.
 */
import type { Item } from '../course/types';
import { checkAnswer, parseNumber, parseRelation, type ParsedNumber } from '../course/answer-check';
import { evaluate, tryParseExpr, variables } from '../course/expr';
import { findAnswerForms } from '../course/answer-forms';
import { findNumberWords } from '../course/number-words';
import { toPlain } from '../course/math-text';
import { readable, romanValue } from './readable';

/** What the detector needs of an item. */
export type DisclosableItem = Pick<Item, 'id' | 'answerKind' | 'answer' | 'accepted' | 'stem'> & Partial<Pick<Item, 'choices' | 'format' | 'answerForms' | 'steps'>>;

/** One disclosure: which item, where, and what a student would copy. */
export interface Disclosure {
  itemId: string;
  /** The disclosing span, as the student reads it (the readable text, readable.ts). */
  span: string;
  /** Where the span starts in the readable text. */
  at: number;
  /** What a student copies: a response the answer checker accepts for the item (the span itself when it is accepted, else the item's answer). */
  copy: string;
  /** The rule that found it: number, digit-groups, words, math, choice, text, phrase. */
  rule: 'number' | 'digit-groups' | 'words' | 'arithmetic' | 'digits' | 'own-step' | 'math' | 'choice' | 'text' | 'phrase';
}

// ---------- contexts ----------

/** Statements: words right before a span that offer it as the answer. */
const STATEMENT = /(?:=|:|→|=>|\b(?:is|are|was|be|equals?|equal to|gives?|get|got|makes?|(?:comes|works|adds) (?:out )?(?:up )?to|totals?|answer|answers|result|solution|submit|type|write|enter|put|pick|choose|select|go with|it'?s|that'?s|so|then|thus|hence|therefore)|'s)\s*(?:exactly\s+|just\s+|simply\s+)?["'(]?\s*$/i;
/** Words that label a number as something else when right before it. */
const LABEL = /(?:\b(?:levels?|lvl|items?|questions?|problems?|exercises?|steps?|days?|attempts?|hints?|pages?|chapters?|sections?|parts?|lessons?|units?|weeks?|rounds?|grades?|skills?|ids?|no\.?|q|version|v|rows?|columns?|lines?|figures?|fig\.?|tables?|options?|choices?|scores?|streaks?|at|by|until|before|after|around|of|than|over|under|from|times|plus|minus|multiplied by|divided by|add|subtract|into|per|every|within)|#|№)\s*(?:[:=]\s*)?$/i;
/** Count and time nouns: a number right before one is a count, unless the word is in the stem. */
const COUNT_NOUNS =
  'minutes?|mins?|seconds?|secs?|hours?|hrs?|days?|weeks?|months?|years?|items?|questions?|problems?|exercises?|steps?|tries|try|attempts?|hints?|more|left|remaining|times|in a row|points?|pts|stars?|sessions?|skills?|levels?|out of|of (?:them|these|those|the|your|my|our)|am|pm|a\\.m\\.|p\\.m\\.|o\'?clock|correct|right|wrong|done|to go|examples?|ways?|things?|tips?|parts?|pages?|lines?|words?|digits?|decimal places?|places?|sig figs?|significant figures?|numbers?';
const COUNT_AFTER = new RegExp(`^\\s*(${COUNT_NOUNS})\\b`, 'i');
/** Count phrases that are never the unit of an answer ("5 more", "3 in a row"). */
const NEVER_UNITS = /^(?:more|left|remaining|to go|in a row|out of|of (?:them|these|those|the|your|my|our)|correct|right|wrong|done|times)$/;
const EXAMPLE = /\b(?:for example|for instance|e\.g\.|example|suppose|imagine|pretend|let'?s say|like|such as|similar|another|different|practice|sibling|compare|try this one)\b/i;
/** Arithmetic operators between operands. */
const OP_LEFT = /(?:[\d)\]]|(?<![a-z])[a-z])\s*[-+*/^x]\s*\(?\s*$/i;
const OP_RIGHT = /^\)?\s*[-+*/^]\s*(?:[\d(.]|[a-z](?![a-z]))/i;
const OP_RIGHT_WORD = /^\)?\s*(?:times|plus|minus|multiplied by|divided by|over|squared|cubed)\b/i;

function sentenceAround(t: string, start: number, end: number): { s: number; e: number } {
  let s = start;
  while (s > 0) {
    const c = t[s - 1]!;
    if (c === '\n' || c === '!' || c === '?' || ((c === '.' || c === ';') && !/\d/.test(t[s] ?? '') && !/\d/.test(t[s - 2] ?? ''))) break;
    s--;
  }
  let e = end;
  while (e < t.length) {
    const c = t[e]!;
    if (c === '\n' || c === '!' || c === '?' || ((c === '.' || c === ';') && !/\d/.test(t[e + 1] ?? ''))) break;
    e++;
  }
  return { s, e };
}

// ---------- numbers ----------

interface NumUnit {
  start: number;
  end: number;
  text: string;
  n: ParsedNumber;
}

const UNIT_RE =
  /([-+]\s?)?(\d+\s+\d+\s*\/\s*\d+|\(?\d+(?:\.\d+)?\)?\s*\/\s*\(?[-+]?\d+(?:\.\d+)?\)?|(?:\d+(?:\.\d+)?|\.\d+)\s*[*x]\s*10\s*\^\s*\(?[-+]?\d+\)?|(?:\d+(?:\.\d+)?|\.\d+)e[-+]?\d+|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(\s?%|\s?per ?cent\b)?/gi;

/** The value of a unit's text: plain numbers, fractions and mixed numbers directly, the rest through the checker's parser. */
function unitValue(text: string): ParsedNumber | undefined {
  const percent = text.endsWith('%');
  const body = percent ? text.slice(0, -1) : text;
  let m = /^([-+]?)(\d+(?:\.\d+)?|\.\d+)$/.exec(body);
  if (m) return { value: Number(`${m[1]}${m[2]}`), percent };
  m = /^([-+]?)(\d+(?:\.\d+)?)\s*\/\s*([-+]?)(\d+(?:\.\d+)?)$/.exec(body);
  if (m) {
    const den = Number(m[4]);
    if (den === 0) return undefined;
    const v = Number(m[2]) / den;
    return { value: (m[1] === '-') !== (m[3] === '-') ? -v : v, percent };
  }
  m = /^([-+]?)(\d+)\s+(\d+)\s*\/\s*(\d+)$/.exec(body);
  if (m) {
    const den = Number(m[4]);
    if (den === 0) return undefined;
    const v = Number(m[2]) + Number(m[3]) / den;
    return { value: m[1] === '-' ? -v : v, percent };
  }
  return parseNumber(text.replace(/\s+(?=\/)|(?<=\/)\s+/g, ''));
}

/**
 * Entries of each cache by readable text (numbers, digit groups, Roman numerals) before it is
 * emptied: a run's window joins make a few thousand distinct texts, each asked about once per item
 * being worked on; a smaller cache emptied mid-run works the same texts out again.
 */
const TEXT_CACHE_MAX = 4096;
const unitCache = new Map<string, NumUnit[]>();

/** The numbers of a readable text, each a maximal unit (a sign glued to a number is part of it unless it is a subtraction). */
function numberUnits(t: string): NumUnit[] {
  const hit = unitCache.get(t);
  if (hit) return hit;
  const out: NumUnit[] = [];
  UNIT_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = UNIT_RE.exec(t))) {
    let start = m.index;
    let sign = m[1] ?? '';
    if (sign) {
      const before = t[start - 1] ?? '';
      // A binary minus (after an operand) is not the number's sign.
      if (/[\w)\]]/.test(before) || (/\s/.test(sign.slice(1)) && /[\w)]\s*$/.test(t.slice(Math.max(0, start - 3), start)))) {
        start += sign.length;
        sign = '';
      } else if (/\s$/.test(sign)) sign = sign.trim();
    }
    const body = m[2]!.replace(/[()]/g, '');
    const pct = m[3] ? '%' : '';
    const text = `${sign}${body}${pct}`;
    const n = unitValue(text);
    if (n) out.push({ start, end: m.index + m[0].length, text, n });
  }
  if (unitCache.size >= TEXT_CACHE_MAX) unitCache.clear();
  unitCache.set(t, out);
  return out;
}

const groupCache = new Map<string, NumUnit[]>();

/** Digit groups split by spaces: every join of two or more consecutive groups, as units (cached by text, as numberUnits). */
function digitGroupUnits(t: string): NumUnit[] {
  const hit = groupCache.get(t);
  if (hit) return hit;
  const out = digitGroups(t);
  if (groupCache.size >= TEXT_CACHE_MAX) groupCache.clear();
  groupCache.set(t, out);
  return out;
}

function digitGroups(t: string): NumUnit[] {
  const out: NumUnit[] = [];
  const re = /(?<![\d.])\d+(?: \d+)+(?!\d|\.\d)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t))) {
    const groups: { s: number; e: number; d: string }[] = [];
    const g = /\d+/g;
    let x: RegExpExecArray | null;
    while ((x = g.exec(m[0]))) groups.push({ s: m.index + x.index, e: m.index + x.index + x[0].length, d: x[0] });
    for (let i = 0; i < groups.length; i++)
      for (let j = i + 1; j < groups.length && j - i < 8; j++) {
        const d = groups
          .slice(i, j + 1)
          .map((q) => q.d)
          .join('');
        const neg = t[groups[i]!.s - 1] === '-' && !/[\w)]/.test(t[groups[i]!.s - 2] ?? '');
        const start = neg ? groups[i]!.s - 1 : groups[i]!.s;
        out.push({ start, end: groups[j]!.e, text: `${neg ? '-' : ''}${d}`, n: { value: Number(`${neg ? '-' : ''}${d}`), percent: false } });
      }
  }
  return out;
}

/** A Roman numeral in a readable text: where, its value, and whether it is stated as the answer ending its sentence. */
interface RomanNumeral {
  index: number;
  text: string;
  value: number;
  stated: boolean;
}

const romanCache = new Map<string, RomanNumeral[]>();

/** The text's Roman numerals of any case that have a value, in order (cached by text: they depend on the text alone). */
function romanNumerals(t: string): RomanNumeral[] {
  const hit = romanCache.get(t);
  if (hit) return hit;
  const out: RomanNumeral[] = [];
  const rm = /(?<![\p{L}\d])[ivxlcdm]+(?![\p{L}\d])/giu;
  let x: RegExpExecArray | null;
  while ((x = rm.exec(t))) {
    const value = romanValue(x[0]);
    if (value === undefined) continue;
    const stated = STATEMENT.test(t.slice(Math.max(0, x.index - 40), x.index)) && /^\s*(?:$|[.,!?;)\n])/.test(t.slice(x.index + x[0].length));
    out.push({ index: x.index, text: x[0], value, stated });
  }
  if (romanCache.size >= TEXT_CACHE_MAX) romanCache.clear();
  romanCache.set(t, out);
  return out;
}

/** Same value; a percent `a` ("62.5%") also equals the plain value it stands for (0.625), not the other way round ("0.8" is no answer to "what percent"). */
const close = (x: number, y: number) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
function sameValue(a: ParsedNumber, b: ParsedNumber): boolean {
  if (a.percent === b.percent) return close(a.value, b.value);
  return a.percent && close(a.value / 100, b.value);
}

/** Why a number at [start, end) is not offered as an answer: 'hard', 'soft', or null (it is). */
function numberCleared(t: string, u: NumUnit, ctx: ItemContext, all: NumUnit[], o: { expr?: boolean; own?: boolean } = {}): 'hard' | 'soft' | 'example' | null {
  const before = t.slice(Math.max(0, u.start - 40), u.start);
  const after = t.slice(u.end, u.end + 40);
  const b1 = t[u.start - 1] ?? '';
  const a1 = t[u.end] ?? '';
  // Glued: identifiers, powers, times, ordinals, coefficients.
  if (/[\p{L}\d_]/u.test(b1)) return 'hard';
  if ((/[-^/.#@]/.test(b1) && /[\p{L}\d_]/u.test(t[u.start - 2] ?? '')) || (b1 === ':' && /\d/.test(t[u.start - 2] ?? ''))) return 'hard';
  if (b1 === '^' || b1 === '/') return 'hard';
  if (/\p{L}/u.test(a1)) {
    const word = /^\p{L}+/u.exec(after)![0].toLowerCase();
    if (!ctx.stemWords.has(word) && !UNIT_WORD.test(word)) return 'hard';
  }
  if (/^[-^/:]\s?[\p{L}\d]/u.test(after) && !/^-\s/.test(after)) return 'hard';
  if (/^\.\d/.test(after)) return 'hard';
  // Operands of arithmetic.
  if (OP_LEFT.test(before) || OP_RIGHT.test(after) || OP_RIGHT_WORD.test(after)) return 'hard';
  // Labels (an expression: only the labels that name something else, "level 41 + 1"; "from 41 + 1" is a value).
  if ((o.expr ? EXPR_LABEL : LABEL).test(before)) return 'hard';
  // An enumeration mark at a line start: "2. Now try…", "3) …".
  const lineStart = u.start === 0 || /\n\s*$/.test(before) || /^\s*$/.test(t.slice(0, u.start));
  if (lineStart && /^[.)]\s+\S/.test(after)) return 'hard';
  // Soft: counts, countdowns, examples, other computations, stem numbers.
  const count = COUNT_AFTER.exec(after);
  if (count && !o.own) {
    const phrase = count[1]!.toLowerCase();
    const w = phrase.split(' ')[0]!;
    if (NEVER_UNITS.test(phrase) || (!ctx.stemWords.has(w) && !ctx.stemWords.has(w.replace(/s$/, '')) && !ctx.stemWords.has(`${w}s`))) return 'example';
  }
  if (inCountdown(u, all, t)) return 'soft';
  const { s, e } = sentenceAround(t, u.start, u.end);
  const sentence = t.slice(s, e);
  const free = (o: NumUnit) => !/[\p{L}\d_]/u.test(t[o.start - 1] ?? '') && !/[\p{L}_]/u.test(t[o.end] ?? '') && !(/[-:]/.test(t[o.start - 1] ?? '') && /[\p{L}\d]/u.test(t[o.start - 2] ?? ''));
  const inStem = (o: NumUnit) => ctx.stemValues.some((v) => sameValue(v, o.n));
  const others = all.filter((o) => o !== u && o.start >= s && o.end <= e && !(o.start < u.end && u.start < o.end) && free(o));
  const foreign = others.filter((o) => !inStem(o) && !sameValue(o.n, u.n));
  // The item itself reworded (its stem or steps with a variable renamed) is no example of another item.
  if (o.own) return ctx.stemValues.some((v) => sameValue(v, u.n)) ? 'soft' : null;
  if (EXAMPLE.test(sentence) && foreign.length > 0) return 'example';
  const bare = sentence.replace(/[\p{L}_][\p{L}\d_]*(?:-[\p{L}\d_]+)+|[\p{L}_]+\d[\p{L}\d_]*/gu, ' ');
  if (/\d\s*[-+*/^]\s*\(?\d|=/.test(bare) && foreign.length >= 2 && others.every((o) => !inStem(o))) return 'example';
  // A worked example of another problem: the text says so, and works on numbers that are not this item's.
  if (EXAMPLE.test(t) && /\b(?:similar|another|example|sibling|practice) (?:problem|one|question|item)|worked (?:out|example)/i.test(t)) {
    const textForeign = all.filter((o) => o !== u && free(o) && !inStem(o) && !sameValue(o.n, u.n));
    if (textForeign.length >= 2) return 'example';
  }
  if (ctx.stemValues.some((v) => sameValue(v, u.n))) return 'soft';
  return null;
}

/** Labels that name something else before an expression ("level 41 + 1"); not "from", "of", "than" (a value: "what you get from 41 + 1"). */
const EXPR_LABEL = /(?:\b(?:levels?|lvl|items?|questions?|problems?|exercises?|steps?|days?|attempts?|hints?|pages?|chapters?|sections?|parts?|lessons?|units?|weeks?|rounds?|grades?|skills?|ids?|no\.?|q|version|v|rows?|columns?|lines?|figures?|fig\.?|tables?|options?|choices?|scores?|streaks?)|#|№)\s*(?:[:=]\s*)?$/i;

const UNIT_WORD = /^(?:mm|cm|km|m|in|ft|yd|mi|kg|g|lb|lbs|oz|l|ml|gal|qt|pt|h|hr|hrs|min|mins|s|sec|secs|mph|kph|percent|degrees?|deg|c|f)$/;

function inCountdown(u: NumUnit, all: NumUnit[], t: string): boolean {
  if (!Number.isInteger(u.n.value)) return false;
  const i = all.indexOf(u);
  if (i < 0) return false;
  const sep = (a: NumUnit, b: NumUnit) => /^[\s,.…-]*(?:\.\.\.)?[\s,.…-]*$/.test(t.slice(a.end, b.start)) && t.slice(a.end, b.start).length <= 6;
  // The longest run through u of consecutive integers stepping by ±1.
  for (const step of [1, -1]) {
    let lo = i;
    while (lo > 0 && all[lo - 1]!.n.value === all[lo]!.n.value - step && sep(all[lo - 1]!, all[lo]!)) lo--;
    let hi = i;
    while (hi < all.length - 1 && all[hi + 1]!.n.value === all[hi]!.n.value + step && sep(all[hi]!, all[hi + 1]!)) hi++;
    if (hi - lo >= 2) return true;
  }
  return false;
}

/** Is a span stated as the answer (a statement right before it, or alone on its line)? */
const STATED_AFTER = /^\s*["'`)\]]*\s*(?:is|'s|are|=)\s+(?:exactly\s+)?(?:the\s+|your\s+|my\s+|our\s+)?(?:answer|solution|result|right|correct|it|the one|what (?:goes|you|to|i got))\b/i;
function stated(t: string, start: number, end: number): boolean {
  const before = t.slice(Math.max(0, start - 40), start);
  if (STATEMENT.test(before) || STATED_AFTER.test(t.slice(end, end + 60))) return true;
  // Alone in its sentence ("Honestly? 15.").
  const { s, e } = sentenceAround(t, start, end);
  if (/^[\s"'([*_`]*$/.test(t.slice(s, start)) && /^[\s"').\]*_!`]*$/.test(t.slice(end, e))) return true;
  const lineBefore = before.slice(before.lastIndexOf('\n') + 1);
  const rest = t.slice(end);
  const lineAfter = rest.slice(0, rest.indexOf('\n') < 0 ? rest.length : rest.indexOf('\n'));
  return /^[\s"'([*_]*$/.test(lineBefore) && /^[\s"').\]*_!]*$/.test(lineAfter);
}

/** An example is a disclosure only when the sentence offers the number as this item's answer. */
const ANSWER_WORDS = /\b(?:answer|answers|solution|submit|type in|write down|enter|your (?:problem|item|question|one)|this (?:problem|item|question|one)|the key)\b/i;
function answerStated(t: string, start: number): boolean {
  const { s } = sentenceAround(t, start, start);
  return ANSWER_WORDS.test(t.slice(s, start));
}

// ---------- per-item context ----------

interface ItemContext {
  item: DisclosableItem;
  wants: ParsedNumber[];
  /** Numbers in the item's stem. */
  stemValues: ParsedNumber[];
  stemWords: Set<string>;
  stemSquash: string;
  /** The stem as the student reads it. */
  stemText: string;
  /** Results by readable text (the window asks about the same texts again). */
  memo: Map<string, Disclosure | null>;
  /** The item's declared phrases a student could copy (phraseDisclosure), worked out once: they depend on the item alone. */
  copyable?: string[];
  /** Plain numeric forms for the number-word matcher. */
  wordForms: string[];
  vars: Set<string>;
  /** The shape of the item's stem when it has a number and is long enough to be this item's alone (ownItem); steps are often shared by siblings ("50% means 50 out of 100"). */
  ownShapes: string[];
  /** The item's last step when its last number is the answer ("It is at 20 on the scale"), with its shape (ownStepDisclosure). */
  answerSteps: { step: string; shape: string }[];
}

const squash = (s: string) => s.toLowerCase().replace(/\s+/g, '').replace(/\*/g, '');

const ctxCache = new Map<DisclosableItem, ItemContext>();
function itemContext(item: DisclosableItem): ItemContext {
  let c = ctxCache.get(item);
  if (c) return c;
  if (ctxCache.size > 2048) ctxCache.clear();
  const stem = readable(item.stem ?? '');
  const forms = [item.answer, ...item.accepted];
  const wants = item.answerKind === 'number' ? forms.map((f) => parseNumber(f)).filter((n): n is ParsedNumber => n !== undefined) : [];
  const stemValues = numberUnits(stem).map((u) => u.n);
  const stemWords = new Set(stem.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 2));
  const wordForms = new Set<string>();
  for (const f of [...forms, ...(item.answerForms?.numeric ?? [])]) if (/^-?\d+(?:\.\d+)?(?:\/\d+)?$|^-?\d+ \d+\/\d+$/.test(f.trim())) wordForms.add(f.trim());
  for (const w of wants) if (!w.percent && Number.isFinite(w.value)) wordForms.add(String(Number(w.value.toPrecision(12))));
  const vars = new Set<string>();
  for (const f of forms) {
    const r = parseRelation(f);
    if (r) {
      variables(r.lhs, vars);
      variables(r.rhs, vars);
      continue;
    }
    const e = tryParseExpr(readable(toPlain(f)).toLowerCase());
    if (e) variables(e, vars);
  }
  // Stems and steps without a number are shared by the skill's items ("The box-and-whisker plot shows test scores. …"): only those with one are this item's.
  const steps = (item.steps ?? []).map((st) => readable(toPlain(st)));
  const ownShapes = [stem].filter((x) => /\d/.test(x)).map(shape).filter((x) => x.length >= 16);
  const answerSteps = steps.slice(-1).filter((st) => { const last = numberUnits(st).at(-1); return last !== undefined && wants.some((w) => sameValue(last.n, w)); }).map((st) => ({ step: st, shape: shape(st) })).filter((x) => x.shape.length >= 6);
  c = { item, wants, stemValues, stemWords, stemSquash: squash(stem), stemText: stem, wordForms: [...wordForms], vars, memo: new Map(), ownShapes, answerSteps };
  ctxCache.set(item, c);
  return c;
}

const check = (item: DisclosableItem, response: string): boolean => {
  try {
    return checkAnswer(item as Item, response);
  } catch {
    return false;
  }
};

// ---------- closed arithmetic, digits named one by one, the item reworded ----------

const SMALL_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS_WORDS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SPOKEN_MATH = new RegExp(
  `\\b(?:(${TENS_WORDS.slice(2).join('|')})(?:[- ](${SMALL_WORDS.slice(1, 10).join('|')}))?|(${SMALL_WORDS.join('|')})|(plus)|(minus)|(times|multiplied by)|(divided by))\\b`,
  'gi',
);

/** A text with spoken arithmetic written as symbols ("41 plus one" → "41 + 1"), and for each character of it the index in the text it came from (empty when the text is unchanged). */
interface Spoken {
  text: string;
  from: number[];
}
const spokenCache = new Map<string, Spoken>();
const SPOKEN_OPERATOR = /\b(?:plus|minus|times|multiplied by|divided by)\b/i;
function spokenMath(t: string): Spoken {
  // Number words matter only beside an operator word: a text without one is read as it is.
  if (!SPOKEN_OPERATOR.test(t)) return { text: t, from: [] };
  const hit = spokenCache.get(t);
  if (hit) return hit;
  let text = '';
  const from: number[] = [];
  let last = 0;
  SPOKEN_MATH.lastIndex = 0;
  let m: RegExpExecArray | null;
  const put = (str: string, at: number) => {
    for (let k = 0; k < str.length; k++) from.push(at);
    text += str;
  };
  while ((m = SPOKEN_MATH.exec(t))) {
    for (let k = last; k < m.index; k++) put(t[k]!, k);
    const w = (x: string | undefined) => (x ? x.toLowerCase() : '');
    const sym = m[1] ? String(10 * TENS_WORDS.indexOf(w(m[1])) + (m[2] ? SMALL_WORDS.indexOf(w(m[2])) : 0)) : m[3] ? String(SMALL_WORDS.indexOf(w(m[3]))) : m[4] ? '+' : m[5] ? '-' : m[6] ? '*' : '/';
    put(sym, m.index);
    last = m.index + m[0].length;
  }
  for (let k = last; k < t.length; k++) put(t[k]!, k);
  from.push(t.length);
  const out = { text, from };
  if (spokenCache.size >= TEXT_CACHE_MAX) spokenCache.clear();
  spokenCache.set(t, out);
  return out;
}

/** Closed arithmetic in a text: a maximal run of numbers, brackets and operators with at least one operator between numbers, and its value. */
interface Arithmetic extends NumUnit {
  /** The numbers it computes on. */
  operands: number[];
  /** One operation on two plain numbers ("41 + 1", "0.5 × 160"): one step from a value. */
  trivial: boolean;
}
const arithCache = new Map<string, Arithmetic[]>();
const NO_ARITHMETIC: Arithmetic[] = [];
function arithmetic(t: string): Arithmetic[] {
  // Two numbers with an operator between them, or nothing to read.
  if (!/\d[\s)]*[-+*/^]\s*[(\-]*\s*\d/.test(t)) return NO_ARITHMETIC;
  const hit = arithCache.get(t);
  if (hit) return hit;
  const out: Arithmetic[] = [];
  const run = /[-(]*\s*\d[\d.\s()+\-*/^]*/g;
  let m: RegExpExecArray | null;
  while ((m = run.exec(t))) {
    let s = m.index;
    let e = m.index + m[0].length;
    while (e > s && /[\s+\-*/^(.]/.test(t[e - 1]!)) e--;
    while (s < e && /\s/.test(t[s]!)) s++;
    // Unbalanced brackets at the ends are the sentence's, not the computation's.
    let body = t.slice(s, e);
    while (body.startsWith('(') && (body.match(/\(/g)?.length ?? 0) > (body.match(/\)/g)?.length ?? 0)) {
      s++;
      body = body.slice(1);
    }
    while (body.endsWith(')') && (body.match(/\)/g)?.length ?? 0) > (body.match(/\(/g)?.length ?? 0)) {
      e--;
      body = body.slice(0, -1);
    }
    if (!/\d[\s)]*[-+*/^]\s*[(\-]*\s*\d/.test(body) || !CLOSED.test(body)) continue;
    // Glued to a word or identifier on either side ("3x - 4", "s68-L2-02", "10^4"): not closed.
    const b1 = t[s - 1] ?? '';
    if (/[\p{L}\d_.^/:#@-]/u.test(b1) || /[\p{L}_]/u.test(t[e] ?? '')) continue;
    // A range ("90-99", "3-5 minutes"): a hyphen without spaces going up.
    const range = /^(\d+)-(\d+)$/.exec(body);
    if (range && Number(range[2]) > Number(range[1])) continue;
    // A single fraction or number is the number rule's.
    const units = numberUnits(body);
    if (units.length === 1 && units[0]!.start === 0 && units[0]!.end === body.length) continue;
    const node = tryParseExpr(body);
    if (!node || variables(node).size) continue;
    const value = evaluate(node, new Map());
    if (!Number.isFinite(value)) continue;
    const operands = (body.match(/\d+(?:\.\d+)?/g) ?? []).map(Number);
    out.push({ start: s, end: e, text: body, n: { value, percent: false }, operands, trivial: /^\(?-?\d+(?:\.\d+)?\)?\s*[-+*/]\s*\(?-?\d+(?:\.\d+)?\)?$/.test(body) });
  }
  if (arithCache.size >= TEXT_CACHE_MAX) arithCache.clear();
  arithCache.set(t, out);
  return out;
}

/** The parts of a stem number a rewriting uses: a fraction's or mixed number's numerator and denominator ("1 5/6" → 11, 6). */
function stemParts(v: ParsedNumber): number[] {
  for (let d = 2; d <= 100; d++) {
    const n = v.value * d;
    if (Math.abs(n - Math.round(n)) < 1e-9) return [Math.abs(Math.round(n)), d];
  }
  return [];
}

/** Numbers, operators and brackets in an order that can parse (the parser's errors are costly to throw on every run of digits). */
const CLOSED = /^[-(\s]*\d+(?:\.\d+)?[\s)]*(?:[-+*/^][-(\s]*\d+(?:\.\d+)?[\s)]*)+$/;

/** A computation that is a step of a larger one: its result is written after it ("3 × 4 = 12", "24 - 4 is 20"). */
const RESULT_AFTER = /^\s*(?:=|≈|<|>|≤|≥|!=|\b(?:is|equals?|gives?|makes?|leaves?|comes to)\b)/i;

/** Digits named one by one ("first digit: 4", … "then digit 2"), joined in order, with a sign said before the first ("negative"). */
const digitCache = new Map<string, NumUnit[]>();
function namedDigits(t: string): NumUnit[] {
  const hit = digitCache.get(t);
  if (hit) return hit;
  const named: { s: number; e: number; d: string }[] = [];
  const re = /\bdigits?\b\s*(?:is\s+|:\s*|=\s*)?(\d+)(?![\d.])/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t))) named.push({ s: m.index, e: m.index + m[0].length, d: m[1]! });
  const out: NumUnit[] = [];
  for (let i = 0; i < named.length; i++) {
    const neg = /\b(?:negative|minus)\b|(?:^|\s)-\s*$/i.test(t.slice(Math.max(0, named[i]!.s - 40), named[i]!.s));
    let d = '';
    for (let j = i; j < named.length && j - i < 8; j++) {
      d += named[j]!.d;
      if (j > i) out.push({ start: named[i]!.s, end: named[j]!.e, text: `${neg ? '-' : ''}${d}`, n: { value: Number(`${neg ? '-' : ''}${d}`), percent: false } });
    }
  }
  if (digitCache.size >= TEXT_CACHE_MAX) digitCache.clear();
  digitCache.set(t, out);
  return out;
}

/** A text's shape with one-letter variables made alike ("y = 3y - 4" and "x = 3x - 4"), spaces and markup gone. */
const shapeOf = (s: string) => s.toLowerCase().replace(/(?<![\p{L}\d_])[a-z](?![\p{L}\d_])/gu, '§').replace(/[\s$*\\{}]+/g, '');
const shapeCache = new Map<string, string>();
/** shapeOf, cached by text (a text is read for every item being worked on). */
function shape(s: string): string {
  let v = shapeCache.get(s);
  if (v === undefined) {
    v = shapeOf(s);
    if (shapeCache.size >= TEXT_CACHE_MAX) shapeCache.clear();
    shapeCache.set(s, v);
  }
  return v;
}

/** Does the text carry the item itself: its stem, with a number, with any one-letter variable renamed? Then nothing in it is an example of another item. */
function ownItem(t: string, ctx: ItemContext): boolean {
  if (!ctx.ownShapes.length) return false;
  const ts = shape(t);
  return ctx.ownShapes.some((x) => ts.includes(x));
}

/**
 * The item's last step, ending on its answer, quoted with any variable renamed, with the item's
 * stem in the text (quoted or renamed): its solution. Without the stem it could be a sibling's
 * (a box plot's "It is at 20 on the scale" is every such plot's with a median of 20).
 */
function ownStepDisclosure(t: string, ctx: ItemContext, withStem: boolean): Disclosure | null {
  if (!withStem || !ctx.answerSteps.length) return null;
  const ts = shape(t);
  const hit = ctx.answerSteps.find((x) => ts.includes(x.shape));
  return hit ? { itemId: ctx.item.id, span: hit.step, at: 0, copy: ctx.item.answer, rule: 'own-step' } : null;
}

// ---------- per kind ----------

function numberDisclosure(t: string, ctx: ItemContext, own: boolean): Disclosure | null {
  if (ctx.wants.length === 0) return null;
  const units = numberUnits(t);
  const consider = (u: NumUnit, all: NumUnit[], rule: Disclosure['rule']): Disclosure | null => {
    if (!ctx.wants.some((w) => sameValue(u.n, w))) return null;
    const why = numberCleared(t, u, ctx, all, { own });
    if (why === 'hard' || (why === 'soft' && !stated(t, u.start, u.end)) || (why === 'example' && !answerStated(t, u.start))) return null;
    return { itemId: ctx.item.id, span: t.slice(u.start, u.end), at: u.start, copy: check(ctx.item, u.text) ? u.text : ctx.item.answer, rule };
  };
  for (const u of units) {
    const d = consider(u, units, 'number');
    if (d) return d;
  }
  for (const u of digitGroupUnits(t)) {
    const d = consider(u, units, 'digit-groups');
    if (d) return d;
  }
  // A Roman numeral of one letter or in lower case (readable.ts reads two capitals or more): only stated, ending the sentence.
  for (const x of romanNumerals(t)) {
    if (!ctx.wants.some((w) => sameValue({ value: x.value, percent: false }, w))) continue;
    if (x.stated) return { itemId: ctx.item.id, span: x.text, at: x.index, copy: ctx.item.answer, rule: 'number' };
  }
  if (ctx.wordForms.length) {
    const hits = findNumberWords(t, ctx.wordForms);
    if (hits.length) return { itemId: ctx.item.id, span: hits[0]!.replace(/ \([^()]*\)$/, ''), at: Math.max(0, t.toLowerCase().indexOf(hits[0]!.split(' ')[0]!)), copy: ctx.item.answer, rule: 'words' };
  }
  return arithmeticDisclosure(t, ctx, own) ?? digitsDisclosure(t, ctx);
}

/**
 * Closed arithmetic whose value is the answer ("It's 41 + 1.", "what you get from 41 plus one"),
 * read with spoken operators and small number words as symbols. It counts when it is a value the
 * text offers, cleared as a number is (labels, counts, countdowns, examples of another item), and:
 *  - not when its result is written after it ("20 + 22 = 42", "24 - 4 is 20"): a step, and the
 *    number rule judges the result;
 *  - when it computes on the stem's numbers only ("7 × 6" for "What is 6 × 7?"), only stated as the
 *    answer ("so x = 41 + 1"): otherwise it restates the item's own work;
 *  - when another number follows it in its sentence, only stated: an intermediate of a longer
 *    computation is not offered as a value;
 *  - not in a question ("What is -10 + 2?": a worked example's stem asks, it does not offer).
 */
function arithmeticDisclosure(t: string, ctx: ItemContext, own: boolean): Disclosure | null {
  const sp = spokenMath(t);
  const nt = sp.text;
  const found = arithmetic(nt).filter((a) => ctx.wants.some((w) => sameValue(a.n, w)));
  if (!found.length) return null;
  const all = numberUnits(nt);
  for (const a of found) {
    const after = nt.slice(a.end);
    if (RESULT_AFTER.test(after)) continue;
    const isStated = stated(nt, a.start, a.end);
    const why = numberCleared(nt, a, ctx, all, { expr: true, own });
    if (why === 'hard' || (why === 'soft' && !isStated) || (why === 'example' && !answerStated(nt, a.start))) continue;
    const inStem = a.operands.filter((x) => ctx.stemValues.some((v) => close(v.value, x) || stemParts(v).includes(x)));
    if (!isStated && inStem.length === a.operands.length) continue;
    // More than one operation on plain numbers is work left to do when it uses the stem's numbers: the problem rewritten ("11/6 ÷ 3/7" for 1 5/6 ÷ 3/7).
    if (!a.trivial && inStem.length > 0) continue;
    const { e } = sentenceAround(nt, a.start, a.end);
    if (!isStated && /\d/.test(nt.slice(a.end, e))) continue;
    // A question asks for the value; it does not offer it ("What is -10 + 2?", a worked example's stem).
    if (nt[e] === '?') continue;
    const same = nt === t;
    const s0 = same ? a.start : sp.from[a.start]!;
    const e0 = same ? a.end : a.end < nt.length ? sp.from[a.end]! : t.length;
    const span = t.slice(s0, e0).trim();
    return { itemId: ctx.item.id, span, at: s0, copy: check(ctx.item, a.text) ? a.text : ctx.item.answer, rule: 'arithmetic' };
  }
  return null;
}

/**
 * What only a long join can show: digit groups split by spaces and digits named one by one, read
 * over the day's texts (DisclosureWindow). Everything else a join can show lies within three texts.
 */
function splitDisclosure(t: string, ctx: ItemContext): Disclosure | null {
  if (ctx.wants.length === 0) return null;
  const units = numberUnits(t);
  for (const u of digitGroupUnits(t)) {
    if (!ctx.wants.some((w) => sameValue(u.n, w))) continue;
    const why = numberCleared(t, u, ctx, units);
    if (why === 'hard' || (why === 'soft' && !stated(t, u.start, u.end)) || (why === 'example' && !answerStated(t, u.start))) continue;
    return { itemId: ctx.item.id, span: t.slice(u.start, u.end), at: u.start, copy: check(ctx.item, u.text) ? u.text : ctx.item.answer, rule: 'digit-groups' };
  }
  return digitsDisclosure(t, ctx);
}

/** The split disclosures (splitDisclosure) of number items in a readable text, in item order. */
function splitDisclosuresIn(t: string, items: readonly DisclosableItem[]): Disclosure[] {
  const out: Disclosure[] = [];
  for (const it of items) {
    if (it.answerKind !== 'number') continue;
    const d = splitDisclosure(t, itemContext(it));
    if (d) out.push(d);
  }
  return out;
}

/** Digits named one by one whose number is the answer ("First digit: 4" … "Then digit 2"; the day's texts are read joined, DisclosureWindow). */
function digitsDisclosure(t: string, ctx: ItemContext): Disclosure | null {
  for (const u of namedDigits(t)) {
    if (!ctx.wants.some((w) => sameValue(u.n, w))) continue;
    return { itemId: ctx.item.id, span: t.slice(u.start, u.end), at: u.start, copy: check(ctx.item, u.text) ? u.text : ctx.item.answer, rule: 'digits' };
  }
  return null;
}

/** Runs of math in the text, for an item whose answer uses `vars` (and "and" for sets and lists). */
function mathRuns(t: string, ctx: ItemContext): { s: number; e: number }[] {
  const tokens = /\d+(?:\.\d+)?|[a-z]+|<=|>=|[≤≥√π]|[-+*/^=<>(),;[\]{}]|\s+|[^]/giu;
  const runs: { s: number; e: number }[] = [];
  const listy = ctx.item.answerKind === 'set' || ctx.item.answerKind === 'list';
  let cur: { s: number; e: number } | null = null;
  let m: RegExpExecArray | null;
  while ((m = tokens.exec(t))) {
    const w = m[0];
    let ok: boolean;
    if (/^[a-z]+$/i.test(w)) {
      const lw = w.toLowerCase();
      ok = (lw.length <= 6 && [...lw].every((c) => ctx.vars.has(c))) || lw === 'sqrt' || (listy && lw === 'and');
      // A variable glued to a word ("x" in "xylophone") is a word.
    } else ok = /^(?:\d|<=|>=|[≤≥√π]|[-+*/^=<>(),;[\]{}]|\s)/u.test(w) && !/\n/.test(w);
    if (ok) {
      if (!cur) cur = { s: m.index, e: m.index + w.length };
      else cur.e = m.index + w.length;
    } else if (cur) {
      runs.push(cur);
      cur = null;
    }
  }
  if (cur) runs.push(cur);
  // Trim spaces and dangling punctuation.
  return runs
    .map((r) => {
      let { s, e } = r;
      for (let k = 0; k < 4; k++) {
        while (s < e && /[\s,;=<>+*/^]/.test(t[s]!)) s++;
        while (e > s && /[\s,;=<>+\-*/^(]/.test(t[e - 1]!)) e--;
        if (/^and\b/i.test(t.slice(s, e))) s += 3;
        if (/\band$/i.test(t.slice(s, e))) e -= 3;
      }
      return { s, e };
    })
    .filter((r) => r.e > r.s && /[\da-z]/i.test(t.slice(r.s, r.e)));
}

function mathDisclosure(t: string, ctx: ItemContext): Disclosure | null {
  const item = ctx.item;
  const elements = item.answerKind === 'set' || item.answerKind === 'list' ? item.answer.split(/\s*(?:,|;|\band\b)\s*/).filter(Boolean).length : 0;
  const tried = new Set<string>();
  const tryOne = (s: number, e: number, needsStatement: boolean): Disclosure | null => {
    const cand = t.slice(s, e).trim();
    if (!cand || tried.has(`${needsStatement}:${cand}`)) return null;
    tried.add(`${needsStatement}:${cand}`);
    // A run the stem already shows (its data, its equation) counts only stated as the answer.
    if ((needsStatement || ctx.stemSquash.includes(squash(cand))) && !stated(t, s, e)) return null;
    if (!check(item, cand)) return null;
    return { itemId: item.id, span: cand, at: s, copy: cand, rule: 'math' };
  };
  for (const r of mathRuns(t, ctx)) {
    const d = tryOne(r.s, r.e, false);
    if (d) return d;
    const run = t.slice(r.s, r.e);
    // Each side of a relation, and each part between commas or semicolons (expressions, equations).
    if (item.answerKind === 'expression' || item.answerKind === 'equation') {
      const parts = /[,;]/.test(run) ? run.split(/[,;]/) : [run];
      let off = r.s;
      for (const p of parts) {
        const lead = p.length - p.trimStart().length;
        const d2 = tryOne(off + lead, off + p.trimEnd().length, false);
        if (d2) return d2;
        if (item.answerKind === 'expression') {
          const rel = /\s*(?:<=|>=|[=<>≤≥])\s*/.exec(p);
          if (rel) {
            const d3 = tryOne(off, off + rel.index, false) ?? tryOne(off + rel.index + rel[0].length, off + p.length, false);
            if (d3) return d3;
          }
        }
        off += p.length + 1;
      }
    }
    // Bracketed groups ("(4, 3) and (5, 6)"), each as a whole.
    if (elements > 0) {
      const g = /[([{][^()[\]{}]*[)\]}]/g;
      let y: RegExpExecArray | null;
      while ((y = g.exec(run))) {
        const d5 = tryOne(r.s + y.index, r.s + y.index + y[0].length, false);
        if (d5) return d5;
      }
    }
    // Windows of elements of a longer list, after a statement.
    if (elements > 0) {
      const sep = /\s*(?:,|;|\band\b)\s*/g;
      const bounds: { s: number; e: number }[] = [];
      let last = 0;
      let x: RegExpExecArray | null;
      const inner = run.replace(/^[([{]|[)\]}]$/g, ' ');
      while ((x = sep.exec(inner))) {
        bounds.push({ s: r.s + last, e: r.s + x.index });
        last = x.index + x[0].length;
      }
      bounds.push({ s: r.s + last, e: r.e });
      for (let i = 0; i + elements <= bounds.length; i++) {
        const d4 = tryOne(bounds[i]!.s, bounds[i + elements - 1]!.e, true);
        if (d4) return d4;
      }
    }
  }
  return null;
}

const LETTER_STATEMENT = /(?:\b(?:answer|answers|option|choice|letter|pick|choose|select|go with|it'?s|is|circle|mark|tick)|=|:|→)\s*(?:is\s*)?[:=]?\s*["'([]?\s*$/i;

function choiceDisclosure(t: string, ctx: ItemContext): Disclosure | null {
  const item = ctx.item;
  const choices = item.choices ?? [];
  const idx = choices.findIndex((c) => squash(readable(toPlain(c))) === squash(readable(toPlain(item.answer))));
  if (idx >= 0) {
    const letter = String.fromCharCode(97 + idx);
    const re = new RegExp(`(?<![\\p{L}\\d])\\(?${letter}\\)?(?=\\s*(?:$|[.,;:!?)\\]\\n"']|\\s+(?:because|since|and|so|as|is|it|-)\\b))`, 'giu');
    let m: RegExpExecArray | null;
    while ((m = re.exec(t))) {
      const before = t.slice(Math.max(0, m.index - 30), m.index);
      const line = before.slice(before.lastIndexOf('\n') + 1);
      const upper = m[0].replace(/[()]/g, '') === letter.toUpperCase();
      if (LETTER_STATEMENT.test(before) || /^[\s"'*]*$/.test(line) || (upper && /\(\s*$/.test(before) === false && /^\)/.test(t.slice(m.index + m[0].length)))) {
        // "the answer is a fraction" is not "a": the look-ahead above wants the end of a sentence or a connective.
        return { itemId: item.id, span: m[0], at: m.index, copy: letter, rule: 'choice' };
      }
    }
  }
  // The option's text stated as the answer.
  const want = readable(toPlain(item.answer)).toLowerCase().trim();
  if (want) {
    const lower = t.toLowerCase();
    let i = lower.indexOf(want);
    while (i >= 0) {
      const e = i + want.length;
      const okL = !/[\p{L}\d]/u.test(lower[i - 1] ?? '') && !(/^\d/.test(want) && /[-.]/.test(lower[i - 1] ?? ''));
      const okR = !/[\p{L}\d]/u.test(lower[e] ?? '') && !/^\.\d/.test(lower.slice(e));
      const after = lower.slice(e, e + 40);
      const ends = /^\s*(?:$|[.,;!?)\]\n"']|\s+(?:because|since|so|as|for sure)\b)/.test(lower.slice(e));
      if (okL && okR && ((ends && stated(t, i, e)) || /^\s*(?:is|'s)\s+(?:the\s+)?(?:answer|right|correct|it|the one)\b/.test(after) || /^\s*(?:\(|-|—)\s*(?:that'?s\s+)?(?:the\s+)?(?:answer|correct|right)/.test(after))) {
        return { itemId: item.id, span: t.slice(i, e), at: i, copy: item.answer, rule: 'choice' };
      }
      i = lower.indexOf(want, i + 1);
    }
  }
  return null;
}

function textDisclosure(t: string, ctx: ItemContext): Disclosure | null {
  const item = ctx.item;
  const re = /(?<![\p{L}\d])[A-Z](?:(?:\s*,\s*|\s+|\s*(?:->|→|<|>)\s*|\s+then\s+)[A-Z])+(?![\p{L}\d])|(?<![\p{L}\d])[A-Z]{2,}(?![\p{L}\d])/gu;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t))) {
    const cand = m[0].replace(/\s*(?:->|→|<|>|then)\s*/g, ', ');
    if (ctx.stemSquash.includes(squash(m[0])) && !stated(t, m.index, m.index + m[0].length)) continue;
    if (check(item, cand)) return { itemId: item.id, span: m[0], at: m.index, copy: cand, rule: 'text' };
  }
  return null;
}

function phraseDisclosure(t: string, ctx: ItemContext): Disclosure | null {
  // Option letters ("answer is a", "choice b") are the choice rule's: as a phrase "the answer is a fraction" would match.
  // Only a phrase whose answer part the checker accepts ("median is 15": "15"; not one root "x = -6" of a set).
  ctx.copyable ??= (ctx.item.answerForms?.phrases ?? []).filter((p) => !/(?:^|\s)[a-e]$/i.test(p.trim())).filter((p) => check(ctx.item, p) || check(ctx.item, p.replace(/^.*?\b(?:is|are|=)\s+/i, '')));
  const copyable = ctx.copyable;
  if (!copyable.length) return null;
  const hits = findAnswerForms(t, { numeric: [], phrases: copyable });
  if (!hits.length) return null;
  return { itemId: ctx.item.id, span: hits[0]!, at: Math.max(0, t.toLowerCase().indexOf(hits[0]!.toLowerCase())), copy: ctx.item.answer, rule: 'phrase' };
}

/** The disclosure of one item in a readable text, or null. */
function discloses(text: string, item: DisclosableItem): Disclosure | null {
  const ctx = itemContext(item);
  // The item itself reworded (a variable renamed): nothing in the text is an example of another item. Quoted as it is, the stem is the student's already (below).
  const quoted = ctx.stemText.length >= 12 && text.includes(ctx.stemText);
  const own = !quoted && ownItem(text, ctx);
  // The item's own stem quoted in the text is not a disclosure: the student has it already.
  const t = quoted ? text.split(ctx.stemText).join(' '.repeat(ctx.stemText.length)) : text;
  switch (item.answerKind) {
    case 'number':
      return numberDisclosure(t, ctx, own) ?? phraseDisclosure(t, ctx) ?? ownStepDisclosure(text, ctx, quoted || own);
    case 'choice':
      return choiceDisclosure(t, ctx);
    case 'text':
      return textDisclosure(t, ctx) ?? phraseDisclosure(t, ctx);
    default:
      // Math runs read every copyable form; the declared phrases of these items match across signs and brackets ("(4, 3)" in "(-4, 3)").
      return mathDisclosure(t, ctx);
  }
}

/** The items whose answers one tutor-visible text discloses, one disclosure per item, in item order. */
export function disclosuresIn(text: string, items: readonly DisclosableItem[]): Disclosure[] {
  if (!items.length || !text) return [];
  const t = readable(text);
  const out: Disclosure[] = [];
  for (const it of items) {
    const memo = itemContext(it).memo;
    let d = memo.get(t);
    if (d === undefined) {
      d = discloses(t, it);
      if (memo.size >= 256) memo.clear();
      memo.set(t, d);
    }
    if (d) out.push(d);
  }
  return out;
}

/** Can a span of splitDisclosure cross into `text` from the day's earlier texts: digits on both sides of the boundary, or digits named in both? */
function mayContinueSplit(today: readonly string[], text: string): boolean {
  const last = today[today.length - 1] ?? '';
  if (/\p{Nd}[\s\p{Cf}]*$/u.test(last) && /^[\s\p{Cf}]*[-\p{Nd}]/u.test(text)) return true;
  return /\bdigits?\b/i.test(text) && today.some((x) => /\bdigits?\b/i.test(x));
}

/** How many consecutive tutor texts a split answer may span when read at once (every text with the two before it). */
export const DISCLOSURE_WINDOW = 3;
/** At most this many of a day's tutor texts are read joined (the oldest are let go): a bound on the work per text. */
export const DAY_TEXTS_MAX = 64;

/** A window disclosure also says which of the window's texts it spans (0: the newest alone). */
export interface WindowDisclosure extends Disclosure {
  /** How many earlier texts the disclosure needed besides the newest (0: the newest alone). */
  spans: number;
}

/**
 * Reads consecutive tutor texts in order and reports what each discloses, alone or together with
 * the texts before it (an answer split across messages: "The answer is 2" then "5."): the two
 * texts just before it, joined with a space and without one ("2" then ".25"), and, when `read` is
 * given the day, every earlier text of that day (up to DAY_TEXTS_MAX) joined with a space ("First
 * digit: 4", three messages, "Then digit 2"). A disclosure that needs earlier texts is reported
 * with the newest text, only when the earlier texts alone did not disclose it.
 */
export class DisclosureWindow {
  readonly #size: number;
  readonly #recent: string[] = [];
  readonly #today: string[] = [];
  #day: number | undefined = undefined;

  constructor(size = DISCLOSURE_WINDOW) {
    this.#size = size;
  }

  /** What `text` discloses of `items`, alone or as the end of the window; `day` (the day it is read) widens the window to that day's texts. */
  read(text: string, items: readonly DisclosableItem[], day?: number): WindowDisclosure[] {
    if (day !== undefined && day !== this.#day) {
      this.#day = day;
      this.#today.length = 0;
    }
    const alone = disclosuresIn(text, items);
    const out: WindowDisclosure[] = alone.map((d) => ({ ...d, spans: 0 }));
    const found = new Set(alone.map((d) => d.itemId));
    const rest = items.filter((it) => !found.has(it.id));
    const joins = (k: number, sep: string, earlier: readonly string[], day = false) => {
      const head = earlier.join(sep);
      // Over the day, only what a long join can show (splitDisclosure), and only a span across the newest text's start: the other texts change no number's context.
      const rh = day ? readable(head) : head;
      const read = day ? splitDisclosuresIn : disclosuresIn;
      const before = new Set(read(rh, rest).map((d) => d.itemId));
      // Only the items neither part disclosed can be reported: the joined text is read for those alone (disclosuresIn reads each item apart, in order).
      const open = rest.filter((it) => !before.has(it.id) && !found.has(it.id));
      const joined = [...earlier, text].join(sep);
      for (const d of read(day ? readable(joined) : joined, open)) {
        if (found.has(d.itemId)) continue; // two items of one id: the first is reported, as before the filter
        if (day && !(d.at < rh.length && d.at + d.span.length > rh.length)) continue;
        found.add(d.itemId);
        out.push({ ...d, spans: k });
      }
    };
    for (let k = 1; k <= this.#recent.length && rest.length; k++) {
      const earlier = this.#recent.slice(this.#recent.length - k);
      // Joined without a space only where the boundary could glue a number ("2" then ".25").
      const glue = /[\d.,/-]$/.test(earlier[earlier.length - 1]!) && /^[\d.,/-]/.test(text);
      for (const sep of glue ? [' ', ''] : [' ']) joins(k, sep, earlier);
    }
    if (day !== undefined && this.#today.length > this.#recent.length && rest.some((it) => !found.has(it.id) && it.answerKind === 'number') && mayContinueSplit(this.#today, text)) joins(this.#today.length, ' ', this.#today, true);
    this.#recent.push(text);
    if (this.#recent.length > this.#size - 1) this.#recent.shift();
    if (day !== undefined) {
      this.#today.push(text);
      if (this.#today.length > DAY_TEXTS_MAX) this.#today.shift();
    }
    return out;
  }

  /** Forgets the texts read so far. */
  clear(): void {
    this.#recent.length = 0;
    this.#today.length = 0;
    this.#day = undefined;
  }
}
