/**
 * Does a piece of instruction carry the skill's method? (docs/learning-model.md, "Instruction".)
 *
 * The learner's knowledge only responds to content that could teach: a text the tutor posts
 * (provide_content) or says (a chat message, checked against the skills of the items the learner
 * is working on) is credited to a skill when
 *   - bank: it holds the whole worked solution of an item of that skill (every step), or gives a
 *     step (not the last, which gives the answer) or a rung of the hint ladder of one
 *     (chatInstructionMatch: normalized token overlap, novel tokens beyond the stem required), so the built-in tutors and a teacher quoting the
 *     bank are recognised exactly; or
 *   - method: it uses at least METHOD_MIN distinct words of the skill's method vocabulary, counting
 *     none that the skill's problems themselves use, no other course skill's vocabulary fits it
 *     better, and the words stand in the skill's own phrases (METHOD_MIN_PAIRS word pairs of its
 *     solutions and hints, METHOD_MIN_PAIR_SHARE of the text's pairs, and from v3 one three-word
 *     phrase of them, function words included: phrases3): what an LLM tutor or a
 *     teacher writes about how to do it, not a heap of its words.
 * In both, a computation the text states must check out (arithmetic-claims.ts): a worked example
 * whose arithmetic is wrong teaches nothing. And a text shaped as a worked example (a problem, then
 * working) must check out as a whole (worked-example.ts, v3): it reproduces a bank item of the
 * skill with that item's answer, or its own problem is solved by its final answer; one that can be
 * neither matched nor checked earns nothing ('unchecked'). A bank step or hint matched by the token
 * rule must carry that step's own numbers.
 * A skill's method vocabulary is derived from the item bank: the words of its worked solutions and
 * hints that occur in at least METHOD_SHARE of its items, minus words common in the problems
 * (stems) of the skill, minus words in the vocabulary of more than half the course's skills and
 * a short list of words that name no method ("first", "find", "result").
 * Nothing else earns credit: content-free encouragement ("Study this method carefully."), the
 * problem restated, numbers alone, another skill's method, or a repeat of content already credited
 * on the skill (token-set Jaccard ≥ REPEAT_JACCARD). `scripts/instruction-check-eval.ts` measures
 * the rule on built-in, rewritten, content-free and off-skill content (docs/learning-model.md).
 */
import type { Item } from '../course/types';
import { chatInstructionMatchTokens, instructionTokens, messageTokens } from './chat-instruction';
import { wrongArithmetic } from './arithmetic-claims';
import { normalizeText } from '../course/answer-check';
import { checkWorkedExample, type WorkedExampleCheck } from './worked-example';

export const INSTRUCTION_CHECK_VERSION = 'instruction-check-v3';
export const METHOD_MIN = 3;
export const METHOD_SHARE = 0.2;
export const STEM_SHARE = 0.3;
export const REPEAT_JACCARD = 0.8;
/** The method rule also needs this many distinct word pairs of the skill's own solutions and hints, in order. */
export const METHOD_MIN_PAIRS = 3;
/** …and at least this share of the text's word pairs are the skill's (a heap of its words rarely is: docs/learning-model.md). */
export const METHOD_MIN_PAIR_SHARE = 0.35;

export type InstructionBasis = 'bank' | 'method' | 'none' | 'off-skill' | 'repeat' | 'wrong' | 'unordered' | 'unchecked';

export interface InstructionVerdict {
  credited: boolean;
  basis: InstructionBasis;
  /** For 'method': the skill's method words the text used; for 'off-skill': the skill that fits better. */
  words?: string[];
  otherSkill?: number;
  /** For 'wrong': the computation the text gets wrong ("6 / (-53) = -32"). */
  claim?: string;
}

/** Words of any explanation that name no method (beyond instructionTokens' function words). */
const GENERIC = new Set(['from', 'first', 'each', 'find', 'number', 'numbers', 'same', 'one', 'two', 'three', 'there', 'their', 'them', 'they', 'when', 'how', 'many', 'all', 'then', 'than', 'get', 'gives', 'give', 'look', 'use', 'using', 'which', 'not', 'just', 'only', 'every', 'other', 'more', 'less', 'into', 'out', 'after', 'before', 'until', 'has', 'have', 'means', 'tells', 'result', 'answer', 'write', 'work', 'step', 'steps', 'check', 'problem', 'start', 'try', 'remember', 'think', 'about', 'does', 'need', 'must', 'should', 'could', 'just', 'but', 'some', 'any', 'way', 'part', 'parts', 'value', 'values', 'times', 'time']);
const isWord = (t: string) => /^[a-z]{3,}$/.test(t) && !GENERIC.has(t);
/** A crude suffix strip so "divide", "dividing" and "divides" meet; one suffix, at least 4 letters left. */
function stem(t: string): string {
  for (const suf of ['ing', 'ed', 'es', 's', 'e']) if (t.endsWith(suf) && t.length - suf.length >= 4) return t.slice(0, -suf.length);
  return t;
}
const methodTokens = (s: string): string[] => instructionTokens(s).filter(isWord).map(stem);
/** A word in the method vocabulary of more than this share of the skills is generic. */
export const METHOD_MAX_SKILL_SHARE = 0.5;

