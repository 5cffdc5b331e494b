import { describe, expect, it } from 'vitest';
import { checkAnswer, normalizeText } from './answer-check';
import fc from 'fast-check';
import { replaceSuperscripts } from './expr';
import { findAnswerForms } from './answer-forms';
import { toPlain, splitMath } from './math-text';
import { equivalent, parseExpr, tryParseExpr } from './expr';
import type { AnswerKind, ResponseFormat } from './types';

const item = (answerKind: AnswerKind, answer: string, accepted: string[] = [], extra: { format?: ResponseFormat; choices?: string[]; stem?: string } = {}) => ({
  answerKind,
  answer,
  accepted,
  ...extra,
});
const yes = (it: ReturnType<typeof item>, ...rs: string[]) => {
  for (const r of rs) expect(checkAnswer(it, r), `"${r}" should be accepted for "${it.answer}"`).toBe(true);
};
const no = (it: ReturnType<typeof item>, ...rs: string[]) => {
  for (const r of rs) expect(checkAnswer(it, r), `"${r}" should be rejected for "${it.answer}"`).toBe(false);
};

describe('number answers', () => {
  it('units, money, degrees, rates, stem nouns', () => {
    yes(item('number', '12.5'), '$12.50', '12.50 dollars', '12.5 cm', '12.5 cm^2', '12.5 cm²', '12.5 square feet', '12.5 sq ft', '12.5 mph', '12.5 km/h', '12.5 miles per hour', '12.5°', '12.5 degrees', '12 1/2', '25/2');
    no(item('number', '12.5'), '125', '12', '12.05', '1.25');
    yes(item('number', '14', [], { stem: 'How many students chose soccer?' }), '14 students', '14 student');
    no(item('number', '3', [], { stem: 'How many pizzas?' }), '3 fourths');
    no(item('number', '0.75', [], { stem: 'How much pizza is left?' }), '3 fourths');
    yes(item('number', '-4'), '−4', 'x = -4', '(-4)', '-4.0', 'The answer is -4', 'answer: -4', 'My answer is x = -4.');
    no(item('number', '-4'), '4', '- 4 4');
  });
  it('percent forms match only percent answers unless listed', () => {
    yes(item('number', '37.5%', ['37.5']), '37.5%', '37.5 %', '37.5 percent', '37.5', '75/2%');
    no(item('number', '37.5%', ['37.5']), '0.375', '3/8', '38%');
  });
  it('scientific notation is read as its value and can be required', () => {
    const sci = item('number', '6.2 × 10^-4', [], { format: 'scientific' });
    yes(sci, '6.2 x 10^-4', '6.2*10^(-4)', '6.2 × 10⁻⁴', '6.2e-4', '6.20 × 10^-4');
    no(sci, '0.00062', '62 × 10^-5', '6.2 × 10^4', '6.2 × 10^-3');
    yes(item('number', '320000'), '3.2 × 10^5', '320,000', '3.2e5');
  });
  it('fraction format requires lowest terms', () => {
    const f = item('number', '7/20', [], { format: 'fraction' });
    yes(f, '7/20', ' 7 / 20 ');
    no(f, '0.35', '14/40', '35%', '35/100');
    const m = item('number', '11/4', ['2 3/4'], { format: 'fraction' });
    yes(m, '11/4', '2 3/4');
    no(m, '2.75', '22/8', '2 6/8');
  });
});

