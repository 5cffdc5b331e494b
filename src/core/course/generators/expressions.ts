import type { ItemGenerator, ItemContent, Level } from '../types';
import type { Rng } from '../../rng';
import { defineGenerator, distinctWrong, intForms } from './util';

/** Skill 86: Order of Operations All. */
export const orderOfOperations: ItemGenerator = defineGenerator({
  skillId: 86,
  levels: ['Sum and product without parentheses', 'Parentheses, product and difference', 'Power, product, quotient, sum and difference'],
  make(rng: Rng, level: Level): ItemContent {
    if (level === 1) {
      const a = rng.int(2, 20), b = rng.int(2, 9), c = rng.int(2, 9);
      const ans = a + b * c;
      return {
        stem: `Evaluate $${a} + ${b} \\times ${c}$.`,
        answerKind: 'number',
        answer: String(ans),
        accepted: [],
        answerForms: { numeric: intForms(ans), phrases: [] },
        steps: [`Multiply before adding: ${b} × ${c} = ${b * c}`, `${a} + ${b * c} = ${ans}`],
        hints: ['Multiplication comes before addition unless parentheses say otherwise.', 'Which operation in the expression should you do first?'],
        misconceptions: distinctWrong(String(ans), [{ answer: String((a + b) * c), why: 'works strictly left to right' }]),
      };
    }
    if (level === 2) {
      const a = rng.int(2, 12), b = rng.int(2, 12), c = rng.int(2, 6), d = rng.int(1, 20);
      const ans = (a + b) * c - d;
      return {
        stem: `Evaluate $(${a} + ${b}) \\times ${c} - ${d}$.`,
        answerKind: 'number',
        answer: String(ans),
        accepted: [],
        answerForms: { numeric: intForms(ans), phrases: [] },
        steps: [`Parentheses first: ${a} + ${b} = ${a + b}`, `Then multiply: ${a + b} × ${c} = ${(a + b) * c}`, `Then subtract: ${(a + b) * c} - ${d} = ${ans}`],
        hints: ['Start inside the parentheses.', 'After the parentheses, multiply before you subtract.'],
        misconceptions: distinctWrong(String(ans), [
          { answer: String(a + b * c - d), why: 'ignores the parentheses' },
          { answer: String((a + b) * (c - d)), why: 'subtracts before multiplying' },
        ]),
      };
    }
    const b = rng.int(2, 5), c = rng.int(2, 4), e = rng.int(2, 6), q = rng.int(2, 9), a = rng.int(1, 30);
    const d = e * q;
    const ans = a + b * b * c - d / e;
    return {
      stem: `Evaluate $${a} + ${b}^{2} \\times ${c} - ${d} \\div ${e}$.`,
      answerKind: 'number',
      answer: String(ans),
      accepted: [],
      answerForms: { numeric: intForms(ans), phrases: [] },
      steps: [
        `Exponents first: ${b}^2 = ${b * b}`,
        `Multiply and divide from left to right: ${b * b} × ${c} = ${b * b * c} and ${d} ÷ ${e} = ${q}`,
        `Add and subtract from left to right: ${a} + ${b * b * c} - ${q} = ${ans}`,
      ],
      hints: ['Follow the order: exponents, then multiplication and division, then addition and subtraction.', 'Evaluate the power first, then the two products or quotients.'],
      misconceptions: distinctWrong(String(ans), [
        { answer: String(a + b * 2 * c - d / e), why: 'reads the exponent as multiplying by 2' },
        { answer: String(((a + b * b) * c - d) / e), why: 'works strictly left to right' },
      ]),
    };
  },
});

