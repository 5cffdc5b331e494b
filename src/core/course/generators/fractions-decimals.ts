/** Fractions and decimals (skills 30–33, 38, 40, 42, 67, 69, 71). */
import type { Rng } from '../../rng';
import {
  defineGenerator,
  distinctInts,
  fAdd,
  fDecimal,
  fDiv,
  fMul,
  fStr,
  fSub,
  fTex,
  fVal,
  fmt,
  frac,
  gcd,
  lcm,
  mixedStr,
  mixedTex,
  mk,
  mkChoice,
  roundTo,
  type Frac,
} from './util';

/** Accepted forms of a fraction answer: improper, mixed and (if it terminates) decimal. */
function fracForms(v: Frac): { answer: string; accepted: string[]; asFrac: Frac } {
  const dec = fDecimal(v);
  const forms = [fStr(v), mixedStr(v), ...(dec ? [dec] : [])];
  return { answer: mixedStr(v), accepted: forms.filter((f) => f !== mixedStr(v)), asFrac: v };
}

/** A proper fraction in lowest terms with denominator in [2, maxD]. */
function properFrac(rng: Rng, maxD: number, minD = 2): Frac {
  for (;;) {
    const d = rng.int(minD, maxD);
    const n = rng.int(1, d - 1);
    if (gcd(n, d) === 1) return [n, d];
  }
}
const mixedFrac = (rng: Rng, maxD: number): Frac => {
  const [n, d] = properFrac(rng, maxD);
  return [rng.int(1, 4) * d + n, d];
};

// ---------- 30 Conversion of fractions, decimals and percents ----------

