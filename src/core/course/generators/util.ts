import type { Rng } from '../../rng';

/** An integer as written in a sum: negative numbers in parentheses ("(-3)"). */
export const paren = (n: number): string => (n < 0 ? `(${n})` : String(n));

/** A non-zero integer in [lo, hi]. */
export function nonZero(rng: Rng, lo: number, hi: number): number {
  for (;;) {
    const n = rng.int(lo, hi);
    if (n !== 0) return n;
  }
}

/** Numeric forms of an integer answer for leak matching. */
export const intForms = (n: number): string[] => [String(n)];

/** Removes duplicates and the canonical answer itself from a list of wrong answers. */
export function distinctWrong(answer: string, wrong: { answer: string; why: string }[]): { answer: string; why: string }[] {
  const seen = new Set<string>([answer]);
  return wrong.filter((w) => {
    if (seen.has(w.answer)) return false;
    seen.add(w.answer);
    return true;
  });
}
