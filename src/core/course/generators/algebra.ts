/**
 * Algebra: simplifying, solving, choosing equations, distributing, factoring, quadratic patterns,
 * systems, the quadratic formula, parts of a polynomial, literal equations, exponent rules and
 * inequalities (skills 58–60, 88, 99, 101–105, 107–109).
 */
import type { Rng } from '../../rng';
import { defineGenerator, fDecimal, fStr, fmt, frac, gcd, lcm, linear, mk, mkChoice, nonZero, paren, roundTo, signed, type Frac } from './util';

/** Expression answers: canonical text plus a compact form for leak phrases. */
const exprAnswer = (a: string, simplified = true) => ({ kind: 'expression' as const, answer: a, ...(simplified ? { format: 'simplified' as const } : {}) });
/** "x = 4" accepted alongside "4". */
const solution = (x: number, v = 'x') => ({ answer: fmt(x), accepted: [`${v} = ${fmt(x)}`], phrases: [`${v} = ${fmt(x)}`, `${v}=${fmt(x)}`] });

// ---------- 58 Algebraic simplification ----------

export const algebraicSimplification = defineGenerator({
  skillId: 58,
  levels: ['Combine like terms in one variable', 'Combine like terms with constants and negatives', 'Distribute (including a minus sign) and combine'],
  make(rng, level) {
    const v = rng.pick(['x', 'a', 'n', 'y']);
    if (level === 1) {
      const a = rng.int(2, 12);
      const b = rng.int(2, 12) * (rng.chance(0.3) ? -1 : 1);
      if (a + b === 0) return undefined;
      const ans = linear([[a + b, v]]);
      return mk({
        stem: `Simplify: $${linear([[a, v], [b, v]])}$`,
        ...exprAnswer(ans),
        steps: [`Both terms are like terms (${v}-terms)`, `${a} ${b < 0 ? '-' : '+'} ${Math.abs(b)} = ${a + b}, so the result is ${ans}`],
        hints: ['Like terms have the same variable part.', `Add or subtract the numbers in front of ${v}.`],
        wrong: [
          [`${a + b}${v}^2`, 'multiplies the variables when adding'],
          [`${a * b}${v}`, 'multiplies the coefficients'],
          [linear([[a, v], [b, v]]), 'leaves the like terms uncombined'],
        ],
      });
    }
    if (level === 2) {
      const a = rng.int(2, 9);
      const c = nonZero(rng, -9, 9);
      const b = nonZero(rng, -12, 12);
      const d = nonZero(rng, -12, 12);
      if (a + c === 0 || b + d === 0) return undefined;
      const ans = linear([[a + c, v], [b + d, '']]);
      return mk({
        stem: `Simplify: $${linear([[a, v], [b, ''], [c, v], [d, '']])}$`,
        ...exprAnswer(ans),
        steps: [`Group like terms: (${linear([[a, v], [c, v]])}) + (${linear([[b, ''], [d, '']])})`, `${v}-terms: ${a + c}${v}; numbers: ${b + d}`, `Result: ${ans}`],
        hints: ['Collect the terms with the variable, and separately the plain numbers.', 'Keep each term\'s sign with it when you move it.'],
        wrong: [
          [linear([[a + c + b + d, v]]), 'combines unlike terms'],
          [linear([[a - c, v], [b - d, '']]), 'drops the signs of the later terms'],
          [linear([[a + c, v], [b - d, '']]), 'gets the sign of a constant wrong'],
        ],
      });
    }
    const p = rng.int(2, 5);
    const q = rng.int(2, 6);
    const r = nonZero(rng, -9, 9);
    const s = rng.int(1, 4);
    const t = nonZero(rng, -9, 9);
    // p(qv + r) - s(v + t)
    const A = p * q - s;
    const B = p * r - s * t;
    if (A === 0 || B === 0) return undefined;
    const ans = linear([[A, v], [B, '']]);
    const inner2 = linear([[1, v], [t, '']]);
    return mk({
      stem: `Simplify: $${p}(${linear([[q, v], [r, '']])}) - ${s === 1 ? '' : s}(${inner2})$`,
      ...exprAnswer(ans),
      steps: [`Distribute: ${linear([[p * q, v], [p * r, '']])} ${linear([[-s, v], [-s * t, '']]).replace(/^-/, '- ')}`, `Combine like terms: ${ans}`],
      hints: ['Multiply each term inside the parentheses by the number in front.', 'The minus sign in front of the second parentheses changes the sign of every term inside.'],
      wrong: [
        [linear([[p * q - s, v], [p * r + s * t, '']]), 'does not apply the minus sign to the second term inside'],
        [linear([[p * q - s, v], [r - s * t, '']]), 'multiplies only the first term inside the parentheses'],
        [linear([[p * q + s, v], [p * r + s * t, '']]), 'adds the second group instead of subtracting'],
      ],
    });
  },
});

// ---------- 59 Algebraic solving, 88 multi-step equations ----------

export const algebraicSolving = defineGenerator({
  skillId: 59,
  levels: ['Variables on both sides', 'Distribute, then variables on both sides', 'Equations with fractions (clear the denominators)'],
  make(rng, level) {
    const x = nonZero(rng, -12, 15);
    if (level === 1) {
      const c = rng.int(1, 6);
      const a = c + rng.int(1, 6);
      const b = rng.int(-15, 15);
      const d = (a - c) * x + b;
      return mk({
        stem: `Solve for $x$: $${linear([[a, 'x'], [b, '']])} = ${linear([[c, 'x'], [d, '']])}$`,
        ...solution(x),
        steps: [`Subtract ${c === 1 ? 'x' : `${c}x`} from both sides: ${linear([[a - c, 'x'], [b, '']])} = ${d}`, `Subtract ${b} from both sides: ${a - c === 1 ? 'x' : `${a - c}x`} = ${d - b}`, `x = ${x}`],
        hints: ['Get the x-terms on one side: subtract the smaller x-term from both sides.', 'Then undo the constant, then divide.'],
        wrong: [
          [fmt(roundTo((d - b) / (a + c), 3)), 'adds the x-terms instead of subtracting'],
          [fmt(roundTo((d + b) / (a - c), 3)), 'moves the constant with the wrong sign'],
          [-x, 'makes a sign error at the end'],
        ],
      });
    }
    if (level === 2) {
      const a = rng.int(2, 5);
      const b = nonZero(rng, -8, 8);
      const c = nonZero(rng, -4, 4);
      if (a === c) return undefined;
      const d = a * (x + b) - c * x;
      return mk({
        stem: `Solve for $x$: $${a}(x ${signed(b)}) = ${linear([[c, 'x'], [d, '']])}$`,
        ...solution(x),
        steps: [`Distribute: ${linear([[a, 'x'], [a * b, '']])} = ${linear([[c, 'x'], [d, '']])}`, `Collect x-terms: ${linear([[a - c, 'x']])} = ${d - a * b}`, a - c === 1 ? `x = ${x}` : `x = ${d - a * b} ÷ ${paren(a - c)} = ${x}`],
        hints: ['Multiply the number outside the parentheses by each term inside.', 'Then move the x-terms to one side and the numbers to the other.'],
        wrong: [
          [fmt(roundTo((d - b) / (a - c), 3)), 'multiplies only the x inside the parentheses'],
          [fmt(roundTo((d - a * b) / (a + c), 3)), 'adds the x-terms instead of subtracting'],
        ],
      });
    }
    const [p, r] = rng.shuffle([2, 3, 4, 5, 6]).slice(0, 2) as [number, number];
    const l = lcm(p, r);
    const xx = l * nonZero(rng, -4, 4);
    const q = rng.int(-9, 9);
    const s = xx / p + q - xx / r;
    if (s === 0) return undefined;
    return mk({
      stem: `Solve for $x$: $\\frac{x}{${p}}${q === 0 ? '' : ` ${signed(q)}`} = \\frac{x}{${r}} ${signed(s)}$`,
      ...solution(xx),
      steps: [`Multiply every term by ${l}: ${linear([[l / p, 'x'], [l * q, '']])} = ${linear([[l / r, 'x'], [l * s, '']])}`, `Collect terms: ${linear([[l / p - l / r, 'x']])} = ${l * s - l * q}`, `x = ${xx}`],
      hints: ['Clear the fractions: multiply every term on both sides by a common multiple of the denominators.', 'Then solve the equation with whole numbers.'],
      wrong: [
        [fmt(roundTo((s - q) / (1 / p + 1 / r), 3)), 'adds the x-terms instead of subtracting'],
        [fmt((s - q) * (p - r)), 'subtracts the denominators'],
        [-xx, 'makes a sign error'],
      ],
    });
  },
});

