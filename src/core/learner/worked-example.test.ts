import { describe, expect, it } from 'vitest';
import { buildItemBank } from '../course/item-bank';
import { Rng } from '../rng/index';
import { skillInfo } from '../course/skills';
import { checkWorkedExample, exampleLines, isWorkedExample } from './worked-example';
import { MethodVocabulary, bankMethod, instructionSubstance } from './instruction';
import type { Item } from '../course/types';

const SKILLS = [68, 70, 86, 87, 11, 12];
const bank = buildItemBank({ skills: SKILLS, itemsPerLevel: 12, probesPerSkill: 3 }, new Rng(1));
const vocab = new MethodVocabulary(bank.items, (s) => skillInfo(s)?.name ?? '');
const items = (skill: number) => bank.items.filter((i) => i.skillId === skill);
const worked = (it: Item) => `${it.stem}\n${it.steps.map((st, k) => `${k + 1}. ${st}`).join('\n')}`;
const swap = (s: string) => s.replace(/\d+/g, (m) => String(((Number(m) * 7 + 3) % 97) + 1));

describe('worked examples', () => {
  it('reads the shape: a problem line, then working with a number', () => {
    expect(exampleLines('What is 2 + 3?\n1. 2 + 3 = 5\n\n')).toEqual(['What is 2 + 3?', '2 + 3 = 5']);
    expect(isWorkedExample(exampleLines('What is 2 + 3?\n1. 2 + 3 = 5'))).toBe(true);
    expect(isWorkedExample(exampleLines('Add the sizes, then keep the sign.\nThe sign of the larger size wins.'))).toBe(false);
    expect(isWorkedExample(exampleLines('What is a slope?\nIt is rise over run.'))).toBe(false);
    expect(checkWorkedExample('Line up the decimal points.', items(68))).toEqual({ verdict: 'not-example' });
  });

  it("every genuine bank worked example of the six skills reproduces its item (a)", () => {
    for (const it of bank.items) expect(checkWorkedExample(worked(it), items(it.skillId))).toMatchObject({ verdict: 'reproduces' });
  });

  it('a bank stem with a wrong final answer, or its numbers changed in the working, is wrong (a)', () => {
    const mode = items(11).find((i) => i.stem.includes('shoe sizes') && i.level === 2)!;
    // The stem has no numbers (a table): only the item's own numbers may appear in the working.
    const bad = worked(mode).replace(/6\.5/g, '93.5');
    expect(checkWorkedExample(bad, items(11)).verdict).toBe('wrong');
    expect(instructionSubstance(bad, 11, vocab)).toMatchObject({ credited: false, basis: 'wrong' });
    const it87 = items(87).find((i) => i.stem === 'Solve for $x$: $6x = -36$')!;
    expect(checkWorkedExample(`${it87.stem}\n1. 6x = -36\n2. x = -36 ÷ 6\n3. x = -7`, items(87)).verdict).toBe('wrong');
  });

  it('its own equation is solved by substitution, and every equation step keeps the root (b)', () => {
    expect(checkWorkedExample('Solve for $x$: $3x + 5 = 20$\n1. Subtract 5 from both sides: 3x = 15\n2. Divide both sides by 3: x = 5', [])).toEqual({ verdict: 'checked', how: 'equation' });
    expect(checkWorkedExample('Solve for x: 3x + 5 = 20\n1. Subtract 5 from both sides: 3x = 15\n2. Divide both sides by 3: x = -5', [])).toMatchObject({ verdict: 'wrong' });
    // The final answer is right but a step changes the equation.
    expect(checkWorkedExample('Solve for x: 3x + 5 = 20\n1. Subtract 5 from both sides: 3x = 16\n2. Divide both sides by 3: x = 5', [])).toMatchObject({ verdict: 'wrong', claim: expect.stringContaining('3x = 16') });
    expect(checkWorkedExample('Solve: 4x ≥ 10\n1. Divide both sides by 4\n2. x ≥ 2.5', [])).toMatchObject({ verdict: 'checked' });
    expect(checkWorkedExample('Solve: 4x ≥ 10\n1. Divide both sides by 4\n2. x ≥ 3.5', [])).toMatchObject({ verdict: 'wrong' });
    // A rounded answer within the rounding it shows.
    expect(checkWorkedExample('Solve for x: 3x = 7\n1. Divide both sides by 3: x = 2.33', [])).toMatchObject({ verdict: 'checked' });
  });

  it('its own expression is evaluated, or compared as an expression (b)', () => {
    expect(checkWorkedExample('What is $6 \\div (-3)$?\n1. Divide the sizes: 6 ÷ 3 = 2\n2. Different signs give a negative result. So 6 ÷ (-3) = -2', [])).toEqual({ verdict: 'checked', how: 'value' });
    expect(checkWorkedExample('What is $6 \\div (-53)$?\n1. Divide the sizes\n2. Different signs give a negative result, so the result is -32', [])).toMatchObject({ verdict: 'wrong' });
    expect(checkWorkedExample('Simplify: $8y + 6y$\n1. Like terms: 8 + 6 = 14, so the result is 14y', [])).toEqual({ verdict: 'checked', how: 'expression' });
    expect(checkWorkedExample('Simplify: $8y + 6y$\n1. Like terms: 8 + 6 = 14, so the result is 15y', [])).toMatchObject({ verdict: 'wrong' });
  });

  it('reads mixed numbers, words are not an expression, and a stem is matched whole', () => {
    expect(checkWorkedExample('What is $\\frac{2}{3} \\div \\frac{1}{2}$?\n1. Multiply by the reciprocal: $\\frac{2}{3} \\times 2 = \\frac{4}{3}$ = 1 1/3', [])).toMatchObject({ verdict: 'checked' });
    expect(checkWorkedExample('What is $\\frac{2}{3} \\div \\frac{1}{2}$?\n1. Multiply by the reciprocal: $\\frac{2}{3} \\times 2 = \\frac{4}{3}$ = 1 2/3', [])).toMatchObject({ verdict: 'wrong' });
    // "the mean" is words: the problem cannot be read, not a product of letters.
    expect(checkWorkedExample('Here are the goals: 4, 1, 6, 1. What is the mean?\n1. Add the values: 4 + 1 + 6 + 1 = 12\n2. There are 4 values: 12 ÷ 4 = 3', [])).toEqual({ verdict: 'unchecked' });
    // Another bank stem that starts the same ("Solve for x: 6x = -365" is not the item "… 6x = -36").
    const it87 = items(87).find((i) => i.stem === 'Solve for $x$: $6x = -36$')!;
    expect(checkWorkedExample('Solve for $x$: $6x = -366$\n1. x = -366 ÷ 6\n2. x = -61', [it87])).toEqual({ verdict: 'checked', how: 'equation' });
  });

  it('a problem it cannot read, with no bank item behind it, is unchecked and earns nothing', () => {
    const t = 'Lena has 7 shirts and 3 pairs of pants. How many outfits can she make?\n1. Each shirt goes with each pair of pants\n2. So she can make 22 outfits';
    expect(checkWorkedExample(t, items(68))).toEqual({ verdict: 'unchecked' });
    expect(instructionSubstance(t, 68, vocab)).toMatchObject({ credited: false, basis: 'unchecked' });
  });

  it('the wrong-numbers exploit (a bank worked example with every number changed) earns nothing on these skills', () => {
    const credited = bank.items.filter((it) => /\d/.test(it.steps.join(' ')) && instructionSubstance(swap(worked(it)), it.skillId, vocab).credited);
    expect(credited.map((it) => swap(worked(it)))).toEqual([]);
  });

  it("a bank step or hint matched by its words must carry its own numbers (the token rule's numbersAgree)", () => {
    let withNumbers = 0;
    for (const it of bank.items) {
      for (const h of it.hints.filter((x) => /\d/.test(x))) {
        if (!bankMethod(h, [it])) continue;
        withNumbers++;
        const other = h.replace(/\d+/g, (m) => String(Number(m) + 1000));
        expect(bankMethod(other, [it]), other).toBe(false);
      }
    }
    expect(withNumbers).toBeGreaterThan(5);
  });

  it('genuine content is still credited: bank worked examples, a correct own example, hints', () => {
    for (const it of bank.items) expect(instructionSubstance(worked(it), it.skillId, vocab).credited).toBe(true);
    const own = 'What is $-9 - 4$?\n1. Subtracting 4 is the same as adding its opposite: -9 - 4 = -9 + (-4)\n2. -9 + (-4) = -13';
    expect(instructionSubstance(own, 68, vocab)).toMatchObject({ credited: true });
    const it70 = items(70)[0]!;
    expect(instructionSubstance(it70.hints[0]!, 70, vocab).credited).toBe(true);
  });
});
