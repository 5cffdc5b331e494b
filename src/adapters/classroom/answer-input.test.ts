import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../../core/index';
import { acceptedForms, readStudentAnswer } from './answer-input';

const num = (answer: string, o: { accepted?: string[]; stem?: string; format?: 'fraction' } = {}) => ({ answerKind: 'number' as const, answer, accepted: o.accepted ?? [], stem: o.stem ?? 'How much is it?', ...(o.format ? { format: o.format } : {}) });
/** Graded as the classroom grades it: read, then the shared checker. */
const graded = (item: ReturnType<typeof num>, typed: string) => checkAnswer(item, readStudentAnswer(item, typed));

describe('the classroom reads typed number answers', () => {
  it('reads ½, 5½, a decimal comma, "1 and 1/10" and a percent for a value, which the shared checker alone refuses', () => {
    const cases: [ReturnType<typeof num>, string, string][] = [
      [num('1/2'), '½', '1/2'],
      [num('11/2'), '5½', '5 1/2'],
      [num('-11/4'), '-2¾', '-2 3/4'],
      [num('25/2'), '12½', '12 1/2'],
      [num('0.5'), '1⁄2', '1/2'],
      [num('2.5'), '2,5', '2.5'],
      [num('0.125'), '0,125', '0.125'],
      [num('1.1'), '1 and 1/10', '1 1/10'],
      [num('0.9'), '90%', '0.9'],
      [num('1.25'), '125 %', '1.25'],
      [num('2.5'), '2,5 cm', '2.5 cm'],
    ];
    for (const [item, typed, read] of cases) {
      expect(readStudentAnswer(item, typed), typed).toBe(read);
      expect(checkAnswer(item, typed), `${typed} as typed`).toBe(false);
      expect(graded(item, typed), typed).toBe(true);
    }
  });

  it('reads by form, never by correctness: a wrong value stays wrong', () => {
    expect(graded(num('2.5'), '3,5')).toBe(false);
    expect(graded(num('0.9'), '9%')).toBe(false);
    expect(graded(num('11/2'), '4½')).toBe(false);
  });

  it('keeps what the checker already reads, and what would be ambiguous, as it is', () => {
    expect(readStudentAnswer(num('1200'), '1,200')).toBe('1,200');
    expect(graded(num('1200'), '1,200')).toBe(true);
    expect(readStudentAnswer(num('3/4'), ' 3/4 ')).toBe(' 3/4 ');
    // An item that asks for a percent already accepts one; an item that asks for a decimal or a fraction is not given one.
    expect(readStudentAnswer(num('90%', { accepted: ['90'] }), '90%')).toBe('90%');
    expect(graded(num('90%', { accepted: ['90'] }), '90%')).toBe(true);
    expect(readStudentAnswer(num('0.9', { stem: 'Write 9/10 as a decimal.' }), '90%')).toBe('90%');
    expect(readStudentAnswer(num('0.9', { format: 'fraction' }), '90%')).toBe('90%');
    // A form the item asks for is still checked: a decimal comma is a decimal.
    expect(graded(num('5/2', { format: 'fraction' }), '2,5')).toBe(false);
    expect(graded(num('5/2', { format: 'fraction' }), '2½')).toBe(true);
    // Not a number item: nothing is read differently.
    expect(readStudentAnswer({ answerKind: 'set', answer: '2, 5', accepted: [], stem: 'x' }, '2,5')).toBe('2,5');
    expect(readStudentAnswer({ answerKind: 'expression', answer: 'x/2', accepted: [], stem: 'x' }, '½x')).toBe('½x');
  });

  it('says which forms are read, by kind and asked form, without the answer', () => {
    expect(acceptedForms({ answerKind: 'number' })).toMatch(/0,75.*¾.*1½.*90%/);
    expect(acceptedForms({ answerKind: 'number', format: 'fraction' })).toMatch(/lowest terms/);
    for (const k of ['expression', 'equation', 'set', 'list', 'choice', 'text'] as const) expect(acceptedForms({ answerKind: k }).length).toBeGreaterThan(10);
  });
});
