/**
 * Does a worked example check out? (docs/learning-model.md, "Instruction"; docs/validity.md,
 * "Instruction check v3".) A text is a *worked example* when its first line poses a problem (it asks
 * a question, or starts "Solve", "Simplify", "Round", … and holds a number), at least one line of
 * working follows, and the working holds a number. Such a text teaches the skill only if its numbers are right:
 *
 *   (a) reproduces: it holds the stem of a bank item of the declared skill (after the checker's
 *       normalisation, spaces aside); then it must give that item's answer: every step of the item
 *       is in it, or every number it writes is one of the item's (stem, steps, answer), or its final
 *       answer passes the answer checker on the item. Otherwise it is 'wrong'. A text that holds
 *       no stem but every step of an item of the skill reproduces it too.
 *   (b) its own problem, checked: the first line is an equation to solve ("Solve for x: 3x + 5 = 20",
 *       an inequality too) or an expression to work out ("What is 6 ÷ (-53)?", "Simplify: 88y + 60y").
 *       An equation's final answer "x = 3" must solve it, and every equation in x the working states
 *       ("3x = 15") must have the same root (a step that changes the equation's solution is wrong);
 *       an expression's final answer must equal it (a number, within the rounding the answer shows)
 *       or be equivalent to it (the checker's expression evaluator, src/core/course/expr.ts).
 *   (c) otherwise 'unchecked': the problem cannot be read (a word problem, a figure) or no final
 *       answer can. instruction.ts refuses those (the decision and its cost are measured in
 *       docs/validity.md: a bank item with every number changed is nearly always such a text).
 *
 * Pure and deterministic; reads only the text and the skill's items.
 */
import type { Item } from '../course/types';
import { checkAnswer, normalizeText, parseRelation } from '../course/answer-check';
import { close, equivalent, evaluate, tryParseExpr, variables, type Node } from '../course/expr';
import { plainForMatching } from '../course/math-text';

export type WorkedExampleCheck =
  | { verdict: 'not-example' }
  | { verdict: 'reproduces'; itemId: string }
  | { verdict: 'checked'; how: 'equation' | 'value' | 'expression' }
  | { verdict: 'wrong'; claim: string }
  | { verdict: 'unchecked' };

/** A list number at the start of a line ("1. ", "2) ", "Step 3: "). */
const NUMBERING = /^\s*(?:step\s*)?\d+\s*[.):]\s+/i;
/** Words that open a problem. */
const PROBLEM_START = /^(?:solve|simplify|expand|evaluate|compute|calculate|write|find|round|order|fill|convert|factor|rewrite|express|what|which|how|is|are)\b/i;
/** A stem shorter than this (squashed) is not matched as a reproduction (too easy to hold by chance). */
const MIN_STEM_CHARS = 8;

/** The lines of a text, trimmed, list numbers removed, empty lines dropped. */
export function exampleLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(NUMBERING, '').trim())
    .filter((l) => l.length > 0);
}

/** Is it shaped as a worked example: a problem line, then working that holds a number? */
export function isWorkedExample(lines: readonly string[]): boolean {
  if (lines.length < 2) return false;
  const first = plainForMatching(lines[0]!).trim();
  // A question, or an instruction with its data ("Round 81 to the nearest hundred."): "Find the
  // common denominator first." is a line of working, not a problem.
  if (!first.includes('?') && !(PROBLEM_START.test(first) && /\d/.test(first))) return false;
  return lines.slice(1).some((l) => /\d/.test(l));
}

/** A text as the matcher reads it, spaces removed, line by line (a "$" pairs within its line only). */
const squash = (s: string) =>
  s
    .split(/\r?\n/)
    .map((l) => normalizeText(plainForMatching(l)).replace(/\s+/g, ''))
    .join('\n');
