/**
 * Test-only helpers: run a generator over many seeds and compare its stated answer with an
 * independent recomputation (an "oracle") that reads only what the student sees: the stem, the
 * table or the figure's alt text. Oracles never call generator code.
 */
import { expect } from 'vitest';
import { Rng } from '../../rng';
import { checkAnswer } from '../answer-check';
import { toPlain } from '../math-text';
import type { ItemContent, ItemGenerator, Level } from '../types';
import { LEVELS } from '../types';
import { itemProblems } from '../validate';

/** Returns a response the checker must accept (the independently computed answer). */
export type Oracle = (item: ItemContent, level: Level) => string | number;

export function runOracles(gens: readonly ItemGenerator[], oracles: Record<number, Oracle>, seeds = 60): void {
  for (const gen of gens) {
    const oracle = oracles[gen.skillId];
    expect(oracle, `oracle for skill ${gen.skillId}`).toBeDefined();
    for (const level of LEVELS) {
      const rng = new Rng(99).fork(`oracle:${gen.skillId}:${level}`);
      for (let i = 0; i < seeds; i++) {
        const item = gen.generate(rng, level);
        expect(itemProblems(item), `skill ${gen.skillId} L${level}: ${item.stem}`).toEqual([]);
        const want = String(oracle!(item, level));
        expect(checkAnswer(item, want), `skill ${gen.skillId} L${level}: oracle says "${want}", item says "${item.answer}" for: ${toPlain(item.stem)} ${item.figure?.kind === 'svg' ? item.figure.alt : ''}`).toBe(true);
      }
    }
  }
}

export const plain = (it: ItemContent): string => toPlain(it.stem);
/** All numbers in a text, in order ("-3", "2.5"; a "-" glued after a letter or digit is a minus sign, not a sign). */
export function nums(s: string): number[] {
  return [...s.replace(/[−–]/g, '-').matchAll(/(?<![\w.])-?\d+(?:\.\d+)?|(?<=[\w)])\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}
/** The first comma-separated run of numbers in a text. */
export function numList(s: string): number[] {
  const m = /-?\d+(?:\.\d+)?(?:,\s*-?\d+(?:\.\d+)?)+/.exec(s.replace(/[−–]/g, '-'));
  if (!m) throw new Error(`no list in: ${s}`);
  return m[0].split(/,\s*/).map(Number);
}
export const total = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
export const sortNum = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
export function med(xs: readonly number[]): number {
  const s = sortNum(xs);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}
export function table(it: ItemContent): { header: string[]; rows: string[][] } {
  if (it.figure?.kind !== 'table') throw new Error('no table');
  return it.figure;
}
export function alt(it: ItemContent): string {
  if (it.figure?.kind !== 'svg') throw new Error('no svg');
  return it.figure.alt;
}
/** "name: value" pairs from a text ("minimum 12, median 30" → {minimum: 12, …}). */
export function named(s: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of s.matchAll(/([A-Za-z][A-Za-z ]*?)\s*[:=]?\s+(-?\d+(?:\.\d+)?)/g)) out.set(m[1]!.trim().toLowerCase(), Number(m[2]));
  return out;
}
export function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}
/** A fraction text a/b in lowest terms (for fraction-format answers). */
export function fracText(n: number, d: number): string {
  const g = gcd(n, d);
  const s = d < 0 ? -1 : 1;
  const [a, b] = [(s * n) / g, (s * d) / g];
  return b === 1 ? String(a) : `${a}/${b}`;
}
