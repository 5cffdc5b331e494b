/** Items: what the learner answers and the tutor teaches. See src/core/course/README.md. */

export type Level = 1 | 2 | 3;
export const LEVELS: readonly Level[] = [1, 2, 3];

/**
 * How the answer checker compares a response with the answer.
 * - number: a single number; fraction, decimal and percent forms are equal when their values are.
 * - expression: an algebraic expression in one or more variables; equal when equivalent.
 * - equation: e.g. "x = 4" or "y = 2x + 3"; equal when both sides match as expressions.
 *   Inequalities ("x < 5", "5 > x") are equations with another relation.
 * - choice: one of the listed options (case-insensitive letter or exact option text).
 * - text: exact text after normalisation (case, whitespace).
 * - set: an unordered comma-separated list of numbers (a multiset: "2, 2, 3").
 * - list: an ordered list of numbers: a point "(2, 3)", a solution "x = 2, y = 3", an ordering.
 * The full rules are at the top of answer-check.ts and in docs/item-bank.md.
 */
export type AnswerKind = 'number' | 'expression' | 'equation' | 'choice' | 'text' | 'set' | 'list';

/**
 * A required way of writing the answer, checked on top of the value (the question asks for it):
 * - fraction: a fraction in lowest terms or a mixed number ("3/4", "1 1/2"), or a whole number;
 * - scientific: a × 10^n with 1 ≤ |a| < 10 ("3.2 × 10^5", "3.2*10^5", "3.2e5");
 * - simplified: a polynomial with like terms combined and no parentheses ("5x - 3", "2x^3y");
 * - factored: a product of at least two non-constant factors ("(x + 2)(x - 3)");
 * - radical: simplest radical form ("6√2");
 * - prime-factorization: a product of primes ("2^2 × 3 × 5").
 */
export type ResponseFormat = 'fraction' | 'scientific' | 'simplified' | 'factored' | 'radical' | 'prime-factorization';

/** A small picture or table shown with the stem. SVG is produced by our own generators only. */
export type Figure = { kind: 'svg'; svg: string; alt: string } | { kind: 'table'; header: string[]; rows: string[][]; caption?: string };

export interface Misconception {
  /** The wrong answer a learner holding this misconception gives. */
  answer: string;
  /** A short description of the misconception (teacher-facing). */
  why: string;
}

/** Item content as a generator produces it (no id, no link to a real question yet). */
export interface ItemContent {
  /** Question text a 6th–9th grader reads. Inline math between $…$ is typeset in the page. */
  stem: string;
  figure?: Figure;
  answerKind: AnswerKind;
  /** Canonical answer, as shown to a teacher. */
  answer: string;
  /** Other forms the checker must also accept (e.g. "0.75", "75%", "3/4"). */
  accepted: string[];
  /** Options for `choice` items. */
  choices?: string[];
  /** A form the response must be written in, when the question asks for one. */
  format?: ResponseFormat;
  /**
   * Declared answer forms for leakage matching (Fan et al. 2026): numeric tokens matched on
   * token boundaries, and solution phrases matched as normalised substrings.
   */
  answerForms: { numeric: string[]; phrases: string[] };
  /** Worked solution, one short step per entry, the final step giving the answer. */
  steps: string[];
  /** Hint ladder, most general first; at least two. Hints never contain a declared answer form. */
  hints: string[];
  /** Plausible wrong answers from known misconceptions of the skill; at least one. */
  misconceptions: Misconception[];
}

export interface Item extends ItemContent {
  id: string;
  skillId: number;
  level: Level;
  /** Real dataset question id this item stands for (its difficulty drives AKT-Rasch), 0 if none. */
  questionRef: number;
}

/** Generates items of one skill from a seeded random source. */
export interface ItemGenerator {
  skillId: number;
  /** What each level asks (levels 1, 2, 3), for the docs and the course map. */
  levels: readonly [string, string, string];
  /** Produces one item at the level. Must be deterministic in `rng` and never produce an invalid item. */
  generate(rng: import('../rng').Rng, level: Level): ItemContent;
}