export const fdpConversion = defineGenerator({
  skillId: 30,
  levels: ['Fraction (halves, quarters, fifths, tenths…) as a percent', 'Decimal as a fraction in simplest form, or percent as a decimal', 'Eighths, mixed numbers and small percents between all three forms'],
  make(rng, level) {
    if (level === 1) {
      const d = rng.pick([2, 4, 5, 10, 20, 25, 50]);
      const n = rng.int(1, d - 1);
      if (gcd(n, d) !== 1) return undefined;
      const pct = (n * 100) / d;
      return mk({
        stem: `Write $${fTex([n, d])}$ as a percent.`,
        answer: `${fmt(pct)}%`,
        accepted: [fmt(pct)],
        numeric: [fmt(pct)],
        steps: [`Percent means out of 100: $\\frac{${n}}{${d}} = \\frac{${(n * 100) / d}}{100}$`, `So $\\frac{${n}}{${d}}$ = ${fmt(pct)}%`],
        hints: ['Percent means "per hundred".', `Find an equivalent fraction with denominator 100: what do you multiply ${d} by to get 100?`],
        wrong: [
          [`${n}${d}%`, 'writes the numerator and denominator side by side'],
          [`${fmt(n / d)}%`, 'writes the decimal value with a percent sign'],
          [`${fmt((d * 100) / n)}%`, 'divides the denominator by the numerator'],
        ],
      });
    }
    if (level === 2) {
      if (rng.chance(0.5)) {
        const hundredths = rng.int(2, 98);
        if (hundredths % 10 === 0 || gcd(hundredths, 100) === 1) return undefined;
        const v = frac(hundredths, 100);
        const dec = fmt(hundredths / 100);
        return mk({
          stem: `Write ${dec} as a fraction in simplest form.`,
          answer: fStr(v),
          format: 'fraction',
          asFrac: v,
          numeric: [fStr(v)],
          steps: [`${dec} is ${hundredths} hundredths: $\\frac{${hundredths}}{100}$`, `Divide top and bottom by ${gcd(hundredths, 100)}: $${fTex(v)}$`],
          hints: ['Read the decimal aloud with its place value: how many hundredths is it?', 'Write it over 100, then divide the numerator and denominator by their greatest common factor.'],
          wrong: [
            [`${hundredths}/100`, 'does not simplify'],
            [`${hundredths}/10`, 'uses the wrong place value'],
            [`1/${hundredths}`, 'puts the digits in the denominator'],
          ],
        });
      }
      const p = rng.pick([rng.int(1, 9), rng.int(11, 99), rng.int(101, 250)]);
      return mk({
        stem: `Write ${p}% as a decimal.`,
        answer: fmt(p / 100),
        steps: ['Percent means per hundred, so divide by 100', `${p} ÷ 100 = ${fmt(p / 100)} (move the decimal point two places left)`],
        hints: ['Percent means out of 100.', 'Dividing by 100 moves the decimal point two places to the left.'],
        wrong: [
          [fmt(p / 10), 'moves the decimal point only one place'],
          [p, 'drops the percent sign only'],
          [fmt(p * 100), 'multiplies by 100'],
        ],
      });
    }
    const kind = rng.pick(['eighths', 'mixed', 'small'] as const);
    if (kind === 'eighths') {
      const n = rng.pick([1, 3, 5, 7]);
      const pct = (n * 100) / 8;
      return mk({
        stem: `Write $\\frac{${n}}{8}$ as a percent.`,
        answer: `${fmt(pct)}%`,
        accepted: [fmt(pct)],
        numeric: [fmt(pct)],
        steps: [`Divide: ${n} ÷ 8 = ${fmt(n / 8)}`, `Multiply by 100: ${fmt(n / 8)} × 100 = ${fmt(pct)}%`],
        hints: ['Change the fraction to a decimal first by dividing the numerator by the denominator.', 'Then multiply by 100 to get a percent.'],
        wrong: [
          [`${fmt(n / 8)}%`, 'forgets to multiply by 100'],
          [`${Math.round(pct)}%`, 'rounds the percent'],
          [`${n}8%`, 'writes the digits side by side'],
        ],
      });
    }
    if (kind === 'mixed') {
      const w = rng.int(1, 3);
      const d = rng.pick([2, 4, 5, 10, 20, 25]);
      const n = rng.int(1, d - 1);
      if (gcd(n, d) !== 1) return undefined;
      const pct = w * 100 + (n * 100) / d;
      return mk({
        stem: `Write $${w}\\frac{${n}}{${d}}$ as a percent.`,
        answer: `${fmt(pct)}%`,
        accepted: [fmt(pct)],
        numeric: [fmt(pct)],
        steps: [`${w} whole = ${w * 100}%`, `$\\frac{${n}}{${d}}$ = ${fmt((n * 100) / d)}%`, `${w * 100}% + ${fmt((n * 100) / d)}% = ${fmt(pct)}%`],
        hints: ['One whole is 100%.', 'Change the whole part and the fraction part separately, then add.'],
        wrong: [
          [`${fmt((n * 100) / d)}%`, 'ignores the whole number'],
          [`${fmt(w + n / d)}%`, 'writes the decimal with a percent sign'],
        ],
      });
    }
    const p = rng.pick([0.5, 2.5, 12.5, 37.5, 0.2, 0.4]);
    const v = frac(p * 10, 1000);
    return mk({
      stem: `Write ${fmt(p)}% as a fraction in simplest form.`,
      answer: fStr(v),
      format: 'fraction',
      asFrac: v,
      numeric: [fStr(v)],
      steps: [`${fmt(p)}% = $\\frac{${fmt(p)}}{100}$ = $\\frac{${p * 10}}{1000}$`, `Simplify: $${fTex(v)}$`],
      hints: ['Write the percent over 100, then clear the decimal by multiplying top and bottom by 10.', 'Divide the numerator and denominator by their greatest common factor.'],
      wrong: [
        [`${p * 10}/1000`, 'does not simplify'],
        [fStr(frac(Math.round(p * 10), 100)), 'misplaces the decimal point'],
        [fStr(frac(1, Math.round(100 / p))), 'inverts the percent'],
      ],
    });
  },
});

// ---------- 31 Equivalent fractions ----------

