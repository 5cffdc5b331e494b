import { describe, expect, it } from 'vitest';
import { buildItemBank, checkAnswer, findAnswerForms, GENERATORS, itemProblems, LEVELS, parseNumber } from './index';
import { Rng } from '../rng';

describe('answer checker', () => {
  const num = (answer: string, accepted: string[] = []) => ({ answerKind: 'number' as const, answer, accepted });
  it('accepts equivalent number forms and rejects near misses', () => {
    expect(checkAnswer(num('3/4'), '0.75')).toBe(true);
    expect(checkAnswer(num('3/4'), '.75')).toBe(true);
    expect(checkAnswer(num('3/4'), '6/8')).toBe(true);
    expect(checkAnswer(num('3/4'), ' 3 / 4 ')).toBe(true);
    expect(checkAnswer(num('3/4'), '75%')).toBe(false);
    expect(checkAnswer(num('3/4', ['75%']), '75%')).toBe(true);
    expect(checkAnswer(num('-4'), 'x = -4')).toBe(true);
    expect(checkAnswer(num('-4'), '−4')).toBe(true);
    expect(checkAnswer(num('-4'), '4')).toBe(false);
    expect(checkAnswer(num('1.5'), '1 1/2')).toBe(true);
    expect(checkAnswer(num('1200'), '1,200')).toBe(true);
    expect(checkAnswer(num('12'), '12 cm')).toBe(true);
    expect(checkAnswer(num('12'), '120')).toBe(false);
    expect(checkAnswer(num('7.5'), '7.50')).toBe(true);
    expect(checkAnswer(num('7.5'), '7.49')).toBe(false);
    expect(checkAnswer(num('7'), '')).toBe(false);
    expect(checkAnswer(num('7'), 'seven-ish')).toBe(false);
    expect(parseNumber('1/0')).toBeUndefined();
  });
  it('set and choice answers', () => {
    expect(checkAnswer({ answerKind: 'set', answer: '2, 3', accepted: [] }, '3 and 2')).toBe(true);
    expect(checkAnswer({ answerKind: 'set', answer: '2, 3', accepted: [] }, '2, 3, 4')).toBe(false);
    const ch = { answerKind: 'choice' as const, answer: 'Acute', accepted: [], choices: ['Right', 'Acute', 'Obtuse'] };
    expect(checkAnswer(ch, 'b')).toBe(true);
    expect(checkAnswer(ch, 'acute')).toBe(true);
    expect(checkAnswer(ch, 'a')).toBe(false);
  });
});

describe('leak matching on token boundaries', () => {
  const forms = { numeric: ['12', '-3'], phrases: ['x = 12'] };
  it('finds numeric forms only as whole tokens', () => {
    expect(findAnswerForms('The answer is 12.', forms)).toEqual(['12']);
    expect(findAnswerForms('Try 120 or 1.25 or 12.5', forms)).toEqual([]);
    expect(findAnswerForms('so x=12 then', forms)).toContain('12');
    expect(findAnswerForms('5-3 is two', forms)).toEqual([]);
    expect(findAnswerForms('it is −3', forms)).toEqual(['-3']);
  });
  it('finds phrases after normalisation', () => {
    expect(findAnswerForms('So X =  12!', forms)).toContain('x = 12');
  });
});

describe('item generators', () => {
  it('every generator yields valid items at every level for many seeds', () => {
    for (const gen of GENERATORS.values()) {
      for (const level of LEVELS) {
        const rng = new Rng(1234).fork(`test:${gen.skillId}:${level}`);
        let ok = 0;
        for (let i = 0; i < 200; i++) if (itemProblems(gen.generate(rng, level)).length === 0) ok++;
        // The bank retries invalid draws; at least most draws must be valid for it to be cheap.
        expect(ok, `skill ${gen.skillId} level ${level}`).toBeGreaterThan(150);
      }
    }
  });
  it('builds a deterministic bank with held-out probes linked to real questions', () => {
    const spec = { skills: [68, 70, 86, 87, 44], itemsPerLevel: 12, probesPerSkill: 6 };
    const a = buildItemBank(spec, new Rng(7));
    const b = buildItemBank(spec, new Rng(7));
    expect(a.hash).toBe(b.hash);
    expect(a.items).toHaveLength(5 * 3 * 12);
    expect(a.probes).toHaveLength(30);
    expect(buildItemBank(spec, new Rng(8)).hash).not.toBe(a.hash);
    const stems = new Set(a.items.map((i) => i.stem));
    for (const p of a.probes) expect(stems.has(p.stem)).toBe(false);
    for (const it of [...a.items, ...a.probes]) {
      expect(itemProblems(it)).toEqual([]);
      expect(it.questionRef).toBeGreaterThan(0);
    }
  });
  it('rejects an unknown skill id', () => {
    expect(() => buildItemBank({ skills: [999], itemsPerLevel: 1, probesPerSkill: 0 }, new Rng(1))).toThrow(/unknown skill id 999/);
  });
});