const SQUASHED = new WeakMap<object, { stem: string; steps: string[]; numbers: Set<number> }>();
function squashed(it: Item): { stem: string; steps: string[]; numbers: Set<number> } {
  let s = SQUASHED.get(it);
  if (!s) {
    const numbers = new Set(numbersIn([it.stem, ...it.steps, it.answer, ...it.accepted].join('\n')));
    SQUASHED.set(it, (s = { stem: squash(it.stem), steps: it.steps.map(squash), numbers }));
  }
  return s;
}

/** The numbers a text writes (LaTeX read as plain text, a minus sign kept). */
export function numbersIn(text: string): number[] {
  return (text.split(/\r?\n/).map((l) => plainForMatching(l)).join('\n').replace(/(\d),(\d{3})\b/g, '$1$2').match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
}

/** Candidate final answers of a line: the text after its last "=", after its last ":", after " is ", its last number. */
function answerCandidates(line: string): string[] {
  const plain = plainForMatching(line).replace(/[.!]\s*$/, '').trim();
  const out: string[] = [];
  const eq = plain.lastIndexOf('=');
  if (eq >= 0) out.push(plain.slice(eq + 1));
  const colon = plain.lastIndexOf(':');
  if (colon >= 0) out.push(plain.slice(colon + 1));
  const is = /\b(?:is|are|gives|makes|get)\s+(.+)$/i.exec(plain);
  if (is) out.push(is[1]!);
  const nums = plain.match(/-?\d+(?:\s+\d+\s*\/\s*\d+|(?:\.\d+)?(?:\s*\/\s*\d+)?)/g);
  if (nums) out.push(nums[nums.length - 1]!);
  out.push(plain);
  // A mixed number "1 2/7" is 1 + 2/7 (the expression parser reads two numbers side by side as an error).
  const mixed = (s: string) => s.replace(/(-?)(\d+)\s+(\d+)\s*\/\s*(\d+)/g, '$1($2+$3/$4)');
  return [...new Set(out.map((s) => mixed(s.replace(/^[\s,;]+|[\s,;]+$/g, ''))).filter((s) => s.length > 0))];
}

/** Does a squashed text hold a squashed stem at the start of a line, not running on into a longer number or word ("Solve: 6x = -36" is not in "Solve: 6x = -365")? */
function holdsStem(plain: string, stem: string): boolean {
  const text = `\n${plain}`;
  for (let k = text.indexOf(`\n${stem}`); k >= 0; k = text.indexOf(`\n${stem}`, k + 1)) {
    const next = text[k + 1 + stem.length];
    if (next === undefined || !/[\p{L}\d]/u.test(stem.slice(-1)) || !/[\p{L}\d.,]/u.test(next)) return true;
  }
  return false;
}

/** Math, not words: a digit, and no word of two or more letters but sqrt and pi ("the mean" is not an expression). */
const isMath = (s: string) => /\d/.test(s) && !/[a-z]{2,}/i.test(s.replace(/sqrt|pi/gi, ''));

/** (a): the text holds a bank item's stem; it must give that item's answer. */
function checkReproduction(text: string, lines: readonly string[], items: readonly Item[]): WorkedExampleCheck | null {
  const plain = squash(text);
  const cands = items.filter((it) => {
    const s = squashed(it).stem;
    return s.length >= MIN_STEM_CHARS && holdsStem(plain, s);
  });
  if (cands.length === 0) {
    // No stem, but every step of an item of the skill: its whole worked solution.
    const whole = items.find((it) => {
      const st = squashed(it).steps;
      return st.length > 0 && st.every((x) => plain.includes(x));
    });
    return whole ? { verdict: 'reproduces', itemId: whole.id } : null;
  }
  const nums = numbersIn(lines.slice(1).join('\n'));
  const finals = answerCandidates(lines[lines.length - 1]!);
  for (const it of cands) {
    const sq = squashed(it);
    if (sq.steps.length > 0 && sq.steps.every((st) => plain.includes(st))) return { verdict: 'reproduces', itemId: it.id };
    if (nums.every((n) => sq.numbers.has(n) || sq.numbers.has(-n))) return { verdict: 'reproduces', itemId: it.id };
    if (finals.some((f) => safeCheck(it, f))) return { verdict: 'reproduces', itemId: it.id };
  }
  return { verdict: 'wrong', claim: `the answer is not that of the bank item "${cands[0]!.stem.slice(0, 60)}"` };
}

function safeCheck(it: Item, response: string): boolean {
  try {
    return checkAnswer(it, response);
  } catch {
    // A malformed answer form in the bank is the bank's error, reported by its own validation.
    return false;
  }
}

/** Decimals shown by a number's text ("2.33" → 2). */
const decimals = (s: string) => /\.(\d+)\s*$/.exec(s.trim())?.[1]?.length ?? 0;
/** How far a stated answer may be from the exact value: the rounding its decimals show ("2.33" for 7/3); a whole number must be exact. */
function roundingTol(shown: string, exact: number): number {
  const d = decimals(shown);
  return (d > 0 ? 0.5 * 10 ** -d : 0) + 1e-9 * Math.max(1, Math.abs(exact));
}

/** f(v) = lhs − rhs as a function of the one variable. */
function difference(lhs: Node, rhs: Node, v: string): (x: number) => number {
  return (x) => {
    const env = new Map([[v, x]]);
    return evaluate(lhs, env) - evaluate(rhs, env);
  };
}

/** The root of a relation linear in v, or undefined when it is not linear (or has no single root). */
function linearRoot(f: (x: number) => number): number | undefined {
  const f0 = f(0);
  const f1 = f(1);
  const f3 = f(3);
  const a = f1 - f0;
  if (!Number.isFinite(f0) || !Number.isFinite(a) || Math.abs(a) < 1e-12) return undefined;
  if (!close(f3, f0 + 3 * a)) return undefined;
  return -f0 / a;
}

/** Relations ("a = b", "a ≥ b") a line states in its math segments, in the variable v only. */
function relationsIn(line: string, v: string): { text: string; lhs: Node; rhs: Node }[] {
  const out: { text: string; lhs: Node; rhs: Node }[] = [];
  for (const seg of plainForMatching(line).split(/[:;,]|\bso\b|\bthen\b|\band\b/i)) {
    const s = seg.replace(/[.!]\s*$/, '').trim();
    if (!/[=<>≤≥]/.test(s)) continue;
    const r = parseRelation(s);
    if (!r) continue;
    const vars = new Set([...variables(r.lhs), ...variables(r.rhs)]);
    if (vars.size !== 1 || !vars.has(v)) continue;
    out.push({ text: s, lhs: r.lhs, rhs: r.rhs });
  }
  return out;
}

/** (b) an equation or inequality in one variable to solve. */
function checkEquation(first: string, lines: readonly string[]): WorkedExampleCheck | null {
  const m = /\bsolve\b(?:\s+for\s+([a-z]))?[^:]*:\s*(.+)$/i.exec(first);
  if (!m) return null;
  const body = m[2]!.replace(/[.]\s*$/, '').trim();
  if (!isMath(body)) return null;
  if (/[=<>≤≥].*\band\b.*[=<>≤≥]/i.test(body)) return null; // a system
  const stem = parseRelation(body);
  if (!stem) return null;
  const vars = new Set([...variables(stem.lhs), ...variables(stem.rhs)]);
  if (vars.size !== 1) return null;
  const v = [...vars][0]!;
  if (m[1] && m[1].toLowerCase() !== v) return null;
  const root = linearRoot(difference(stem.lhs, stem.rhs, v));
  // The final answer: the last relation of the working that isolates v against a number.
  let answer: { value: number; text: string } | undefined;
  for (const line of lines.slice(1)) {
    for (const r of relationsIn(line, v)) {
      const lone = r.lhs.t === 'var' ? r.rhs : r.rhs.t === 'var' ? r.lhs : undefined;
      if (lone && variables(lone).size === 0) answer = { value: evaluate(lone, new Map()), text: r.text };
    }
  }
  if (!answer || !Number.isFinite(answer.value)) return { verdict: 'unchecked' };
  if (root !== undefined) {
    const tol = roundingTol(answer.text.split(/[=<>≤≥]/).pop()!, root);
    if (Math.abs(root - answer.value) > tol) return { verdict: 'wrong', claim: `${answer.text} does not solve ${body}` };
    // Every equation of the working in v keeps the stem's root (within the answer's rounding).
    for (const line of lines.slice(1)) {
      for (const r of relationsIn(line, v)) {
        const rr = linearRoot(difference(r.lhs, r.rhs, v));
        if (rr !== undefined && Math.abs(rr - root) > tol) return { verdict: 'wrong', claim: `${r.text} does not have the root of ${body}` };
      }
    }
    return { verdict: 'checked', how: 'equation' };
  }
  // Not linear: the answer must satisfy the equation itself.
  const f = difference(stem.lhs, stem.rhs, v);
  const scale = Math.max(1, Math.abs(evaluate(stem.lhs, new Map([[v, answer.value]]))), Math.abs(evaluate(stem.rhs, new Map([[v, answer.value]]))));
  if (stem.op !== '=' || !Number.isFinite(f(answer.value))) return { verdict: 'unchecked' };
  return Math.abs(f(answer.value)) <= 1e-6 * scale ? { verdict: 'checked', how: 'equation' } : { verdict: 'wrong', claim: `${answer.text} does not solve ${body}` };
}

/** (b) an expression to work out: "What is E?", "Evaluate E", "Simplify: E". */
function checkExpression(first: string, lines: readonly string[]): WorkedExampleCheck | null {
  const m = /^(?:what is|evaluate|compute|calculate|simplify|expand and simplify|expand)\s*:?\s*(.+?)\s*[?.]?\s*$/i.exec(first);
  if (!m || !isMath(m[1]!)) return null;
  const expr = tryParseExpr(m[1]!);
  if (!expr) return null;
  const vars = variables(expr);
  const finals = answerCandidates(lines[lines.length - 1]!);
  if (vars.size === 0) {
    const want = evaluate(expr, new Map());
    if (!Number.isFinite(want)) return null;
    let read = false;
    for (const f of finals) {
      const got = tryParseExpr(f.replace(/%$/, ''));
      if (!got || variables(got).size > 0) continue;
      read = true;
      const g = evaluate(got, new Map());
      if (Math.abs(g - want) <= roundingTol(f, want)) return { verdict: 'checked', how: 'value' };
    }
    return read ? { verdict: 'wrong', claim: `the final answer is not ${m[1]}` } : { verdict: 'unchecked' };
  }
  let read = false;
  for (const f of finals) {
    const got = tryParseExpr(f);
    if (!got) continue;
    read = true;
    if (equivalent(expr, got)) return { verdict: 'checked', how: 'expression' };
  }
  return read ? { verdict: 'wrong', claim: `the final answer is not equivalent to ${m[1]}` } : { verdict: 'unchecked' };
}

/** Checks a text against the skill's bank items (a) and its own problem (b). */
export function checkWorkedExample(text: string, items: readonly Item[]): WorkedExampleCheck {
  const lines = exampleLines(text);
  if (!isWorkedExample(lines)) return { verdict: 'not-example' };
  const rep = checkReproduction(text, lines, items);
  if (rep) return rep;
  // The problem: the first line's last sentence that poses it ("The jar holds 90 marbles. What is …?").
  const first = plainForMatching(lines[0]!).trim();
  const sentences = first.split(/(?<=[.?!])\s+(?=[A-Z])/);
  for (const s of [first, ...sentences.slice(1)]) {
    const c = checkEquation(s, lines) ?? checkExpression(s, lines);
    if (c) return c;
  }
  return { verdict: 'unchecked' };
}
