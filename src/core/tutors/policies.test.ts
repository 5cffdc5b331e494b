import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { disclosesAny, type ItemView } from './policies';
import { disclosuresIn } from '../leakage/detect';
import { buildItemBank } from '../course/item-bank';
import { Rng } from '../rng/index';

const bank = buildItemBank({ skills: [1, 3, 11, 32, 46, 62, 70, 87], itemsPerLevel: 2, probesPerSkill: 1 }, new Rng(1));
/** Teacher views of the bank's items, kept and asked about again, as a built-in tutor keeps them (ItemViews). */
const views: ItemView[] = bank.items.map((it) => ({
  item_id: it.id,
  skill: String(it.skillId),
  level: it.level,
  stem: it.stem,
  answer: it.answer,
  answer_kind: it.answerKind,
  accepted: it.accepted,
  ...(it.choices ? { choices: it.choices } : {}),
  ...(it.format ? { format: it.format } : {}),
  answer_forms: it.answerForms,
  solution_steps: it.steps,
}));

describe('disclosesAny: one detector item per view', () => {
  /** The straightforward check: a new detector item for every view at every call. */
  const reference = (text: string, vs: readonly ItemView[]) =>
    disclosuresIn(text, vs.map((v) => ({ id: v.item_id, stem: v.stem, answer: v.answer, answerKind: v.answer_kind, accepted: v.accepted, answerForms: v.answer_forms, ...(v.choices ? { choices: v.choices } : {}), ...(v.format ? { format: v.format } : {}) }))).length > 0;
  const pieces = [...bank.items.flatMap((it) => [it.answer, ...it.steps]), 'The answer is', 'Worked example:', '\n', 'so it is', '1.', '2.'];
  it('answers as the straightforward check, for worked examples checked again and again against the same views', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }).map((xs) => xs.join(' ')), fc.subarray(views, { minLength: 1, maxLength: 6 }), (text, vs) => {
        const want = reference(text, vs);
        expect(disclosesAny(text, vs)).toBe(want);
        expect(disclosesAny(text, [...vs].reverse())).toBe(want);
      }),
      { seed: 30, numRuns: 200 },
    );
  });
});
