import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildItemBank } from '../course/item-bank';
import { GENERATORS } from '../course/generators/index';
import { Rng } from '../rng/index';
import { arithmeticClaims, evaluate, wrongArithmetic } from './arithmetic-claims';

describe('arithmetic claims', () => {
  it('evaluates computations with precedence, signs, powers, parentheses and mixed numbers', () => {
    expect(evaluate('2 * 6 + 2 * 9')).toBe(30);
    expect(evaluate('6 / (-3)')).toBe(-2);
    expect(evaluate('6 * 18^2')).toBe(1944);
    expect(evaluate('5 - -3')).toBe(8);
    expect(evaluate('3 1/2 - 2')).toBe(1.5);
    expect(evaluate('3 4')).toBeNull();
    expect(evaluate('x + 2')).toBeNull();
    expect(evaluate('-2^2')).toBe(-4); // the power before the sign, as in maths
    expect(evaluate('25(32) - 19')).toBeNull(); // no product without its sign
  });

  it('finds a wrong computation and accepts right ones, chains and the rounding shown', () => {
    expect(wrongArithmetic('So 6 ÷ (−53) = −32')).toMatchObject({ correct: false });
    expect(wrongArithmetic('Divide the sizes: 6 × 18^2 = 6 × 324 = 1944 cm²')).toBeNull();
    expect(wrongArithmetic('6 × 18^2 = 6 × 324 = 1945')).not.toBeNull();
    expect(wrongArithmetic('7 ÷ 3 = 2.33')).toBeNull();
    expect(wrongArithmetic('7 ÷ 3 = 2.3')).toBeNull();
    expect(wrongArithmetic('7 ÷ 3 = 2.4')).not.toBeNull();
    expect(wrongArithmetic('$12 \\times 3 = 36$')).toBeNull();
    expect(wrongArithmetic('$12 \\times 3 = 38$')).not.toBeNull();
    expect(wrongArithmetic('76900 + 100 = 77,000')).toBeNull();
  });

  it('a list number opening a line is not part of the computation', () => {
    expect(wrongArithmetic('What is 36 - 82?\n1. Regroup\n3. 36 - 82 = 55')).toMatchObject({ left: '36 - 82', right: '55', correct: false });
    expect(wrongArithmetic('What is 36 - 82?\n2) 36 - 82 = -46')).toBeNull();
    // A decimal at the start of a line is a number, not a list number.
    expect(wrongArithmetic('4.5 + 1 = 5.5')).toBeNull();
  });

  it('does not read algebra, percents, remainders or words as claims', () => {
    for (const t of ['Multiply 8 by each term: 8 × y + 8 × 11 = 8y + 88', '20% of 28 = 0.2 × 28 = 5.60', 'x^5 · x^7 = x^(5 + 7) = x^12', '5x - 21 + 126 = 180, so 5x - 21 = 54', '17 ÷ 5 = 3 R 2', '17 ÷ 5 = 3 remainder 2', 'Sale price: 28 - 5.60 = 22.40.'])
      expect(arithmeticClaims(t).filter((c) => !c.correct), t).toEqual([]);
  });

  it('the item bank states no wrong computation (every skill, three banks)', () => {
    const skills = [...GENERATORS.keys()];
    let claims = 0;
    for (const seed of [1, 2, 3]) {
      const bank = buildItemBank({ skills, itemsPerLevel: 12, probesPerSkill: 3 }, new Rng(seed));
      for (const it of bank.items)
        for (const t of [it.stem, ...it.steps, ...it.hints]) {
          const cs = arithmeticClaims(t);
          claims += cs.length;
          expect(cs.filter((c) => !c.correct), `${it.id}: ${t}`).toEqual([]);
        }
    }
    // The parser does read the bank's computations (thousands of them), not nothing.
    expect(claims).toBeGreaterThan(5000);
  });

  it('a right sum made wrong by changing its result is found (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -500, max: 500 }), fc.integer({ min: -500, max: 500 }), fc.integer({ min: 1, max: 50 }), fc.constantFrom('+', '-', '×'), (a, b, d, op) => {
        const v = op === '+' ? a + b : op === '-' ? a - b : a * b;
        const bt = b < 0 ? `(${b})` : `${b}`;
        expect(wrongArithmetic(`First: ${a} ${op} ${bt} = ${v}`)).toBeNull();
        expect(wrongArithmetic(`First: ${a} ${op} ${bt} = ${v + d}`)).not.toBeNull();
      }),
    );
  });
});
