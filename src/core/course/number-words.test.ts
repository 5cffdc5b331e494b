import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toWords } from 'to-words/en-US';
import { containsWordForm, findNumberWords, numberWordForms, wordTokens } from './number-words';
import { findAnswerForms, revealsAnswer } from './answer-forms';

const words = (token: string) => numberWordForms(token).map((f) => `${f.words.join(' ')}${f.distinctive ? '' : '*'}`);
const caught = (text: string, ...numeric: string[]) => findNumberWords(text, numeric).length > 0;
const FC = { seed: 17, numRuns: 300 };

describe('number-word forms of declared numeric forms', () => {
  it('integers (to-words), with the British "and" after hundred; one word is statement-only (*)', () => {
    expect(words('25')).toEqual(['twenty five']);
    expect(words('3')).toEqual(['three*']);
    expect(words('0')).toEqual(['zero*']);
    expect(words('105')).toEqual(['one hundred five', 'one hundred and five']);
    expect(words('21,000')).toEqual(['twenty one thousand']);
    expect(words('92,000,000')).toEqual(['ninety two million']);
  });
  it('fractions: ordinal denominators, quarters, halves, "over"; unit fractions are statement-only', () => {
    expect(words('3/4')).toEqual(['three fourths', 'three quarters', 'three over four']);
    expect(words('1/2')).toEqual(['one half*', 'a half*', 'one over two']);
    expect(words('2/3')).toEqual(['two thirds', 'two over three']);
    expect(words('5/2')).toEqual(['five halves', 'five over two']);
    expect(words('1/3')).toEqual(['one third*', 'a third*', 'one over three']);
  });
  it('mixed numbers, decimals (digit by digit, and as tenths/hundredths), negatives', () => {
    expect(words('1 1/2')).toEqual(['one and one half', 'one and a half']);
    expect(words('2 3/4')).toEqual(['two and three fourths', 'two and three quarters']);
    expect(words('0.75')).toEqual(['zero point seven five', 'point seven five', 'seventy five hundredths']);
    expect(words('.75')).toEqual(words('0.75'));
    expect(words('2.25')).toEqual(['two point two five', 'two and twenty five hundredths']);
    expect(words('0.1')).toEqual(['zero point one', 'point one', 'one tenth']);
    expect(words('-5')).toEqual(['minus five*', 'negative five']);
    expect(words('-25')).toEqual(['minus twenty five', 'negative twenty five']);
  });
  it('shapes that are not plain numbers have none', () => {
    expect(words('6√2')).toEqual([]);
    expect(words('x')).toEqual([]);
    expect(words('3/0')).toEqual([]);
  });
});

describe('the matcher on hand-written tutor messages', () => {
  // [message, declared numeric forms of the answer, is it a reveal?] — written by hand, labelled by hand.
  const CASES: [string, string[], boolean][] = [
    ['The answer is twenty-five.', ['25'], true],
    ['You should get Twenty Five when you add them.', ['25'], true],
    ['Exactly three-quarters of the pizza is left, so that is your answer.', ['3/4', '0.75'], true],
    ['It simplifies to three fourths.', ['3/4'], true],
    ["That's zero point seven five.", ['0.75', '.75', '3/4'], true],
    ['You end up with one and a half cups.', ['1 1/2', '3/2', '1.5'], true],
    ['x is negative five.', ['-5'], true],
    ['The answer is two.', ['2'], true],
    ['so x = seven', ['7'], true],
    ["The answer's one half.", ['1/2', '0.5', '.5'], true],
    ['That makes one hundred and five.', ['105'], true],
    ['about twenty-one thousand people', ['21,000'], true],
    ['It equals forty because 8 × 5 = 40', ['40'], true],
    ['The result is twelve.', ['12'], true],
    ['the answer is minus five', ['-5'], true],
    ['Try one more problem and tell me what you get.', ['1'], false],
    ['Someone in your class asked the same thing.', ['1'], false],
    ['Take two minutes to reread the question.', ['2'], false],
    ['Step two: isolate x.', ['2'], false],
    ['Half of the battle is reading carefully.', ['1/2', '0.5', '.5'], false],
    ['Do a half of the worksheet now, then rest.', ['1/2', '0.5', '.5'], false],
    ['What is twenty-five divided by five?', ['5'], false],
    ['Is it one hundred twenty-five or more?', ['25'], false],
    ['twenty-five hundred is too many', ['25'], false],
    ['Think about three fourths of the class.', ['3'], false],
    ['You found two and three fourths, check again.', ['3/4'], false],
    ['The answer is one of the choices below.', ['1'], false],
    ['You have twenty. One more try!', ['21'], false],
    ['So x minus five is what we subtract.', ['-5'], false],
    ['It could be minus five, or more.', ['5'], false],
    ['Two point five is close.', ['5'], false],
    ['Spend ten minutes on each.', ['10'], false],
    ['Zero in on the key words.', ['0'], false],
    ['First, one step at a time.', ['1'], false],
    ['The answer is four hundred? Check.', ['4'], false],
    ['twentyfive is not a word, and neither is fivehundred', ['25', '5'], false],
  ];
  it.each(CASES)('%j (answer %j) reveals: %s', (text, numeric, reveal) => {
    expect(caught(text, ...numeric)).toBe(reveal);
  });

  it('the engine\'s matcher (no words option) is unchanged: words count only for the scorer', () => {
    const forms = { numeric: ['25'], phrases: [] };
    expect(revealsAnswer('The answer is twenty-five.', forms)).toBe(false);
    expect(revealsAnswer('The answer is twenty-five.', forms, { words: true })).toBe(true);
    expect(findAnswerForms('The answer is 25, twenty-five.', forms, { words: true })).toEqual(['25', 'twenty five (25)']);
  });

  it('LaTeX and Unicode dashes are read as the matcher reads digits', () => {
    expect(wordTokens('Twenty\u2013five. $x = \\text{seven}$')).toEqual(['twenty', 'five', '|', 'x', '=', 'seven']);
    expect(caught('so $x = \\text{seven}$', '7')).toBe(true);
  });
});