export const multiStepEquations = defineGenerator({
  skillId: 88,
  levels: ['a(x + b) = c', 'Combine like terms, then solve', 'Variables on both sides with negatives'],
  make(rng, level) {
    const x = nonZero(rng, -10, 12);
    if (level === 1) {
      const a = rng.int(2, 9);
      const b = nonZero(rng, -9, 9);
      const c = a * (x + b);
      return mk({
        stem: `Solve for $x$: $${a}(x ${signed(b)}) = ${c}$`,
        ...solution(x),
        steps: [`Divide both sides by ${a}: x ${signed(b)} = ${c / a}`, `${b > 0 ? 'Subtract' : 'Add'} ${Math.abs(b)}: x = ${x}`],
        hints: ['You can divide both sides by the number outside the parentheses first, or distribute.', 'Then undo the number added to or subtracted from x.'],
        wrong: [
          [c / a + b, 'undoes the constant in the wrong direction'],
          [fmt(roundTo((c - b) / a, 3)), 'subtracts before dividing without distributing'],
          [c - a * b, 'forgets to divide by the coefficient'],
        ],
      });
    }
    if (level === 2) {
      const a = rng.int(3, 9);
      const c = rng.int(1, a - 1);
      const b = nonZero(rng, -12, 12);
      const sub = rng.chance(0.5);
      const k = sub ? a - c : a + c;
      const d = k * x + b;
      return mk({
        stem: `Solve for $x$: $${a}x ${signed(b)} ${sub ? '-' : '+'} ${c === 1 ? '' : c}x = ${d}$`,
        ...solution(x),
        steps: [`Combine like terms: ${linear([[k, 'x'], [b, '']])} = ${d}`, `${k === 1 ? 'x' : `${k}x`} = ${d - b}`, `x = ${x}`],
        hints: ['Combine the x-terms first.', 'Then undo the constant and divide.'],
        wrong: [
          [fmt(roundTo((d - b) / (sub ? a + c : a - c || 1), 3)), sub ? 'adds the x-terms instead of subtracting' : 'subtracts the x-terms instead of adding'],
          [fmt(roundTo((d + b) / k, 3)), 'moves the constant with the wrong sign'],
        ],
      });
    }
    const a = nonZero(rng, -7, 9);
    const c = nonZero(rng, -7, 9);
    if (a === c || (a > 0 && c > 0)) return undefined;
    const b = nonZero(rng, -15, 15);
    const d = (a - c) * x + b;
    return mk({
      stem: `Solve for $x$: $${linear([[a, 'x'], [b, '']])} = ${linear([[c, 'x'], [d, '']])}$`,
      ...solution(x),
      steps: [`Move the x-terms: ${linear([[a, 'x']])} - (${linear([[c, 'x']])}) = ${linear([[a - c, 'x']])}`, `${linear([[a - c, 'x']])} = ${d} - (${b}) = ${d - b}`, `x = ${d - b} ÷ ${paren(a - c)} = ${x}`],
      hints: ['Add or subtract an x-term on both sides so x appears on one side only.', 'Watch the signs: subtracting a negative term adds it.'],
      wrong: [
        [fmt(roundTo((d - b) / (a + c || 1), 3)), 'combines the x-terms with the wrong sign'],
        [-x, 'loses a negative sign'],
        [fmt(roundTo((d + b) / (a - c), 3)), 'moves the constant with the wrong sign'],
      ],
    });
  },
});

// ---------- 60 Choose an equation ----------

export const chooseEquation = defineGenerator({
  skillId: 60,
  levels: ['One-step situations (x + a = b)', 'Two-step word sentences ("3 times a number, decreased by 4 …")', 'Fixed fee plus rate situations'],
  make(rng, level) {
    if (level === 1) {
      const a = rng.int(3, 20);
      const b = a + rng.int(3, 30);
      const name = rng.pick(['Sam', 'Ava', 'Leo', 'Mia']);
      const ans = `$x + ${a} = ${b}$`;
      return mkChoice(rng, {
        stem: `${name} had some stickers. After getting ${a} more, ${name} has ${b}. Which equation can be used to find $x$, the number of stickers ${name} had at first?`,
        answer: ans,
        options: [ans, `$x - ${a} = ${b}$`, `$${a}x = ${b}$`, `$x + ${b} = ${a}$`],
        steps: [`Start with x, add ${a} more, and the result is ${b}`, `x + ${a} = ${b}`],
        hints: ['Say the story in order: start with the unknown, then what happens to it.', '"Getting more" is adding.'],
        wrong: [
          [`$x - ${a} = ${b}$`, 'subtracts when the story adds'],
          [`$${a}x = ${b}$`, 'multiplies when the story adds'],
        ],
      });
    }
    if (level === 2) {
      const a = rng.int(2, 9);
      const b = rng.int(2, 15);
      const c = rng.int(5, 40);
      const dec = rng.chance(0.5);
      const ans = `$${a}n ${dec ? '-' : '+'} ${b} = ${c}$`;
      return mkChoice(rng, {
        stem: `"${['Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine'][a - 2]} times a number $n$, ${dec ? 'decreased' : 'increased'} by ${b}, is ${c}." Which equation matches?`,
        answer: ans,
        options: [ans, `$${a}(n ${dec ? '-' : '+'} ${b}) = ${c}$`, dec ? `$${b} - ${a}n = ${c}$` : `$${a}n = ${c} + ${b}$`, `$${a}n ${dec ? '+' : '-'} ${b} = ${c}$`],
        steps: [`"${a} times a number" is ${a}n`, `${dec ? 'Decreased by' : 'Increased by'} ${b}: ${a}n ${dec ? '-' : '+'} ${b}`, `"is ${c}": ${a}n ${dec ? '-' : '+'} ${b} = ${c}`],
        hints: ['Translate one phrase at a time.', 'The multiplication happens to the number first; then the amount is added or taken away.'],
        wrong: [
          [`$${a}(n ${dec ? '-' : '+'} ${b}) = ${c}$`, 'groups the number with the constant before multiplying'],
          [`$${a}n ${dec ? '+' : '-'} ${b} = ${c}$`, 'uses the opposite operation'],
        ],
      });
    }
    const fee = rng.int(2, 12) * 5;
    const rate = rng.int(3, 12) * 5;
    const h = rng.int(2, 8);
    if (fee === rate) return undefined;
    const total = fee + rate * h;
    const ctx = rng.pick([
      { who: 'A plumber', fee: 'a visit fee of', per: 'per hour', v: 'h', what: 'hours' },
      { who: 'A bike shop', fee: 'a flat fee of', per: 'per day', v: 'd', what: 'days' },
      { who: 'A gym', fee: 'a sign-up fee of', per: 'per month', v: 'm', what: 'months' },
    ]);
    const ans = `$${rate}${ctx.v} + ${fee} = ${total}$`;
    return mkChoice(rng, {
      stem: `${ctx.who} charges ${ctx.fee} \\$${fee} plus \\$${rate} ${ctx.per}. A customer paid \\$${total}. Which equation can be used to find $${ctx.v}$, the number of ${ctx.what}?`,
      answer: ans,
      options: [ans, `$${fee}${ctx.v} + ${rate} = ${total}$`, `$${rate}(${ctx.v} + ${fee}) = ${total}$`, `$${rate}${ctx.v} = ${total} + ${fee}$`],
      steps: [`The rate is charged once for each ${ctx.what.replace(/s$/, '')}: ${rate}${ctx.v}`, `The fee is added once: ${rate}${ctx.v} + ${fee}`, `The total is ${total}: ${rate}${ctx.v} + ${fee} = ${total}`],
      hints: ['Which amount is multiplied by the number of ' + ctx.what + ', and which is paid only once?', 'Cost = (rate × number) + fee.'],
      wrong: [
        [`$${fee}${ctx.v} + ${rate} = ${total}$`, 'swaps the fee and the rate'],
        [`$${rate}(${ctx.v} + ${fee}) = ${total}$`, 'multiplies the fee by the rate too'],
        [`$${rate}${ctx.v} = ${total} + ${fee}$`, 'adds the fee to the total instead'],
      ],
    });
  },
});

