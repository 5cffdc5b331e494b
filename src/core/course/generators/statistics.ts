/** Statistics: mean, median, mode, range (skills 9–12). */
import type { Rng } from '../../rng';
import type { ItemContent } from '../types';
import { defineGenerator, fmt, mk } from './util';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const list = (xs: readonly number[]) => xs.join(', ');

function medianOf(xs: readonly number[]): number {
  const s = sorted(xs);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

/** Declared leak forms for an answer that may also be one of the given data values. */
function dataAnswer(answer: number, data: readonly number[], label: string): { phrasesOnly?: string; numeric?: string[] } {
  return data.includes(answer) ? { phrasesOnly: label } : {};
}

const CONTEXTS = [
  { what: 'quiz scores', lo: 5, hi: 20, unit: 'points' },
  { what: 'numbers of books read', lo: 1, hi: 15, unit: 'books' },
  { what: 'heights of plants in centimeters', lo: 8, hi: 40, unit: 'cm' },
  { what: 'numbers of goals scored', lo: 0, hi: 9, unit: 'goals' },
  { what: 'ages of cousins', lo: 3, hi: 18, unit: 'years' },
];

export const mean = defineGenerator({
  skillId: 9,
  levels: ['Mean of four or five small whole numbers (whole-number mean)', 'Mean of six two-digit numbers (mean may end in .5)', 'Missing value: find the score that gives a stated mean'],
  make(rng: Rng, level): ItemContent | undefined {
    if (level === 1) {
      const n = rng.pick([4, 5]);
      const c = rng.pick(CONTEXTS);
      const m = rng.int(Math.max(c.lo + 2, 2), c.hi - 2);
      const xs: number[] = [];
      for (let i = 0; i < n - 1; i++) xs.push(rng.int(c.lo, c.hi));
      const last = n * m - sum(xs);
      if (last < c.lo || last > c.hi + 5) return undefined;
      xs.push(last);
      const data = rng.shuffle(xs);
      const s = sum(data);
      return mk({
        stem: `Here are the ${c.what}: ${list(data)}. What is the mean?`,
        answer: m,
        steps: [`Add the values: ${data.join(' + ')} = ${s}`, `There are ${n} values: ${s} ÷ ${n} = ${m}`],
        hints: ['The mean is the total shared equally among the values.', 'Add all the values, then divide by how many values there are.'],
        wrong: [
          [s, 'adds the values but forgets to divide'],
          [fmt(medianOf(data)), 'gives the median instead of the mean'],
          [fmt(s / (n - 1)), 'divides by one less than the number of values'],
        ],
      });
    }
    if (level === 2) {
      const n = 6;
      const xs = Array.from({ length: n }, () => rng.int(12, 98));
      const s = sum(xs);
      if (s % 3 !== 0) xs[0]! += 3 - (s % 3);
      const total = sum(xs);
      const m = total / n;
      return mk({
        stem: `The points scored by a basketball team in six games were ${list(xs)}. What is the mean number of points per game?`,
        answer: m,
        steps: [`Add the scores: ${xs.join(' + ')} = ${total}`, `Divide by the number of games: ${total} ÷ ${n} = ${fmt(m)}`],
        hints: ['Find the total of all six scores first.', 'Share the total equally among the games: divide by the number of games.'],
        wrong: [
          [total, 'forgets to divide by the number of values'],
          [fmt(total / 5), 'divides by 5 instead of 6'],
          [fmt(medianOf(xs)), 'gives the median'],
        ],
      });
    }
    const n = rng.pick([4, 5, 6]);
    const m = rng.int(70, 92);
    const known = Array.from({ length: n - 1 }, () => rng.int(m - 15, Math.min(100, m + 12)));
    const missing = n * m - sum(known);
    if (missing < 40 || missing > 100) return undefined;
    const avgKnown = sum(known) / (n - 1);
    return mk({
      stem: `Maya's mean score on ${n} tests is ${m}. Her first ${n - 1} scores are ${list(known)}. What did she score on the last test?`,
      answer: missing,
      steps: [`Total of all ${n} scores: ${n} × ${m} = ${n * m}`, `Total of the known scores: ${known.join(' + ')} = ${sum(known)}`, `Last score: ${n * m} - ${sum(known)} = ${missing}`],
      hints: ['If you know the mean and how many scores there are, you can find the total of all the scores.', 'Multiply the mean by the number of tests, then take away the scores you know.'],
      wrong: [
        [m, 'thinks the missing score must equal the mean'],
        [fmt(Math.round(avgKnown * 100) / 100), 'gives the mean of the known scores'],
        [n * m, 'gives the total of all the scores'],
      ],
    });
  },
});

export const median = defineGenerator({
  skillId: 10,
  levels: ['Median of an odd number (5 or 7) of unsorted whole numbers', 'Median of an even number (6 or 8) of values: mean of the middle two', 'Median from a frequency table'],
  make(rng, level) {
    if (level === 1) {
      const n = rng.pick([5, 7]);
      const c = rng.pick(CONTEXTS);
      const xs = Array.from({ length: n }, () => rng.int(c.lo, c.hi + 10));
      const s = sorted(xs);
      const med = medianOf(xs);
      return mk({
        stem: `Find the median of these ${c.what}: ${list(xs)}.`,
        answer: med,
        ...dataAnswer(med, xs, 'median'),
        steps: [`Put the values in order: ${list(s)}`, `The middle (value number ${(n + 1) / 2} of ${n}) is ${med}`],
        hints: ['The median is the middle value once the data are in order.', 'Write the values from least to greatest first, then find the one in the middle.'],
        wrong: [
          [xs[(n - 1) / 2]!, 'takes the middle of the list without ordering it'],
          [fmt(Math.round((sum(xs) / n) * 10) / 10), 'computes the mean'],
          [s[n - 1]! - s[0]!, 'computes the range'],
        ],
      });
    }
    if (level === 2) {
      const n = rng.pick([6, 8]);
      const xs = Array.from({ length: n }, () => rng.int(10, 60));
      const s = sorted(xs);
      const a = s[n / 2 - 1]!;
      const b = s[n / 2]!;
      const med = (a + b) / 2;
      return mk({
        stem: `The numbers of minutes some students spent on homework were ${list(xs)}. What is the median?`,
        answer: med,
        ...dataAnswer(med, xs, 'median'),
        steps: [`Order the values: ${list(s)}`, `There are ${n} values, so there are two middle values: ${a} and ${b}`, `The median is their mean: (${a} + ${b}) ÷ 2 = ${fmt(med)}`],
        hints: ['Order the data first.', 'With an even number of values there are two in the middle: use the number halfway between them.'],
        wrong: [
          [a, 'takes only the lower middle value'],
          [b, 'takes only the upper middle value'],
          [fmt((xs[n / 2 - 1]! + xs[n / 2]!) / 2), 'uses the middle of the unordered list'],
        ],
      });
    }
    const values = [0, 1, 2, 3, 4, 5];
    const freqs = values.map(() => rng.int(1, 7));
    const total = sum(freqs);
    const expanded = values.flatMap((v, i) => Array<number>(freqs[i]!).fill(v));
    const med = medianOf(expanded);
    if (!Number.isInteger(med)) return undefined;
    const lo = expanded[Math.ceil(total / 2) - 1]!;
    const hi = expanded[Math.floor(total / 2)]!;
    const pos = total % 2 ? `value number ${(total + 1) / 2}` : `the mean of values number ${total / 2} and ${total / 2 + 1}`;
    const land = lo === hi ? `that lands on ${med} pets` : `they are ${lo} and ${hi} pets, so the median is (${lo} + ${hi}) ÷ 2 = ${med}`;
    return mk({
      stem: `The table shows how many pets each student in a class has. What is the median number of pets?`,
      figure: { kind: 'table', caption: 'Pets per student', header: ['Number of pets', 'Number of students'], rows: values.map((v, i) => [String(v), String(freqs[i])]) },
      answer: med,
      steps: [`Count the students: ${freqs.join(' + ')} = ${total}`, `The median is ${pos} in order`, `Counting down the table, ${land}`],
      hints: ['Each row stands for several students with the same number of pets: the data are the pets, repeated.', 'Find how many students there are in all, then count down the table to the middle student.'],
      wrong: [
        [fmt(medianOf(freqs)), 'takes the median of the frequencies'],
        [2.5, 'takes the middle of the list of values 0 to 5'],
        [values[freqs.indexOf(Math.max(...freqs))]!, 'gives the mode (the most common value)'],
      ],
    });
  },
});

export const mode = defineGenerator({
  skillId: 11,
  levels: ['Mode of a short list with one mode', 'Mode from a frequency table', 'All modes of a list with two modes'],
  make(rng, level) {
    if (level === 1) {
      const others = rng.shuffle([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]).slice(0, 5);
      const m = others.pop()!;
      const xs = rng.shuffle([m, m, m, ...others, others[0]!]);
      return mk({
        stem: `What is the mode of these numbers? ${list(xs)}`,
        answer: m,
        phrasesOnly: 'mode',
        steps: [`Count how often each value appears: ${m} appears 3 times, every other value at most twice`, `The mode is ${m}`],
        hints: ['The mode is the value that appears most often.', 'Tally how many times each number appears.'],
        wrong: [
          [3, 'gives how many times the mode appears instead of the value'],
          [Math.max(...xs), 'gives the largest value'],
          [fmt(medianOf(xs)), 'gives the median'],
        ],
      });
    }
    if (level === 2) {
      const sizes = [5, 5.5, 6, 6.5, 7, 7.5, 8];
      const freqs = rng.shuffle([2, 3, 4, 5, 1, 6, 9]).slice(0, sizes.length);
      const top = Math.max(...freqs);
      const m = sizes[freqs.indexOf(top)]!;
      return mk({
        stem: 'The table shows the shoe sizes of students in a class. What is the mode of the shoe sizes?',
        figure: { kind: 'table', caption: 'Shoe sizes', header: ['Shoe size', 'Number of students'], rows: sizes.map((s, i) => [fmt(s), String(freqs[i])]) },
        answer: m,
        phrasesOnly: 'mode',
        steps: [`The largest number of students is ${top}`, `That row is shoe size ${fmt(m)}, so the mode is ${fmt(m)}`],
        hints: ['The mode is the value that occurs most often.', 'Look for the row with the most students, then read its shoe size.'],
        wrong: [
          [top, 'gives the frequency instead of the shoe size'],
          [6.5, 'takes the middle shoe size in the table'],
          [8, 'takes the largest shoe size'],
        ],
      });
    }
    const pool = rng.shuffle([2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15]);
    const a = Math.min(pool[0]!, pool[1]!);
    const b = Math.max(pool[0]!, pool[1]!);
    const rest = pool.slice(2, 6);
    const xs = rng.shuffle([a, a, a, b, b, b, ...rest, rest[0]!]);
    return mk({
      stem: `Find all the modes of this data set: ${list(xs)}. (If there is more than one, list them all.)`,
      kind: 'set',
      answer: `${a}, ${b}`,
      accepted: [`${a} and ${b}`],
      phrases: [`modes are ${a} and ${b}`, `${a} and ${b}`, `${b} and ${a}`, `answer is ${a}, ${b}`, `answer is ${b}, ${a}`, `modes are ${a}, ${b}`],
      steps: [`Tally: ${a} appears 3 times, ${b} appears 3 times, every other value fewer times`, `Both are modes: ${a} and ${b}`],
      hints: ['A data set can have more than one mode when several values tie for most frequent.', 'Tally each value; list every value with the highest tally.'],
      wrong: [
        [String(a), 'stops at the first mode it finds'],
        [String(b), 'gives only one of two tied values'],
        [`${a}, ${b}, ${rest[0]}`, 'includes a value that appears only twice'],
      ],
    });
  },
});

export const range = defineGenerator({
  skillId: 12,
  levels: ['Range of six whole numbers', 'Range of temperatures that include negatives', 'Unknown greatest value from a stated range'],
  make(rng, level) {
    if (level === 1) {
      const xs = Array.from({ length: 6 }, () => rng.int(3, 60));
      const s = sorted(xs);
      const r = s[5]! - s[0]!;
      return mk({
        stem: `What is the range of these numbers? ${list(xs)}`,
        answer: r,
        ...dataAnswer(r, xs, 'range'),
        steps: [`Greatest value: ${s[5]}; least value: ${s[0]}`, `Range = ${s[5]} - ${s[0]} = ${r}`],
        hints: ['The range measures the spread: from the smallest to the largest value.', 'Subtract the least value from the greatest value.'],
        wrong: [
          [s[5]!, 'gives the greatest value'],
          [s[5]! + s[0]!, 'adds the greatest and least values'],
          [Math.abs(xs[5]! - xs[0]!), 'subtracts the last value from the first instead of the extremes'],
        ],
      });
    }
    if (level === 2) {
      const xs = [rng.int(-15, -2), ...Array.from({ length: 4 }, () => rng.int(-12, 18))];
      const data = rng.shuffle(xs);
      const s = sorted(data);
      const hi = s[4]!;
      const lo = s[0]!;
      const r = hi - lo;
      return mk({
        stem: `The low temperatures (in °F) for five days were ${list(data)}. What is the range of the temperatures?`,
        answer: r,
        ...dataAnswer(r, data, 'range'),
        steps: [`Highest: ${hi}; lowest: ${lo}`, `Range = ${hi} - (${lo}) = ${hi} + ${-lo} = ${r}`],
        hints: ['Find the highest and the lowest temperature.', 'Subtracting a negative number is the same as adding its opposite.'],
        wrong: [
          [hi + lo, 'subtracts the size of the negative number instead of adding it'],
          [hi, 'gives the highest temperature'],
          [Math.abs(Math.abs(hi) - Math.abs(lo)), 'ignores the signs'],
        ],
      });
    }
    const known = Array.from({ length: 4 }, () => rng.int(10, 40));
    const lo = Math.min(...known);
    const hiKnown = Math.max(...known);
    const r = rng.int(hiKnown - lo + 3, hiKnown - lo + 25);
    const n = lo + r;
    return mk({
      stem: `The data set ${list(known)}, $n$ has a range of ${r}, and $n$ is the greatest value. What is $n$?`,
      answer: n,
      phrases: [`n = ${n}`],
      steps: [`The least value is ${lo}`, `Range = greatest - least, so n - ${lo} = ${r}`, `n = ${r} + ${lo} = ${n}`],
      hints: ['Write what the range means as an equation with n in it.', 'n is the greatest value, so the range is n minus the least value.'],
      wrong: [
        [hiKnown + r, 'adds the range to the greatest known value'],
        [r, 'gives the range itself'],
        [r - lo, 'subtracts the least value from the range'],
      ],
    });
  },
});

export const STATISTICS = [mean, median, mode, range];
