import { describe, expect, it } from 'vitest';
import { generatorCoverage, gradeItem, itemAsPlainText, sampleItem, selfCheck, skillLevels } from './inspect';

describe('item tools for the CLI and the Lab', () => {
  it('samples deterministically and grades the stated answer as correct', () => {
    const a = sampleItem(87, 3, 42);
    expect(sampleItem(87, 3, 42)).toEqual(a);
    expect(gradeItem(87, 3, 42, a.answer).correct).toBe(true);
    expect(gradeItem(87, 3, 42, a.misconceptions[0]!.answer).correct).toBe(false);
    expect(itemAsPlainText(a).stem).not.toContain('$');
    expect(() => sampleItem(111, 1, 1)).toThrow(/unknown skill id 111/);
  });
  it('reports full coverage and a clean self-check', () => {
    expect(generatorCoverage()).toEqual({ withGenerator: 110, total: 110, missing: [] });
    const r = selfCheck(2);
    expect(r.items).toBe(110 * 3 * 2);
    expect(r.valid).toBe(r.items);
    expect(r.undetectedAnswers).toBe(0);
    expect(skillLevels(1).levels).toHaveLength(3);
  });
});

describe('docs/item-bank.md', () => {
  it('contains the current table of the 110 skills and their levels', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../../docs/item-bank.md', import.meta.url), 'utf8');
    const { itemBankTable } = await import('./inspect');
    expect(doc).toContain(itemBankTable());
  });
});