/** Skill 87: Equation Solving Two or Fewer Steps. */
export const equationTwoSteps: ItemGenerator = defineGenerator({
  skillId: 87,
  levels: ['One step: x + a = b', 'One step: ax = b (a may be negative)', 'Two steps: ax + b = c'],
  make(rng: Rng, level: Level): ItemContent {
    const x = rng.int(-12, 15) || 7;
    const forms = (v: number) => ({ numeric: intForms(v), phrases: [`x = ${v}`, `x=${v}`] });
    if (level === 1) {
      const a = rng.int(2, 25);
      const b = x + a;
      return {
        stem: `Solve for $x$: $x + ${a} = ${b}$`,
        answerKind: 'number',
        answer: String(x),
        accepted: [`x = ${x}`],
        answerForms: forms(x),
        steps: [`x + ${a} = ${b}`, `x = ${b} - ${a}`, `x = ${x}`],
        hints: ['What operation undoes adding a number?', 'Do the same thing to both sides of the equation to get x alone.'],
        misconceptions: distinctWrong(String(x), [{ answer: String(b + a), why: 'adds the number to both sides instead of subtracting' }]),
      };
    }
    if (level === 2) {
      const a = rng.int(2, 9) * (rng.chance(0.3) ? -1 : 1);
      const b = a * x;
      return {
        stem: `Solve for $x$: $${a}x = ${b}$`,
        answerKind: 'number',
        answer: String(x),
        accepted: [`x = ${x}`],
        answerForms: forms(x),
        steps: [`${a}x = ${b}`, `x = ${b} ÷ ${a < 0 ? `(${a})` : a}`, `x = ${x}`],
        hints: ['x is being multiplied by a number. What undoes multiplication?', 'Divide both sides by the number in front of x.'],
        misconceptions: distinctWrong(String(x), [
          { answer: String(b - a), why: 'subtracts the coefficient instead of dividing' },
          { answer: String(-x), why: 'drops the sign when dividing' },
        ]),
      };
    }
    const a = rng.int(2, 9);
    const b = rng.int(-15, 20) || 4;
    const c = a * x + b;
    const bTxt = b < 0 ? `- ${-b}` : `+ ${b}`;
    return {
      stem: `Solve for $x$: $${a}x ${bTxt} = ${c}$`,
      answerKind: 'number',
      answer: String(x),
      accepted: [`x = ${x}`],
      answerForms: forms(x),
      steps: [`${a}x ${bTxt} = ${c}`, `${a}x = ${c} ${b < 0 ? `+ ${-b}` : `- ${b}`}`, `${a}x = ${c - b}`, `x = ${c - b} ÷ ${a}`, `x = ${x}`],
      hints: ['Undo the addition or subtraction first, on both sides.', 'Then undo the multiplication by dividing both sides.'],
      misconceptions: distinctWrong(String(x), [
        { answer: String(c - b), why: 'forgets to divide by the coefficient' },
        { answer: String((c + b) / a), why: 'adds the constant to both sides instead of undoing it' },
        { answer: String(c / a - b), why: 'divides before undoing the constant' },
      ]).filter((m) => Number.isInteger(Number(m.answer))),
    };
  },
});

/** Skill 44: Percent Of. */
export const percentOf: ItemGenerator = defineGenerator({
  skillId: 44,
  levels: ['10%, 25% or 50% of a number', '20%–75% of a number', '5%, 12.5%, 15%, 35% or 45% of a number (decimal answers)'],
  make(rng: Rng, level: Level): ItemContent {
    const pct = level === 1 ? rng.pick([10, 25, 50]) : level === 2 ? rng.pick([20, 30, 40, 60, 75]) : rng.pick([5, 15, 35, 45, 12.5]);
    const base = level === 1 ? rng.int(2, 20) * 4 * 5 : level === 2 ? rng.int(2, 30) * 20 : rng.int(2, 40) * 8;
    const ans = Math.round(pct * base * 1000) / 100000;
    const a = String(ans);
    const frac = pct === 25 ? '1/4' : pct === 50 ? '1/2' : pct === 75 ? '3/4' : pct === 12.5 ? '1/8' : `${pct}/100`;
    return {
      stem: `What is ${pct}% of ${base}?`,
      answerKind: 'number',
      answer: a,
      accepted: [],
      answerForms: { numeric: [a], phrases: [] },
      steps:
        level === 1
          ? [`${pct}% means ${pct} out of 100, so ${pct}% = ${pct / 100}`, `${pct / 100} × ${base} = ${a}`]
          : [`${pct}% means ${pct} out of 100, so ${pct}% = ${pct / 100}`, `1% of ${base} is ${base} ÷ 100 = ${base / 100}`, `${pct}% of ${base} = ${pct} × ${base / 100} = ${a}`],
      hints: [`Write ${pct}% as a decimal or a fraction (${frac}).`, `Then multiply it by ${base}.`],
      misconceptions: distinctWrong(a, [
        { answer: String(Math.round((base / pct) * 100) / 100), why: 'divides the number by the percent' },
        { answer: String(pct * base), why: 'forgets to divide by 100' },
      ]),
    };
  },
});