/** compute() for (skill, text), remembered per skill; a skill's memo is emptied at 1,024 texts. */
function remembered<T>(memo: Map<number, Map<string, T>>, skill: number, text: string, compute: () => T): T {
  let m = memo.get(skill);
  if (!m) memo.set(skill, (m = new Map()));
  let r = m.get(text);
  if (r === undefined) {
    r = compute();
    if (m.size >= 1024) m.clear();
    m.set(text, r);
  }
  return r;
}

/** Method vocabularies of the skills of an item bank (cached per bank by the caller). */
export class MethodVocabulary {
  readonly #vocab = new Map<number, Set<string>>();
  readonly #pairs = new Map<number, Set<string>>();
  readonly #items = new Map<number, Item[]>();
  readonly #phrases = new Map<number, Set<string>>();

  /** `skillName`: the course's name of a skill; its words are not method words (naming a skill teaches nothing). */
  constructor(items: readonly Item[], skillName?: (skill: number) => string) {
    for (const it of items) {
      const list = this.#items.get(it.skillId) ?? [];
      list.push(it);
      this.#items.set(it.skillId, list);
    }
    const raw = new Map<number, Set<string>>();
    for (const [skill, list] of this.#items) {
      const inMethod = new Map<string, number>();
      const inStem = new Map<string, number>();
      for (const it of list) {
        for (const t of new Set(methodTokens([...it.steps, ...it.hints].join(' ')))) inMethod.set(t, (inMethod.get(t) ?? 0) + 1);
        for (const t of new Set(methodTokens(it.stem))) inStem.set(t, (inStem.get(t) ?? 0) + 1);
      }
      const n = list.length;
      const named = new Set(skillName ? methodTokens(skillName(skill)) : []);
      raw.set(skill, new Set([...inMethod].filter(([t, c]) => c / n >= METHOD_SHARE && (inStem.get(t) ?? 0) / n < STEM_SHARE && !named.has(t)).map(([t]) => t)));
    }
    const df = new Map<string, number>();
    for (const s of raw.values()) for (const t of s) df.set(t, (df.get(t) ?? 0) + 1);
    const nSkills = raw.size;
    for (const [skill, s] of raw) this.#vocab.set(skill, new Set([...s].filter((t) => df.get(t)! <= Math.max(2, nSkills * METHOD_MAX_SKILL_SHARE))));
    // Word pairs of the skill's solutions and hints (adjacent words, function words left out) with a method word in them.
    for (const [skill, list] of this.#items) {
      const vocab = this.#vocab.get(skill)!;
      const pairs = new Set<string>();
      for (const it of list) for (const line of [...it.steps, ...it.hints]) for (const p of wordPairs(line)) if (p.split(' ').some((t) => vocab.has(t))) pairs.add(p);
      this.#pairs.set(skill, pairs);
      const phrases = new Set<string>();
      for (const it of list) for (const p of phrases3([...it.steps, ...it.hints].join('\n'))) phrases.add(p);
      this.#phrases.set(skill, phrases);
    }
  }

  /** Does the text hold a three-word phrase (function words included) of the skill's solutions and hints? */
  hasPhrase(text: string, skill: number): boolean {
    const own = this.#phrases.get(skill);
    return !!own && phrases3(text).some((p) => own.has(p));
  }

  /** The skill's method word pairs (see wordPairs). */
  pairs(skill: number): ReadonlySet<string> {
    return this.#pairs.get(skill) ?? new Set();
  }

  /** Results of bankMethod by skill and text (a vocabulary never changes; tutors post the same texts again and again). */
  readonly #bankMemo = new Map<number, Map<string, boolean>>();