export const equivalentFractions = defineGenerator({
  skillId: 31,
  levels: ['Missing numerator of an equivalent fraction (scale up)', 'Missing denominator, scaling up or down', 'Write a fraction in simplest form'],
  make(rng, level) {
    const [n, d] = properFrac(rng, 10);
    const k = rng.int(2, level === 1 ? 6 : 9);
    if (level === 1) {
      return mk({
        stem: `Fill in the missing numerator: $\\frac{${n}}{${d}} = \\frac{?}{${d * k}}$`,
        answer: n * k,
        steps: [`${d} × ${k} = ${d * k}, so the denominator was multiplied by ${k}`, `Multiply the numerator by the same number: ${n} × ${k} = ${n * k}`],
        hints: ['What was the denominator multiplied by?', 'Do the same to the numerator.'],
        wrong: [
          [n + (d * k - d), 'adds instead of multiplying'],
          [n * k + 1, 'miscounts the factor'],
          [d * k, 'copies the denominator'],
        ],
      });
    }
    if (level === 2) {
      if (rng.chance(0.5)) {
        return mk({
          stem: `Fill in the missing denominator: $\\frac{${n}}{${d}} = \\frac{${n * k}}{?}$`,
          answer: d * k,
          steps: [`${n} × ${k} = ${n * k}, so the numerator was multiplied by ${k}`, 'Multiply the denominator by the same number', `${d} × ${k} = ${d * k}`],
          hints: ['What was the numerator multiplied by?', 'Multiply the denominator by the same number.'],
          wrong: [
            [d + (n * k - n), 'adds the same amount to the denominator'],
            [n * k * d, 'multiplies by the whole numerator'],
          ],
        });
      }
      return mk({
        stem: `Fill in the missing numerator: $\\frac{${n * k}}{${d * k}} = \\frac{?}{${d}}$`,
        answer: n,
        steps: [`${d * k} ÷ ${k} = ${d}, so the denominator was divided by ${k}`, 'Divide the numerator by the same number', `${n * k} ÷ ${k} = ${n}`],
        hints: ['How do you get from the first denominator to the second one?', 'Divide the numerator by the same number.'],
        wrong: [
          [n * k - (d * k - d), 'subtracts instead of dividing'],
          [n * k * k, 'multiplies instead of dividing'],
        ],
      });
    }
    const g = rng.int(3, 12);
    const [a, b] = properFrac(rng, 12, 3);
    const top = a * g;
    const bottom = b * g;
    const sm = [2, 3, 5].find((p) => g % p === 0 && g !== p);
    return mk({
      stem: `Write $\\frac{${top}}{${bottom}}$ in simplest form.`,
      answer: fStr([a, b]),
      format: 'fraction',
      asFrac: [a, b],
      numeric: [fStr([a, b])],
      steps: [`The greatest common factor of ${top} and ${bottom} is ${g}`, `${top} ÷ ${g} = ${a} and ${bottom} ÷ ${g} = ${b}: $\\frac{${a}}{${b}}$`],
      hints: ['Find the greatest number that divides both the numerator and the denominator.', 'Divide both by it; if they still share a factor, divide again.'],
      wrong: [
        ...(sm ? [[`${top / sm}/${bottom / sm}`, 'divides by a common factor that is not the greatest'] as [string, string]] : []),
        [`${b}/${a}`, 'flips the fraction'],
        [`${a}/${bottom}`, 'divides only the numerator'],
      ],
    });
  },
});

// ---------- 32 Ordering positive decimals ----------

function decimalSet(rng: Rng, k: number, tricky: boolean): number[] {
  const base = rng.int(0, 5);
  const out = new Set<number>();
  while (out.size < k) {
    const places = rng.int(1, tricky ? 3 : 2);
    const v = base + rng.int(1, 10 ** places - 1) / 10 ** places;
    out.add(Number(v.toFixed(places)));
  }
  return [...out];
}
/** "Longer is larger" ordering: compare the digits after the point as whole numbers. */
const byDigits = (xs: number[]) => [...xs].sort((a, b) => Number(fmt(a).split('.')[1] ?? 0) - Number(fmt(b).split('.')[1] ?? 0) || a - b);

export const orderingDecimals = defineGenerator({
  skillId: 32,
  levels: ['Greatest of three decimals with different lengths', 'Four decimals from least to greatest', 'Five decimals with up to three places, greatest to least'],
  make(rng, level) {
    if (level === 1) {
      const xs = decimalSet(rng, 3, true);
      const g = Math.max(...xs);
      const longest = byDigits(xs)[2]!;
      if (longest === g) return undefined;
      return mk({
        stem: `Which decimal is the greatest: ${xs.map(fmt).join(', ')}?`,
        answer: g,
        phrasesOnly: 'greatest',
        steps: [`Write them with the same number of decimal places: ${xs.map((x) => x.toFixed(3)).join(', ')}`, `The greatest is ${fmt(g)}`],
        hints: ['A longer decimal is not always a larger one.', 'Add zeros so that all the decimals have the same number of places, then compare.'],
        wrong: [
          [longest, 'thinks the decimal with more digits is larger'],
          [Math.min(...xs), 'picks the least'],
        ],
      });
    }
    const k = level === 2 ? 4 : 5;
    const xs = decimalSet(rng, k, level === 3);
    const asc = [...xs].sort((a, b) => a - b);
    const order = level === 2 ? asc : [...asc].reverse();
    const wrong = level === 2 ? byDigits(xs) : byDigits(xs).reverse();
    return mk({
      stem: `Order from ${level === 2 ? 'least to greatest' : 'greatest to least'}: ${xs.map(fmt).join(', ')}`,
      kind: 'list',
      answer: order.map(fmt).join(', '),
      steps: [`Line up the decimal points and pad with zeros: ${xs.map((x) => x.toFixed(3)).join(', ')}`, `In order: ${order.map(fmt).join(', ')}`],
      hints: ['Compare the tenths first, then the hundredths, then the thousandths.', 'Writing zeros at the end so every number has the same length makes the comparison easier.'],
      wrong: [
        [wrong.map(fmt).join(', '), 'compares the digits after the point as whole numbers'],
        [[...order].reverse().map(fmt).join(', '), 'orders in the opposite direction'],
      ],
    });
  },
});