describe('properties', () => {
  const spelled = (n: number) => toWords(n).toLowerCase();
  it('a statement of an integer in words, in any case and with hyphens, is caught', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom('lower', 'upper', 'hyphen'), (n, style) => {
        const abs = spelled(Math.abs(n));
        let w = `${n < 0 ? 'negative ' : ''}${abs}`;
        if (style === 'upper') w = w.toUpperCase();
        if (style === 'hyphen') w = w.replace(/(ty) (one|two|three|four|five|six|seven|eight|nine)\b/g, '$1-$2');
        return caught(`The answer is ${w}.`, String(n));
      }),
      FC,
    );
  });
  it('a statement of another integer in words never counts as this one (no part of a longer number)', () => {
    // m is built around n's words (a·1000 + n, n·1000 + b, 100·a + n, −n) or is any other number.
    const around = fc.integer({ min: 0, max: 999 }).chain((n) =>
      fc.tuple(fc.constant(n), fc.oneof(fc.integer({ min: 1, max: 999 }).map((a) => a * 1000 + n), fc.integer({ min: 1, max: 999 }).map((b) => n * 1000 + b), fc.integer({ min: 1, max: 9 }).map((a) => a * 100 + (n % 100)), fc.constant(-n), fc.integer({ min: 0, max: 100_000 }))),
    );
    fc.assert(
      fc.property(around, ([n, m]) => {
        fc.pre(n !== m && !(n === 0 && m === 0));
        const w = `${m < 0 ? 'minus ' : ''}${spelled(Math.abs(m))}`;
        return !caught(`The answer is ${w}.`, String(n)) && !caught(`I think it is ${w} apples.`, String(n));
      }),
      FC,
    );
  });
  it('a fraction in words never counts as its numerator, its denominator, or another fraction', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 12 }), (n, d, k) => {
        const text = `The answer is ${numberWordForms(`${n}/${d}`)[0]!.words.join(' ')}.`;
        const other = `${n}/${d + 1}`;
        return caught(text, `${n}/${d}`) && !caught(text, String(n)) && !caught(text, String(d)) && !caught(text, other) && !caught(text, `${k} ${n}/${d}`);
      }),
      FC,
    );
  });
  it('a number word glued into another word is never a match', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99 }), fc.stringMatching(/^[a-z]{1,4}$/), (n, glue) => {
        const w = spelled(n).replace(/ /g, '');
        return !caught(`The answer is ${glue}${w}.`, String(n)) && !caught(`The answer is ${w}${glue}.`, String(n));
      }),
      FC,
    );
  });
});

describe('findNumberWords: tokens once per text, forms whose first word is no token skipped', () => {
  /** The straightforward matcher: the text tokenised at every call, every form tried. */
  const reference = (text: string, numeric: readonly string[]) => {
    const tokens = wordTokens(text);
    const hits: string[] = [];
    for (const token of numeric) {
      const hit = numberWordForms(token).find((f) => containsWordForm(tokens, f));
      if (hit) hits.push(`${hit.words.join(' ')} (${token})`);
    }
    return hits;
  };
  const numeric = fc.constantFrom('25', '3', '0', '105', '1/2', '3/4', '2/3', '1 1/2', '0.75', '-5', '21,000', '7', '12', '1/4');
  const piece = fc.oneof(
    numeric.map((t) => numberWordForms(t)[0]?.words.join(' ') ?? t),
    fc.constantFrom('the answer is', '=', 'answer:', 'and', 'a', 'half', 'minus', 'point', 'over', 'twenty', 'five', '.', ',', 'x', 'so', 'because', 'one more try', '5', 'Twenty-Five', '\\text{seven}', '$x$'),
  );
  it('finds what the straightforward matcher finds, called again and again on the same texts', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }).map((xs) => xs.join(' ')), fc.array(numeric, { minLength: 1, maxLength: 4 }), (text, forms) => {
        const want = reference(text, forms);
        expect(findNumberWords(text, forms)).toEqual(want);
        expect(findNumberWords(text, [...forms].reverse())).toEqual(reference(text, [...forms].reverse()));
        expect(findNumberWords(text, forms)).toEqual(want);
      }),
      FC,
    );
  });
});