// ---------- 99 Distributive property ----------

export const distributive = defineGenerator({
  skillId: 99,
  levels: ['a(x + b) with positive numbers', 'Negative factor: -a(bx - c)', 'Two products to expand and combine'],
  make(rng, level) {
    const v = rng.pick(['x', 'y', 'n']);
    if (level === 1) {
      const a = rng.int(2, 9);
      const b = rng.int(1, 12);
      const ans = linear([[a, v], [a * b, '']]);
      return mk({
        stem: `Use the distributive property to write an equivalent expression without parentheses: $${a}(${v} + ${b})$`,
        ...exprAnswer(ans),
        steps: [`Multiply ${a} by each term: ${a} × ${v} + ${a} × ${b}`, `= ${ans}`],
        hints: ['The number outside multiplies every term inside the parentheses.', `Multiply ${a} by ${v}, then ${a} by ${b}.`],
        wrong: [
          [linear([[a, v], [b, '']]), 'multiplies only the first term'],
          [linear([[a + a * b, v]]), 'combines unlike terms'],
          [linear([[1, v], [a * b, '']]), 'multiplies only the second term'],
        ],
      });
    }
    if (level === 2) {
      const a = -rng.int(2, 8);
      const b = rng.int(2, 9);
      const c = rng.int(1, 12);
      const ans = linear([[a * b, v], [-a * c, '']]);
      return mk({
        stem: `Expand: $${a}(${b}${v} - ${c})$`,
        ...exprAnswer(ans),
        steps: [`${a} × ${b}${v} = ${a * b}${v}`, `${a} × (-${c}) = ${-a * c}`, `Result: ${ans}`],
        hints: ['Multiply the outside number by each term inside, keeping track of signs.', 'A negative times a negative is positive.'],
        wrong: [
          [linear([[a * b, v], [a * c, '']]), 'gets the sign of the second product wrong'],
          [linear([[-a * b, v], [-a * c, '']]), 'drops the negative sign on the first product'],
          [linear([[a * b, v], [-c, '']]), 'multiplies only the first term'],
        ],
      });
    }
    const a = rng.int(2, 6);
    const b = rng.int(2, 5);
    const c = nonZero(rng, -9, 9);
    const d = rng.int(2, 5);
    const e = nonZero(rng, -9, 9);
    const A = a * b - d;
    const B = a * c - d * e;
    if (A === 0 || B === 0) return undefined;
    const ans = linear([[A, v], [B, '']]);
    return mk({
      stem: `Expand and simplify: $${a}(${linear([[b, v], [c, '']])}) - ${d}(${linear([[1, v], [e, '']])})$`,
      ...exprAnswer(ans),
      steps: [`${a}(${linear([[b, v], [c, '']])}) = ${linear([[a * b, v], [a * c, '']])}`, `-${d}(${linear([[1, v], [e, '']])}) = ${linear([[-d, v], [-d * e, '']])}`, `Combine: ${ans}`],
      hints: ['Distribute each number to every term in its parentheses; the second number is negative.', 'Then combine the like terms.'],
      wrong: [
        [linear([[A, v], [a * c + d * e, '']]), 'forgets that the minus sign also multiplies the last term'],
        [linear([[a * b + d, v], [a * c + d * e, '']]), 'adds the second product instead of subtracting'],
      ],
    });
  },
});

// ---------- 101 Polynomial factors ----------

const lin = (a: number, c: number, v = 'x') => `(${linear([[a, v], [c, '']])})`;
/** "2x^2 - x + 3" (plain text, also valid inside $…$ for one-digit exponents). */
const quadText = (a: number, b: number, c: number) => linear([[a, 'x^2'], [b, 'x'], [c, '']]);

export const polynomialFactors = defineGenerator({
  skillId: 101,
  levels: ['Factor x² + bx + c with positive factors', 'Factor x² + bx + c with negative numbers', 'Difference of squares, or ax² + bx + c with a > 1'],
  make(rng, level) {
    if (level < 3) {
      let p = rng.int(1, 9);
      let q = rng.int(1, 9);
      if (level === 2) {
        p = nonZero(rng, -9, 9);
        q = nonZero(rng, -9, 9);
        if (p > 0 && q > 0) return undefined;
      }
      if (p === q || p + q === 0) return undefined;
      const b = p + q;
      const c = p * q;
      const ans = `${lin(1, p)}${lin(1, q)}`;
      return mk({
        stem: `Factor completely: $${quadText(1, b, c)}$`,
        kind: 'expression',
        format: 'factored',
        answer: ans,
        steps: [`Find two numbers that multiply to ${c} and add to ${b}: ${p} and ${q}`, `${quadText(1, b, c)} = ${ans}`],
        hints: [`Look for two numbers whose product is ${c} and whose sum is ${b}.`, c < 0 ? 'The product is negative, so one number is positive and one is negative.' : b < 0 ? 'Both numbers must be negative.' : 'Both numbers are positive.'],
        wrong: [
          [`${lin(1, -p)}${lin(1, -q)}`, 'gets the signs of both factors wrong'],
          [`${lin(1, p)}${lin(1, -q)}`, 'gets the sign of one factor wrong'],
          [`${lin(1, b)}${lin(1, 1)}`, `uses ${b} and 1, which add to the right sum but do not multiply to ${c}`],
        ],
      });
    }
    if (rng.chance(0.5)) {
      const k = rng.int(2, 12);
      const a = rng.pick([1, 1, 2, 3]);
      if (gcd(a, k) !== 1) return undefined;
      const ans = `${lin(a, -k)}${lin(a, k)}`;
      return mk({
        stem: `Factor completely: $${a === 1 ? '' : a * a}x^2 - ${k * k}$`,
        kind: 'expression',
        format: 'factored',
        answer: ans,
        steps: [`This is a difference of two squares: (${a === 1 ? '' : a}x)^2 - ${k}^2`, `a^2 - b^2 = (a - b)(a + b), so the result is ${ans}`],
        hints: ['Both terms are perfect squares and they are subtracted.', 'Use a² - b² = (a - b)(a + b).'],
        wrong: [
          [`${lin(a, -k)}${lin(a, -k)}`, 'writes a perfect square instead of a difference of squares'],
          [`${lin(a, k)}${lin(a, k)}`, 'uses two plus signs'],
        ],
      });
    }
    const a = rng.pick([2, 3, 5]);
    const p = nonZero(rng, -7, 7);
    const q = nonZero(rng, -6, 6);
    if (gcd(a, Math.abs(p)) !== 1) return undefined;
    // (a x + p)(x + q) = a x^2 + (a q + p) x + p q
    const B = a * q + p;
    const C = p * q;
    if (B === 0) return undefined;
    const ans = `${lin(a, p)}${lin(1, q)}`;
    return mk({
      stem: `Factor completely: $${quadText(a, B, C)}$`,
      kind: 'expression',
      format: 'factored',
      answer: ans,
      steps: [`Find two numbers that multiply to ${a} × ${C} = ${a * C} and add to ${B}: ${a * q} and ${p}`, `Split the middle term: ${a}x^2 ${signed(a * q)}x ${signed(p)}x ${signed(C)}`, `Group: ${a}x(x ${signed(q)}) ${signed(p)}(x ${signed(q)}) = ${ans}`],
      hints: [`Multiply the first and last coefficients (${a} × ${C}); find two numbers with that product and a sum of ${B}.`, 'Use them to split the middle term, then factor by grouping.'],
      wrong: [
        [`${lin(a, q)}${lin(1, p)}`, 'places the numbers in the wrong factors'],
        [`${lin(a, -p)}${lin(1, -q)}`, 'gets the signs wrong'],
      ],
    });
  },
});