// ---------- 33 Ordering fractions ----------

export const orderingFractions = defineGenerator({
  skillId: 33,
  levels: ['Greater of two fractions with a common numerator or denominator', 'Three unlike fractions from least to greatest', 'Improper fractions and mixed numbers from least to greatest'],
  make(rng, level) {
    if (level === 1) {
      const sameNum = rng.chance(0.5);
      const [d1, d2] = distinctInts(rng, 3, 12, 2) as [number, number];
      const n = rng.int(1, Math.min(d1, d2) - 1);
      const [n1, n2] = distinctInts(rng, 1, d1 - 1, 2) as [number, number];
      const a: Frac = sameNum ? [n, d1] : [n1, d1];
      const b: Frac = sameNum ? [n, d2] : [n2, d1];
      const bigger = fVal(a) > fVal(b) ? a : b;
      const smaller = bigger === a ? b : a;
      return mkChoice(rng, {
        stem: `Which fraction is greater: $${fTex(a)}$ or $${fTex(b)}$?`,
        answer: fStr(bigger),
        options: [fStr(a), fStr(b)],
        keepOrder: true,
        phrasesOnly: 'greater',
        steps: sameNum ? [`The numerators are equal, so compare the sizes of the pieces`, `Larger denominator means smaller pieces, so ${fStr(bigger)} is greater`] : ['The denominators are equal, so the pieces are the same size', `More pieces is greater: ${fStr(bigger)}`],
        hints: sameNum ? ['Both fractions have the same number of pieces. Which pieces are bigger?', 'Cutting a whole into more pieces makes each piece smaller.'] : ['The pieces are the same size.', 'Compare how many pieces each fraction has.'],
        wrong: [[fStr(smaller), sameNum ? 'thinks a larger denominator means a larger fraction' : 'compares the fractions the wrong way round']],
      });
    }
    const k = 3;
    const fr: Frac[] = [];
    while (fr.length < k) {
      const f = level === 2 ? properFrac(rng, 12) : rng.chance(0.5) ? mixedFrac(rng, 8) : ([rng.int(5, 20), rng.int(2, 6)] as Frac);
      const g = frac(f[0], f[1]);
      if (g[1] === 1 || fr.some((x) => Math.abs(fVal(x) - fVal(g)) < 1e-9)) continue;
      fr.push(g);
    }
    const show = (f: Frac, i: number) => (level === 3 && i % 2 === 0 && f[0] > f[1] ? mixedTex(f) : fTex(f));
    const shownText = (f: Frac, i: number) => (level === 3 && i % 2 === 0 && f[0] > f[1] ? mixedStr(f) : fStr(f));
    const idx = [0, 1, 2].sort((i, j) => fVal(fr[i]!) - fVal(fr[j]!));
    const common = fr.map((f) => f[1]).reduce(lcm);
    return mk({
      stem: `Order from least to greatest: ${fr.map((f, i) => `$${show(f, i)}$`).join(', ')}`,
      kind: 'list',
      answer: idx.map((i) => shownText(fr[i]!, i)).join(', '),
      steps: [`Use a common denominator, ${common}: ${fr.map((f) => `$\\frac{${(f[0] * common) / f[1]}}{${common}}$`).join(', ')}`, `Least to greatest: ${idx.map((i) => shownText(fr[i]!, i)).join(', ')}`],
      hints: ['Rewrite the fractions with a common denominator (or as decimals).', level === 3 ? 'Change mixed numbers to improper fractions first, or compare the whole-number parts first.' : 'Then compare the numerators.'],
      wrong: [
        [[0, 1, 2].sort((i, j) => fr[i]![1] - fr[j]![1] || fr[i]![0] - fr[j]![0]).map((i) => shownText(fr[i]!, i)).join(', '), 'orders by the denominators'],
        [[...idx].reverse().map((i) => shownText(fr[i]!, i)).join(', '), 'orders from greatest to least'],
      ],
    });
  },
});

// ---------- 38 Division, 42 multiplication, 40 fraction of ----------

function fracOp(rng: Rng, level: 1 | 2 | 3, op: 'mul' | 'div') {
  let a: Frac;
  let b: Frac;
  if (level === 1) {
    if (op === 'div' && rng.chance(0.5)) {
      a = [rng.int(2, 9), 1];
      b = [1, rng.int(2, 8)];
    } else {
      a = properFrac(rng, 9);
      b = [rng.int(2, 9), 1];
    }
  } else if (level === 2) {
    a = properFrac(rng, 10);
    b = properFrac(rng, 10);
  } else {
    a = mixedFrac(rng, 6);
    b = rng.chance(0.5) ? mixedFrac(rng, 5) : properFrac(rng, 8);
  }
  return { a, b };
}
const texOf = (f: Frac) => (f[0] > f[1] && f[1] !== 1 ? mixedTex(f) : fTex(f));