describe('expression answers', () => {
  it('equivalent forms, implicit multiplication and order of terms', () => {
    const e = item('expression', '2x + 3');
    yes(e, '2x+3', '3 + 2x', '2*x+3', 'x*2 + 3', '2 · x + 3', '(2x + 3)', 'x + x + 3', '= 2x + 3', 'y = 2x + 3');
    no(e, '2x + 4', '2x - 3', '3x + 2', '2x', 'x2 + 3', '2x +', 'two x plus three', '');
  });
  it('several variables, powers, fractions, case', () => {
    yes(item('expression', '2x^3y'), '2yx^3', '2 x³ y', '2*x^3*y', '2X^3Y');
    no(item('expression', '2x^3y'), '2x^3', '2x^2y', '6xy');
    yes(item('expression', 'x/2 - 3'), '1/2x - 3', '0.5x - 3', '(x - 6)/2', '-3 + x/2');
    no(item('expression', 'x/2 - 3'), '1/(2x) - 3', 'x/2 + 3');
    yes(item('expression', '(d)/(r)'), 'd/r', 'd ÷ r');
    no(item('expression', 'd/r'), 'r/d', 'dr');
  });
  it('constants with π and roots', () => {
    yes(item('expression', '36π'), '36pi', '36 π', 'π·36', '36*pi');
    no(item('expression', '36π'), '113.04', '36', '12π');
    yes(item('expression', '6√2', [], { format: 'radical' }), '6 sqrt(2)', '6√(2)', '√2 * 6');
    no(item('expression', '6√2', [], { format: 'radical' }), '√72', '2√18', '8.485', '6√3');
  });
  it('simplified form rejects unsimplified equivalents', () => {
    const s = item('expression', '5x - 3', [], { format: 'simplified' });
    yes(s, '5x - 3', '-3 + 5x', '5*x-3');
    no(s, '3x + 2x - 3', '5(x) - 3 + 0', '5x - 4', '2(2.5x - 1.5)', 'x(5) - 3 + 0x');
    const m = item('expression', 'x^7', [], { format: 'simplified' });
    yes(m, 'x^7', 'x⁷');
    no(m, 'x^3 * x^4', 'x^3x^4', 'x^12');
    const q = item('expression', '2x^3y', [], { format: 'simplified' });
    no(q, '6x^5y^2/(3x^2y)', '2x^3y + 0', '2xxxy', 'x^3y + x^3y');
  });
  it('factored form', () => {
    const f = item('expression', '(x + 2)(x + 3)', [], { format: 'factored' });
    yes(f, '(x+3)(x+2)', '(2 + x)(x + 3)', '(x+2)*(x+3)');
    no(f, 'x^2 + 5x + 6', 'x(x + 5) + 6', '(x + 2)(x - 3)', '(x + 1)(x + 6)', '1(x^2 + 5x + 6)');
    yes(item('expression', '(x - 7)^2', [], { format: 'factored' }), '(x-7)(x-7)', '(7 - x)^2');
  });
  it('prime factorization', () => {
    const p = item('expression', '2^2 × 3 × 5', [], { format: 'prime-factorization' });
    yes(p, '2*2*3*5', '5 × 3 × 2^2', '2² · 3 · 5');
    no(p, '4 × 15', '60', '2 × 3 × 5', '4 * 3 * 5');
  });
});

describe('equation and inequality answers', () => {
  it('isolated-variable equations', () => {
    const e = item('equation', 'y = 2x + 3');
    yes(e, 'y=3+2x', '2x + 3 = y', 'Y = 2X + 3', 'y = 2*x + 3', 'The answer is y = 2x + 3');
    no(e, 'y = 2x + 4', 'y = 3x + 2', '2x - y = -3', 'x = 2y + 3', 'y = 2x + 3 = 5', '2x + 3');
    const t = item('equation', 't = d/r');
    yes(t, 't = d ÷ r', 'd/r = t');
    no(t, 't = r/d', 't = dr', 'd = rt');
    yes(item('number', '4', ['x = 4']), 'x = 4', '4');
  });
  it('general equations are equal up to a non-zero multiple', () => {
    const e = item('equation', '2x + 4y = 8');
    yes(e, 'x + 2y = 4', '4y = 8 - 2x', '8 = 2x + 4y');
    no(e, 'x + 2y = 8', '2x + 4y = 0', 'x - 2y = 4');
  });
  it('inequalities: direction, strictness and flipping', () => {
    const i = item('equation', 'x < 5');
    yes(i, 'x<5', '5 > x', 'x < 10/2');
    no(i, 'x > 5', 'x ≤ 5', 'x <= 5', 'x = 5', '5 < x', 'x < 6');
    const j = item('equation', 'x ≥ -4');
    yes(j, 'x >= -4', '-4 <= x', 'x => -4', 'x ≥ −4');
    no(j, 'x > -4', 'x ≤ -4', 'x >= 4');
    const k = item('equation', 'x > -4');
    yes(k, '-4 < x');
    no(k, 'x < -4');
  });
});

describe('set, list, choice and text answers', () => {
  it('sets are unordered multisets', () => {
    const s = item('set', '-2, 3');
    yes(s, '3, -2', '{3, -2}', '3 and -2', 'x = 3, x = -2');
    no(s, '2, 3', '-2, 3, 3', '-2');
    yes(item('set', '2, 2, 3'), '2, 3, 2');
    no(item('set', '2, 2, 3'), '2, 3');
  });
  it('lists are ordered; named elements sort by variable', () => {
    const p = item('list', '(2, -3)', ['x = 2, y = -3']);
    yes(p, 'The answer is (2, -3)', '(2,-3)', '2, -3', '[2, -3]', 'x = 2, y = -3', 'y = -3, x = 2', '(x, y) = (2, -3)');
    no(p, '(-3, 2)', '(2, 3)', 'y = 2, x = -3', '(2, -3, 0)', 'x = 2, x = -3');
    const o = item('list', '√10, 3.2, 10/3');
    yes(o, 'sqrt(10), 3.2, 10/3', '√10, 3.20, 3 1/3');
    no(o, '3.2, √10, 10/3');
  });
  it('choices by letter or text', () => {
    const c = item('choice', 'Acute', [], { choices: ['Right', 'Acute', 'Obtuse'] });
    yes(c, 'b', 'B', '(b)', 'b)', 'option b', 'acute', ' Acute. ', 'The answer is b.', 'the answer is acute');
    no(c, 'a', 'c', 'obtuse', 'd');
    const m = item('choice', '$25h + 40 = 140$', [], { choices: ['$40h + 25 = 140$', '$25h + 40 = 140$'] });
    yes(m, 'b', '25h+40=140');
    no(m, 'a', '40h+25=140');
  });
  it('text compares after normalisation', () => {
    yes(item('text', 'DE', ['ED']), 'de', ' ED ');
    no(item('text', 'DE', ['ED']), 'DF');
  });
});