// ---------- 102 Quadratic patterns ----------

export const quadraticPattern = defineGenerator({
  skillId: 102,
  levels: ['Next term of a shifted square-number pattern', 'Next term of a pattern with constant second differences', 'Rule for the nth term of a quadratic pattern'],
  make(rng, level) {
    const a = level === 1 ? 1 : rng.int(1, 3);
    const b = level === 2 ? rng.int(-3, 3) : 0;
    const c = rng.int(-5, 9);
    if (level === 2 && a === 1 && b % 2 === 0) return undefined; // that would be a shifted square pattern (level 1)
    const n0 = level === 1 ? rng.int(0, 3) : 0;
    const t = (n: number) => a * (n + n0) * (n + n0) + b * n + c;
    const shown = [1, 2, 3, 4, 5].map(t);
    const d1 = shown.slice(1).map((v, i) => v - shown[i]!);
    if (new Set(shown).size < 5) return undefined;
    if (level < 3) {
      const next = t(6);
      return mk({
        stem: `What is the next number in the pattern? ${shown.join(', ')}, …`,
        answer: next,
        steps: [
          `Differences: ${d1.join(', ')}`,
          ...(level === 2 ? [`Second differences: ${d1.slice(1).map((v, i) => v - d1[i]!).join(', ')} (constant)`] : []),
          `The differences grow by ${2 * a} each time, so the next difference is ${d1[3]! + 2 * a}`,
          `${shown[4]} + ${d1[3]! + 2 * a} = ${next}`,
        ],
        hints: ['Look at the differences between neighbouring numbers.', 'The differences are not constant: how do they change?'],
        wrong: [
          [shown[4]! + d1[3]!, 'repeats the last difference as if the pattern were linear'],
          [shown[4]! + d1[3]! + 1, 'adds one more than the last difference'],
          [shown[4]! * 2, 'doubles the last number'],
        ],
      });
    }
    const ans = linear([[a, 'n^2'], [c, '']]);
    return mk({
      stem: `Write a rule for the nth term of the pattern ${shown.slice(0, 4).join(', ')}, … (the first term is n = 1).`,
      kind: 'expression',
      answer: ans,
      steps: [`Differences: ${d1.slice(0, 3).join(', ')}; second differences: ${2 * a}, so the rule starts with ${a === 1 ? '' : a}n^2`, `For n = 1, ${a === 1 ? '' : a}n^2 = ${a}; the first term is ${shown[0]}, so add ${c}`, `Rule: ${ans}`],
      hints: ['Find the differences, then the differences of the differences.', 'A constant second difference of 2a means the rule starts with a·n²; then adjust with a constant.'],
      wrong: [
        [linear([[d1[0]!, 'n'], [shown[0]! - d1[0]!, '']]), 'treats the pattern as linear'],
        [linear([[2 * a, 'n^2'], [c, '']]), 'uses the second difference as the coefficient of n²'],
        [linear([[a, 'n^2'], [shown[0]!, '']]), 'adds the first term instead of adjusting for it'],
      ],
    });
  },
});

// ---------- 103 Systems ----------

const point = (x: number, y: number) => ({
  kind: 'list' as const,
  answer: `(${x}, ${y})`,
  accepted: [`x = ${x}, y = ${y}`],
  phrases: [`(${x}, ${y})`, `(${x},${y})`, `x = ${x}, y = ${y}`, `x = ${x} and y = ${y}`],
});

export const systems = defineGenerator({
  skillId: 103,
  levels: ['Two equations solved for y (set them equal)', 'x + y and x - y: add the equations', 'Elimination after multiplying one equation'],
  make(rng, level) {
    const x = nonZero(rng, -6, 8);
    const y = nonZero(rng, -6, 8);
    if (level === 1) {
      const a = nonZero(rng, -4, 4);
      const c = nonZero(rng, -4, 4);
      if (a === c) return undefined;
      const b = y - a * x;
      const d = y - c * x;
      return mk({
        stem: `Solve the system: $y = ${linear([[a, 'x'], [b, '']])}$ and $y = ${linear([[c, 'x'], [d, '']])}$. Write the solution as $(x, y)$.`,
        ...point(x, y),
        steps: [`Set the right sides equal: ${linear([[a, 'x'], [b, '']])} = ${linear([[c, 'x'], [d, '']])}`, `${linear([[a - c, 'x']])} = ${d - b}, so x = ${x}`, `y = ${linear([[a, 'x'], [b, '']]).replace('x', `(${x})`)} = ${y}; solution (${x}, ${y})`],
        hints: ['Both expressions equal y, so they equal each other.', 'Solve for x, then put x back into either equation to get y.'],
        wrong: [
          [`(${y}, ${x})`, 'writes the coordinates in the wrong order'],
          [`(${x}, ${c * x + b})`, 'mixes the two equations when finding y'],
          [`(${-x}, ${y})`, 'makes a sign error solving for x'],
        ],
      });
    }
    if (level === 2) {
      const s = x + y;
      const d = x - y;
      return mk({
        stem: `Solve the system: $x + y = ${s}$ and $x - y = ${d}$. Write the solution as $(x, y)$.`,
        ...point(x, y),
        steps: [`Add the equations: 2x = ${s + d}, so x = ${x}`, `Substitute: ${x} + y = ${s}, so y = ${y}`, `Solution (${x}, ${y})`],
        hints: ['Adding the two equations makes y disappear.', 'Find x, then use either equation to find y.'],
        wrong: [
          [`(${y}, ${x})`, 'swaps x and y'],
          [`(${s + d}, ${y})`, 'forgets to divide by 2'],
          [`(${x}, ${-y})`, 'makes a sign error when finding y'],
        ],
      });
    }
    const a = rng.int(1, 4);
    const b = nonZero(rng, -4, 4);
    const c = rng.int(1, 5);
    const d = nonZero(rng, -4, 4);
    if (a * d - b * c === 0 || Math.abs(b) === Math.abs(d) || a === c) return undefined;
    const e = a * x + b * y;
    const f = c * x + d * y;
    return mk({
      stem: `Solve the system: $${linear([[a, 'x'], [b, 'y']])} = ${e}$ and $${linear([[c, 'x'], [d, 'y']])} = ${f}$. Write the solution as $(x, y)$.`,
      ...point(x, y),
      steps: [`Multiply the equations so the x-coefficients match: ${c} × (first) and ${a} × (second)`, `Subtract: ${b * c - a * d}y = ${e * c - f * a}, so y = ${y}`, `Substitute back: ${linear([[a, 'x']])} ${signed(b * y)} = ${e}, so x = ${x}`, `Solution (${x}, ${y})`],
      hints: ['Multiply one or both equations so that one variable has the same (or opposite) coefficient in both.', 'Add or subtract the equations to eliminate it, solve, then substitute back.'],
      wrong: [
        [`(${y}, ${x})`, 'swaps x and y'],
        [`(${x}, ${-y})`, 'makes a sign error when eliminating'],
      ],
    });
  },
});