export const divisionFractions = defineGenerator({
  skillId: 38,
  levels: ['Whole number ÷ unit fraction, or fraction ÷ whole number', 'Fraction ÷ fraction', 'Mixed numbers ÷ fractions or mixed numbers'],
  make(rng, level) {
    const { a, b } = fracOp(rng, level, 'div');
    const v = fDiv(a, b);
    const recip: Frac = frac(b[1], b[0]);
    return mk({
      stem: `What is $${texOf(a)} \\div ${texOf(b)}$?`,
      ...fracForms(v),
      steps: [
        ...(level === 3 ? [`Write mixed numbers as improper fractions: $${fTex(a)} \\div ${fTex(b)}$`] : []),
        `Dividing by $${fTex(b)}$ is multiplying by its reciprocal $${fTex(recip)}$`,
        `$${fTex(a)} \\times ${fTex(recip)} = ${fTex(v)}$${v[1] !== 1 && v[0] > v[1] ? ` = ${mixedStr(v)}` : ''}`,
      ],
      hints: ['Dividing by a fraction is the same as multiplying by its reciprocal (flip it).', level === 3 ? 'Change mixed numbers to improper fractions before you flip and multiply.' : 'Keep the first fraction, change ÷ to ×, and flip the second fraction.'],
      wrong: [
        [mixedStr(fMul(a, b)), 'multiplies without flipping the divisor'],
        [mixedStr(fMul(frac(a[1], a[0]), b)), 'flips the first fraction instead of the second'],
      ],
    });
  },
});

export const multiplicationFractions = defineGenerator({
  skillId: 42,
  levels: ['Fraction × whole number', 'Fraction × fraction', 'Mixed number × mixed number or fraction'],
  make(rng, level) {
    const { a, b } = fracOp(rng, level, 'mul');
    const v = fMul(a, b);
    return mk({
      stem: `What is $${texOf(a)} \\times ${texOf(b)}$?`,
      ...fracForms(v),
      steps: [
        ...(level === 3 ? [`Write mixed numbers as improper fractions: $${fTex(a)} \\times ${fTex(b)}$`] : []),
        `Multiply numerators and denominators: $\\frac{${a[0]} \\times ${b[0]}}{${a[1]} \\times ${b[1]}} = \\frac{${a[0] * b[0]}}{${a[1] * b[1]}}$`,
        `Simplify: ${mixedStr(v)}`,
      ],
      hints: ['Multiply the numerators together and the denominators together.', level === 3 ? 'Change each mixed number into an improper fraction first.' : 'A whole number is a fraction with denominator 1.'],
      wrong: [
        ...(b[1] === 1 ? [[fStr(a), 'multiplies both numerator and denominator by the whole number'] as [string, string]] : [[mixedStr(fDiv(a, b)), 'cross-multiplies (divides instead of multiplying)'] as [string, string]]),
        ...(level === 3 ? [[mixedStr(fAdd(frac(Math.floor(a[0] / a[1]) * Math.floor(b[0] / b[1]), 1), fMul(frac(a[0] % a[1], a[1]), frac(b[0] % b[1], b[1])))), 'multiplies the whole parts and the fraction parts separately'] as [string, string]] : []),
        [mixedStr(fAdd(a, b)), 'adds instead of multiplying'],
      ],
    });
  },
});

const OF_CONTEXTS = [
  (f: string, w: string) => `What is $${f}$ of ${w}?`,
  (f: string, w: string) => `A class has ${w} students and $${f}$ of them walk to school. How many students walk to school?`,
  (f: string, w: string) => `A book has ${w} pages. Jo has read $${f}$ of it. How many pages has Jo read?`,
];

