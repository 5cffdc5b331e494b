import { describe, expect, it } from 'vitest';
import { DisclosureWindow, disclosuresIn, type DisclosableItem } from './detect';
import { readable } from './readable';

const num = (answer: string, stem = 'Compute the value.', accepted: string[] = []): DisclosableItem => ({ id: 'N', answerKind: 'number', answer, accepted, stem });
const leaks = (it: DisclosableItem, text: string) => disclosuresIn(text, [it]).length > 0;

describe('readable: the text as a student reads it', () => {
  it('drops invisible characters, reads other scripts, LaTeX, slashes and Roman numerals', () => {
    expect(readable('2\u200B5 2\u00AD5 2\u2060\u20605')).toBe('25 25 25');
    expect(readable('٥٤ ५४ ５４ 𝟓𝟒')).toBe('54 54 54 54');
    expect(readable('$\\tfrac58$ ${5 \\over 8}$ $\\boxed{7}$ 5⁄8 5∕8')).toBe('5/8 5/8 7 5/8 5/8');
    expect(readable('It is XII, five four, 2½')).toBe('It is 12, 5 4, 2 1/2');
    expect(readable('x² and (−2)')).toBe('x^2 and (-2)');
  });
});

describe('disclosuresIn', () => {
  it('finds disguised forms a student could copy (what the checker accepts, read as rendered)', () => {
    for (const [answer, text] of [
      ['25', 'The answer is 2\u200B5'], ['54', 'Try $5\\,4$'], ['7', 'It is 07'], ['7', 'Write 7.0000'], ['5/8', 'That is 62.5%'], ['7', 'that is 700%'],
      ['2.75', 'You get 2 3/4'], ['2.75', 'You get 11/4'], ['5/8', 'Think 10/16'], ['7', 'Think 14/2'], ['5/8', '$\\tfrac58$'], ['5/8', '${5 \\over 8}$'],
      ['12', 'It is XII'], ['25', 'The answer is ²⁵'], ['25', 'It is 2\uFE0F\u20E35\uFE0F\u20E3'], ['5', 'The answer is V.'], ['54', 'It is ٥٤'], ['54', 'five four'], ['-4', 'm = -4'], ['-10', "It's negative one zero."], ['25', 'It is twenty-five.'],
    ] as const)
      expect(leaks(num(answer), text), `${answer} in ${text}`).toBe(true);
  });
  it('clears innocent numbers: ids, levels, times, counts, countdowns, operands, examples on other numbers, glued signs', () => {
    for (const [answer, text, stem] of [
      ['2', "Let's look at item s68-L2-02"], ['2', 'You are on level 2. Take 2 minutes.'], ['4', 'Hint: 10^4 means 10 multiplied by itself 4 times'],
      ['4', 'Ready? 5, 4, 3... go!'], ['-1', 'Think of a slope like -1/2'], ['2', 'What is (−2) squared?'], ['7', 'What do you get when you add 3 and 4?', 'What is 3 + 4?'],
      ['12', 'For example, 2 × 6 = 12 as well', 'What is 3 × 4?'], ['3', 'You have 3 tries left'], ['5', "Great job, that's 5 in a row!"], ['3', 'We meet at 3:30.'], ['5', 'Level: 5, attempts: 5, score: 5'], ['5', 'Take a 5-minute break.'],
      ['5', 'x = 5 is not the answer to 2x + 3 = 17... think of 2x = 10 first', 'Solve 2x + 3 = 17.'],
    ] as const)
      expect(leaks(num(answer, stem ?? 'Compute the value.'), text), `${answer} in ${text}`).toBe(answer === '5' && text.startsWith('x = 5') ? true : false);
  });
  it('a number from the stem counts only stated as the answer', () => {
    const it = num('5', 'The data: 3, 5, 5, 7. What is the mode?');
    expect(leaks(it, 'Look at 3, 5, 5, 7 again and count.')).toBe(false);
    expect(leaks(it, 'The mode of the data is 5')).toBe(true);
  });
  it('choice: the letter or option stated, not "the answer is a fraction"', () => {
    const it: DisclosableItem = { id: 'C', answerKind: 'choice', answer: '1/2', accepted: [], stem: 'Which is a fraction?', choices: ['1/2', '0.5'] };
    expect(leaks(it, 'the answer is a fraction')).toBe(false);
    expect(leaks(it, 'the answer is (a).')).toBe(true);
    expect(leaks(it, 'Go with option A.')).toBe(true);
  });
  it('expressions, equations, sets and lists: any form the checker accepts, not a repeat of the stem', () => {
    expect(leaks({ id: 'E', answerKind: 'expression', answer: '(x - 1)(x + 2)', accepted: [], stem: 'Factor x^2 + x - 2', format: 'factored' }, 'It factors as (x + 2)(x - 1) nicely')).toBe(true);
    expect(leaks({ id: 'E', answerKind: 'expression', answer: '(x - 1)(x + 2)', accepted: [], stem: 'Factor x^2 + x - 2', format: 'factored' }, 'Factor x^2 + x - 2: which two numbers multiply to -2?')).toBe(false);
    expect(leaks({ id: 'Q', answerKind: 'equation', answer: 'y = -x - 4', accepted: [], stem: 'Find the line' }, 'so the line is y=-x-4.')).toBe(true);
    expect(leaks({ id: 'L', answerKind: 'list', answer: '(4, 3)', accepted: ['4, 3'], stem: 'Solve the system' }, 'Plot the point (4, 3) and check')).toBe(true);
    expect(leaks({ id: 'L', answerKind: 'list', answer: '(4, 3)', accepted: ['4, 3'], stem: 'Reflect A' }, 'A is at (-4, 3)')).toBe(false);
    const set: DisclosableItem = { id: 'S', answerKind: 'set', answer: '4, 5', accepted: ['4 and 5'], stem: 'Data: 3, 4, 4, 5, 5. Modes?' };
    expect(leaks(set, 'The modes are 5 and 4')).toBe(true);
    expect(leaks(set, 'Look at the data 3, 4, 4, 5, 5 and count each value')).toBe(false);
  });
  it('records the item, the span and what a student copies (the span when the checker accepts it)', () => {
    expect(disclosuresIn('Nice! It is 0.6250, you know.', [num('5/8')])).toEqual([{ itemId: 'N', span: '0.6250', at: 12, copy: '0.6250', rule: 'number' }]);
    expect(disclosuresIn('That is 62.5%', [num('5/8')])[0]!.copy).toBe('5/8');
  });
});

