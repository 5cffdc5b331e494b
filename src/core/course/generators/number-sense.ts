/**
 * Number sense: ordering, rounding, whole-number operations, estimation, factors and multiples,
 * roots, powers, scientific notation, divisibility, primes, absolute value, patterns and
 * operations on real numbers (skills 34–37, 39, 41, 43, 45, 46, 51–56, 85, 90, 91).
 */
import type { Rng } from '../../rng';
import {
  defineGenerator,
  distinctInts,
  fDecimal,
  fDiv,
  fMul,
  fStr,
  fTex,
  fmt,
  frac,
  gcd,
  lcm,
  linear,
  mk,
  mkChoice,
  paren,
  roundTo,
  type Frac,
} from './util';

const sortAsc = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const digits = (n: number) => String(n).split('').map(Number);

// ---------- 34 Ordering integers ----------

export const orderingIntegers = defineGenerator({
  skillId: 34,
  levels: ['Greatest of four integers (some negative)', 'Four integers from least to greatest', 'Six integers from greatest to least, several negative'],
  make(rng, level) {
    if (level === 1) {
      const xs = distinctInts(rng, -15, 15, 4);
      if (!xs.some((x) => x < 0) || !xs.some((x) => x > 0)) return undefined;
      const g = Math.max(...xs);
      const byAbs = xs.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a));
      return mk({
        stem: `Which number is the greatest: ${xs.join(', ')}?`,
        answer: g,
        phrasesOnly: 'greatest',
        steps: ['On a number line, numbers get greater to the right', `The number farthest right is ${g}`],
        hints: ['Picture the numbers on a number line.', 'Any positive number is greater than any negative number.'],
        wrong: [
          [byAbs, 'compares the sizes of the numbers and ignores the signs'],
          [Math.min(...xs), 'picks the least number'],
        ],
      });
    }
    const k = level === 2 ? 4 : 6;
    const xs = distinctInts(rng, level === 2 ? -12 : -60, level === 2 ? 12 : 60, k);
    if (xs.filter((x) => x < 0).length < (level === 2 ? 1 : 3) || new Set(xs.map(Math.abs)).size < k) return undefined;
    const asc = sortAsc(xs);
    const order = level === 2 ? asc : [...asc].reverse();
    const byAbs = [...xs].sort((a, b) => (level === 2 ? Math.abs(a) - Math.abs(b) : Math.abs(b) - Math.abs(a)));
    const dir = level === 2 ? 'least to greatest' : 'greatest to least';
    return mk({
      stem: `Write these numbers in order from ${dir}: ${xs.join(', ')}`,
      kind: 'list',
      answer: order.join(', '),
      steps: ['Negative numbers are less than zero and positive numbers; among negatives, the one farther from zero is less', `From ${dir}: ${order.join(', ')}`],
      hints: ['Place each number on a number line.', `Numbers to the left are less. Which is farthest ${level === 2 ? 'left' : 'right'}?`],
      wrong: [
        [byAbs.join(', '), 'orders by size and ignores the signs'],
        [[...order].reverse().join(', '), `orders from ${level === 2 ? 'greatest to least' : 'least to greatest'}`],
      ],
    });
  },
});

// ---------- 35 Ordering real numbers ----------

interface RealNum {
  tex: string;
  value: number;
}

function realPool(rng: Rng, level: 1 | 2 | 3): RealNum[] {
  if (level === 1) {
    const d = rng.pick([4, 5, 8, 20, 25]);
    const n = rng.int(1, d - 1);
    const f = frac(n, d);
    const dec = rng.int(1, 99) / 100;
    const pct = rng.int(1, 99);
    return rng.shuffle([
      { tex: `$${fTex(f)}$`, value: n / d },
      { tex: fmt(dec), value: dec },
      { tex: `${pct}%`, value: pct / 100 },
    ]);
  }
  if (level === 2) {
    const d = rng.pick([3, 4, 5, 8]);
    const n = rng.int(1, d - 1);
    const w = rng.int(1, 2);
    return rng.shuffle([
      { tex: `$-${fTex(frac(n, d))}$`, value: -n / d },
      { tex: fmt(-rng.int(1, 30) / 10), value: 0 },
      { tex: `$${w}${fTex(frac(n, d))}$`, value: w + n / d },
      { tex: fmt(rng.int(10, 299) / 100), value: 0 },
    ].map((r) => (r.value === 0 ? { ...r, value: Number(r.tex) } : r)));
  }
  const k = rng.int(2, 9);
  const n = k * k + rng.int(1, 2 * k);
  const root = Math.sqrt(n);
  const dec = roundTo(root + rng.pick([-0.15, -0.05, 0.05, 0.15]), 2);
  const num = Math.round(root * 3) + rng.pick([-1, 1]);
  if (num % 3 === 0) return realPool(rng, level);
  const out: RealNum[] = [
    { tex: `$\\sqrt{${n}}$`, value: root },
    { tex: fmt(dec), value: dec },
    { tex: `$\\frac{${num}}{3}$`, value: num / 3 },
  ];
  if (k === 3) out.push({ tex: '$\\pi$', value: Math.PI });
  else out.push({ tex: fmt(roundTo(root, 1)), value: roundTo(root, 1) });
  return rng.shuffle(out);
}

export const orderingReals = defineGenerator({
  skillId: 35,
  levels: ['A fraction, a decimal and a percent from least to greatest', 'Negative and mixed numbers with decimals, least to greatest', 'Square roots, fractions, decimals (and π) close together'],
  make(rng, level) {
    const pool = realPool(rng, level);
    const values = pool.map((p) => p.value);
    const sortedV = sortAsc(values);
    if (sortedV.some((v, i) => i > 0 && v - sortedV[i - 1]! < 0.005)) return undefined;
    const letters = pool.map((_, i) => String.fromCharCode(65 + i));
    const order = [...pool.keys()].sort((a, b) => values[a]! - values[b]!);
    const ans = order.map((i) => letters[i]).join(', ');
    const asWritten = letters.join(', ');
    const byDigits = [...pool.keys()].sort((a, b) => Math.abs(values[a]!) - Math.abs(values[b]!)).map((i) => letters[i]).join(', ');
    const listing = pool.map((p, i) => `${letters[i]}: ${p.tex}`).join(';   ');
    return mk({
      stem: `Order these numbers from least to greatest. Answer with their letters (for example A, C, B).   ${listing}`,
      kind: 'text',
      answer: ans,
      accepted: [ans.replace(/, /g, ''), ans.replace(/,/g, '')],
      steps: [`Write each number as a decimal: ${pool.map((p, i) => `${letters[i]} ≈ ${fmt(roundTo(p.value, 3))}`).join(', ')}`, `Least to greatest: ${ans}`],
      hints: ['Change every number into the same form, such as a decimal, before comparing.', level === 3 ? 'For a square root, find the two perfect squares it lies between, then estimate.' : 'Compare the decimals digit by digit from the left, and remember negatives are less than zero.'],
      wrong: [
        [order.map((i) => letters[i]).reverse().join(', '), 'orders from greatest to least'],
        [byDigits, 'orders by size ignoring signs'],
        [asWritten, 'keeps the order in which the numbers are written'],
      ],
    });
  },
});

// ---------- 36 Rounding ----------