export const fractionOf = defineGenerator({
  skillId: 40,
  levels: ['Unit fraction of a whole number', 'Non-unit fraction of a whole number (word problems)', 'Fraction of a fraction or of a mixed number'],
  make(rng, level) {
    if (level < 3) {
      const d = rng.int(2, 10);
      const n = level === 1 ? 1 : rng.int(2, d - 1);
      if (level === 2 && gcd(n, d) !== 1) return undefined;
      const w = d * rng.int(2, 12);
      const v = (w / d) * n;
      const ctx = level === 1 ? OF_CONTEXTS[0]! : rng.pick(OF_CONTEXTS);
      return mk({
        stem: ctx(fTex([n, d]), String(w)),
        answer: v,
        steps: [`Divide into ${d} equal parts: ${w} ÷ ${d} = ${w / d}`, ...(n > 1 ? [`Take ${n} of those parts: ${w / d} × ${n} = ${v}`, `So $${fTex([n, d])}$ of ${w} is ${v}`] : [`One part is ${v}`])],
        hints: ['"Of" means multiply: find the fraction of the number.', `First find $\\frac{1}{${d}}$ of ${w} by dividing.`],
        wrong: [
          [w * d, 'multiplies by the denominator'],
          [fmt(roundTo((w / n) * d, 2)), 'divides by the numerator and multiplies by the denominator'],
          [w / d, 'finds only one part'],
        ],
      });
    }
    const a = properFrac(rng, 6);
    const b: Frac = rng.chance(0.5) ? properFrac(rng, 8) : mixedFrac(rng, 4);
    const v = fMul(a, b);
    const what = rng.pick(['cups of flour', 'liters of juice', 'kilograms of clay']);
    return mk({
      stem: `A recipe uses $${texOf(b)}$ ${what}. Mia makes $${fTex(a)}$ of the recipe. How many ${what} does she need?`,
      ...fracForms(v),
      steps: [`$${fTex(a)}$ of $${texOf(b)}$ means $${fTex(a)} \\times ${fTex(b)}$`, `$\\frac{${a[0] * b[0]}}{${a[1] * b[1]}}$ = ${mixedStr(v)}`],
      hints: ['"Of" means multiply.', b[0] > b[1] ? 'Write the mixed number as an improper fraction, then multiply.' : 'Multiply numerators and denominators.'],
      wrong: [
        [mixedStr(fAdd(a, b)), 'adds the fractions'],
        [mixedStr(fDiv(b, a)), 'divides instead of multiplying'],
      ],
    });
  },
});

// ---------- 67, 69 Decimals ----------

/** Decimal from an integer count of 10^-places. */
const dec = (units: number, places: number) => Number((units / 10 ** places).toFixed(places));
const placesOf = (x: number) => (fmt(x).split('.')[1] ?? '').length;

export const mulDivDecimals = defineGenerator({
  skillId: 67,
  levels: ['Decimal × whole number', 'Decimal × decimal', 'Decimal ÷ decimal'],
  make(rng, level) {
    if (level < 3) {
      const a = level === 1 ? dec(rng.int(2, 99), rng.int(1, 2)) : dec(rng.int(11, 99), 1);
      const b = level === 1 ? rng.int(3, 9) : dec(rng.int(2, 99), rng.int(1, 2));
      if (Number.isInteger(a) || Number.isInteger(b) && level === 2) return undefined;
      const p = Number((a * b).toFixed(placesOf(a) + placesOf(b)));
      const places = placesOf(a) + placesOf(b);
      const raw = Math.round(a * 10 ** placesOf(a)) * Math.round(b * 10 ** placesOf(b));
      return mk({
        stem: `What is $${fmt(a)} \\times ${fmt(b)}$?`,
        answer: p,
        steps: [`Multiply as whole numbers: ${Math.round(a * 10 ** placesOf(a))} × ${Math.round(b * 10 ** placesOf(b))} = ${raw}`, ...(level === 2 ? [`Count decimal places: ${placesOf(a)} in ${fmt(a)} and ${placesOf(b)} in ${fmt(b)}`] : []), `The factors have ${places} decimal place${places > 1 ? 's' : ''} in all, so the product does too: ${p.toFixed(places)}${p.toFixed(places) !== fmt(p) ? ` = ${fmt(p)}` : ''}`],
        hints: ['Multiply as if there were no decimal points.', 'Count the decimal places in both factors; the product gets that many.'],
        wrong: [
          [fmt(p * 10), 'puts one decimal place too few in the product'],
          [fmt(p / 10), 'puts one decimal place too many in the product'],
          [fmt(roundTo(a + b, 2)), 'adds instead of multiplying'],
        ],
      });
    }
    const b = dec(rng.int(2, 40), rng.int(1, 2));
    const q = rng.chance(0.5) ? rng.int(2, 90) : dec(rng.int(11, 99), 1);
    const a = Number((b * q).toFixed(6));
    if (placesOf(a) > 3 || Number.isInteger(b)) return undefined;
    const shift = placesOf(b);
    return mk({
      stem: `What is $${fmt(a)} \\div ${fmt(b)}$?`,
      answer: q,
      steps: [`Make the divisor whole: multiply both by ${10 ** shift}`, `${fmt(a)} ÷ ${fmt(b)} = ${fmt(a * 10 ** shift)} ÷ ${fmt(b * 10 ** shift)}`, `= ${fmt(q)}`],
      hints: ['Dividing is easier when the divisor is a whole number.', 'Move the decimal point in both numbers the same number of places to the right.'],
      wrong: [
        [fmt(q / 10), 'moves the decimal point in the divisor but not the same amount in the dividend'],
        [fmt(q * 10), 'moves the decimal point too far'],
        [fmt(roundTo(a * b, 4)), 'multiplies instead of dividing'],
      ],
    });
  },
});