// ---------- 104 Quadratic formula ----------

export const quadraticFormula = defineGenerator({
  skillId: 104,
  levels: ['x² + bx + c = 0 with whole-number roots', 'ax² + bx + c = 0 with fractional roots', 'Roots that are not rational, rounded to the nearest hundredth'],
  make(rng, level) {
    if (level < 3) {
      const a = level === 1 ? 1 : rng.pick([2, 3, 4]);
      const p = nonZero(rng, -9, 9);
      const q = nonZero(rng, -9, 9);
      // (a x - p)(x - q) = a x^2 - (a q + p) x + p q  → roots p/a, q
      if (level === 2 && gcd(a, Math.abs(p)) !== 1) return undefined;
      const B = -(a * q + p);
      const C = p * q;
      const r1: Frac = frac(p, a);
      if (r1[0] === q * r1[1] && r1[1] === 1) return undefined;
      const D = B * B - 4 * a * C;
      const sq = Math.sqrt(D);
      const rs = [fStr(r1), String(q)];
      return mk({
        stem: `Use the quadratic formula to solve $${quadText(a, B, C)} = 0$. Give both solutions, separated by a comma.`,
        kind: 'set',
        answer: rs.join(', '),
        accepted: [`${fDecimal(r1) ?? fStr(r1)}, ${q}`],
        phrases: [`x = ${rs[0]}`, `x = ${rs[1]}`, rs.join(' and '), `${rs[1]} and ${rs[0]}`, rs.join(', '), `${rs[1]}, ${rs[0]}`],
        steps: [`a = ${a}, b = ${B}, c = ${C}`, `Discriminant: b^2 - 4ac = ${B * B} - ${paren(4 * a * C)} = ${D}, and √${D} = ${sq}`, `x = (${-B} ± ${sq}) / ${2 * a}, so x = ${rs[0]} or x = ${rs[1]}`],
        hints: ['Identify a, b and c, then compute the discriminant b² - 4ac.', 'x = (-b ± √(b² - 4ac)) / (2a): work out the + and the - cases separately.'],
        wrong: [
          [`${fStr(frac(-p, a))}, ${-q}`, 'uses b instead of -b (both signs wrong)'],
          [`${-B + sq}, ${-B - sq}`, 'forgets to divide by 2a'],
          [rs[0]!, 'gives only one solution'],
        ],
      });
    }
    const b = nonZero(rng, -9, 9);
    const c = nonZero(rng, -9, 9);
    const D = b * b - 4 * c;
    if (D <= 0 || Number.isInteger(Math.sqrt(D))) return undefined;
    const x1 = (-b + Math.sqrt(D)) / 2;
    const x2 = (-b - Math.sqrt(D)) / 2;
    const r = (v: number) => fmt(roundTo(v, 2));
    return mk({
      stem: `Use the quadratic formula to solve $${quadText(1, b, c)} = 0$. Round each solution to the nearest hundredth and separate them with a comma.`,
      kind: 'set',
      answer: `${r(x1)}, ${r(x2)}`,
      phrases: [`x = ${r(x1)}`, `x = ${r(x2)}`, `${r(x1)} and ${r(x2)}`, `${r(x2)} and ${r(x1)}`, `${r(x1)}, ${r(x2)}`, `${r(x2)}, ${r(x1)}`],
      steps: [`a = 1, b = ${b}, c = ${c}`, `Discriminant: ${b * b} - ${paren(4 * c)} = ${D}`, `x = (${-b} ± √${D}) / 2 ≈ ${r(x1)} or ${r(x2)}`],
      hints: ['The discriminant is not a perfect square, so the solutions are not whole numbers.', 'Compute √(b² - 4ac) with a calculator, then find both (-b ± √(b² - 4ac)) / 2a and round.'],
      wrong: [
        [`${r(-x1)}, ${r(-x2)}`, 'uses b instead of -b'],
        [`${r(-b + Math.sqrt(D))}, ${r(-b - Math.sqrt(D))}`, 'forgets to divide by 2a'],
        [`${r((-b + Math.sqrt(b * b + 4 * c)) / 2)}, ${r((-b - Math.sqrt(b * b + 4 * c)) / 2)}`, 'adds 4ac instead of subtracting'],
      ],
    });
  },
});

// ---------- 105 Parts of a polynomial ----------

interface PTerm {
  c: number;
  e: number;
}
function polyText(ts: PTerm[], v = 'x'): string {
  return ts
    .map(({ c, e }, i) => {
      const body = e === 0 ? String(Math.abs(c)) : `${Math.abs(c) === 1 ? '' : Math.abs(c)}${v}${e === 1 ? '' : `^${e}`}`;
      if (i === 0) return c < 0 ? `-${body}` : body;
      return c < 0 ? `- ${body}` : `+ ${body}`;
    })
    .join(' ');
}
const DEG_NAMES = ['constant', 'linear', 'quadratic', 'cubic'];
const TERM_NAMES = ['', 'monomial', 'binomial', 'trinomial'];