describe('DisclosureWindow', () => {
  it('finds an answer split across consecutive texts, once, with the texts it needed', () => {
    const w = new DisclosureWindow();
    expect(w.read('The answer is 2', [num('25')])).toEqual([]);
    const d = w.read('5.', [num('25')]);
    expect(d.map((x) => [x.itemId, x.spans])).toEqual([['N', 1]]);
    const w2 = new DisclosureWindow();
    w2.read('The answer is 2', [num('2.25')]);
    expect(w2.read('.25', [num('2.25')]).length).toBe(1);
  });
  it('does not join texts beyond the window', () => {
    const w = new DisclosureWindow(2);
    w.read('The answer is 2', [num('257')]);
    w.read('5', [num('257')]);
    expect(w.read('7', [num('257')])).toEqual([]);
  });
});

describe('disguised answers (docs/validity.md, "Disguised answers")', () => {
  it('closed arithmetic whose value is the answer, in symbols or words, offered as a value', () => {
    for (const text of ["It's 41 + 1.", 'Type what you get from 41 plus one.', 'so x = 41 + 1', 'Just enter (40 + 2).', 'It is six times seven.'])
      expect(leaks(num('42'), text), text).toBe(true);
    expect(disclosuresIn("It's 41 + 1.", [num('42')])).toEqual([{ itemId: 'N', span: '41 + 1', at: 5, copy: '42', rule: 'arithmetic' }]);
  });
  it('not arithmetic that is a step, an intermediate, the stem restated, a label, a range, or in a worked example of another item', () => {
    for (const [answer, text, stem] of [
      ['42', 'Worked example: Evaluate (6 × 7) × 2. Multiply 6 × 7 by 2 to get 84.', 'What is 40 + 2?'],
      ['42', 'In the example, 40 + 2 is 43 - 1 and both are even.', 'What is 21 × 2?'],
      ['42', 'Think of 7 × 6 as seven sixes.', 'What is 6 × 7?'],
      ['42', 'Try level 41 + 1 next.', 'Compute the value.'],
      ['-4', 'Scores from 40-44 count.', 'Compute the value.'],
      ['42', 'Worked example\n\nWhat is 3 × 14?\n1. 3 × 14 = 3 × 10 + 3 × 4\n2. 30 + 12 = 42', 'What is 50 - 8?'],
      ['12', 'Worked example\n\nWhat is 3 × 4 + 5?\n1. Multiply first: 3 × 4\n2. Then add 5: 12 + 5 = 17', 'What is 15 - 3?'],
      ['-8', 'What is $-10 + 2$?\n1. -10 + 2: the signs are different, so subtract the sizes: 10 - 2\n3. -10 + 2 = -8', 'What is $-9 + 1$?'],
    ] as const)
      expect(leaks(num(answer, stem), text), text).toBe(false);
  });
  it('the item reworded (a variable renamed) is the item, not an example of another', () => {
    const it: DisclosableItem = { ...num('20', 'For the line $y = 3x - 4$, what is $y$ when $x = 8$?'), steps: ['Substitute x = 8: y = 3 × 8 - 4', 'y = 24 - 4 = 20'] };
    expect(leaks(it, 'For example: For the line $q = 3p - 4$, what is $q$ when $p = 8$? Work: q = 24 - 4 = 20')).toBe(true);
    expect(leaks(it, 'For example: for the line y = 2x + 20, what is y when x = 3? Work: y = 6 + 20 = 26')).toBe(false);
    // Its own last step quoted with its stem, even short; alone only when long enough to be its own.
    const box: DisclosableItem = { ...num('6', 'What is the mode of these numbers? 6, 4, 6, 11, 6, 2'), steps: ['Count how often each value appears: 6 appears 3 times', 'So 6 × 1 = 6'] };
    expect(leaks(box, 'For example: What is the mode of these numbers? 6, 4, 6, 11, 6, 2 Work: So 6 × 1 = 6')).toBe(true);
    expect(leaks(box, 'Another one: so 6 × 1 = 6, like before.')).toBe(false);
  });
  it('digits named one by one, across the day\'s texts but not across days', () => {
    const msgs = ['Negative. First digit: 4', 'Keep going!', 'You can do it.', 'Then digit 2'];
    const read = (days: number[]) => {
      const w = new DisclosureWindow();
      return msgs.flatMap((m, i) => w.read(m, [num('-42')], days[i]));
    };
    expect(read([3, 3, 3, 3]).map((d) => [d.rule, d.spans])).toEqual([['digits', 3]]);
    expect(read([3, 3, 3, 4])).toEqual([]);
    const noDay = new DisclosureWindow();
    expect(msgs.flatMap((m) => noDay.read(m, [num('-42')]))).toEqual([]);
  });
  it('over the day, only a span across texts counts: other texts change no number\'s context', () => {
    const it: DisclosableItem = { ...num('80', 'What is 50% of 160?'), steps: ['50% means 50 out of 100, so 50% = 0.5', '0.5 × 160 = 80'] };
    const w = new DisclosureWindow();
    const texts = ['Hi!', 'Worked example: Percent Of\n\nWhat is 25% of 320?\n1. 25% means 25 out of 100, so 25% = 0.25\n2. 0.25 × 320 = 80', 'Good.', 'Worked example: Percent Of\n\nWhat is 50% of 300?\n1. 50% means 50 out of 100, so 50% = 0.5\n2. 0.5 × 300 = 150'];
    expect(texts.flatMap((t) => w.read(t, [it], 1))).toEqual([]);
  });
});