/** Adds decimals as if their last digits were lined up (a place-value misconception). */
function misalignedSum(a: number, b: number): number {
  const pa = placesOf(a);
  const pb = placesOf(b);
  const ia = Math.round(a * 10 ** pa);
  const ib = Math.round(b * 10 ** pb);
  return Number(((ia + ib) / 10 ** Math.max(pa, pb)).toFixed(Math.max(pa, pb)));
}

export const addSubDecimals = defineGenerator({
  skillId: 69,
  levels: ['Add or subtract decimals with the same number of places', 'Add decimals with different numbers of places', 'Subtract a decimal from a whole number or a shorter decimal'],
  make(rng, level) {
    if (level === 1) {
      const p = rng.int(1, 2);
      const a = dec(rng.int(11, 999), p);
      const b = dec(rng.int(11, 999), p);
      const add = rng.chance(0.5) || b > a;
      const v = Number((add ? a + b : a - b).toFixed(p));
      return mk({
        stem: `What is $${fmt(a)} ${add ? '+' : '-'} ${fmt(b)}$?`,
        answer: v,
        steps: ['Line up the decimal points', `${fmt(a)} ${add ? '+' : '-'} ${fmt(b)} = ${fmt(v)}`],
        hints: ['Write the numbers in a column with the decimal points lined up.', add ? 'Add as with whole numbers, carrying when a column reaches 10.' : 'Subtract as with whole numbers, borrowing when needed.'],
        wrong: [
          [fmt(Number((add ? a - b : a + b).toFixed(p))), add ? 'subtracts instead of adding' : 'adds instead of subtracting'],
          [fmt(v * 10), 'misplaces the decimal point'],
        ],
      });
    }
    if (level === 2) {
      const a = dec(rng.int(11, 999), 1);
      const b = dec(rng.int(101, 9999), rng.int(2, 3));
      const v = Number((a + b).toFixed(3));
      const mis = misalignedSum(a, b);
      if (mis === v) return undefined;
      return mk({
        stem: `What is $${fmt(a)} + ${fmt(b)}$?`,
        answer: v,
        steps: ['Line up the decimal points, not the last digits', `Write zeros so both have ${placesOf(b)} decimal places: ${a.toFixed(placesOf(b))} + ${fmt(b)}`, `= ${fmt(v)}`],
        hints: ['Line up the decimal points, not the last digits.', 'Fill empty places with zeros so both numbers have the same number of decimal places.'],
        wrong: [[fmt(mis), 'lines up the last digits instead of the decimal points']],
      });
    }
    const whole = rng.chance(0.5);
    const a = whole ? rng.int(5, 50) : dec(rng.int(11, 99), 1);
    const b = dec(rng.int(101, Math.max(102, Math.floor(a * 100) - 1)), 2);
    if (b >= a || placesOf(b) < 2) return undefined;
    const v = Number((a - b).toFixed(2));
    const keepDigits = Number((Math.floor(a) - Math.floor(b) + (b % 1)).toFixed(2));
    return mk({
      stem: `What is $${fmt(a)} - ${fmt(b)}$?`,
      answer: v,
      steps: [`Write ${fmt(a)} as ${a.toFixed(2)} so both have two decimal places`, `${a.toFixed(2)} - ${fmt(b)} = ${fmt(v)}`],
      hints: [`Give ${fmt(a)} the same number of decimal places as ${fmt(b)} by writing zeros.`, 'Then subtract column by column, borrowing across the zeros.'],
      wrong: [
        [fmt(keepDigits), 'subtracts the whole parts and brings down the decimal part'],
        [fmt(Number((v + 1).toFixed(2))), 'borrows into the decimal places without taking 1 from the ones'],
      ],
    });
  },
});

// ---------- 71 Adding and subtracting fractions ----------

