import { describe, expect, it } from 'vitest';
import { buildItemBank } from '../course/item-bank';
import { Rng } from '../rng/index';
import { skillInfo } from '../course/skills';
import fc from 'fast-check';
import { MethodVocabulary, instructionSubstance, phrases3 } from './instruction';
import { chatInstructionMatch } from './chat-instruction';
import { checkWorkedExample } from './worked-example';
import { normalizeText } from '../course/answer-check';
import type { Item } from '../course/types';

const SKILLS = [68, 70, 86, 87, 11, 12];
const bank = buildItemBank({ skills: SKILLS, itemsPerLevel: 12, probesPerSkill: 3 }, new Rng(1));
const vocab = new MethodVocabulary(bank.items, (s) => skillInfo(s)?.name ?? '');
const item = (skill: number) => bank.items.find((i) => i.skillId === skill && i.level === 2)!;

describe('instruction substance', () => {
  it('content without method earns nothing', () => {
    for (const t of ['Study this method carefully.', 'Great job! Keep practising, you can do it!', `This is ${skillInfo(87)?.name}. It is important.`, '3, 5, 20, 15, 5'])
      expect(instructionSubstance(t, 87, vocab)).toMatchObject({ credited: false });
  });

  it("the problem restated earns nothing; a bank worked solution or hint of the skill is credited ('bank')", () => {
    const it87 = item(87);
    expect(instructionSubstance(it87.stem, 87, vocab).credited).toBe(false);
    expect(instructionSubstance(`${it87.stem}\n${it87.steps.join('\n')}`, 87, vocab)).toMatchObject({ credited: true, basis: 'bank' });
    expect(instructionSubstance(it87.hints[it87.hints.length - 1]!, 87, vocab)).toMatchObject({ credited: true });
  });

  it("the method in the tutor's own words is credited ('method'); another skill's method is not", () => {
    const own = 'Multiply the signs first: two negatives give a positive product, and different signs give a negative product.';
    expect(instructionSubstance(own, 70, vocab)).toMatchObject({ credited: true, basis: 'method' });
    expect(instructionSubstance(own, 11, vocab).credited).toBe(false);
  });

  it('a repeat of content already credited on the skill earns nothing', () => {
    const it86 = item(86);
    const text = `${it86.stem}\n${it86.steps.join('\n')}`;
    const first = instructionSubstance(text, 86, vocab);
    expect(first.credited).toBe(true);
    const tokens = new Set(text.toLowerCase().match(/[a-z]+|\d+(?:\.\d+)?/g));
    expect(instructionSubstance(text, 86, vocab, [tokens])).toMatchObject({ credited: false, basis: 'repeat' });
  });
});

describe('the bank check, remembered by skill and text', () => {
  /** The straightforward check: every item of the skill, its steps normalised and the text tokenised at every call. */
  const reference = (text: string, items: readonly Item[]) => {
    const plain = normalizeText(text).replace(/\s+/g, '');
    for (const it of items) {
      if (it.steps.length > 0 && it.steps.every((st) => plain.includes(normalizeText(st).replace(/\s+/g, '')))) return true;
      if (chatInstructionMatch(text, it, { skipLastStep: true }) !== null) return true;
    }
    return false;
  };
  const pieces = bank.items.filter((_, i) => i % 5 === 0).flatMap((it) => [it.stem, ...it.steps, ...it.hints]);
  it('credits what the straightforward check credits, for texts asked about again and on other skills', () => {
    const v = new MethodVocabulary(bank.items, (s) => skillInfo(s)?.name ?? '');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces, 'Great job!', 'Divide both sides.', 'x = 4'), { minLength: 1, maxLength: 4 }).map((xs) => xs.join('\n')), fc.constantFrom(...SKILLS), (text, skill) => {
        const want = reference(text, v.items(skill));
        expect(v.givesBankMethod(text, skill)).toBe(want);
        expect(v.givesBankMethod(text, skill)).toBe(want);
        // A worked example that does not check out is refused before the bank rule (worked-example.ts).
        const we = checkWorkedExample(text, v.items(skill)).verdict;
        if (we === 'wrong' || we === 'unchecked') expect(instructionSubstance(text, skill, v)).toMatchObject({ credited: false, basis: we });
        else expect(instructionSubstance(text, skill, v).basis === 'bank').toBe(want);
      }),
      { seed: 30, numRuns: 200 },
    );
  });
});

describe('instruction substance: content that does not check out (instruction-check-v2, v3)', () => {
  it("a worked example whose computation is wrong earns nothing ('wrong')", () => {
    const it70 = item(70);
    const good = `${it70.stem}\n${it70.steps.join('\n')}`;
    expect(instructionSubstance(good, 70, vocab).credited).toBe(true);
    // Change the result of its last computation.
    const bad = good.replace(/=\s*(-?\d+)(?![\s\S]*=)/, (_m, v: string) => `= ${Number(v) + 7}`);
    expect(bad).not.toBe(good);
    expect(instructionSubstance(bad, 70, vocab)).toMatchObject({ credited: false, basis: 'wrong' });
  });

  it('the words of a bank solution and its hints, shuffled, are rarely credited; in order always', () => {
    const rng = new Rng(5);
    const words = (s: string) => s.toLowerCase().match(/[a-z]{3,}/g) ?? [];
    let shuffled = 0;
    let inOrder = 0;
    for (const it of bank.items) {
      const w = words([...it.steps, ...it.hints].join(' '));
      if (instructionSubstance(rng.shuffle([...w]).join(' '), it.skillId, vocab).credited) shuffled++;
      if (instructionSubstance([...it.steps, ...it.hints].join('\n'), it.skillId, vocab).credited) inOrder++;
    }
    expect(inOrder).toBe(bank.items.length);
    expect(shuffled / bank.items.length).toBeLessThan(0.1);
  });

  it("the method rule needs one of the skill's three-word phrases, function words kept (v3)", () => {
    expect(phrases3('Divide both sides by 3. So x = 5')).toEqual(['divide both sides', 'both sides by']);
    const own = 'Multiply the signs first: two negatives give a positive product, and different signs give a negative product.';
    expect(instructionSubstance(own, 70, vocab)).toMatchObject({ credited: true, basis: 'method' });
    // A shuffle the pair rule alone credited (bank seed 1, shuffle seed 5): no three words in the skill's order.
    const salad = 'range minus least the the greatest means the equation the range greatest with least value what write the value value least range';
    expect(instructionSubstance(salad, 12, vocab)).toMatchObject({ credited: false, basis: 'unordered' });
  });
});