export const rounding = defineGenerator({
  skillId: 36,
  levels: ['Whole number to the nearest ten or hundred', 'Decimal to the nearest tenth or hundredth', 'Rounding that carries into the next place (9s)'],
  make(rng, level) {
    if (level === 1) {
      const n = rng.int(101, 9999);
      const place = rng.pick([10, 100]);
      const r = Math.round(n / place) * place;
      if (n % place === place / 2) return undefined;
      return mk({
        stem: `Round ${n} to the nearest ${place === 10 ? 'ten' : 'hundred'}.`,
        answer: r,
        steps: [`The ${place === 10 ? 'ones' : 'tens'} digit is ${Math.floor((n % place) / (place / 10))}`, `${Math.floor((n % place) / (place / 10)) >= 5 ? 'It is 5 or more, so round up' : 'It is less than 5, so round down'}: ${r}`],
        hints: [`Find the ${place === 10 ? 'tens' : 'hundreds'} digit and look at the digit just to its right.`, 'If that digit is 5 or more, round up; otherwise keep the digit and replace what follows with zeros.'],
        wrong: [
          [Math.floor(n / place) * place === r ? Math.floor(n / place) * place + place : Math.floor(n / place) * place, 'rounds in the wrong direction'],
          [Math.round(n / (place * 10)) * place * 10, 'rounds to the wrong place'],
        ],
      });
    }
    if (level === 2) {
      const places = rng.pick([1, 2]);
      const n = rng.int(1001, 99999) / 1000;
      const r = roundTo(n, places);
      const name = places === 1 ? 'tenth' : 'hundredth';
      if (Math.round(n * 10 ** (places + 1)) % 10 === 5 && Math.round(n * 1000) % 10 ** (2 - places) === 0) return undefined;
      return mk({
        stem: `Round ${fmt(n)} to the nearest ${name}.`,
        answer: r.toFixed(places),
        accepted: [fmt(r)],
        steps: [`The ${name}s digit is the ${places === 1 ? 'first' : 'second'} digit after the decimal point`, `Look at the next digit: ${fmt(n).split('.')[1]?.[places] ?? '0'}`, `Rounded: ${r.toFixed(places)}`],
        hints: [`Find the ${name}s place, then look one digit to its right.`, '5 or more rounds up; less than 5 keeps the digit. Drop everything after it.'],
        wrong: [
          [(Math.trunc(n * 10 ** places) / 10 ** places).toFixed(places), 'cuts off the digits without rounding'],
          [roundTo(n, places === 1 ? 2 : 1).toFixed(places === 1 ? 2 : 1), 'rounds to the wrong place'],
          [fmt(Math.round(n)), 'rounds to a whole number'],
        ],
      });
    }
    if (rng.chance(0.5)) {
      const w = rng.int(1, 49);
      const n = w + rng.int(951, 999) / 1000;
      const r = roundTo(n, 1);
      return mk({
        stem: `Round ${fmt(n)} to the nearest tenth.`,
        answer: r.toFixed(1),
        accepted: [fmt(r)],
        steps: ['The tenths digit is 9', `The next digit is ${fmt(n).split('.')[1]![1]}, which is 5 or more, so round up`, '9 tenths + 1 tenth = 10 tenths = 1 whole: carry 1 into the ones', `${fmt(n)} rounds to ${r.toFixed(1)}`],
        hints: ['Look at the hundredths digit to decide whether to round up.', 'Rounding a 9 up makes it 10: carry 1 into the ones place.'],
        wrong: [
          [`${w}.10`, 'writes 10 tenths after the decimal point'],
          [`${w}.9`, 'rounds down'],
          [fmt(w + 0.1), 'carries into the wrong place'],
        ],
      });
    }
    const hundreds = rng.int(10, 99);
    const n = hundreds * 1000 + rng.int(950, 999);
    const r = Math.round(n / 100) * 100;
    return mk({
      stem: `Round ${n.toLocaleString('en-US')} to the nearest hundred.`,
      answer: r,
      accepted: [r.toLocaleString('en-US')],
      numeric: [String(r), r.toLocaleString('en-US')],
      steps: ['The hundreds digit is 9', `The tens digit is ${Math.floor((n % 100) / 10)}, which is 5 or more, so round up`, '9 hundreds + 1 hundred = 10 hundreds: carry 1 into the thousands', `${Math.floor(n / 100) * 100} + 100 = ${r.toLocaleString('en-US')}`],
      hints: ['Find the hundreds digit and look at the tens digit.', 'Rounding up a 9 carries 1 into the thousands place.'],
      wrong: [
        [Math.floor(n / 100) * 100, 'rounds down'],
        [hundreds * 1000 + 1000 + 900, 'carries but keeps the 9'],
        [Math.round(n / 1000) * 1000 === r ? r + 1000 : Math.round(n / 1000) * 1000, 'rounds to the wrong place'],
      ],
    });
  },
});

// ---------- 37, 45, 43 Whole-number operations ----------

/** Column addition that forgets to carry (each column's sum mod 10). */
function addNoCarry(a: number, b: number): number {
  const da = digits(a).reverse();
  const db = digits(b).reverse();
  let out = 0;
  for (let i = 0; i < Math.max(da.length, db.length); i++) out += (((da[i] ?? 0) + (db[i] ?? 0)) % 10) * 10 ** i;
  return out;
}
/** Column subtraction that takes the smaller digit from the larger in every column. */
function smallerFromLarger(a: number, b: number): number {
  const da = digits(a).reverse();
  const db = digits(b).reverse();
  let out = 0;
  for (let i = 0; i < da.length; i++) out += Math.abs((da[i] ?? 0) - (db[i] ?? 0)) * 10 ** i;
  return out;
}
/** Column subtraction that borrows but forgets to reduce the digit it borrowed from. */
function borrowNoDecrement(a: number, b: number): number {
  const da = digits(a).reverse();
  const db = digits(b).reverse();
  let out = 0;
  for (let i = 0; i < da.length; i++) {
    const x = da[i]!;
    const y = db[i] ?? 0;
    out += (x >= y ? x - y : x + 10 - y) * 10 ** i;
  }
  return out;
}
const needsCarry = (a: number, b: number) => addNoCarry(a, b) !== a + b;

export const addWhole = defineGenerator({
  skillId: 37,
  levels: ['Two two-digit numbers', 'Two three-digit numbers with regrouping', 'Three four-digit numbers in a word problem'],
  make(rng, level) {
    if (level === 1) {
      const a = rng.int(12, 89);
      const b = rng.int(12, 89);
      return mk({
        stem: `What is $${a} + ${b}$?`,
        answer: a + b,
        steps: [`Ones: ${a % 10} + ${b % 10} = ${(a % 10) + (b % 10)}${(a % 10) + (b % 10) >= 10 ? ', write the ones digit and carry 1 ten' : ''}`, `Tens: ${Math.floor(a / 10)} + ${Math.floor(b / 10)}${(a % 10) + (b % 10) >= 10 ? ' + 1' : ''} = ${Math.floor(a / 10) + Math.floor(b / 10) + ((a % 10) + (b % 10) >= 10 ? 1 : 0)}`, `${a} + ${b} = ${a + b}`],
        hints: ['Line the numbers up by place value and add the ones first.', 'If the ones add to 10 or more, carry the ten into the tens column.'],
        wrong: [
          [addNoCarry(a, b), 'forgets to carry'],
          [a + b + 10, 'carries when it should not, or twice'],
        ],
      });
    }
    if (level === 2) {
      const a = rng.int(145, 899);
      const b = rng.int(145, 899);
      if (!needsCarry(a, b)) return undefined;
      return mk({
        stem: `What is $${a} + ${b}$?`,
        answer: a + b,
        steps: [
          `Ones: ${a % 10} + ${b % 10} = ${(a % 10) + (b % 10)}${(a % 10) + (b % 10) >= 10 ? ', carry 1' : ''}`,
          `Tens: ${Math.floor(a / 10) % 10} + ${Math.floor(b / 10) % 10}${(a % 10) + (b % 10) >= 10 ? ' + 1' : ''} = ${(Math.floor(a / 10) % 10) + (Math.floor(b / 10) % 10) + ((a % 10) + (b % 10) >= 10 ? 1 : 0)}${(Math.floor(a / 10) % 10) + (Math.floor(b / 10) % 10) + ((a % 10) + (b % 10) >= 10 ? 1 : 0) >= 10 ? ', carry 1' : ''}`,
          `Hundreds, then the total: ${a} + ${b} = ${a + b}`,
        ],
        hints: ['Line up ones under ones, tens under tens, hundreds under hundreds.', 'When a column adds to 10 or more, carry 1 to the next column to the left.'],
        wrong: [
          [addNoCarry(a, b), 'forgets to carry'],
          [a + b - 100, 'loses a carried hundred'],
        ],
      });
    }
    const xs = [rng.int(1200, 4999), rng.int(1200, 4999), rng.int(1200, 4999)];
    const s = xs[0]! + xs[1]! + xs[2]!;
    return mk({
      stem: `A school collected ${xs[0]} cans in September, ${xs[1]} in October and ${xs[2]} in November. How many cans did it collect in all?`,
      answer: s,
      steps: [`${xs[0]} + ${xs[1]} = ${xs[0]! + xs[1]!}`, `${xs[0]! + xs[1]!} + ${xs[2]} = ${s}`],
      hints: ['"In all" means add the three amounts.', 'Add two numbers first, then add the third, lining up the place values.'],
      wrong: [
        [addNoCarry(addNoCarry(xs[0]!, xs[1]!), xs[2]!), 'forgets to carry'],
        [xs[0]! + xs[1]!, 'adds only two of the months'],
      ],
    });
  },
});

