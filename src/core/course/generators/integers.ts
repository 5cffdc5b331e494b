import type { ItemGenerator, ItemContent, Level } from '../types';
import type { Rng } from '../../rng';
import { defineGenerator, distinctWrong, intForms, nonZero, paren } from './util';

/** Skill 68: Addition and Subtraction Integers. */
export const addSubIntegers: ItemGenerator = defineGenerator({
  skillId: 68,
  levels: ['Add a positive and a negative integer', 'Subtract integers (either sign)', 'Three integers with subtraction and addition'],
  make(rng: Rng, level: Level): ItemContent {
    if (level === 1) {
      const a = nonZero(rng, -12, 12);
      const b = a < 0 ? rng.int(1, 12) : -rng.int(1, 12);
      const ans = a + b;
      return {
        stem: `What is $${a} + ${paren(b)}$?`,
        answerKind: 'number',
        answer: String(ans),
        accepted: [],
        answerForms: { numeric: intForms(ans), phrases: [] },
        steps: [
          `${a} + ${paren(b)}: the signs are different, so subtract the sizes: ${Math.max(Math.abs(a), Math.abs(b))} - ${Math.min(Math.abs(a), Math.abs(b))}`,
          `The number with the larger size is ${Math.abs(a) >= Math.abs(b) ? a : b}, so the result takes its sign`,
          `${a} + ${paren(b)} = ${ans}`,
        ],
        hints: [
          'When you add a positive and a negative number, the signs are different: subtract their sizes.',
          'Which of the two numbers is farther from zero? The answer has that number\'s sign.',
          'Picture a number line: start at the first number and move right for a positive, left for a negative.',
        ],
        misconceptions: distinctWrong(String(ans), [
          { answer: String(Math.abs(a) + Math.abs(b)), why: 'adds the sizes and ignores the signs' },
          { answer: String(-ans), why: 'takes the sign of the wrong number' },
        ]),
      };
    }
    if (level === 2) {
      const a = nonZero(rng, -20, 20);
      const b = a > 0 ? -rng.int(1, 20) : nonZero(rng, -20, 20);
      const ans = a - b;
      return {
        stem: `What is $${a} - ${paren(b)}$?`,
        answerKind: 'number',
        answer: String(ans),
        accepted: [],
        answerForms: { numeric: intForms(ans), phrases: [] },
        steps: [
          `Subtracting ${paren(b)} is the same as adding its opposite: ${a} - ${paren(b)} = ${a} + ${paren(-b)}`,
          `${a} + ${paren(-b)} = ${ans}`,
        ],
        hints: [
          'Subtracting a number is the same as adding its opposite.',
          `Rewrite the problem as an addition: what is the opposite of ${paren(b)}?`,
          'Now add the two numbers, paying attention to their signs.',
        ],
        misconceptions: distinctWrong(String(ans), [
          { answer: String(a + b), why: 'adds instead of subtracting' },
          { answer: String(-(Math.abs(a) + Math.abs(b)) * Math.sign(a || 1)), why: 'ignores the sign of the second number' },
          { answer: String(b - a), why: 'subtracts in the wrong order' },
        ]),
      };
    }
    const a = nonZero(rng, -30, 30);
    const b = nonZero(rng, -30, 30);
    const c = nonZero(rng, -30, 30);
    const ans = a - b + c;
    return {
      stem: `What is $${a} - ${paren(b)} + ${paren(c)}$?`,
      answerKind: 'number',
      answer: String(ans),
      accepted: [],
      answerForms: { numeric: intForms(ans), phrases: [] },
      steps: [
        `Rewrite the subtraction as adding the opposite: ${a} + ${paren(-b)} + ${paren(c)}`,
        `Work from left to right: ${a} + ${paren(-b)} = ${a - b}`,
        `${a - b} + ${paren(c)} = ${ans}`,
      ],
      hints: [
        'Change every subtraction into adding the opposite, then add from left to right.',
        'Do the first two numbers first, then bring in the third.',
        'Check each step on a number line if the signs get confusing.',
      ],
      misconceptions: distinctWrong(String(ans), [
        { answer: String(a + b + c), why: 'treats subtracting a number as adding it' },
        { answer: String(a - b - c), why: 'subtracts every term after the first' },
      ]),
    };
  },
});

/** Skill 70: Multiplication and Division Integers. */
export const mulDivIntegers: ItemGenerator = defineGenerator({
  skillId: 70,
  levels: ['Multiply two integers', 'Divide integers', 'Product of three integers'],
  make(rng: Rng, level: Level): ItemContent {
    const signRule = 'Same signs give a positive result; different signs give a negative result.';
    if (level === 1) {
      const a = nonZero(rng, -9, 9);
      const b = a > 0 ? -rng.int(1, 9) : nonZero(rng, -9, 9);
      const ans = a * b;
      return {
        stem: `What is $${a} \\times ${paren(b)}$?`,
        answerKind: 'number',
        answer: String(ans),
        accepted: [],
        answerForms: { numeric: intForms(ans), phrases: [] },
        steps: [`Multiply the sizes: ${Math.abs(a)} × ${Math.abs(b)} = ${Math.abs(ans)}`, `${signRule} So ${a} × ${paren(b)} = ${ans}`],
        hints: ['First multiply the numbers without their signs.', signRule],
        misconceptions: distinctWrong(String(ans), [
          { answer: String(-ans), why: 'gets the sign rule backwards' },
          { answer: String(a + b), why: 'adds instead of multiplying' },
        ]),
      };
    }
    if (level === 2) {
      const q = nonZero(rng, -12, 12);
      const b = nonZero(rng, -9, 9);
      const a = q * b;
      return {
        stem: `What is $${a} \\div ${paren(b)}$?`,
        answerKind: 'number',
        answer: String(q),
        accepted: [],
        answerForms: { numeric: intForms(q), phrases: [] },
        steps: [`Divide the sizes: ${Math.abs(a)} ÷ ${Math.abs(b)} = ${Math.abs(q)}`, `${signRule} So ${a} ÷ ${paren(b)} = ${q}`],
        hints: ['Divide the numbers without their signs first.', 'The sign rule for division is the same as for multiplication.'],
        misconceptions: distinctWrong(String(q), [
          { answer: String(-q), why: 'gets the sign rule backwards' },
          { answer: String(a * b), why: 'multiplies instead of dividing' },
        ]),
      };
    }
    const a = nonZero(rng, -6, 6);
    const b = nonZero(rng, -6, 6);
    const c = nonZero(rng, -5, 5);
    const ans = a * b * c;
    return {
      stem: `What is $${a} \\times ${paren(b)} \\times ${paren(c)}$?`,
      answerKind: 'number',
      answer: String(ans),
      accepted: [],
      answerForms: { numeric: intForms(ans), phrases: [] },
      steps: [`Multiply the first two: ${a} × ${paren(b)} = ${a * b}`, `Then ${paren(a * b)} × ${paren(c)} = ${ans}`],
      hints: ['Multiply two numbers at a time, left to right.', 'Count the negative factors: an even count gives a positive product, an odd count a negative one.'],
      misconceptions: distinctWrong(String(ans), [
        { answer: String(-ans), why: 'loses track of the number of negative factors' },
        { answer: String(Math.abs(ans)), why: 'ignores the signs' },
      ]),
    };
  },
});