describe('expression parser rules', () => {
  it('reads implicit multiplication and powers as documented', () => {
    expect(equivalent(parseExpr('1/2x'), parseExpr('x/2'))).toBe(true);
    expect(equivalent(parseExpr('-x^2'), parseExpr('-(x^2)'))).toBe(true);
    expect(equivalent(parseExpr('2^-1'), parseExpr('0.5'))).toBe(true);
    expect(equivalent(parseExpr('√2x'), parseExpr('sqrt(2)*x'))).toBe(true);
    expect(equivalent(parseExpr('x^2'), parseExpr('2x'))).toBe(false);
    expect(tryParseExpr('x2')).toBeUndefined();
    expect(tryParseExpr('2 3')).toBeUndefined();
    expect(tryParseExpr('(x+1')).toBeUndefined();
  });
});

describe('math text and leak matching', () => {
  it('converts LaTeX to plain text', () => {
    expect(toPlain('Find $\\frac{3}{4}$ of \\$12.')).toBe('Find 3/4 of $12.');
    expect(toPlain('$x^{2} + \\sqrt{16} \\times 3 \\le 40^\\circ$')).toBe('x^2 + √16 × 3 ≤ 40°');
    expect(toPlain('$\\frac{x+1}{2}$')).toBe('(x+1)/2');
    expect(splitMath('a $x$ b \\$5')).toEqual([
      { kind: 'text', value: 'a ' },
      { kind: 'math', value: 'x' },
      { kind: 'text', value: ' b $5' },
    ]);
  });
  it('finds reveals hidden in LaTeX and respects phrase boundaries', () => {
    const forms = { numeric: ['3/4'], phrases: ['x = 1'] };
    expect(findAnswerForms('It is $\\frac{3}{4}$.', forms)).toEqual(['3/4']);
    expect(findAnswerForms('It is \\dfrac{3}{4}', forms)).toEqual(['3/4']);
    expect(findAnswerForms('so x = 1.', forms)).toEqual(['x = 1']);
    expect(findAnswerForms('so x = 12 or 2x = 1 or x = 1.5', forms)).toEqual([]);
  });
});

describe('mixed numbers in LaTeX', () => {
  it('keeps the whole part apart', () => {
    expect(toPlain('$2\\frac{3}{4}$')).toBe('2 3/4');
  });
});
describe('fractions next to × and ÷', () => {
  it('keep their grouping in plain text', () => {
    expect(toPlain('$-\\frac{1}{4} \\div \\frac{3}{2}$')).toBe('-(1/4) ÷ (3/2)');
    expect(toPlain('$\\frac{1}{4} + \\frac{3}{2}$')).toBe('1/4 + 3/2');
  });
});
describe('mixed numbers next to × and ÷', () => {
  it('are grouped as units', () => {
    expect(toPlain('$2\\frac{1}{3} \\times 1\\frac{1}{2}$')).toBe('(2 1/3) × (1 1/2)');
    expect(toPlain('$3\\frac{1}{4} - 1\\frac{2}{3}$')).toBe('3 1/4 - 1 2/3');
  });
});
describe('denominators that are products', () => {
  it('keep parentheses in plain text', () => {
    expect(toPlain('$\\frac{30x^{7}}{5xy}$')).toBe('(30x^7)/(5xy)');
    expect(toPlain('$\\frac{x}{3}$')).toBe('x/3');
  });
});

describe('normalizeText, remembered by input', () => {
  /** The straightforward normalisation, worked out at every call. */
  const reference = (s: string) =>
    replaceSuperscripts(toPlain(s))
      .normalize('NFKC')
      .replace(/[\u2212\u2012\u2013\u2014]/g, '-')
      .replace(/[×·]/g, '*')
      .replace(/÷/g, '/')
      .toLowerCase()
      .trim()
      .replace(/\s+/g, ' ')
      .replace(/\.$/, '')
      .trim();
  it('gives what the straightforward normalisation gives, first and later calls alike', () => {
    const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('$\\frac{3}{4}$', 'x²', '−5', '3 × 4', '6 ÷ 2', '  ', '.', 'Ｆｕｌｌ', 'The Answer is', '10⁻⁴'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }).map((xs) => xs.join('')), (s) => {
        const want = reference(s);
        expect(normalizeText(s)).toBe(want);
        expect(normalizeText(s)).toBe(want);
      }),
      { seed: 30, numRuns: 300 },
    );
  });
});
