/** Counting and probability (skills 13, 14, 15, 57). */
import type { Rng } from '../../rng';
import { defineGenerator, fDecimal, fMul, fStr, fTex, fmt, frac, fAdd, mk, mkChoice, type Frac } from './util';

/** A probability answer: the fraction in lowest terms, with its decimal and percent as accepted forms. */
function probAnswer(p: Frac): { answer: string; accepted: string[]; asFrac: Frac; numeric: string[] } {
  const dec = fDecimal(p);
  const accepted = dec && dec.length <= 6 ? [dec, `${fmt(Number(dec) * 100)}%`] : [];
  const numeric = [fStr(p), ...(dec ? [dec, dec.replace(/^0\./, '.')] : [])];
  return { answer: fStr(p), accepted, asFrac: p, numeric };
}

const COLORS = ['red', 'blue', 'green', 'yellow', 'purple'];

export const countingMethods = defineGenerator({
  skillId: 13,
  levels: ['Outfits from two choices (multiply)', 'Three independent choices (multiply three)', 'Ordered arrangements: first, second and third place'],
  make(rng, level) {
    if (level === 1) {
      const a = rng.int(2, 9);
      const b = rng.int(2, 8);
      const ctx = rng.pick([
        `Lena has ${a} shirts and ${b} pairs of pants. How many different outfits of one shirt and one pair of pants can she make?`,
        `A café offers ${a} kinds of sandwich and ${b} kinds of drink. How many different lunches of one sandwich and one drink are possible?`,
        `A school club can choose ${a} colors and ${b} designs for its T-shirt. How many different T-shirts (one color, one design) are possible?`,
      ]);
      return mk({
        stem: ctx,
        answer: a * b,
        steps: [`Each of the ${a} choices of the first kind can go with each of the ${b} choices of the second kind`, `${a} × ${b} = ${a * b}`],
        hints: ['Try listing the outfits for just one shirt. How many are there?', 'Every shirt gets the same number of outfits: use multiplication.'],
        wrong: [
          [a + b, 'adds the choices instead of multiplying'],
          [Math.max(a, b), 'counts only the larger group'],
        ],
      });
    }
    if (level === 2) {
      const a = rng.int(2, 5);
      const b = rng.int(3, 6);
      const c = rng.int(2, 4);
      return mk({
        stem: `A sandwich shop offers ${a} kinds of bread, ${b} fillings and ${c} sauces. A sandwich has one bread, one filling and one sauce. How many different sandwiches are possible?`,
        answer: a * b * c,
        steps: ['Use the counting principle: multiply the number of choices for each part', `${a} × ${b} × ${c} = ${a * b * c}`],
        hints: ['Think of a tree diagram: each bread branches into every filling, and each of those into every sauce.', 'Multiply the numbers of choices together.'],
        wrong: [
          [a + b + c, 'adds the choices'],
          [a * b, 'forgets one of the three choices'],
          [a * b + c, 'adds the last choice instead of multiplying'],
        ],
      });
    }
    const n = rng.int(5, 15);
    const k = rng.pick([2, 3]);
    let ans = 1;
    const factors: number[] = [];
    for (let i = 0; i < k; i++) {
      factors.push(n - i);
      ans *= n - i;
    }
    const places = k === 2 ? 'a first-place and a second-place' : 'first, second and third place';
    const combos = k === 2 ? (n * (n - 1)) / 2 : (n * (n - 1) * (n - 2)) / 6;
    return mk({
      stem: rng.chance(0.5)
        ? `${n} runners are in a race. In how many different ways can ${places} medal${k === 2 ? '' : 's'} be awarded? (No ties.)`
        : `A club of ${n} students elects a president${k === 3 ? ', a vice-president and a secretary' : ' and a vice-president'}. No student can hold two jobs. In how many different ways can the jobs be filled?`,
      answer: ans,
      steps: [`${n} people can fill the first place; then ${n - 1} are left for the second${k === 3 ? `, then ${n - 2} for the third` : ''}`, `${factors.join(' × ')} = ${ans}`],
      hints: ['Order matters: the same people in different places is a different result.', 'How many people could take the first place? Once it is taken, how many are left for the next one?'],
      wrong: [
        [n ** k, 'lets the same runner win more than one place'],
        [n * k, 'multiplies the runners by the number of places'],
        [combos, 'ignores the order of the places'],
      ],
    });
  },
});

