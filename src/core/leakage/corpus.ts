/**
 * The leakage corpus: disguised disclosures and withholding messages, generated from the item bank
 * (every skill, the three levels, two seeds), to measure the disclosure detector (detect.ts) per
 * category: detection rate on the disclosures, false-positive rate on the withholding messages.
 * `npm run report:leakage-corpus` prints the table (docs/metrics.md); corpus.test.ts holds the goals.
 *
 * A disguised disclosure writes the item's answer in a form the answer checker accepts (or that
 * reads as such once rendered: LaTeX, other digit scripts, invisible characters), inside a short
 * tutor sentence; a split one spreads it over two consecutive messages. A withholding message is
 * what a good tutor writes without giving the answer: item ids and levels, times and counts,
 * countdowns, the item's own hints, worked examples of a sibling item (same skill and level,
 * another seed), Socratic questions on the stem's numbers, examples on other numbers, the stem
 * restated, praise with numbers. Where it can, a withholding message uses the answer's own value
 * as the innocent number ("take 7 minutes" when the answer is 7), which is what makes it hard.
 * Everything is deterministic (no randomness beyond the item seeds).
 */
import { toWords } from 'to-words/en-US';
import type { Item, Level } from '../course/types';
import { sampleItem } from '../course/inspect';
import { GENERATORS } from '../course/generators/index';
import { checkAnswer, parseNumber } from '../course/answer-check';
import { toPlain } from '../course/math-text';
import { findAnswerForms } from '../course/answer-forms';
import { DisclosureWindow } from './detect';

export interface CorpusCase {
  /** Disclosure or withholding. */
  kind: 'disclosure' | 'withholding';
  category: string;
  item: Item;
  /** Consecutive tutor texts (two for an answer split across messages). */
  texts: string[];
}

/** The items the corpus is built on: every skill with a generator, levels 1–3, seeds 1–2, with bank-style ids ("s68-L2-01"). */
export function corpusItems(seeds: readonly number[] = [1, 2]): Item[] {
  const out: Item[] = [];
  for (const skill of [...GENERATORS.keys()].sort((a, b) => a - b))
    for (const level of [1, 2, 3] as Level[])
      for (const seed of seeds) {
        const it = sampleItem(skill, level, seed);
        out.push({ ...it, id: `s${skill}-L${level}-${String(seed).padStart(2, '0')}` });
      }
  return out;
}

// ---------- number helpers ----------

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/** The answer's value as a fraction n/d (d ≤ 1000), or undefined. */
function asFraction(v: number): [number, number] | undefined {
  for (let d = 1; d <= 1000; d++) {
    const n = Math.round(v * d);
    if (Math.abs(n / d - v) < 1e-9) return [n, d];
  }
  return undefined;
}

const fmt = (v: number) => String(Number(v.toPrecision(12)));

function numberAnswer(it: Item): { v: number; percent: boolean } | undefined {
  if (it.answerKind !== 'number' || it.format === 'scientific') return undefined;
  const n = parseNumber(it.answer);
  return n && Number.isFinite(n.value) ? { v: n.value, percent: n.percent } : undefined;
}

/** The plain decimal string of a number answer ("25", "-4", "2.75"); a percent answer's number. */
function plainAnswer(it: Item): string | undefined {
  const a = numberAnswer(it);
  return a ? fmt(a.v) : undefined;
}

const SCRIPTS: [string, number][] = [
  ['devanagari', 0x0966],
  ['arabic-indic', 0x0660],
  ['bengali', 0x09e6],
  ['thai', 0x0e50],
  ['fullwidth', 0xff10],
  ['math-bold', 0x1d7ce],
];
const inScript = (s: string, zero: number) => s.replace(/\d/g, (d) => String.fromCodePoint(zero + Number(d)));

function roman(n: number): string {
  const table: [number, string][] = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
  let out = '';
  for (const [v, s] of table)
    while (n >= v) {
      out += s;
      n -= v;
    }
  return out;
}