export const addSubFractions = defineGenerator({
  skillId: 71,
  levels: ['Like denominators', 'Unlike denominators', 'Mixed numbers, subtraction with regrouping'],
  make(rng, level) {
    if (level === 1) {
      const d = rng.int(3, 12);
      const [a, b] = distinctInts(rng, 1, d - 1, 2) as [number, number];
      const add = rng.chance(0.5);
      const [x, y] = add ? [a, b] : [Math.max(a, b), Math.min(a, b)];
      const v = add ? frac(x + y, d) : frac(x - y, d);
      return mk({
        stem: `What is $\\frac{${x}}{${d}} ${add ? '+' : '-'} \\frac{${y}}{${d}}$?`,
        ...fracForms(v),
        steps: ['The denominators are the same, so keep the denominator', `${add ? 'Add' : 'Subtract'} the numerators: ${x} ${add ? '+' : '-'} ${y} = ${add ? x + y : x - y}, giving $\\frac{${add ? x + y : x - y}}{${d}}$${v[1] !== d ? ` = ${mixedStr(v)}` : ''}`],
        hints: ['When the pieces are the same size, you only count pieces.', 'Keep the denominator and work with the numerators.'],
        wrong: [[fStr(frac(add ? x + y : x - y, add ? 2 * d : 1)), add ? 'adds the denominators too' : 'subtracts the denominators too']],
      });
    }
    if (level === 2) {
      const a = properFrac(rng, 9);
      const b = properFrac(rng, 9);
      if (a[1] === b[1]) return undefined;
      const add = rng.chance(0.6) || fVal(b) > fVal(a);
      const v = add ? fAdd(a, b) : fSub(a, b);
      const l = lcm(a[1], b[1]);
      return mk({
        stem: `What is $${fTex(a)} ${add ? '+' : '-'} ${fTex(b)}$?`,
        ...fracForms(v),
        steps: [`Common denominator ${l}: $\\frac{${(a[0] * l) / a[1]}}{${l}} ${add ? '+' : '-'} \\frac{${(b[0] * l) / b[1]}}{${l}}$`, `= $\\frac{${add ? (a[0] * l) / a[1] + (b[0] * l) / b[1] : (a[0] * l) / a[1] - (b[0] * l) / b[1]}}{${l}}$${fStr(v) !== `${add ? (a[0] * l) / a[1] + (b[0] * l) / b[1] : (a[0] * l) / a[1] - (b[0] * l) / b[1]}/${l}` || v[0] > v[1] ? ` = ${mixedStr(v)}` : ''}`],
        hints: ['You can only add or subtract pieces of the same size: find a common denominator.', 'Rewrite each fraction with the common denominator, then work with the numerators.'],
        wrong: [
          [fStr(frac(add ? a[0] + b[0] : a[0] - b[0], add ? a[1] + b[1] : Math.abs(a[1] - b[1]) || 1)), `${add ? 'adds' : 'subtracts'} the numerators and the denominators`],
          [fStr(frac(add ? a[0] + b[0] : Math.abs(a[0] - b[0]), l)), 'finds a common denominator but does not rename the numerators'],
        ],
      });
    }
    const d1 = rng.int(2, 8);
    const d2 = rng.int(2, 8);
    const n1 = rng.int(1, d1 - 1);
    const n2 = rng.int(1, d2 - 1);
    if (gcd(n1, d1) !== 1 || gcd(n2, d2) !== 1 || n1 / d1 >= n2 / d2) return undefined;
    const w1 = rng.int(3, 7);
    const w2 = rng.int(1, w1 - 1);
    const a: Frac = [w1 * d1 + n1, d1];
    const b: Frac = [w2 * d2 + n2, d2];
    const v = fSub(a, b);
    const l = lcm(d1, d2);
    const flipWrong = fAdd(frac(w1 - w2, 1), fSub(frac(n2, d2), frac(n1, d1)));
    return mk({
      stem: `What is $${mixedTex(a)} - ${mixedTex(b)}$?`,
      ...fracForms(v),
      steps: [
        `Common denominator ${l}: $${w1}\\frac{${(n1 * l) / d1}}{${l}} - ${w2}\\frac{${(n2 * l) / d2}}{${l}}$`,
        `$\\frac{${(n1 * l) / d1}}{${l}}$ is less than $\\frac{${(n2 * l) / d2}}{${l}}$, so regroup: $${w1}\\frac{${(n1 * l) / d1}}{${l}} = ${w1 - 1}\\frac{${(n1 * l) / d1 + l}}{${l}}$`,
        `Subtract: ${mixedStr(v)}`,
      ],
      hints: ['Find a common denominator for the fraction parts.', 'If the first fraction part is smaller, borrow 1 whole from the whole-number part.'],
      wrong: [
        [mixedStr(flipWrong), 'subtracts the smaller fraction from the larger instead of regrouping'],
        [mixedStr(fAdd(v, frac(1, 1))), 'regroups but forgets to take 1 from the whole number'],
      ],
    });
  },
});

export const FRACTIONS_DECIMALS = [fdpConversion, equivalentFractions, orderingDecimals, orderingFractions, divisionFractions, fractionOf, multiplicationFractions, mulDivDecimals, addSubDecimals, addSubFractions];