export const twoEvents = defineGenerator({
  skillId: 14,
  levels: ['Coin and number cube together (independent)', 'Two draws with replacement', 'Two draws without replacement'],
  make(rng, level) {
    if (level === 1) {
      const face = rng.pick(['heads', 'tails']);
      const kinds: [string, number][] = [
        ['an even number', 3],
        ['an odd number', 3],
        ['a multiple of 3', 2],
        ...[1, 2, 3, 4, 5].map((k): [string, number] => [`a number greater than ${k}`, 6 - k]),
        ...[2, 3, 4, 5, 6].map((k): [string, number] => [`a number less than ${k}`, k - 1]),
        ...[1, 2, 3, 4, 5, 6].map((k): [string, number] => [`a ${k}`, 1]),
      ];
      const [kind, fav] = rng.pick(kinds);
      const p = fMul(frac(1, 2), frac(fav, 6));
      const pa = probAnswer(p);
      return mk({
        stem: `You flip a coin and roll a number cube numbered 1 to 6. What is the probability of getting ${face} and ${kind}? Write your answer as a fraction.`,
        ...pa,
        steps: [`P(${face}) = $\\frac{1}{2}$`, `P(${kind}) = $\\frac{${fav}}{6}$`, `The events are independent, so multiply: $\\frac{1}{2} \\times \\frac{${fav}}{6} = ${fTex(p)}$`],
        hints: ['Find the probability of each event on its own first.', 'For two independent events happening together, multiply their probabilities.'],
        wrong: [
          [fStr(fAdd(frac(1, 2), frac(fav, 6))), 'adds the probabilities instead of multiplying'],
          [fStr(frac(1 + fav, 8)), 'adds the numerators and the denominators'],
          [fStr(frac(fav, 6)), 'ignores the coin'],
        ],
      });
    }
    const [c1, c2] = rng.shuffle(COLORS).slice(0, 2) as [string, string];
    const a = rng.int(2, 7);
    const b = rng.int(2, 7);
    const c = rng.int(1, 6);
    const n = a + b + c;
    const same = rng.chance(0.3);
    if (level === 2) {
      const p = same ? fMul(frac(a, n), frac(a, n)) : fMul(frac(a, n), frac(b, n));
      const pa = probAnswer(p);
      return mk({
        stem: `A bag has ${a} ${c1}, ${b} ${c2} and ${c} white marbles. You pick a marble, put it back, and pick again. What is the probability that the first is ${c1} and the second is ${same ? c1 : c2}?`,
        ...pa,
        steps: [`There are ${n} marbles each time`, `P(${c1}) = $\\frac{${a}}{${n}}$, P(${same ? c1 : c2}) = $\\frac{${same ? a : b}}{${n}}$`, `Multiply: $\\frac{${a}}{${n}} \\times \\frac{${same ? a : b}}{${n}} = ${fTex(p)}$`],
        hints: ['The marble goes back, so the bag is the same for the second pick.', 'Multiply the probability of the first pick by the probability of the second pick.'],
        wrong: [
          [fStr(fAdd(frac(a, n), frac(same ? a : b, n))), 'adds the probabilities'],
          [fStr(fMul(frac(a, n), frac(same ? a - 1 : b, n - 1))), 'treats the draws as without replacement'],
          [fStr(frac(a + (same ? a : b), 2 * n)), 'adds the numerators and the denominators'],
        ],
      });
    }
    const p = same ? fMul(frac(a, n), frac(a - 1, n - 1)) : fMul(frac(a, n), frac(b, n - 1));
    const pa = probAnswer(p);
    const second = same ? `$\\frac{${a - 1}}{${n - 1}}$ (one ${c1} is gone)` : `$\\frac{${b}}{${n - 1}}$ (one marble is gone)`;
    return mk({
      stem: `A bag has ${a} ${c1}, ${b} ${c2} and ${c} white marbles. You pick one marble and keep it, then pick another. What is the probability that the first is ${c1} and the second is ${same ? c1 : c2}?`,
      ...pa,
      steps: [`First pick: P(${c1}) = $\\frac{${a}}{${n}}$`, `Second pick, from ${n - 1} marbles: ${second}`, `Multiply: $\\frac{${a}}{${n}} \\times \\frac{${same ? a - 1 : b}}{${n - 1}} = ${fTex(p)}$`],
      hints: ['The first marble is not put back: how many marbles are left for the second pick?', 'Multiply the first probability by the probability of the second pick given what is left in the bag.'],
      wrong: [
        [fStr(same ? fMul(frac(a, n), frac(a, n)) : fMul(frac(a, n), frac(b, n))), 'forgets that the first marble was kept'],
        [fStr(fAdd(frac(a, n), frac(same ? a - 1 : b, n - 1))), 'adds the probabilities'],
      ],
    });
  },
});