  /** bankMethod(text, this.items(skill)), remembered. */
  givesBankMethod(text: string, skill: number): boolean {
    return remembered(this.#bankMemo, skill, text, () => bankMethod(text, this.items(skill)));
  }

  readonly #exampleMemo = new Map<number, Map<string, WorkedExampleCheck>>();

  /** checkWorkedExample(text, this.items(skill)), remembered. */
  workedExample(text: string, skill: number): WorkedExampleCheck {
    return remembered(this.#exampleMemo, skill, text, () => checkWorkedExample(text, this.items(skill)));
  }

  words(skill: number): ReadonlySet<string> {
    return this.#vocab.get(skill) ?? new Set();
  }

  items(skill: number): readonly Item[] {
    return this.#items.get(skill) ?? [];
  }

  skills(): number[] {
    return [...this.#vocab.keys()];
  }
}

/** Three adjacent words of a text within a sentence or clause, function words kept, numbers left out ("both sides by"). */
export function phrases3(text: string): string[] {
  const out: string[] = [];
  for (const part of text.toLowerCase().split(/[\n.;:,!?]+/)) {
    const ws = part.match(/[a-z]+/g) ?? [];
    for (let k = 2; k < ws.length; k++) out.push(`${ws[k - 2]} ${ws[k - 1]} ${ws[k]}`);
  }
  return out;
}

/** Adjacent word pairs of a text, stemmed, numbers and function words left out ("divid both", "both side"). */
export function wordPairs(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/[\n.;!?]+/)) {
    const ts = methodTokens(line);
    for (let k = 1; k < ts.length; k++) out.push(`${ts[k - 1]} ${ts[k]}`);
  }
  return out;
}

function methodHits(tokens: ReadonlySet<string>, vocab: ReadonlySet<string>): string[] {
  return [...tokens].filter((t) => vocab.has(t)).sort();
}

/** The words of `skill`'s method vocabulary that `text` uses (stemmed, sorted); the scorer's responsiveness rule reads them. */
export function methodWordsIn(text: string, skill: number, vocab: MethodVocabulary): string[] {
  return methodHits(new Set(methodTokens(text)), vocab.words(skill));
}

/** An item's steps normalised without spaces, worked out once per item object (items never change). */
const PLAIN_STEPS = new WeakMap<object, readonly string[]>();
function plainSteps(it: Pick<Item, 'steps'>): readonly string[] {
  let p = PLAIN_STEPS.get(it);
  if (!p) PLAIN_STEPS.set(it, (p = it.steps.map((st) => normalizeText(st).replace(/\s+/g, ''))));
  return p;
}

/** Does `text` give the method of one of these items: a whole worked solution, or a step or hint by the chat rule (the last step aside)? */
export function bankMethod(text: string, items: readonly Item[]): boolean {
  const plain = normalizeText(text).replace(/\s+/g, '');
  const have = messageTokens(text);
  const order = instructionTokens(text);
  for (const it of items) {
    // A whole worked solution of an item of the skill, every step in it (steps of one-step items
    // are too short for the token rule: "x = -36 ÷ 6").
    if (it.steps.length > 0 && plainSteps(it).every((st) => plain.includes(st))) return true;
    if (chatInstructionMatchTokens(have, it, { skipLastStep: true, order, numbersAgree: true }) !== null) return true;
  }
  return false;
}

/** Is `text` instruction on `skill`? Pure: `earlier` are the token sets of content already credited on the skill. */
export function instructionSubstance(
  text: string,
  skill: number,
  vocab: MethodVocabulary,
  earlier: readonly ReadonlySet<string>[] = [],
  /** uncheckedExamples 'rules' (the evaluation's alternative only; runs refuse): a worked example that cannot be checked goes on to the other rules. */
  o: { uncheckedExamples?: 'refuse' | 'rules' } = {},
): InstructionVerdict {
  const tokens = new Set(instructionTokens(text));
  for (const e of earlier) {
    let inter = 0;
    for (const t of tokens) if (e.has(t)) inter++;
    const union = tokens.size + e.size - inter;
    if (union > 0 && inter / union >= REPEAT_JACCARD) return { credited: false, basis: 'repeat' };
  }
  // A computation the text gets wrong: whatever else it says, it does not carry the method.
  const wrong = wrongArithmetic(text);
  if (wrong) return { credited: false, basis: 'wrong', claim: `${wrong.left} = ${wrong.right}` };
  // A worked example must check out: a bank item's answer, or its own problem solved (worked-example.ts).
  const we = vocab.workedExample(text, skill);
  if (we.verdict === 'wrong') return { credited: false, basis: 'wrong', claim: we.claim };
  if (we.verdict === 'unchecked' && (o.uncheckedExamples ?? 'refuse') === 'refuse') return { credited: false, basis: 'unchecked' };
  if (vocab.givesBankMethod(text, skill)) return { credited: true, basis: 'bank' };
  const method = new Set(methodTokens(text));
  const words = methodHits(method, vocab.words(skill));
  if (words.length < METHOD_MIN) return { credited: false, basis: 'none', words };
  for (const other of vocab.skills()) {
    if (other === skill) continue;
    if (methodHits(method, vocab.words(other)).length > words.length) return { credited: false, basis: 'off-skill', otherSkill: other, words };
  }
  // Method words in sentences, not in a heap: enough of the skill's own word pairs, in order.
  const own = vocab.pairs(skill);
  const pairs = wordPairs(text);
  const hits = pairs.filter((p) => own.has(p));
  if (new Set(hits).size < METHOD_MIN_PAIRS || hits.length < METHOD_MIN_PAIR_SHARE * pairs.length) return { credited: false, basis: 'unordered', words };
  // …and at least one of the skill's three-word phrases with its function words (v3): a shuffle of its words rarely keeps one.
  if (!vocab.hasPhrase(text, skill)) return { credited: false, basis: 'unordered', words };
  return { credited: true, basis: 'method', words };
}