export const subtractWhole = defineGenerator({
  skillId: 45,
  levels: ['Two-digit subtraction with regrouping', 'Three-digit subtraction with regrouping in two columns', 'Subtracting across zeros (e.g. 5003 − 2678)'],
  make(rng, level) {
    let a: number;
    let b: number;
    if (level === 1) {
      a = rng.int(31, 98);
      b = rng.int(12, a - 5);
      if (a % 10 >= b % 10) return undefined;
    } else if (level === 2) {
      a = rng.int(300, 950);
      b = rng.int(120, a - 50);
      if (a % 10 >= b % 10 || Math.floor(a / 10) % 10 >= Math.floor(b / 10) % 10) return undefined;
    } else {
      a = rng.int(2, 9) * 1000 + rng.pick([0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      b = rng.int(1000, a - 100);
      if (a % 10 >= b % 10) return undefined;
    }
    const d = a - b;
    return mk({
      stem: level === 3 ? `A library had ${a} books and lent out ${b}. How many books are left? ($${a} - ${b}$)` : `What is $${a} - ${b}$?`,
      answer: d,
      steps: [
        level === 3 ? `The ones digit ${a % 10} is less than ${b % 10}, and the tens and hundreds are 0: borrow from the thousands` : `${a % 10} is less than ${b % 10}, so regroup 1 ten as 10 ones`,
        level === 3 ? `${a} = ${Math.floor(a / 1000) - 1} thousands + 9 hundreds + 9 tens + ${(a % 10) + 10} ones` : 'Subtract column by column, regrouping where the top digit is smaller',
        `${a} - ${b} = ${d}`,
      ],
      hints: ['Line the numbers up by place value and start with the ones.', level === 3 ? 'When the next columns are 0, borrow from the first non-zero digit and pass it along (1000 = 999 + 1).' : 'When the top digit is smaller, borrow 1 from the next column to the left.'],
      wrong: [
        [smallerFromLarger(a, b), 'subtracts the smaller digit from the larger one in each column'],
        [borrowNoDecrement(a, b), 'borrows without taking 1 away from the next column'],
      ],
    });
  },
});

export const multiplyWhole = defineGenerator({
  skillId: 43,
  levels: ['Two-digit × one-digit', 'Two-digit × two-digit', 'Three-digit × two-digit'],
  make(rng, level) {
    const a = level === 3 ? rng.int(112, 899) : rng.int(13, 98);
    const b = level === 1 ? rng.int(3, 9) : rng.int(12, 89);
    const p = a * b;
    if (level === 1) {
      return mk({
        stem: `What is $${a} \\times ${b}$?`,
        answer: p,
        steps: [`${a} × ${b} = ${Math.floor(a / 10) * 10} × ${b} + ${a % 10} × ${b} = ${Math.floor(a / 10) * 10 * b} + ${(a % 10) * b}`, `= ${p}`],
        hints: ['Break the two-digit number into tens and ones.', 'Multiply each part, then add the products.'],
        wrong: [
          [Math.floor(a / 10) * b * 10 + ((a % 10) * b) % 10, 'forgets to carry'],
          [Math.floor(a / 10) * b + (a % 10) * b, 'multiplies the tens digit as if it were ones'],
        ],
      });
    }
    const u = b % 10;
    const t = Math.floor(b / 10);
    return mk({
      stem: `What is $${a} \\times ${b}$?`,
      answer: p,
      steps: [`Split ${b} into ${t * 10} + ${u}`, `${a} × ${u} = ${a * u}`, `${a} × ${t * 10} = ${a * t * 10}`, `${a * u} + ${a * t * 10} = ${p}`],
      hints: ['Multiply by the ones digit, then by the tens digit, then add the two partial products.', 'When you multiply by the tens digit you are multiplying by a multiple of 10: the partial product ends in 0.'],
      wrong: [
        [a * u + a * t, 'forgets the placeholder zero in the second partial product'],
        [a * u + a * t * 100, 'shifts the second partial product too far'],
        [a * b + a, 'adds an extra copy of the first number'],
      ],
    });
  },
});

// ---------- 39 Estimation ----------

export const estimation = defineGenerator({
  skillId: 39,
  levels: ['Estimate a sum by rounding each number to the nearest ten', 'Estimate a product by rounding each factor to its greatest place', 'Estimate with decimals by rounding to the nearest whole number'],
  make(rng, level) {
    if (level === 1) {
      const a = rng.int(11, 99);
      const b = rng.int(11, 99);
      if (a % 10 === 5 || b % 10 === 5 || a % 10 === 0 || b % 10 === 0) return undefined;
      const ra = Math.round(a / 10) * 10;
      const rb = Math.round(b / 10) * 10;
      if (ra + rb === a + b) return undefined;
      return mk({
        stem: `Estimate $${a} + ${b}$ by rounding each number to the nearest ten.`,
        answer: ra + rb,
        steps: [`${a} rounds to ${ra}; ${b} rounds to ${rb}`, `${ra} + ${rb} = ${ra + rb}`],
        hints: ['Round each number first, then add the rounded numbers.', 'Look at the ones digit: 5 or more rounds up.'],
        wrong: [
          [a + b, 'works out the exact sum instead of estimating'],
          [Math.round((a + b) / 10) * 10 === ra + rb ? ra + b : Math.round((a + b) / 10) * 10, 'rounds only one number or rounds the exact sum'],
        ],
      });
    }
    if (level === 2) {
      const a = rng.int(112, 989);
      const b = rng.int(12, 98);
      const lead = (n: number) => {
        const p = 10 ** (String(n).length - 1);
        return Math.round(n / p) * p;
      };
      const ra = lead(a);
      const rb = lead(b);
      if (String(a)[1] === '5' || String(b)[1] === '5' || ra === a || rb === b) return undefined;
      return mk({
        stem: `Estimate $${a} \\times ${b}$ by rounding each number to its greatest place value.`,
        answer: ra * rb,
        steps: [`${a} rounds to ${ra}; ${b} rounds to ${rb}`, `${ra} × ${rb} = ${ra * rb}`],
        hints: ['The greatest place of a three-digit number is the hundreds; of a two-digit number, the tens.', 'Round both numbers, then multiply using the basic fact and count the zeros.'],
        wrong: [
          [a * b, 'computes the exact product'],
          [Math.round(a / 10) * 10 * rb, 'rounds to the nearest ten instead'],
          [(ra * rb) / 10, 'drops a zero when multiplying'],
        ],
      });
    }
    const a = rng.int(11, 99) / 10;
    const b = rng.int(11, 99) / 10;
    if ([a, b].some((v) => Math.round(v * 10) % 10 === 5 || Math.round(v * 10) % 10 === 0)) return undefined;
    const ra = Math.round(a);
    const rb = Math.round(b);
    if (ra === 0 || rb === 0) return undefined;
    return mk({
      stem: `Estimate $${fmt(a)} \\times ${fmt(b)}$ by rounding each number to the nearest whole number.`,
      answer: ra * rb,
      steps: [`${fmt(a)} rounds to ${ra}; ${fmt(b)} rounds to ${rb}`, `${ra} × ${rb} = ${ra * rb}`],
      hints: ['Look at the tenths digit of each number to decide how to round.', 'Multiply the two rounded whole numbers.'],
      wrong: [
        [fmt(roundTo(a * b, 2)), 'computes the exact product'],
        [Math.trunc(a) * Math.trunc(b), 'drops the decimals instead of rounding'],
      ],
    });
  },
});

// ---------- 41 LCM, 90 GCF ----------

function lcmSteps(xs: number[]): string[] {
  const l = xs.reduce(lcm);
  return [...xs.map((x) => `Multiples of ${x}: ${Array.from({ length: Math.min(l / x, 6) }, (_, i) => x * (i + 1)).join(', ')}${l / x > 6 ? ', …' : ''}`), `The least multiple they share is ${l}`];
}

export const leastCommonMultiple = defineGenerator({
  skillId: 41,
  levels: ['LCM of two numbers up to 12', 'LCM of two numbers up to 30', 'LCM of three numbers, or a "when do they meet again" problem'],
  make(rng, level) {
    if (level < 3) {
      const hi = level === 1 ? 12 : 30;
      const [a, b] = distinctInts(rng, level === 1 ? 2 : 6, hi, 2) as [number, number];
      const l = lcm(a, b);
      if (l === a * b && level === 2 && rng.chance(0.7)) return undefined;
      if (l === Math.max(a, b)) return undefined;
      return mk({
        stem: `What is the least common multiple of ${a} and ${b}?`,
        answer: l,
        steps: lcmSteps([a, b]),
        hints: ['List the multiples of each number.', 'Look for the smallest number that appears in both lists.'],
        wrong: [
          [a * b, 'multiplies the numbers (a common multiple, not always the least)'],
          [gcd(a, b), 'gives the greatest common factor'],
        ],
      });
    }
    if (rng.chance(0.5)) {
      const xs = distinctInts(rng, 2, 15, 3).sort((x, y) => x - y);
      const l = xs.reduce(lcm);
      if (l > 200 || l === xs[2]) return undefined;
      return mk({
        stem: `What is the least common multiple of ${xs.join(', ')}?`,
        answer: l,
        steps: lcmSteps(xs),
        hints: ['A common multiple must be a multiple of all three numbers.', 'Find the LCM of two of them, then the LCM of that result and the third.'],
        wrong: [
          [xs[0]! * xs[1]! * xs[2]!, 'multiplies all three'],
          [lcm(xs[0]!, xs[1]!), 'uses only two of the numbers'],
        ],
      });
    }
    const [a, b] = distinctInts(rng, 6, 25, 2) as [number, number];
    const l = lcm(a, b);
    if (l === a * b || l > 150) return undefined;
    return mk({
      stem: `Bus A leaves the station every ${a} minutes and bus B every ${b} minutes. They both leave at 8:00. After how many minutes do they next leave together?`,
      answer: l,
      steps: lcmSteps([a, b]),
      hints: ['List the times each bus leaves, in minutes after 8:00.', 'They leave together at a time that is in both lists: find the first one.'],
      wrong: [
        [a * b, 'multiplies the two times'],
        [a + b, 'adds the two times'],
        [gcd(a, b), 'gives the greatest common factor'],
      ],
    });
  },
});

function factorsOf(n: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) out.push(d);
  return out;
}

export const greatestCommonFactor = defineGenerator({
  skillId: 90,
  levels: ['GCF of two numbers up to 30', 'GCF of two numbers up to 100', 'GCF of three numbers, or equal groups in a word problem'],
  make(rng, level) {
    if (level < 3) {
      const g = level === 1 ? rng.int(2, 6) : rng.int(6, 24);
      const [p, q] = distinctInts(rng, 1, level === 1 ? 5 : 9, 2) as [number, number];
      if (gcd(p, q) !== 1) return undefined;
      const a = g * p;
      const b = g * q;
      if (Math.max(a, b) > (level === 1 ? 30 : 150) || Math.min(a, b) === g || (level === 2 && Math.max(a, b) < 60)) return undefined;
      return mk({
        stem: `What is the greatest common factor of ${a} and ${b}?`,
        answer: g,
        steps: [`Factors of ${a}: ${factorsOf(a).join(', ')}`, `Factors of ${b}: ${factorsOf(b).join(', ')}`, `The greatest factor in both lists is ${g}`],
        hints: ['List all the factors of each number.', 'Find the largest number that is in both lists.'],
        wrong: [
          [lcm(a, b), 'gives the least common multiple'],
          [Math.min(a, b), 'gives the smaller number'],
          [factorsOf(g).length > 2 ? factorsOf(g)[factorsOf(g).length - 2]! : 1, 'stops at a common factor that is not the greatest'],
        ],
      });
    }
    const g = rng.int(2, 12);
    const ps = distinctInts(rng, 2, 9, 3);
    if (ps.reduce(gcd) !== 1) return undefined;
    const xs = ps.map((p) => p * g);
    if (rng.chance(0.5)) {
      return mk({
        stem: `What is the greatest common factor of ${xs.join(', ')}?`,
        answer: g,
        steps: [...xs.map((x) => `Factors of ${x}: ${factorsOf(x).join(', ')}`), `The greatest factor common to all three is ${g}`],
        hints: ['A common factor must divide every one of the numbers.', 'Find the GCF of two numbers, then check it against the third.'],
        wrong: [
          [gcd(xs[0]!, xs[1]!), 'uses only the first two numbers'],
          [Math.min(...xs), 'gives the smallest number'],
        ],
      });
    }
    const [a, b] = xs as [number, number];
    return mk({
      stem: `Ana has ${a} pencils and ${b} erasers. She wants to make identical kits with no items left over, using as many kits as possible. How many kits can she make?`,
      answer: gcd(a, b),
      steps: [`The number of kits must divide both ${a} and ${b}`, `Factors of ${a}: ${factorsOf(a).join(', ')}; factors of ${b}: ${factorsOf(b).join(', ')}`, `The greatest common factor is ${gcd(a, b)}`],
      hints: ['Each kit must get the same number of pencils and the same number of erasers.', 'The number of kits has to be a factor of both numbers; you want the largest such factor.'],
      wrong: [
        [lcm(a, b), 'finds the least common multiple'],
        [a + b, 'adds the items'],
      ],
    });
  },
});

// ---------- 46 Square roots ----------

export const squareRoot = defineGenerator({
  skillId: 46,
  levels: ['Square root of a perfect square up to 225', 'Two consecutive whole numbers a square root lies between', 'Simplify a square root (simplest radical form)'],
  make(rng, level) {
    if (level === 1) {
      const r = rng.int(2, 20);
      return mk({
        stem: rng.chance(0.5) ? `What is $\\sqrt{${r * r}}$?` : `What is the positive square root of ${r * r}?`,
        answer: r,
        steps: [`Find the number that times itself gives ${r * r}`, `${r} × ${r} = ${r * r}, so $\\sqrt{${r * r}} = ${r}$`],
        hints: ['The square root of a number is the number that, multiplied by itself, gives it.', 'Try squaring some whole numbers until you reach the number under the root.'],
        wrong: [
          [(r * r) / 2, 'divides by 2 instead of taking the square root'],
          [r * r * r * r, 'squares the number instead'],
        ],
      });
    }
    if (level === 2) {
      const k = rng.int(3, 14);
      const n = k * k + rng.int(1, 2 * k);
      return mk({
        stem: `Between which two consecutive whole numbers is $\\sqrt{${n}}$? Write the smaller number first.`,
        kind: 'list',
        answer: `${k}, ${k + 1}`,
        accepted: [`${k} and ${k + 1}`],
        phrases: [`${k} and ${k + 1}`, `between ${k} and ${k + 1}`],
        steps: [`${k}^2 = ${k * k} and ${k + 1}^2 = ${(k + 1) * (k + 1)}`, `${k * k} < ${n} < ${(k + 1) * (k + 1)}, so ${k} < $\\sqrt{${n}}$ < ${k + 1}`],
        hints: ['Find the perfect squares just below and just above the number.', 'The square root lies between the square roots of those two perfect squares.'],
        wrong: [
          [`${Math.floor(n / 2)}, ${Math.floor(n / 2) + 1}`, 'halves the number instead of taking the square root'],
          [`${k - 1}, ${k}`, 'picks the pair one too low'],
          [`${k + 1}, ${k}`, 'writes the larger number first'],
        ],
      });
    }
    const free = rng.pick([2, 3, 5, 6, 7, 10, 11]);
    const out = rng.int(2, 7);
    const n = out * out * free;
    const partial = [2, 3, 4, 5, 6].filter((d) => d < out && out % d === 0 && n % (d * d) === 0);
    const wrongs: [string, string][] = [
      [`${out * free}`, 'multiplies instead of taking the root'],
      [`${out}√${free * out}`, 'takes a factor out without removing it from under the root'],
    ];
    if (partial.length) {
      const d = partial[0]!;
      wrongs.unshift([`${d}√${n / (d * d)}`, 'takes out a square factor that is not the largest one']);
    }
    return mk({
      stem: `Write $\\sqrt{${n}}$ in simplest radical form.`,
      kind: 'expression',
      format: 'radical',
      answer: `${out}√${free}`,
      accepted: [`${out}sqrt(${free})`],
      numeric: [`${out}√${free}`],
      phrases: [`${out} sqrt ${free}`],
      steps: [`Find the largest perfect square factor: ${n} = ${out * out} × ${free}`, `$\\sqrt{${n}} = \\sqrt{${out * out}} \\times \\sqrt{${free}}$`, `$= ${out}\\sqrt{${free}}$`],
      hints: ['Look for a perfect square (4, 9, 16, 25, …) that divides the number.', 'Use the largest such square: its root comes out in front of the radical.'],
      wrong: wrongs,
    });
  },
});

// ---------- 51 Scientific notation ----------

function sciTex(m: number, e: number): string {
  return `${fmt(m)} \\times 10^{${e}}`;
}
function sciPlain(m: number, e: number): string {
  return `${fmt(m)} × 10^${e}`;
}
/** m × 10^e written out in full ("0.00000024", "24000000"), never in e-notation. */
function standard(m: number, e: number): string {
  const v = Number(`${m}e${e}`);
  return e < 0 ? v.toFixed(-e + 2).replace(/0+$/, '').replace(/\.$/, '') : fmt(v);
}
const commas = (s: string) => (s.includes('.') ? s : Number(s).toLocaleString('en-US'));

export const scientificNotation = defineGenerator({
  skillId: 51,
  levels: ['Scientific notation to standard form (positive powers)', 'A large number in scientific notation', 'A small decimal in scientific notation (negative power)'],
  make(rng, level) {
    const m = rng.int(11, 99) / 10;
    if (level === 1) {
      const e = rng.int(3, 7);
      const std = standard(m, e);
      return mk({
        stem: `Write $${sciTex(m, e)}$ in standard form.`,
        answer: std,
        accepted: [commas(std)],
        numeric: [std, commas(std)],
        steps: [`Multiplying by $10^{${e}}$ moves the decimal point ${e} places to the right`, `${fmt(m)} → ${commas(std)}`],
        hints: ['The power of 10 tells you how many places to move the decimal point.', 'A positive power makes the number larger: move the point to the right and fill with zeros.'],
        wrong: [
          [standard(m, e - 1), 'moves the decimal point one place too few'],
          [`${fmt(m * 10)}${'0'.repeat(e)}`, 'writes the digits and then appends as many zeros as the power'],
          [standard(m, -e), 'moves the decimal point the wrong way'],
        ],
      });
    }
    const e = level === 2 ? rng.int(4, 9) : -rng.int(2, 6);
    const std = standard(m, e);
    const wrongMantissa = `${fmt(m * 10)} × 10^${e - 1}`;
    return mk({
      stem: `Write ${level === 2 ? commas(std) : std} in scientific notation.`,
      format: 'scientific',
      answer: sciPlain(m, e),
      accepted: [`${fmt(m)} x 10^${e}`, `${fmt(m)}*10^${e}`],
      numeric: [],
      phrases: [sciPlain(m, e), `${fmt(m)} x 10^${e}`, `${fmt(m)}*10^${e}`, `10^${e}`, `10 to the ${e}`],
      steps: [
        `Move the decimal point so that exactly one non-zero digit is in front of it: ${fmt(m)}`,
        `The point moved ${Math.abs(e)} places to the ${e > 0 ? 'left' : 'right'}, so the power is ${e}`,
        `${sciPlain(m, e)}`,
      ],
      hints: ['Scientific notation is a number from 1 up to (but not including) 10, times a power of 10.', e > 0 ? 'Count how many places the decimal point moves to the left.' : 'Count how many places the decimal point moves to the right; a small number needs a negative power.'],
      wrong: [
        [`${fmt(m)} × 10^${-e}`, 'gets the sign of the power wrong'],
        [`${fmt(m)} × 10^${e > 0 ? e + 1 : e - 1}`, 'miscounts the places'],
        [wrongMantissa, 'leaves two digits before the decimal point'],
      ],
    });
  },
});

// ---------- 52 Divisibility ----------

const RULES: Record<number, string> = {
  2: 'its last digit is even',
  3: 'the sum of its digits is divisible by 3',
  4: 'its last two digits form a number divisible by 4',
  5: 'its last digit is 0 or 5',
  6: 'it is divisible by both 2 and 3',
  9: 'the sum of its digits is divisible by 9',
  10: 'its last digit is 0',
};
const digitSum = (n: number) => digits(n).reduce((a, b) => a + b, 0);

export const divisibility = defineGenerator({
  skillId: 52,
  levels: ['Which number is divisible by 2, 3, 5 or 10', 'Which number is divisible by 4, 6 or 9', 'Smallest missing digit that makes a number divisible by 3, 6 or 9'],
  make(rng, level) {
    if (level < 3) {
      const d = level === 1 ? rng.pick([3, 5, 2, 10]) : rng.pick([4, 6, 9]);
      const hi = level === 1 ? 999 : 9999;
      const yes = d * rng.int(Math.ceil(100 / d), Math.floor(hi / d));
      const no = new Set<number>();
      while (no.size < 3) {
        const c = rng.int(100, hi);
        // decoys that pass part of the test (e.g. even but not divisible by 4, digit sum divisible by 3 but not 9)
        if (c % d !== 0 && !no.has(c) && (d !== 9 || rng.chance(0.5) || digitSum(c) % 3 === 0) && (d !== 4 || c % 2 === 0 || rng.chance(0.3))) no.add(c);
      }
      const decoys = [...no].map(String);
      return mkChoice(rng, {
        stem: `Which of these numbers is divisible by ${d}?`,
        answer: String(yes),
        options: [String(yes), ...decoys],
        phrasesOnly: 'divisible',
        steps: [`A number is divisible by ${d} when ${RULES[d]}`, `Only ${yes} passes: ${d === 3 || d === 9 || d === 6 ? `its digits add to ${digitSum(yes)}` : `it ends in ${yes % 100}`}`],
        hints: [`Use the divisibility rule for ${d}.`, d === 6 ? 'Check both rules: the one for 2 and the one for 3.' : d === 4 ? 'Only the last two digits matter for 4.' : 'Check each number with the rule before dividing.'],
        wrong: decoys.slice(0, 2).map((x): [string, string] => [x, 'applies the wrong divisibility rule or only part of it']),
      });
    }
    const d = rng.pick([3, 6, 9]);
    const left = rng.int(1, 9);
    const right = d === 6 ? rng.pick([0, 2, 4, 6, 8]) : rng.int(0, 9);
    const fits = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((x) => (left * 100 + x * 10 + right) % d === 0);
    if (fits.length === 0) return undefined;
    const ans = fits[0]!;
    const by3 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((x) => (left + x + right) % 3 === 0 && !fits.includes(x));
    return mk({
      stem: `What is the smallest digit that can go in the blank so that ${left}_${right} is divisible by ${d}?`,
      answer: ans,
      phrases: [`${left}${ans}${right}`],
      steps: [`A number is divisible by ${d} when ${RULES[d]}`, `The known digits add to ${left + right}; try 0, 1, 2, … in the blank`, `The smallest digit that works is ${ans}: ${left}${ans}${right}`],
      hints: [`Use the divisibility rule for ${d}: what must the digits add up to?`, 'Try the digits from 0 upwards and stop at the first that works.'],
      wrong: [
        ...(by3.length ? [[by3[0]!, 'uses the rule for 3 when a stronger rule is needed'] as [number, string]] : []),
        ...(fits.length > 1 ? [[fits[1]!, 'finds a digit that works but not the smallest'] as [number, string]] : []),
        [(left + right) % d, 'gives the remainder of the digit sum'],
        [d, 'writes the divisor itself in the blank'],
      ],
    });
  },
});

// ---------- 53 Primes ----------

const isPrime = (n: number) => {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
};
function primeFactors(n: number): number[] {
  const out: number[] = [];
  let m = n;
  for (let d = 2; m > 1; d++) while (m % d === 0) {
    out.push(d);
    m /= d;
  }
  return out;
}
function powerForm(fs: number[]): string {
  const c = new Map<number, number>();
  for (const f of fs) c.set(f, (c.get(f) ?? 0) + 1);
  return [...c.entries()].map(([p, k]) => (k > 1 ? `${p}^${k}` : String(p))).join(' × ');
}

export const primeNumbers = defineGenerator({
  skillId: 53,
  levels: ['Which number is prime', 'How many primes lie between two numbers', 'Prime factorization'],
  make(rng, level) {
    if (level === 1) {
      const primes = [11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97];
      const tricky = [1, 9, 15, 21, 27, 33, 39, 45, 49, 51, 57, 63, 69, 77, 81, 87, 91, 93];
      const p = rng.pick(primes);
      const decoys = rng.shuffle(tricky).slice(0, 3).map(String);
      return mkChoice(rng, {
        stem: 'Which of these numbers is prime?',
        answer: String(p),
        options: [String(p), ...decoys],
        phrasesOnly: 'prime',
        steps: ['A prime number has exactly two factors: 1 and itself', `${decoys.map((x) => (x === '1' ? '1 has only one factor' : `${x} = ${primeFactors(Number(x)).join(' × ')}`)).join('; ')}`, `${p} has no factors other than 1 and ${p}, so it is prime`],
        hints: ['A prime number has exactly two factors.', 'Test each number for division by 2, 3, 5 and 7. Odd numbers are not always prime.'],
        wrong: decoys.map((x): [string, string] => [x, x === '1' ? 'thinks 1 is prime' : 'thinks every odd number is prime']),
      });
    }
    if (level === 2) {
      const a = rng.int(10, 80);
      const b = a + rng.int(10, 20);
      const ps: number[] = [];
      for (let k = a + 1; k < b; k++) if (isPrime(k)) ps.push(k);
      const odd: number[] = [];
      for (let k = a + 1; k < b; k++) if (k % 2 === 1) odd.push(k);
      return mk({
        stem: `How many prime numbers are there between ${a} and ${b}?`,
        answer: ps.length,
        steps: [`Check each number from ${a + 1} to ${b - 1}`, `The primes are ${ps.join(', ') || 'none'}`, `There ${ps.length === 1 ? 'is' : 'are'} ${ps.length}`],
        hints: ['Even numbers greater than 2 are never prime; skip them.', 'For each odd number, test whether 3, 5 or 7 divides it.'],
        wrong: [
          [odd.length, 'counts every odd number as prime'],
          [ps.length + 1, 'counts a composite number such as 49 or 91 as prime'],
        ],
      });
    }
    const fs = Array.from({ length: rng.int(3, 5) }, () => rng.pick([2, 2, 2, 3, 3, 5, 7]));
    const n = fs.reduce((a, b) => a * b, 1);
    if (n > 400 || n < 24) return undefined;
    const sorted = [...fs].sort((a, b) => a - b);
    const ans = powerForm(sorted);
    const big = sorted[sorted.length - 1]!;
    return mk({
      stem: `Write the prime factorization of ${n}.`,
      kind: 'expression',
      format: 'prime-factorization',
      answer: ans,
      accepted: [sorted.join(' × ')],
      phrases: [ans, sorted.join(' × '), sorted.join(' x '), sorted.join('*')],
      steps: [...sorted.slice(0, -1).map((p, i) => `${sorted.slice(i).reduce((a, b) => a * b, 1)} = ${p} × ${sorted.slice(i + 1).reduce((a, b) => a * b, 1)}`), `${n} = ${ans}`],
      hints: ['Divide by the smallest prime that goes in evenly, and keep going with the quotient.', 'Stop when every factor is prime; a factor tree can help.'],
      wrong: [
        [`${sorted[0]} × ${n / sorted[0]!}`, 'stops before every factor is prime'],
        [powerForm([...new Set(sorted)]), 'lists each prime only once'],
        [`${n / big} × ${big}`, 'leaves a composite factor'],
      ],
    });
  },
});

// ---------- 54 Absolute value ----------

export const absoluteValue = defineGenerator({
  skillId: 54,
  levels: ['Absolute value of one integer', 'Sum or difference of absolute values', 'Absolute value of an expression, with a negative outside'],
  make(rng, level) {
    if (level === 1) {
      const a = -rng.int(2, 60);
      return mk({
        stem: `What is $|${a}|$?`,
        answer: -a,
        numeric: [],
        phrases: [`is ${-a}`, `= ${-a}`],
        steps: ['Absolute value is the distance from 0 on the number line', `${a} is ${-a} units from 0, so $|${a}| = ${-a}$`],
        hints: ['Absolute value measures distance from zero.', 'A distance is never negative.'],
        wrong: [[a, 'keeps the negative sign']],
      });
    }
    if (level === 2) {
      const a = -rng.int(2, 20);
      const b = rng.int(2, 20) * (rng.chance(0.5) ? -1 : 1);
      const op = rng.pick(['+', '-']);
      const ans = op === '+' ? Math.abs(a) + Math.abs(b) : Math.abs(a) - Math.abs(b);
      return mk({
        stem: `What is $|${a}| ${op} |${b}|$?`,
        answer: ans,
        steps: [`$|${a}| = ${-a}$ and $|${b}| = ${Math.abs(b)}$`, `${-a} ${op} ${Math.abs(b)} = ${ans}`],
        hints: ['Find each absolute value first.', 'Then do the operation between them.'],
        wrong: [
          [op === '+' ? a + b : a - b, 'ignores the absolute value bars'],
          [Math.abs(op === '+' ? a + b : a - b), 'does the operation first and takes the absolute value of the result'],
        ],
      });
    }
    const a = rng.int(-9, 9);
    const b = rng.int(2, 15);
    const c = -rng.int(2, 12);
    const ans = -Math.abs(a - b) + Math.abs(c);
    return mk({
      stem: `What is $-|${a} - ${b}| + |${c}|$?`,
      answer: ans,
      steps: [`Inside the first bars: ${a} - ${b} = ${a - b}, and $|${a - b}| = ${Math.abs(a - b)}$`, `$|${c}| = ${-c}$`, `$-${Math.abs(a - b)} + ${-c} = ${ans}$`],
      hints: ['Work inside the absolute value bars first, like parentheses.', 'The minus sign outside the bars is applied after taking the absolute value.'],
      wrong: [
        [Math.abs(a - b) + Math.abs(c), 'drops the negative sign in front of the bars'],
        [-Math.abs(Math.abs(a) - b) + Math.abs(c), 'takes the absolute value of each number inside the bars before subtracting'],
        [-(a - b) + c, 'ignores the absolute value bars'],
      ],
    });
  },
});

// ---------- 55 Exponents ----------

export const exponents = defineGenerator({
  skillId: 55,
  levels: ['Evaluate a power of a whole number', 'Negative bases, zero exponents and fractions', 'Products and differences of powers'],
  make(rng, level) {
    if (level === 1) {
      const b = rng.int(2, 12);
      const e = b <= 3 ? rng.int(3, 6) : b === 10 ? rng.int(2, 6) : b <= 5 ? rng.int(2, 4) : rng.int(2, 3);
      const v = b ** e;
      return mk({
        stem: `What is $${b}^{${e}}$?`,
        answer: v,
        steps: [`$${b}^{${e}}$ means ${Array<number>(e).fill(b).join(' × ')}`, `= ${v}`],
        hints: ['The exponent tells how many times the base is used as a factor.', 'Multiply the base by itself that many times.'],
        wrong: [
          [b * e, 'multiplies the base by the exponent'],
          [b ** (e - 1), 'multiplies one time too few'],
          [e ** b, 'swaps the base and the exponent'],
        ],
      });
    }
    if (level === 2) {
      const kind = rng.pick(['neg-paren', 'neg-noparen', 'zero', 'frac'] as const);
      if (kind === 'zero') {
        const b = rng.int(2, 99);
        return mk({
          stem: `What is $${b}^{0}$?`,
          answer: 1,
          steps: ['Any non-zero number raised to the power 0 is 1', `$${b}^{0} = 1$`],
          hints: ['Look at the pattern $10^3 = 1000$, $10^2 = 100$, $10^1 = 10$: each step divides by 10.', 'Continue the pattern one more step.'],
          wrong: [
            [0, 'thinks a zero exponent gives 0'],
            [b, 'thinks a zero exponent leaves the base unchanged'],
          ],
        });
      }
      if (kind === 'frac') {
        const n = rng.int(1, 4);
        const d = rng.int(n + 1, 6);
        const e = rng.int(2, 3);
        if (gcd(n, d) !== 1) return undefined;
        const v = frac(n ** e, d ** e);
        return mk({
          stem: `What is $\\left(${fTex(frac(n, d))}\\right)^{${e}}$? Write your answer as a fraction.`,
          answer: fStr(v),
          asFrac: v,
          steps: [`Raise the numerator and the denominator to the power ${e}`, `$\\frac{${n}^{${e}}}{${d}^{${e}}} = ${fTex(v)}$`],
          hints: ['A power of a fraction is the fraction multiplied by itself.', 'Apply the exponent to the top and to the bottom.'],
          wrong: [
            [fStr(frac(n * e, d)), 'multiplies the fraction by the exponent'],
            [fStr(frac(n * e, d * e + 1)), 'multiplies the top and bottom by the exponent'],
            [fStr(frac(n ** e, d)), 'raises only the numerator to the power'],
          ],
        });
      }
      const b = rng.int(2, 5);
      const e = rng.int(2, 4);
      const paren = kind === 'neg-paren';
      const v = paren ? (-b) ** e : -(b ** e);
      return mk({
        stem: paren ? `What is $(-${b})^{${e}}$?` : `What is $-${b}^{${e}}$?`,
        answer: v,
        steps: paren ? [`The base is -${b}: ${Array<string>(e).fill(`(-${b})`).join(' × ')}`, `${e % 2 === 0 ? 'An even' : 'An odd'} number of negative factors gives a ${e % 2 === 0 ? 'positive' : 'negative'} result: ${v}`] : [`The exponent applies only to ${b}: $-(${b}^{${e}})$`, `$${b}^{${e}} = ${b ** e}$, so the answer is ${v}`],
        hints: paren ? ['The parentheses make the negative number the base.', 'Count the negative factors to decide the sign.'] : ['Without parentheses, the exponent applies only to the number right next to it.', 'Find the power first, then apply the negative sign.'],
        wrong: [
          [-v, paren ? 'gets the sign of the product wrong' : 'treats the negative sign as part of the base'],
          [paren ? -b * e : -b * e, 'multiplies the base by the exponent'],
        ],
      });
    }
    const a = rng.int(2, 5);
    const e1 = rng.int(2, 3);
    const c = rng.int(2, 4);
    const e2 = 2;
    const d = rng.int(2, 6);
    const v = a ** e1 * c ** e2 - d ** 2;
    return mk({
      stem: `Evaluate $${a}^{${e1}} \\times ${c}^{${e2}} - ${d}^{2}$.`,
      answer: v,
      steps: [`Powers first: $${a}^{${e1}} = ${a ** e1}$, $${c}^{2} = ${c * c}$, $${d}^{2} = ${d * d}$`, `Multiply: ${a ** e1} × ${c * c} = ${a ** e1 * c * c}`, `Subtract: ${a ** e1 * c * c} - ${d * d} = ${v}`],
      hints: ['Evaluate every power before multiplying or subtracting.', 'Then multiply, and subtract last.'],
      wrong: [
        [a * e1 * c * e2 - d * 2, 'multiplies each base by its exponent'],
        [a ** e1 * (c ** e2 - d ** 2), 'subtracts before multiplying'],
      ],
    });
  },
});

// ---------- 56 Pattern finding ----------

export const patternFinding = defineGenerator({
  skillId: 56,
  levels: ['Next term of an arithmetic sequence', 'A far term of an arithmetic sequence, or the next term of a geometric one', 'Rule for the nth term of an arithmetic sequence'],
  make(rng, level) {
    const a = rng.int(-10, 20);
    const d = rng.pick([-7, -5, -4, -3, -2, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
    const seq = (n: number) => a + (n - 1) * d;
    const shown = [1, 2, 3, 4].map(seq);
    if (level === 1) {
      return mk({
        stem: `What is the next number in the pattern? ${shown.join(', ')}, …`,
        answer: seq(5),
        steps: [`The difference between terms is ${d} (${shown[1]} - ${shown[0]} = ${d})`, `${shown[3]} ${d < 0 ? '-' : '+'} ${Math.abs(d)} = ${seq(5)}`],
        hints: ['How much does the pattern change from one number to the next?', 'Apply the same change to the last number.'],
        wrong: [
          [shown[3]! - d, 'applies the change in the wrong direction'],
          [shown[3]! + d + 1, 'miscounts the step'],
        ],
      });
    }
    if (level === 2) {
      if (rng.chance(0.5)) {
        const n = rng.int(10, 30);
        return mk({
          stem: `The pattern ${shown.join(', ')}, … continues in the same way. What is term number ${n}?`,
          answer: seq(n),
          steps: [`First term ${a}, common difference ${d}`, `Term ${n} = first term + (${n} - 1) × difference`, `${a} + ${n - 1} × ${paren(d)} = ${seq(n)}`],
          hints: ['You do not need to list every term: how many steps of the difference lead from term 1 to term number n?', 'From the first term to term number n there are n - 1 steps.'],
          wrong: [
            [a + n * d, 'uses n steps instead of n - 1'],
            [n * d, 'multiplies the difference by n and forgets the first term'],
          ],
        });
      }
      const start = rng.int(1, 5);
      const r = rng.pick([2, 3, 4, -2]);
      const g = [0, 1, 2, 3].map((i) => start * r ** i);
      return mk({
        stem: `What is the next number in the pattern? ${g.join(', ')}, …`,
        answer: start * r ** 4,
        steps: [`Each term is the one before it times ${r}`, `${g[3]} × ${paren(r)} = ${start * r ** 4}`],
        hints: ['Check whether the pattern adds the same amount or multiplies by the same amount.', 'Divide a term by the term before it.'],
        wrong: [
          [g[3]! + (g[3]! - g[2]!), 'adds the last difference as if the pattern were arithmetic'],
          [g[3]! * r * r, 'multiplies twice'],
        ],
      });
    }
    const b = a - d;
    const rule = `${d}n ${b < 0 ? '-' : '+'} ${Math.abs(b)}`.replace(' + 0', '').replace(' - 0', '');
    const ans = b === 0 ? `${d}n` : rule;
    return mk({
      stem: `Write a rule for the nth term of the pattern ${shown.join(', ')}, … (The first term is n = 1.)`,
      kind: 'expression',
      answer: ans,
      steps: [`The common difference is ${d}, so the rule starts with ${d}n`, `For n = 1, ${d}n is ${d}; the first term is ${a}, so add ${b}`, `Rule: ${ans}`],
      hints: ['The common difference becomes the number multiplying n.', 'Check your rule with n = 1: adjust it by a constant so it gives the first term.'],
      wrong: [
        [linear([[d, 'n'], [a, '']]), 'adds the first term instead of adjusting for it'],
        [linear([[1, 'n'], [d, '']]), 'adds the difference to n'],
        [linear([[a, 'n'], [d, '']]), 'swaps the first term and the difference'],
      ],
    });
  },
});

// ---------- 85 Order of operations with positive reals, 91 computation with reals ----------

export const orderOfOpsReals = defineGenerator({
  skillId: 85,
  levels: ['Whole numbers with ÷, ×, + (no parentheses)', 'Decimals with parentheses', 'Nested parentheses with decimals and division'],
  make(rng, level) {
    if (level === 1) {
      const c = rng.int(2, 9);
      const q = rng.int(2, 9);
      const a = c * q;
      const d = rng.int(2, 9);
      const e = rng.int(2, 9);
      const v = a / c + d * e;
      return mk({
        stem: `Evaluate $${a} \\div ${c} + ${d} \\times ${e}$.`,
        answer: v,
        steps: [`Divide: ${a} ÷ ${c} = ${q}`, `Multiply: ${d} × ${e} = ${d * e}`, `Add: ${q} + ${d * e} = ${v}`],
        hints: ['Multiplication and division come before addition.', 'Work out the division and the multiplication first, then add.'],
        wrong: [
          [((a / c + d) * e), 'works from left to right, adding before multiplying'],
          [fmt(Math.round((a / (c + d)) * e * 100) / 100), 'adds before dividing'],
        ],
      });
    }
    if (level === 2) {
      const a = rng.int(11, 60) / 10;
      const b = rng.int(11, 60) / 10;
      const c = rng.int(2, 5);
      const d = rng.int(1, 30) / 10;
      const v = roundTo((a + b) * c - d, 2);
      if (v <= 0) return undefined;
      return mk({
        stem: `Evaluate $(${fmt(a)} + ${fmt(b)}) \\times ${c} - ${fmt(d)}$.`,
        answer: v,
        steps: [`Parentheses: ${fmt(a)} + ${fmt(b)} = ${fmt(roundTo(a + b, 2))}`, `Multiply: ${fmt(roundTo(a + b, 2))} × ${c} = ${fmt(roundTo((a + b) * c, 2))}`, `Subtract: ${fmt(roundTo((a + b) * c, 2))} - ${fmt(d)} = ${fmt(v)}`],
        hints: ['Start inside the parentheses.', 'Then multiply before you subtract; line up decimal points when adding and subtracting.'],
        wrong: [
          [roundTo(a + b * c - d, 2), 'ignores the parentheses'],
          [roundTo((a + b) * (c - d), 2), 'subtracts before multiplying'],
        ],
      });
    }
    const c = rng.pick([0.5, 1.5, 2.5, 0.2, 0.4]);
    const q = rng.int(2, 12);
    const inner = roundTo(c * q, 2);
    const b = rng.int(1, 9) / 2;
    const a = roundTo(inner + b, 2);
    const e = rng.int(2, 6);
    const v = roundTo(q + e * e, 2);
    return mk({
      stem: `Evaluate $(${fmt(a)} - ${fmt(b)}) \\div ${fmt(c)} + ${e}^{2}$.`,
      answer: v,
      steps: [`Parentheses: ${fmt(a)} - ${fmt(b)} = ${fmt(inner)}`, `Exponent: $${e}^{2} = ${e * e}$`, `Divide: ${fmt(inner)} ÷ ${fmt(c)} = ${q}`, `Add: ${q} + ${e * e} = ${fmt(v)}`],
      hints: ['Parentheses first, then exponents, then division, then addition.', 'To divide by a decimal, multiply both numbers by 10 until the divisor is whole.'],
      wrong: [
        [roundTo(inner / c + e * 2, 2), 'treats the exponent as multiplying by 2'],
        [roundTo(inner / (c + e * e), 4), 'adds before dividing'],
        [roundTo(inner * c + e * e, 2), 'multiplies instead of dividing by the decimal'],
      ],
    });
  },
});

export const computationReals = defineGenerator({
  skillId: 91,
  levels: ['Add or subtract signed decimals', 'Multiply or divide signed fractions', 'Several operations with roots, powers, decimals and signs'],
  make(rng, level) {
    if (level === 1) {
      const a = -rng.int(11, 99) / 10;
      const b = rng.int(101, 999) / 100;
      const op = rng.pick(['+', '-']);
      const v = roundTo(op === '+' ? a + b : a - b, 2);
      return mk({
        stem: `What is $${fmt(a)} ${op} ${fmt(b)}$?`,
        answer: v,
        steps: op === '+' ? [`Different signs: subtract the sizes, ${fmt(Math.max(-a, b))} - ${fmt(Math.min(-a, b))} = ${fmt(Math.abs(v))}`, `The larger size has the sign ${-a > b ? '-' : '+'}: ${fmt(v)}`] : [`Subtracting a positive from a negative moves further below zero: add the sizes, ${fmt(-a)} + ${fmt(b)} = ${fmt(-v)}`, `The result is negative: ${fmt(v)}`],
        hints: ['Line up the decimal points and think about the signs.', op === '+' ? 'With different signs, subtract the sizes and keep the sign of the larger one.' : 'Subtracting a positive number from a negative one makes it more negative.'],
        wrong: [
          [roundTo(-v, 2), 'gets the sign wrong'],
          [roundTo(op === '+' ? -a + b : -a - b, 2), 'ignores the negative sign of the first number'],
        ],
      });
    }
    if (level === 2) {
      const p: Frac = frac(-rng.int(1, 8), rng.int(2, 9));
      const q: Frac = frac(rng.int(1, 9) * (rng.chance(0.5) ? -1 : 1), rng.int(2, 9));
      if (p[1] === 1 || q[1] === 1) return undefined;
      const mul = rng.chance(0.5);
      const v = mul ? fMul(p, q) : fDiv(p, q);
      const tex = (f: Frac) => (f[0] < 0 ? `\\left(${fTex(f)}\\right)` : fTex(f));
      const dec = fDecimal(v);
      return mk({
        stem: `What is $${fTex(p)} ${mul ? '\\times' : '\\div'} ${tex(q)}$? Write your answer as a fraction in simplest form.`,
        answer: fStr(v),
        accepted: dec ? [dec] : [],
        asFrac: v,
        steps: mul ? [`Multiply numerators and denominators: $\\frac{${p[0]} \\times ${q[0]}}{${p[1]} \\times ${q[1]}}$`, `Simplify: $${fTex(v)}$`] : [`Dividing is multiplying by the reciprocal: $${fTex(p)} \\times ${tex(frac(q[1], q[0]))}$`, `$= ${fTex(v)}$`],
        hints: ['Decide the sign first: same signs give a positive result, different signs a negative one.', mul ? 'Multiply the numerators together and the denominators together, then simplify.' : 'Flip the second fraction and multiply.'],
        wrong: [
          [fStr(frac(-v[0], v[1])), 'gets the sign wrong'],
          [fStr(mul ? fDiv(p, q) : fMul(p, q)), mul ? 'divides instead of multiplying' : 'multiplies without flipping the second fraction'],
        ],
      });
    }
    const r = rng.int(2, 9);
    const e = rng.int(2, 3);
    const base = rng.int(2, 3);
    const m = rng.pick([-0.5, -1.5, -2.5, 0.5, 1.5]);
    const v = roundTo(r - base ** e * m, 2);
    return mk({
      stem: `Evaluate $\\sqrt{${r * r}} - ${base}^{${e}} \\times (${fmt(m)})$.`,
      answer: v,
      steps: [`$\\sqrt{${r * r}} = ${r}$ and $${base}^{${e}} = ${base ** e}$`, `${base ** e} × (${fmt(m)}) = ${fmt(roundTo(base ** e * m, 2))}`, `${r} - (${fmt(roundTo(base ** e * m, 2))}) = ${fmt(v)}`],
      hints: ['Roots and powers first, then multiplication, then subtraction.', 'Subtracting a negative number is the same as adding its opposite.'],
      wrong: [
        [roundTo((r - base ** e) * m, 2), 'subtracts before multiplying'],
        [roundTo(r + base ** e * m, 2), 'mishandles subtracting the product (sign error)'],
        [roundTo(r * r - base ** e * m, 2), 'forgets to take the square root'],
      ],
    });
  },
});

export const NUMBER_SENSE = [
  orderingIntegers,
  orderingReals,
  rounding,
  addWhole,
  subtractWhole,
  multiplyWhole,
  estimation,
  leastCommonMultiple,
  greatestCommonFactor,
  squareRoot,
  scientificNotation,
  divisibility,
  primeNumbers,
  absoluteValue,
  exponents,
  patternFinding,
  orderOfOpsReals,
  computationReals,
];