export const polynomialParts = defineGenerator({
  skillId: 105,
  levels: ['Coefficient of a term or the constant term', 'Degree of a polynomial (terms out of order) or of a monomial in two variables', 'Name a polynomial by degree and number of terms'],
  make(rng, level) {
    const exps = rng.shuffle([0, 1, 2, 3, 4]).slice(0, rng.int(3, 4));
    const ts: PTerm[] = exps.map((e) => ({ c: nonZero(rng, -9, 9), e }));
    if (level === 1) {
      const target = rng.pick(ts);
      const what = target.e === 0 ? 'the constant term' : `the coefficient of $x${target.e === 1 ? '' : `^{${target.e}}`}$`;
      return mk({
        stem: `In the polynomial $${polyText(ts)}$, what is ${what}?`,
        answer: target.c,
        phrasesOnly: target.e === 0 ? 'constant term' : 'coefficient',
        steps: [`The terms are ${ts.map((t) => polyText([t])).join(', ')}`, `${target.e === 0 ? 'The term without x' : `The x^${target.e} term`} is ${polyText([target])}, so the answer is ${target.c}`],
        hints: ['A coefficient is the number multiplying the variable part; keep its sign.', target.e === 0 ? 'The constant term is the term with no variable.' : 'Find the term with exactly that power of x.'],
        wrong: [
          [Math.abs(target.c), 'drops the negative sign'],
          [target.e, 'gives the exponent instead of the coefficient'],
          [ts[0]!.c, 'gives the first coefficient'],
        ],
      });
    }
    if (level === 2) {
      if (rng.chance(0.5)) {
        const deg = Math.max(...exps);
        if (ts[0]!.e === deg) return undefined;
        return mk({
          stem: `What is the degree of the polynomial $${polyText(ts).replace(/\^(\d)/g, '^{$1}')}$?`,
          answer: deg,
          phrasesOnly: 'degree',
          steps: ['The degree of a polynomial is the highest exponent of any term', `The exponents are ${exps.join(', ')}; the highest is ${deg}`],
          hints: ['The terms are not written in order: look at every exponent.', 'The degree is the greatest exponent.'],
          wrong: [
            [ts[0]!.e, 'uses the exponent of the first term'],
            [ts.length, 'counts the terms'],
            [ts.reduce((a, t) => a + t.e, 0), 'adds all the exponents'],
          ],
        });
      }
      const p = rng.int(1, 5);
      const q = rng.int(1, 5);
      const c = rng.int(2, 9) * (rng.chance(0.5) ? -1 : 1);
      return mk({
        stem: `What is the degree of the monomial $${c}x^{${p}}y^{${q}}$?`,
        answer: p + q,
        phrasesOnly: 'degree',
        steps: ['The degree of a monomial is the sum of the exponents of its variables', `${p} + ${q} = ${p + q}`],
        hints: ['Every variable counts toward the degree of a monomial.', 'Add the exponents.'],
        wrong: [
          [Math.max(p, q), 'takes the largest exponent only'],
          [p * q, 'multiplies the exponents'],
          [c, 'gives the coefficient'],
        ],
      });
    }
    const nTerms = rng.int(1, 3);
    const deg = rng.int(1, 3);
    const es = rng.shuffle([...Array(deg).keys()]).slice(0, nTerms - 1);
    if (es.length !== nTerms - 1) return undefined;
    const terms: PTerm[] = [{ c: nonZero(rng, -9, 9), e: deg }, ...es.map((e) => ({ c: nonZero(rng, -9, 9), e }))];
    const ordered = rng.shuffle(terms);
    const name = `${DEG_NAMES[deg]} ${TERM_NAMES[nTerms]}`;
    const cap = name[0]!.toUpperCase() + name.slice(1);
    const options = new Set<string>([cap]);
    const alts = [`${DEG_NAMES[deg]} ${TERM_NAMES[(nTerms % 3) + 1]}`, `${DEG_NAMES[(deg % 3) + 1]} ${TERM_NAMES[nTerms]}`, `${DEG_NAMES[nTerms]} ${TERM_NAMES[Math.min(deg, 3)]}`, `${DEG_NAMES[((deg + 1) % 3) + 1]} ${TERM_NAMES[((nTerms + 1) % 3) + 1]}`].map((s) => s[0]!.toUpperCase() + s.slice(1));
    for (const a of alts) if (options.size < 4) options.add(a);
    return mkChoice(rng, {
      stem: `Which name describes $${polyText(ordered).replace(/\^(\d)/g, '^{$1}')}$?`,
      answer: cap,
      options: [...options],
      steps: [`It has ${nTerms} term${nTerms > 1 ? 's' : ''}: a ${TERM_NAMES[nTerms]}`, `Its highest exponent is ${deg}: ${DEG_NAMES[deg]}`, `So it is a ${name}`],
      hints: ['Count the terms: 1 monomial, 2 binomial, 3 trinomial.', 'Find the highest exponent: 1 linear, 2 quadratic, 3 cubic.'],
      wrong: [...options].filter((o) => o !== cap).map((o): [string, string] => [o, 'mixes up the number of terms and the degree']),
    });
  },
});

// ---------- 107 Solving for a variable ----------

interface Literal {
  formula: string;
  solveFor: string;
  answer: string;
  steps: string[];
  wrong: [string, string][];
}
/** Literal equations: [formula (TeX), variable, answer, steps, wrong answers with reasons]. */
const L = (formula: string, solveFor: string, answer: string, steps: string[], wrong: [string, string][]): Literal => ({ formula, solveFor, answer, steps, wrong });
const divOne = (formula: string, plain: string, v: string, by: string, answer: string) =>
  L(formula, v, answer, [plain, `Divide both sides by ${by}: ${answer}`], [
    [`${v} = ${answer.split(' = ')[1]!.replace(/\//, '*').replace(/[()]/g, '')}`, 'multiplies instead of dividing'],
    [`${v} = ${by.replace(/[()]/g, '')}/(${answer.split(' = ')[1]!.split('/')[0]})`, 'divides the wrong way round'],
  ]);