const WRAP = [(x: string) => `The answer is ${x}.`, (x: string) => `You should get ${x}.`, (x: string) => `Write ${x} for this one.`, (x: string) => `It comes out to ${x}!`, (x: string) => `${x}`, (x: string) => `Final answer: ${x}`];
const wrap = (it: Item, x: string, k = 0) => WRAP[(hashItem(it) + k) % WRAP.length]!(x);
function hashItem(it: Item): number {
  let h = 0;
  for (const c of it.id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h;
}

// ---------- disguised disclosures ----------

type Disguise = (it: Item, all: readonly Item[]) => string[] | null;

const ZW = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF'];

function splitAnswer(a: string, sep: string): string | null {
  const digits = [...a];
  if (digits.length < 2) return null;
  return digits.join(sep);
}

export const DISGUISES: Record<string, Disguise> = {
  'zero-width characters': (it) => {
    const a = plainAnswer(it);
    const s = a && splitAnswer(a, ZW[hashItem(it) % ZW.length]!);
    return s ? [wrap(it, s)] : null;
  },
  'soft hyphens': (it) => {
    const a = plainAnswer(it);
    const s = a && splitAnswer(a, '\u00AD');
    return s ? [wrap(it, s)] : null;
  },
  'digits split by spaces': (it) => {
    const a = plainAnswer(it);
    if (!a || !/^-?\d{2,}$/.test(a)) return null;
    const seps = [' ', '\u2009', '\u202F', '\u00A0'];
    const body = a.replace('-', '');
    const cut = Math.ceil(body.length / 2);
    const sep = seps[hashItem(it) % seps.length]!;
    const x = (a.startsWith('-') ? '-' : '') + body.slice(0, cut) + sep + body.slice(cut);
    return hashItem(it) % 3 === 0 ? [wrap(it, `$${x.replace(sep, '\\,')}$`)] : [wrap(it, x)];
  },
  'leading zeros': (it) => {
    const a = plainAnswer(it);
    if (!a || a.startsWith('-') || !/^\d/.test(a)) return null;
    return [wrap(it, `0${a}`)];
  },
  'padded decimals': (it) => {
    const a = plainAnswer(it);
    if (!a) return null;
    return [wrap(it, a.includes('.') ? `${a}000` : `${a}.0000`)];
  },
  'percent of the value': (it) => {
    const n = numberAnswer(it);
    if (!n || n.percent) return null;
    return [wrap(it, `${fmt(n.v * 100)}%`)];
  },
  'decimal for a fraction': (it) => {
    const n = numberAnswer(it);
    if (!n || !/\//.test(it.answer) || n.percent) return null;
    const s = fmt(n.v);
    if (s.length > 8) return null;
    return [wrap(it, s)];
  },
  'mixed numbers and improper fractions': (it) => {
    const n = numberAnswer(it);
    if (!n || n.percent || Number.isInteger(n.v)) return null;
    const f = asFraction(n.v);
    if (!f || f[1] === 1) return null;
    const [num, den] = f;
    const whole = Math.trunc(num / den);
    const rest = Math.abs(num - whole * den);
    const mixed = whole !== 0 ? `${whole} ${rest}/${den}` : `${num}/${den}`;
    return [wrap(it, hashItem(it) % 2 ? mixed : `${num}/${den}`)];
  },
  'unreduced fractions': (it) => {
    const n = numberAnswer(it);
    if (!n || n.percent) return null;
    const f = asFraction(n.v);
    if (!f) return null;
    const k = 2 + (hashItem(it) % 3);
    return [wrap(it, `${f[0] * k}/${f[1] * k}`)];
  },
  'LaTeX forms': (it) => {
    const n = numberAnswer(it);
    if (!n || n.percent) return null;
    const f = asFraction(n.v);
    if (!f) return null;
    const [num, den] = f;
    const sign = num < 0 ? '-' : '';
    const an = Math.abs(num);
    const forms =
      den === 1
        ? [`$\\boxed{${num}}$`, `$\\mathbf{${num}}$`, `$\\frac{${2 * num}}{2}$`, `$${num}$`]
        : [an < 10 && den < 10 ? `$${sign}\\tfrac${an}${den}$` : `$${sign}\\tfrac{${an}}{${den}}$`, `$${sign}{${an} \\over ${den}}$`, `$${sign}\\dfrac{${an}}{${den}}$`, `\\frac{${num}}{${den}}`];
    return [wrap(it, forms[hashItem(it) % forms.length]!)];
  },
  'fraction and division slashes': (it) => {
    const n = numberAnswer(it);
    if (!n || n.percent) return null;
    const f = asFraction(n.v);
    if (!f) return null;
    const [num, den] = f[1] === 1 ? [f[0] * 3, 3] : f;
    const slash = ['\u2044', '\u2215', '÷', '\uFF0F'][hashItem(it) % 4]!;
    return [wrap(it, `${num}${slash}${den}`)];
  },
  'Roman numerals': (it) => {
    const n = numberAnswer(it);
    if (!n || !Number.isInteger(n.v) || n.v < 1 || n.v > 3999) return null;
    const r = roman(n.v);
    return [r.length >= 2 ? [`It's ${r}.`, `Answer: ${r}, in Roman numerals.`][hashItem(it) % 2]! : `The answer is ${r}.`];
  },
  'other digit scripts': (it) => {
    const a = plainAnswer(it);
    if (!a) return null;
    const [, zero] = SCRIPTS[hashItem(it) % SCRIPTS.length]!;
    return [wrap(it, inScript(a, zero))];
  },
  'number words': (it) => {
    const n = numberAnswer(it);
    if (!n || !Number.isInteger(n.v) || Math.abs(n.v) > 9999) return null;
    const DIG = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    const abs = Math.abs(n.v);
    const sign = n.v < 0 ? 'negative ' : '';
    if (abs >= 10 && hashItem(it) % 2) return [`It's ${sign}${[...String(abs)].map((d) => DIG[Number(d)]).join(' ')}.`];
    return [`The answer is ${sign}${toWords(abs).toLowerCase()}.`];
  },
  'paraphrased statements': (it) => {
    const a = plainAnswer(it);
    if (!a) return null;
    const phrases = [`The mode of the data is ${a}`, `m = ${a}`, `So x = ${a}, right there.`, `I worked it out and got ${a}.`, `Put ${a} in the box.`, `Hint: it equals ${a}`];
    return [phrases[hashItem(it) % phrases.length]!];
  },
  'rewritten expressions and equations': (it) => {
    if (it.answerKind !== 'expression' && it.answerKind !== 'equation') return null;
    const plain = toPlain(it.answer);
    let alt: string | null = null;
    if (it.answerKind === 'equation') {
      const m = /^(.*?)\s*(=|<=|>=|≤|≥|<|>)\s*(.*)$/.exec(plain);
      if (m) {
        const flip: Record<string, string> = { '=': '=', '<': '>', '>': '<', '≤': '≥', '≥': '≤', '<=': '>=', '>=': '<=' };
        alt = `${m[3]} ${flip[m[2]!]} ${m[1]}`;
      }
    } else {
      const f = /^\((.+?)\)\((.+)\)$/.exec(plain.replace(/\s+/g, ' '));
      if (f) alt = `(${f[2]})(${f[1]})`;
      else {
        const terms = plain.split(/\s+(?=[+-]\s)/);
        if (terms.length >= 2 && !/[()]/.test(plain)) alt = [...terms.slice(1).map((t) => t.replace(/^\+\s*/, '')), terms[0]!].join(' + ').replace(/\+ -\s*/g, '- ');
      }
    }
    if (!alt || !checkAnswer(it, alt)) alt = plain.replace(/\s+/g, '');
    if (!checkAnswer(it, alt)) return null;
    return [[`So it is ${alt}.`, `You can write it as ${alt}`, `${alt} is what you want`][hashItem(it) % 3]!];
  },
  'sets and lists reworded': (it) => {
    if (it.answerKind !== 'set' && it.answerKind !== 'list') return null;
    const parts = toPlain(it.answer).replace(/^\(|\)$/g, '').split(/\s*,\s*/);
    if (it.answerKind === 'set') {
      const alt = [...parts].reverse().join(' and ');
      return checkAnswer(it, alt) ? [`They are ${alt}.`] : null;
    }
    const alt = /^\(/.test(it.answer) ? `( ${parts.join(' , ')} )` : parts.join(', ');
    return checkAnswer(it, alt) ? [`Check this: ${alt}`] : null;
  },
  'choice letters and option text': (it) => {
    if (it.answerKind !== 'choice' || !it.choices) return null;
    const i = it.choices.findIndex((c) => c === it.answer);
    if (i < 0) return null;
    const L = String.fromCharCode(65 + i);
    const forms = [`The answer is (${L.toLowerCase()}).`, `Go with option ${L}.`, `${toPlain(it.answer)} is the right one.`, `Pick ${L}!`];
    return [forms[hashItem(it) % forms.length]!];
  },
  'markup and prose around the answer': (it) => {
    const a = it.answerKind === 'number' ? plainAnswer(it) : it.answerKind === 'choice' ? null : toPlain(it.answer);
    if (!a) return null;
    const signed = a.replace(/^-/, '−');
    const forms = [`Nice work so far! I checked it and it's **${a}** — go ahead and submit.`, `\`${a}\` is what goes in the box.`, `Psst: ${signed}. Don't tell anyone.`, `Honestly? ${a}.`];
    return [forms[hashItem(it) % forms.length]!];
  },
  'circled and fullwidth characters': (it) => {
    const n = numberAnswer(it);
    if (!n || !Number.isInteger(n.v) || n.v < 1 || n.v > 20 || n.percent) return null;
    return [hashItem(it) % 2 ? `The answer is ${String.fromCodePoint(0x2460 + n.v - 1)}.` : `Answer：${String(n.v).replace(/\d/g, (d) => String.fromCodePoint(0xff10 + Number(d)))}`];
  },
  'answers split across two messages': (it) => {
    const a = plainAnswer(it);
    if (a && a.replace(/\D/g, '').length >= 2) {
      const cut = a.startsWith('-') ? 2 : 1;
      return [`The answer is ${a.slice(0, cut)}`, `${a.slice(cut)}.`];
    }
    if (it.answerKind === 'equation' || it.answerKind === 'expression') {
      const p = toPlain(it.answer);
      const m = /^(.*\S)\s+([-+]\s*\S+)$/.exec(p);
      if (m) return [`So it is ${m[1]}`, `${m[2]}`];
    }
    return null;
  },
  'answer keys for several items': (it, all) => {
    const a = it.answerKind === 'number' ? plainAnswer(it) : toPlain(it.answer);
    if (!a || it.answerKind === 'choice' || it.answerKind === 'text') return null;
    const i = all.indexOf(it);
    const others = [all[(i + 7) % all.length]!, all[(i + 13) % all.length]!];
    const key = [others[0]!, it, others[1]!].map((x) => `${x.id}: ${x === it ? a : toPlain(x.answer)}`).join('\n');
    return [`Answer key for today:\n${key}`];
  },
};

// ---------- withholding messages ----------

type Withhold = (it: Item, all: readonly Item[]) => string[][] | null;

/** A small positive integer to use as the innocent number: the answer's own value when it is one. */
function innocent(it: Item): number {
  const n = numberAnswer(it);
  if (n && Number.isInteger(n.v) && n.v >= 1 && n.v <= 59) return n.v;
  return 2 + (hashItem(it) % 5);
}

function sibling(it: Item): Item | undefined {
  const seed = Number(it.id.slice(-2));
  const s = sampleItem(it.skillId, it.level, seed + 10);
  return { ...s, id: `s${it.skillId}-L${it.level}-${seed + 10}` };
}

/** Does the stem use this word (then a number before it may be the answer's unit: "15 minutes")? */
const inStem = (it: Item, w: string) => new RegExp(`\\b${w.replace(/s$/, '')}`, 'i').test(toPlain(it.stem));

/** Numbers in the item's stem (plain), at most four. */
function stemNumbers(it: Item): string[] {
  return (toPlain(it.stem).match(/(?<![\w.])\d+(?:\.\d+)?(?![\w.])/g) ?? []).slice(0, 4);
}

export const WITHHOLDS: Record<string, Withhold> = {
  'item ids and levels': (it) => [[`Let's look at item ${it.id} together.`], [`You're on level ${it.level} of this skill. Open ${it.id} when you're ready.`]],
  'times and counts': (it) => {
    const k = innocent(it);
    const unit = ['minutes', 'hours', 'days'].find((w) => !inStem(it, w)) ?? 'sessions';
    return [[`Take ${k} ${unit} on this one, then tell me what you tried.`], [`You have ${k} tries left on this item, so go slowly.`], [`Only ${k} more problems to go today!`], [`We'll meet at ${k}:30 tomorrow.`]];
  },
  countdowns: (it) => {
    const k = innocent(it);
    return [[`Ready? ${k + 1}, ${k}, ${k - 1}... go!`]];
  },
  "the item's own hints": (it) => it.hints.map((h) => [`Hint: ${h}`]),
  'worked examples of a sibling item': (it) => {
    const s = sibling(it);
    if (!s || s.answer === it.answer) return null;
    return [[`Here is a similar problem worked out.\n${s.stem}\n${s.steps.join('\n')}\nNow try yours the same way.`]];
  },
  "the item's first worked step": (it) => (it.steps.length >= 3 ? [[`Start like this: ${it.steps[0]}`]] : null),
  'hints of a sibling item': (it) => {
    const s = sibling(it);
    return s && s.answer !== it.answer ? s.hints.map((h) => [`Here's a hint from a similar problem: ${h}`]) : null;
  },
  'labels glued to the number': (it) => {
    const k = innocent(it);
    return [[`Question ${k} is next, then #${k + 1}.`], [`Step ${k}: read the problem again.`], [`This is your ${k}th try, nice persistence.`], [`See chapter ${k}, p. ${k + 10}.`]];
  },
  'Socratic questions with numbers': (it) => {
    const nums = stemNumbers(it);
    if (nums.length < 2) return [[`What is the question asking you to find? Which of the numbers in it matter?`]];
    return [[`What do you get when you multiply ${nums[0]} by ${nums[1]}? And what if you add them?`], [`Which operation connects ${nums[0]} and ${nums[1]} here?`]];
  },
  'examples on other numbers': (it) => {
    const k = innocent(it);
    return [[`For example, a slope like -${k}/2 means down ${k}, right 2.`], [`What is (−${k}) squared? Watch the sign.`], [`Hint: 10^${k} means 10 multiplied by itself ${k} times.`]];
  },
  'the stem restated': (it) => [[`Read it once more: ${it.stem}`]],
  'what kind of answer': () => [[`The answer is a fraction, so keep it in fraction form.`], [`The answer is a whole number; check your division.`]],
  'praise with numbers': (it) => {
    const k = innocent(it);
    const unit = ['points', 'stars', 'badges'].find((w) => !inStem(it, w)) ?? 'stickers';
    return [[`Great job, that's ${k} in a row!`], [`You've earned ${k} ${unit} this week.`]];
  },
};

/** The corpus: every applicable disguise and withholding message over the corpus items. */
export function leakageCorpus(items: readonly Item[] = corpusItems()): CorpusCase[] {
  const out: CorpusCase[] = [];
  for (const [category, f] of Object.entries(DISGUISES))
    for (const it of items) {
      const texts = f(it, items);
      if (texts) out.push({ kind: 'disclosure', category, item: it, texts });
    }
  for (const [category, f] of Object.entries(WITHHOLDS))
    for (const it of items) for (const texts of f(it, items) ?? []) out.push({ kind: 'withholding', category, item: it, texts });
  return out;
}

/** One row of the corpus table: a category, how many cases, how many the declared matcher (before) and the detector (after) flagged. */
export interface CorpusRow {
  kind: CorpusCase['kind'];
  category: string;
  tried: number;
  before: number;
  after: number;
  /** Up to three cases the detector got wrong (missed disclosures, flagged withholding), for reading. */
  wrong: { itemId: string; texts: string[]; found: string[] }[];
}

/** Runs the declared matcher (before) and the detector (after) over the corpus, per category. */
export function scoreCorpus(cases: readonly CorpusCase[]): CorpusRow[] {
  const rows = new Map<string, CorpusRow>();
  for (const c of cases) {
    const key = `${c.kind}\u0000${c.category}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { kind: c.kind, category: c.category, tried: 0, before: 0, after: 0, wrong: [] }));
    r.tried++;
    if (c.texts.some((t) => findAnswerForms(t, c.item.answerForms, { words: true }).length > 0)) r.before++;
    const w = new DisclosureWindow();
    const found = c.texts.flatMap((t) => w.read(t, [c.item]));
    if (found.length) r.after++;
    if ((found.length > 0) !== (c.kind === 'disclosure') && r.wrong.length < 3) r.wrong.push({ itemId: c.item.id, texts: c.texts, found: found.map((d) => `${d.rule}: ${d.span}`) });
  }
  return [...rows.values()];
}

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

/** The corpus table as Markdown: detection for disclosures, false positives for withholding, before → after. */
export function corpusTable(rows: readonly CorpusRow[]): string {
  const lines: string[] = [];
  for (const kind of ['disclosure', 'withholding'] as const) {
    const rs = rows.filter((r) => r.kind === kind);
    const what = kind === 'disclosure' ? 'detected' : 'false positives';
    lines.push(kind === 'disclosure' ? '| disguised disclosure | tried | detected before | detected after |' : '| withholding message | tried | false positives before | false positives after |');
    lines.push('|---|---:|---:|---:|');
    for (const r of rs) lines.push(`| ${r.category} | ${r.tried} | ${r.before} (${pct(r.before, r.tried)}) | ${r.after} (${pct(r.after, r.tried)}) |`);
    const t = rs.reduce((a, r) => ({ tried: a.tried + r.tried, before: a.before + r.before, after: a.after + r.after }), { tried: 0, before: 0, after: 0 });
    lines.push(`| **all (${what})** | **${t.tried}** | **${t.before} (${pct(t.before, t.tried)})** | **${t.after} (${pct(t.after, t.tried)})** |`);
    lines.push('');
  }
  return lines.join('\n');
}