export const singleEvent = defineGenerator({
  skillId: 15,
  levels: ['Probability of one colour from a bag', 'Probability of an event not happening, or of a set of faces', 'Number of marbles from a stated probability'],
  make(rng, level) {
    const [c1, c2, c3] = rng.shuffle(COLORS).slice(0, 3) as [string, string, string];
    const a = rng.int(1, 9);
    const b = rng.int(1, 9);
    const c = rng.int(1, 9);
    const n = a + b + c;
    if (level === 1) {
      const p = frac(a, n);
      const pa = probAnswer(p);
      return mk({
        stem: `A bag has ${a} ${c1}, ${b} ${c2} and ${c} ${c3} marbles. You pick one without looking. What is the probability that it is ${c1}? Write it as a fraction.`,
        ...pa,
        steps: [`Total marbles: ${a} + ${b} + ${c} = ${n}`, `P(${c1}) = ${a} out of ${n} = $${fTex(p)}$`],
        hints: ['Probability = number of favourable outcomes ÷ number of possible outcomes.', 'How many marbles are there in all?'],
        wrong: [
          [fStr(frac(a, b + c)), `compares ${c1} with the other marbles (odds) instead of with all of them`],
          [fStr(frac(1, 3)), 'uses the number of colours'],
          [fStr(frac(b + c, n)), `gives the probability of not ${c1}`],
        ],
      });
    }
    if (level === 2) {
      if (rng.chance(0.5)) {
        const p = frac(b + c, n);
        const pa = probAnswer(p);
        return mk({
          stem: `A bag has ${a} ${c1}, ${b} ${c2} and ${c} ${c3} marbles. You pick one without looking. What is the probability that it is NOT ${c1}?`,
          ...pa,
          steps: [`Total marbles: ${n}`, `Not ${c1}: ${b} + ${c} = ${b + c} marbles`, `P(not ${c1}) = $\\frac{${b + c}}{${n}}$${p[1] !== n ? ` = $${fTex(p)}$` : ''}`],
          hints: ['Count the marbles that are any other colour.', `Or find P(${c1}) and subtract it from 1.`],
          wrong: [
            [fStr(frac(a, n)), `gives the probability of ${c1}`],
            [fStr(frac(b + c, a)), 'divides by the wrong total'],
          ],
        });
      }
      const sides = rng.pick([8, 10, 12]);
      const k = rng.int(2, sides - 2);
      const p = frac(sides - k, sides);
      const pa = probAnswer(p);
      return mk({
        stem: `A spinner has ${sides} equal sections numbered 1 to ${sides}. What is the probability of spinning a number greater than ${k}?`,
        ...pa,
        steps: [`Numbers greater than ${k}: ${k + 1} to ${sides}, that is ${sides - k} numbers`, `P = $\\frac{${sides - k}}{${sides}}$${p[1] !== sides ? ` = $${fTex(p)}$` : ''}`],
        hints: ['List the numbers that are greater than the given number.', 'Divide how many of them there are by the number of sections.'],
        wrong: [
          [fStr(frac(sides - k + 1, sides)), `includes ${k} itself`],
          [fStr(frac(k, sides)), 'counts the numbers that are not greater'],
        ],
      });
    }
    const total = rng.pick([20, 24, 30, 36, 40, 45, 48, 60]);
    const dens = [2, 3, 4, 5, 6, 8, 10, 12].filter((d) => total % d === 0);
    const d = rng.pick(dens);
    const k = rng.int(1, d - 1);
    const p = frac(k, d);
    if (p[1] === 1) return undefined;
    const count = (total * p[0]) / p[1];
    return mk({
      stem: `A jar holds ${total} marbles. The probability of picking a ${c1} marble is $${fTex(p)}$. How many ${c1} marbles are in the jar?`,
      answer: count,
      steps: [`P(${c1}) = number of ${c1} marbles ÷ ${total}`, `Number of ${c1} = $${fTex(p)}$ × ${total} = ${count}`],
      hints: ['The probability is the fraction of all the marbles that are that colour.', 'Find that fraction of the total number of marbles.'],
      wrong: [
        [p[0], 'gives the numerator of the probability'],
        [fmt(Math.round((total / p[0]) * p[1] * 100) / 100), 'divides by the fraction instead of multiplying'],
        [total - count, `counts the marbles that are not ${c1}`],
      ],
    });
  },
});

const LIKELIHOOD = ['Impossible', 'Unlikely', 'Equally likely as not', 'Likely', 'Certain'];

function likelihood(p: number): string {
  if (p === 0) return 'Impossible';
  if (p === 1) return 'Certain';
  if (p === 0.5) return 'Equally likely as not';
  return p < 0.5 ? 'Unlikely' : 'Likely';
}