const LITERALS: Record<1 | 2 | 3, Literal[]> = {
  1: [
    divOne('d = rt', 'd = rt', 't', 'r', 't = d/r'),
    divOne('d = rt', 'd = rt', 'r', 't', 'r = d/t'),
    divOne('A = lw', 'A = lw', 'w', 'l', 'w = A/l'),
    divOne('A = lw', 'A = lw', 'l', 'w', 'l = A/w'),
    divOne('V = Bh', 'V = Bh', 'h', 'B', 'h = V/B'),
    divOne('V = Bh', 'V = Bh', 'B', 'h', 'B = V/h'),
    divOne('P = 4s', 'P = 4s', 's', '4', 's = P/4'),
    divOne('C = \\pi d', 'C = πd', 'd', 'π', 'd = C/π'),
    divOne('F = ma', 'F = ma', 'a', 'm', 'a = F/m'),
    divOne('F = ma', 'F = ma', 'm', 'a', 'm = F/a'),
    divOne('W = Fd', 'W = Fd', 'd', 'F', 'd = W/F'),
    L('y = x + b', 'b', 'b = y - x', ['y = x + b', 'Subtract x from both sides: b = y - x'], [['b = y + x', 'adds instead of subtracting'], ['b = x - y', 'subtracts in the wrong order']]),
  ],
  2: [
    L('P = 2l + 2w', 'w', 'w = (P - 2l)/2', ['P = 2l + 2w', 'Subtract 2l: P - 2l = 2w', 'Divide by 2: w = (P - 2l)/2'], [['w = P - 2l/2', 'divides only 2l by 2'], ['w = (P + 2l)/2', 'adds 2l instead of subtracting'], ['w = P/2 - 2l', 'divides only P by 2']]),
    L('P = 2l + 2w', 'l', 'l = (P - 2w)/2', ['P = 2l + 2w', 'Subtract 2w: P - 2w = 2l', 'Divide by 2: l = (P - 2w)/2'], [['l = P - 2w/2', 'divides only 2w by 2'], ['l = (P + 2w)/2', 'adds 2w instead of subtracting']]),
    L('y = mx + b', 'x', 'x = (y - b)/m', ['y = mx + b', 'Subtract b: y - b = mx', 'Divide by m: x = (y - b)/m'], [['x = y/m - b', 'divides before subtracting b from everything'], ['x = (y + b)/m', 'adds b instead of subtracting'], ['x = m(y - b)', 'multiplies instead of dividing']]),
    L('y = mx + b', 'm', 'm = (y - b)/x', ['y = mx + b', 'Subtract b: y - b = mx', 'Divide by x: m = (y - b)/x'], [['m = y/x - b', 'divides before subtracting b'], ['m = (y + b)/x', 'adds b instead of subtracting']]),
    L('y = mx + b', 'b', 'b = y - mx', ['y = mx + b', 'Subtract mx from both sides: b = y - mx'], [['b = y + mx', 'adds instead of subtracting'], ['b = (y - m)/x', 'divides instead of subtracting']]),
    L('I = Prt', 'r', 'r = I/(Pt)', ['I = Prt', 'Divide both sides by Pt: r = I/(Pt)'], [['r = IPt', 'multiplies instead of dividing'], ['r = I/P - t', 'subtracts t instead of dividing by it'], ['r = I/P*t', 'multiplies by t instead of dividing by it']]),
    L('I = Prt', 't', 't = I/(Pr)', ['I = Prt', 'Divide both sides by Pr: t = I/(Pr)'], [['t = IPr', 'multiplies instead of dividing'], ['t = I/P*r', 'multiplies by r instead of dividing by it']]),
    L('I = Prt', 'P', 'P = I/(rt)', ['I = Prt', 'Divide both sides by rt: P = I/(rt)'], [['P = Irt', 'multiplies instead of dividing'], ['P = I - rt', 'subtracts instead of dividing']]),
    L('C = 2\\pi r', 'r', 'r = C/(2π)', ['C = 2πr', 'Divide both sides by 2π: r = C/(2π)'], [['r = 2πC', 'multiplies instead of dividing'], ['r = C/2 - π', 'subtracts π instead of dividing by it']]),
    L('v = u + at', 'a', 'a = (v - u)/t', ['v = u + at', 'Subtract u: v - u = at', 'Divide by t: a = (v - u)/t'], [['a = v/t - u', 'divides before subtracting u'], ['a = (v + u)/t', 'adds u instead of subtracting']]),
    L('v = u + at', 't', 't = (v - u)/a', ['v = u + at', 'Subtract u: v - u = at', 'Divide by a: t = (v - u)/a'], [['t = v/a - u', 'divides before subtracting u'], ['t = (v + u)/a', 'adds u instead of subtracting']]),
    L('P = a + b + c', 'c', 'c = P - a - b', ['P = a + b + c', 'Subtract a and b from both sides: c = P - a - b'], [['c = P - a + b', 'subtracts only a'], ['c = a + b - P', 'subtracts in the wrong order']]),
  ],
  3: [
    L('A = \\frac{1}{2}bh', 'b', 'b = 2A/h', ['A = ½bh', 'Multiply both sides by 2: 2A = bh', 'Divide by h: b = 2A/h'], [['b = A/(2h)', 'divides by 2 instead of multiplying'], ['b = 2Ah', 'multiplies by h instead of dividing'], ['b = A/h', 'forgets the ½']]),
    L('A = \\frac{1}{2}bh', 'h', 'h = 2A/b', ['A = ½bh', 'Multiply both sides by 2: 2A = bh', 'Divide by b: h = 2A/b'], [['h = A/(2b)', 'divides by 2 instead of multiplying'], ['h = A/b', 'forgets the ½']]),
    L('F = \\frac{9}{5}C + 32', 'C', 'C = 5(F - 32)/9', ['F = (9/5)C + 32', 'Subtract 32: F - 32 = (9/5)C', 'Multiply by 5/9: C = (5/9)(F - 32)'], [['C = 5F/9 - 32', 'subtracts 32 after scaling'], ['C = 9(F - 32)/5', 'multiplies by 9/5 instead of 5/9'], ['C = 5(F + 32)/9', 'adds 32 instead of subtracting']]),
    L('C = \\frac{5}{9}(F - 32)', 'F', 'F = 9C/5 + 32', ['C = (5/9)(F - 32)', 'Multiply by 9/5: (9/5)C = F - 32', 'Add 32: F = (9/5)C + 32'], [['F = 5C/9 + 32', 'multiplies by 5/9 instead of 9/5'], ['F = 9(C + 32)/5', 'adds 32 before scaling'], ['F = 9C/5 - 32', 'subtracts 32 instead of adding']]),
    L('V = \\frac{1}{3}\\pi r^{2}h', 'h', 'h = 3V/(πr^2)', ['V = (1/3)πr²h', 'Multiply by 3: 3V = πr²h', 'Divide by πr²: h = 3V/(πr²)'], [['h = V/(3πr^2)', 'divides by 3 instead of multiplying'], ['h = 3V/(πr)', 'divides by r instead of r²'], ['h = 3Vπr^2', 'multiplies instead of dividing']]),
    L('S = 2\\pi r h + 2\\pi r^{2}', 'h', 'h = (S - 2πr^2)/(2πr)', ['S = 2πrh + 2πr²', 'Subtract 2πr²: S - 2πr² = 2πrh', 'Divide by 2πr: h = (S - 2πr²)/(2πr)'], [['h = S/(2πr) - 2πr^2', 'divides only S by 2πr'], ['h = (S + 2πr^2)/(2πr)', 'adds 2πr² instead of subtracting']]),
    L('A = \\frac{1}{2}h(b + c)', 'h', 'h = 2A/(b + c)', ['A = ½h(b + c)', 'Multiply by 2: 2A = h(b + c)', 'Divide by (b + c): h = 2A/(b + c)'], [['h = 2A/b + c', 'divides by b only'], ['h = A/(2(b + c))', 'divides by 2 instead of multiplying'], ['h = 2A - b - c', 'subtracts instead of dividing']]),
    L('E = \\frac{1}{2}mv^{2}', 'm', 'm = 2E/v^2', ['E = ½mv²', 'Multiply by 2: 2E = mv²', 'Divide by v²: m = 2E/v²'], [['m = E/(2v^2)', 'divides by 2 instead of multiplying'], ['m = 2E/v', 'divides by v instead of v²'], ['m = 2Ev^2', 'multiplies instead of dividing']]),
    L('P = 2(l + w)', 'w', 'w = P/2 - l', ['P = 2(l + w)', 'Divide by 2: P/2 = l + w', 'Subtract l: w = P/2 - l'], [['w = P/2 + l', 'adds l instead of subtracting'], ['w = (P - l)/2', 'subtracts l before dividing'], ['w = 2P - l', 'multiplies by 2 instead of dividing']]),
    L('T = \\frac{a + b + c}{3}', 'c', 'c = 3T - a - b', ['T = (a + b + c)/3', 'Multiply by 3: 3T = a + b + c', 'Subtract a and b: c = 3T - a - b'], [['c = T/3 - a - b', 'divides by 3 instead of multiplying'], ['c = 3T - a + b', 'subtracts only a'], ['c = 3(T - a - b)', 'multiplies a and b by 3 as well']]),
    L('d = \\frac{1}{2}at^{2}', 'a', 'a = 2d/t^2', ['d = ½at²', 'Multiply by 2: 2d = at²', 'Divide by t²: a = 2d/t²'], [['a = d/(2t^2)', 'divides by 2 instead of multiplying'], ['a = 2d/t', 'divides by t instead of t²'], ['a = 2dt^2', 'multiplies instead of dividing']]),
    L('A = P(1 + rt)', 't', 't = (A/P - 1)/r', ['A = P(1 + rt)', 'Divide by P: A/P = 1 + rt', 'Subtract 1: A/P - 1 = rt', 'Divide by r: t = (A/P - 1)/r'], [['t = (A - P - 1)/r', 'subtracts P instead of dividing by it'], ['t = A/P - 1/r', 'divides only the 1 by r'], ['t = (A/P + 1)/r', 'adds 1 instead of subtracting']]),
    L('y - k = m(x - h)', 'x', 'x = (y - k)/m + h', ['y - k = m(x - h)', 'Divide by m: (y - k)/m = x - h', 'Add h: x = (y - k)/m + h'], [['x = (y - k)/m - h', 'subtracts h instead of adding'], ['x = m(y - k) + h', 'multiplies instead of dividing'], ['x = (y - k - h)/m', 'adds h before dividing']]),
  ],
};

export const solvingForVariable = defineGenerator({
  skillId: 107,
  levels: ['One operation (d = rt for t, F = ma for a, …)', 'Two operations (P = 2l + 2w for w, y = mx + b for x, v = u + at for t, …)', 'Formulas with fractions, π or parentheses (A = ½bh for b, F = 9/5 C + 32 for C, y - k = m(x - h) for x, …)'],
  make(rng, level) {
    const f = rng.pick(LITERALS[level]);
    return mk({
      stem: `Solve $${f.formula}$ for $${f.solveFor}$.`,
      kind: 'equation',
      answer: f.answer,
      steps: f.steps,
      hints: [`Undo the operations on ${f.solveFor} in reverse order, doing the same to both sides.`, `Treat every other letter as if it were a number: what is being done to ${f.solveFor}?`],
      wrong: f.wrong,
    });
  },
});

// ---------- 108 Exponent rules ----------

function mono(c: number, powers: [string, number][]): string {
  const vars = powers.filter(([, e]) => e !== 0).map(([v, e]) => (e === 1 ? v : `${v}^${e}`)).join('');
  if (!vars) return String(c);
  return `${c === 1 ? '' : c === -1 ? '-' : c}${vars}`;
}
const texMono = (s: string) => s.replace(/\^(\d+)/g, '^{$1}');

export const exponentRules = defineGenerator({
  skillId: 108,
  levels: ['Product of powers: x^a · x^b', 'Power of a power or of a product: (2x^a)^b', 'Quotient of monomials in two variables'],
  make(rng, level) {
    const v = rng.pick(['x', 'a', 'm']);
    if (level === 1) {
      const a = rng.int(2, 9);
      const b = rng.int(2, 9);
      const ans = `${v}^${a + b}`;
      return mk({
        stem: `Simplify: $${v}^{${a}} \\cdot ${v}^{${b}}$`,
        ...exprAnswer(ans),
        steps: ['When multiplying powers with the same base, add the exponents', `${v}^${a} · ${v}^${b} = ${v}^(${a} + ${b}) = ${ans}`],
        hints: [`Write out what ${v}^${a} and ${v}^${b} mean as repeated multiplication.`, 'Count how many times the base is multiplied in all.'],
        wrong: [
          [`${v}^${a * b}`, 'multiplies the exponents'],
          [`2${v}^${a + b}`, 'adds the coefficients as well'],
        ],
      });
    }
    if (level === 2) {
      const c = rng.int(2, 5);
      const a = rng.int(2, 6);
      const b = rng.int(2, 3);
      const ans = `${c ** b}${v}^${a * b}`;
      return mk({
        stem: `Simplify: $(${c}${v}^{${a}})^{${b}}$`,
        ...exprAnswer(ans),
        steps: [`Raise each factor to the power ${b}: ${c}^${b} · (${v}^${a})^${b}`, `${c}^${b} = ${c ** b} and (${v}^${a})^${b} = ${v}^${a * b}`, `= ${ans}`],
        hints: ['Everything inside the parentheses is raised to the power, including the number.', 'A power of a power: multiply the exponents.'],
        wrong: [
          [`${c}${v}^${a * b}`, 'does not raise the coefficient to the power'],
          [`${c ** b}${v}^${a + b}`, 'adds the exponents instead of multiplying'],
          [`${c * b}${v}^${a * b}`, 'multiplies the coefficient by the exponent'],
        ],
      });
    }
    const q = rng.int(2, 6);
    const c2 = rng.int(2, 5);
    const c1 = q * c2;
    const [a1, a2] = [rng.int(4, 9), rng.int(1, 3)];
    const [b1, b2] = [rng.int(2, 6), rng.int(1, 2)];
    if (b1 <= b2) return undefined;
    const ans = mono(q, [
      ['x', a1 - a2],
      ['y', b1 - b2],
    ]);
    return mk({
      stem: `Simplify: $\\frac{${texMono(mono(c1, [['x', a1], ['y', b1]]))}}{${texMono(mono(c2, [['x', a2], ['y', b2]]))}}$`,
      ...exprAnswer(ans),
      steps: [`Divide the coefficients: ${c1} ÷ ${c2} = ${q}`, `Subtract exponents of like bases: x^(${a1} - ${a2}) = x^${a1 - a2}, y^(${b1} - ${b2}) = y^${b1 - b2}`, `= ${ans}`],
      hints: ['Work with the numbers, the x\'s and the y\'s separately.', 'When dividing powers with the same base, subtract the exponents.'],
      wrong: [
        [mono(c1 - c2, [['x', a1 - a2], ['y', b1 - b2]]), 'subtracts the coefficients'],
        [mono(q, [['x', a1 + a2], ['y', b1 + b2]]), 'adds the exponents'],
        ...(a1 % a2 === 0 && b1 % b2 === 0 ? [[mono(q, [['x', a1 / a2], ['y', b1 / b2]]), 'divides the exponents'] as [string, string]] : []),
      ],
    });
  },
});

// ---------- 109 Inequalities ----------

const REL: Record<string, { tex: string; flip: string; plain: string }> = {
  '<': { tex: '<', flip: '>', plain: '<' },
  '>': { tex: '>', flip: '<', plain: '>' },
  '<=': { tex: '\\le', flip: '>=', plain: '≤' },
  '>=': { tex: '\\ge', flip: '<=', plain: '≥' },
};

export const inequalities = defineGenerator({
  skillId: 109,
  levels: ['One step: x + a < b', 'Multiply or divide by a positive number', 'Two steps with a negative coefficient (flip the sign)'],
  make(rng: Rng, level) {
    const rel = rng.pick(Object.keys(REL));
    const R = REL[rel]!;
    const sol = nonZero(rng, -12, 15);
    const ineq = (r: string) => `x ${REL[r]!.plain} ${sol}`;
    const base = {
      kind: 'equation' as const,
      answer: ineq(rel),
      accepted: [`${sol} ${REL[REL[rel]!.flip]!.plain} x`],
      phrases: [ineq(rel), `x${R.plain}${sol}`, `x ${rel} ${sol}`],
    };
    if (level === 1) {
      const a = nonZero(rng, -15, 15);
      return mk({
        stem: `Solve: $x ${signed(a)} ${R.tex} ${sol + a}$`,
        ...base,
        steps: [`${a > 0 ? 'Subtract' : 'Add'} ${Math.abs(a)} on both sides`, `x ${R.plain} ${sol + a} ${a > 0 ? '-' : '+'} ${Math.abs(a)} = ${sol}`, ineq(rel)],
        hints: ['Solve it like an equation: undo the number added to x.', 'Adding or subtracting the same number on both sides keeps the inequality sign the same.'],
        wrong: [
          [`x ${R.plain} ${sol + 2 * a}`, 'adds the number instead of subtracting it'],
          [ineq(REL[rel]!.flip), 'flips the sign when it should not'],
        ],
      });
    }
    if (level === 2) {
      const a = rng.int(2, 9);
      return mk({
        stem: `Solve: $${a}x ${R.tex} ${a * sol}$`,
        ...base,
        steps: [`Divide both sides by ${a} (a positive number, so the sign stays)`, ineq(rel)],
        hints: ['Undo the multiplication by dividing both sides.', 'Dividing by a positive number does not change the direction of the inequality.'],
        wrong: [
          [ineq(REL[rel]!.flip), 'flips the inequality sign unnecessarily'],
          [`x ${R.plain} ${a * sol - a}`, 'subtracts instead of dividing'],
        ],
      });
    }
    const a = rng.int(2, 7);
    const b = nonZero(rng, -12, 12);
    // -a x + b  REL'  c  where solving gives x REL sol: -a x REL' c - b → x flip(REL') (c - b)/(-a); choose REL' = flip(rel)
    const c = -a * sol + b;
    const shown = REL[REL[rel]!.flip]!;
    return mk({
      stem: `Solve: $${linear([[-a, 'x'], [b, '']])} ${shown.tex} ${c}$`,
      ...base,
      steps: [`${b > 0 ? 'Subtract' : 'Add'} ${Math.abs(b)}: -${a}x ${shown.plain} ${c - b}`, `Divide by -${a} and flip the sign: x ${R.plain} ${sol}`],
      hints: ['First undo the constant term on the left side.', 'When you divide both sides by a negative number, reverse the inequality sign.'],
      wrong: [
        [`x ${shown.plain} ${sol}`, 'forgets to flip the sign when dividing by a negative'],
        [`x ${R.plain} ${-sol}`, 'drops the negative sign of the coefficient'],
        [`x ${R.plain} ${fmt(roundTo((c + b) / -a, 3))}`, 'moves the constant with the wrong sign'],
      ],
    });
  },
});

export const ALGEBRA = [algebraicSimplification, algebraicSolving, chooseEquation, multiStepEquations, distributive, polynomialFactors, quadraticPattern, systems, quadraticFormula, polynomialParts, solvingForVariable, exponentRules, inequalities];