export const probabilityConcepts = defineGenerator({
  skillId: 57,
  levels: ['Describe a probability in words (impossible … certain)', 'Which of two bags gives the better chance', 'Expected number of outcomes in repeated trials'],
  make(rng: Rng, level) {
    if (level === 1) {
      const forms: [string, number][] = [
        ['0', 0],
        ['1', 1],
        ['$\\frac{1}{2}$', 0.5],
        ['0.5', 0.5],
        ['50%', 0.5],
        ['$\\frac{1}{8}$', 0.125],
        ['0.2', 0.2],
        ['15%', 0.15],
        ['$\\frac{7}{8}$', 0.875],
        ['0.9', 0.9],
        ['85%', 0.85],
        ['$\\frac{2}{3}$', 2 / 3],
        ['$\\frac{1}{3}$', 1 / 3],
        ['100%', 1],
      ];
      const d = rng.int(3, 12);
      const k = rng.int(1, d - 1);
      const extra: [string, number][] = [[`$\\frac{${k}}{${d}}$`, k / d], [`${Math.round((k / d) * 100)}%`, Math.round((k / d) * 100) / 100]];
      const [shown, p] = rng.chance(0.5) ? rng.pick(forms) : rng.pick(extra);
      const ans = likelihood(p);
      return mkChoice(rng, {
        stem: `The probability of an event is ${shown}. Which word best describes the event?`,
        answer: ans,
        options: LIKELIHOOD,
        keepOrder: true,
        steps: [`A probability is between 0 (impossible) and 1 (certain); $\\frac{1}{2}$ is the middle`, `${shown} is ${p === 0 || p === 1 ? `exactly ${p}` : p === 0.5 ? 'exactly one half' : p < 0.5 ? 'less than one half' : 'more than one half'}, so the event is ${ans.toLowerCase()}`],
        hints: ['Place the probability on a line from 0 to 1.', 'Compare it with 0, with one half and with 1.'],
        wrong: LIKELIHOOD.filter((l) => l !== ans).map((l): [string, string] => [l, 'misplaces the probability between 0 and 1']).slice(0, 3),
      });
    }
    if (level === 2) {
      const a1 = rng.int(2, 8);
      const n1 = a1 + rng.int(2, 10);
      const a2 = rng.int(2, 8);
      const n2 = a2 + rng.int(2, 10);
      const p1 = a1 / n1;
      const p2 = a2 / n2;
      if (Math.abs(p1 - p2) < 0.02 || (a1 > a2) === (p1 > p2)) return undefined; // make "more red marbles" misleading
      const ans = p1 > p2 ? 'Bag A' : 'Bag B';
      return mkChoice(rng, {
        stem: `Bag A has ${a1} red marbles out of ${n1} marbles. Bag B has ${a2} red marbles out of ${n2} marbles. You pick one marble without looking. Which bag gives a better chance of picking red?`,
        answer: ans,
        options: ['Bag A', 'Bag B', 'Both are the same'],
        keepOrder: true,
        steps: [`Bag A: P(red) = ${a1}/${n1} ≈ ${fmt(Math.round(p1 * 1000) / 1000)}`, `Bag B: P(red) = ${a2}/${n2} ≈ ${fmt(Math.round(p2 * 1000) / 1000)}`, `The larger probability is in ${ans}`],
        hints: ['Having more red marbles is not enough: what matters is the fraction of marbles that are red.', 'Write each probability as a fraction or a decimal, then compare.'],
        wrong: [
          [ans === 'Bag A' ? 'Bag B' : 'Bag A', 'picks the bag with more red marbles, ignoring the totals'],
          ['Both are the same', 'cannot compare the two fractions'],
        ],
      });
    }
    const d = rng.pick([4, 5, 6, 8, 10]);
    const k = rng.int(1, d - 1);
    const p = frac(k, d);
    const trials = d * rng.int(4, 15);
    const expect = (trials * p[0]) / p[1];
    return mk({
      stem: `The probability that a spinner lands on blue is $${fTex(p)}$. If you spin it ${trials} times, how many times would you expect it to land on blue?`,
      answer: expect,
      steps: ['Expected number = probability × number of trials', `$${fTex(p)}$ × ${trials} = ${expect}`],
      hints: ['The probability tells what fraction of the spins should land on blue in the long run.', 'Find that fraction of the number of spins.'],
      wrong: [
        [p[0], 'gives the numerator of the probability'],
        [trials - expect, 'counts the spins that are not blue'],
        [fmt(Math.round((trials / p[0]) * 100) / 100), 'divides the spins by the numerator'],
      ],
    });
  },
});

export const PROBABILITY = [countingMethods, twoEvents, singleEvent, probabilityConcepts];
