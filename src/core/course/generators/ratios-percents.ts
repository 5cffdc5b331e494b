/** Ratios, rates and percents (skills 47–50, 63–65; 44 is in expressions.ts). */
import { defineGenerator, fDecimal, fStr, fmt, frac, gcd, mk, mkChoice, money, roundTo } from './util';

const pctAnswer = (p: number) => ({ answer: `${fmt(p)}%`, accepted: [fmt(p)], numeric: [fmt(p)] });

export const findingPercents = defineGenerator({
  skillId: 47,
  levels: ['What percent one number is of another (10%, 20%, 25%, 50%, 75%)', 'Part of a whole as a percent (multiples of 5%)', 'The whole from a part and its percent'],
  make(rng, level) {
    if (level === 1) {
      const p = rng.pick([10, 20, 25, 50, 75]);
      const whole = rng.int(2, 20) * 20;
      const part = (p * whole) / 100;
      return mk({
        stem: `What percent of ${whole} is ${part}?`,
        ...pctAnswer(p),
        steps: [`Write the part over the whole: $\\frac{${part}}{${whole}}$`, `${part} ÷ ${whole} = ${fmt(p / 100)} = ${p}%`],
        hints: ['A percent compares a part with the whole, out of 100.', 'Divide the part by the whole, then change the decimal into a percent.'],
        wrong: [
          [`${fmt(roundTo((whole / part) * 100, 2))}%`, 'divides the whole by the part'],
          [`${fmt(part / whole)}%`, 'forgets to multiply by 100'],
          [`${whole - part}%`, 'subtracts the numbers'],
        ],
      });
    }
    if (level === 2) {
      const p = rng.int(1, 19) * 5;
      const g = gcd(p, 100);
      const whole = (100 / g) * rng.int(1, 6);
      const part = (p * whole) / 100;
      if (p % 25 === 0 || whole < 8) return undefined;
      return mk({
        stem: `Sam answered ${part} of ${whole} questions correctly. What percent of the questions did Sam answer correctly?`,
        ...pctAnswer(p),
        steps: [`Fraction correct: $\\frac{${part}}{${whole}}$`, `${part} ÷ ${whole} = ${fmt(p / 100)}`, `${fmt(p / 100)} × 100 = ${p}%`],
        hints: ['Percent correct = number correct ÷ total, written out of 100.', 'Divide, then multiply the decimal by 100.'],
        wrong: [
          [`${part}%`, 'uses the number correct as the percent'],
          [`${fmt(roundTo((whole / part) * 100, 1))}%`, 'divides the total by the number correct'],
          [`${fmt(part / whole)}%`, 'forgets to multiply by 100'],
        ],
      });
    }
    const p = rng.pick([5, 15, 20, 25, 30, 40, 60, 75, 12.5]);
    const whole = rng.int(2, 30) * (p === 12.5 ? 8 : 20);
    const part = (p * whole) / 100;
    return mk({
      stem: `${fmt(part)} is ${fmt(p)}% of what number?`,
      answer: whole,
      steps: [`${fmt(p)}% of the number is ${fmt(part)}: ${fmt(p / 100)} × n = ${fmt(part)}`, `n = ${fmt(part)} ÷ ${fmt(p / 100)} = ${whole}`],
      hints: ['Write an equation: the percent (as a decimal) times the unknown number equals the part.', 'Divide the part by the decimal form of the percent.'],
      wrong: [
        [fmt(roundTo((p * part) / 100, 4)), 'finds the percent of the part instead'],
        [fmt(roundTo(part * p, 2)), 'multiplies the part by the percent'],
        [fmt(roundTo(part + (p * part) / 100, 2)), 'adds the percent of the part to the part'],
      ],
    });
  },
});

export const proportion = defineGenerator({
  skillId: 48,
  levels: ['Solve a/b = x/d with a whole-number scale factor', 'Solve a/b = c/x with a non-whole scale factor', 'Proportion word problems (cost, fuel, recipes)'],
  make(rng, level) {
    if (level === 1) {
      const a = rng.int(1, 9);
      const b = rng.int(a + 1, 12);
      const k = rng.int(2, 8);
      return mk({
        stem: `Solve the proportion: $\\frac{${a}}{${b}} = \\frac{x}{${b * k}}$`,
        answer: a * k,
        accepted: [`x = ${a * k}`],
        phrases: [`x = ${a * k}`],
        steps: [`${b} × ${k} = ${b * k}`, `x = ${a} × ${k} = ${a * k}`],
        hints: ['How do you get from one denominator to the other?', 'Do the same to the numerator.'],
        wrong: [
          [a + b * k - b, 'adds the difference of the denominators'],
          [fmt(roundTo((b * b * k) / a, 2)), 'sets up the cross product the wrong way'],
        ],
      });
    }
    if (level === 2) {
      const g = rng.int(2, 6);
      const [p, q] = [rng.int(1, 7), rng.int(2, 9)];
      if (gcd(p, q) !== 1 || p === q) return undefined;
      const a = p * g;
      const b = q * g;
      const m = rng.int(2, 9);
      const c = p * m;
      const x = q * m;
      if (x === b || c === a) return undefined;
      return mk({
        stem: `Solve the proportion: $\\frac{${a}}{${b}} = \\frac{${c}}{x}$`,
        answer: x,
        accepted: [`x = ${x}`],
        phrases: [`x = ${x}`],
        steps: [`Cross-multiply: ${a}x = ${b} × ${c} = ${b * c}`, `x = ${b * c} ÷ ${a} = ${x}`],
        hints: ['Cross products of a proportion are equal.', 'Multiply across the diagonal you know, then divide by the remaining number.'],
        wrong: [
          [b + (c - a), 'adds the same amount instead of scaling'],
          [fmt(roundTo((a * c) / b, 2)), 'multiplies the wrong pair'],
        ],
      });
    }
    const kind = rng.pick(['cost', 'fuel', 'recipe'] as const);
    if (kind === 'cost') {
      const n1 = rng.int(2, 6);
      const unit = rng.int(75, 450) / 100;
      const n2 = rng.int(n1 + 1, 15);
      const c1 = money(n1 * unit);
      const c2 = roundTo(n2 * Number(c1) / n1, 2);
      if (Math.abs(c2 * n1 - n2 * Number(c1)) > 1e-6) return undefined;
      return mk({
        stem: `${n1} notebooks cost \\$${c1}. At the same price, how much do ${n2} notebooks cost?`,
        answer: money(c2),
        accepted: [fmt(c2)],
        numeric: [money(c2), fmt(c2)],
        steps: [`Set up a proportion: $\\frac{${c1}}{${n1}} = \\frac{c}{${n2}}$`, `One notebook costs ${c1} ÷ ${n1} = ${fmt(Number(c1) / n1)}`, `${n2} notebooks: ${fmt(Number(c1) / n1)} × ${n2} = \\$${money(c2)}`],
        hints: ['Find the cost of one notebook first, or set up a proportion.', 'Keep the same units in the same places: dollars over notebooks on both sides.'],
        wrong: [
          [money(Number(c1) + (n2 - n1)), 'adds the extra notebooks as dollars'],
          [money(roundTo((n1 * n2) / Number(c1), 2)), 'inverts the rate'],
          [money(Number(c1) * n2), 'multiplies the total cost by the new number'],
        ],
      });
    }
    if (kind === 'fuel') {
      const mpg = rng.int(18, 40);
      const g1 = rng.int(3, 8);
      const g2 = rng.int(2, 15);
      if (g1 === g2) return undefined;
      return mk({
        stem: `A car uses ${g1} gallons of gas to travel ${g1 * mpg} miles. How many gallons does it need to travel ${g2 * mpg} miles?`,
        answer: g2,
        steps: [`Miles per gallon: ${g1 * mpg} ÷ ${g1} = ${mpg}`, `Gallons needed: ${g2 * mpg} ÷ ${mpg} = ${g2}`],
        hints: ['How many miles does the car go on one gallon?', 'Divide the new distance by the miles per gallon.'],
        wrong: [
          [fmt(roundTo((g2 * mpg * g1 * mpg) / g1, 2)), 'multiplies instead of dividing'],
          [g1 + (g2 - g1) * mpg, 'adds the extra distance as gallons'],
          [fmt(roundTo((g2 * mpg) / g1, 2)), 'divides the new distance by the old number of gallons'],
        ],
      });
    }
    const f1 = rng.int(2, 4);
    const e1 = rng.int(3, 8);
    const scale = rng.pick([1.5, 2.5, 3, 0.5]);
    const f2 = f1 * scale;
    const e2 = e1 * scale;
    if (!Number.isInteger(e2)) return undefined;
    return mk({
      stem: `A recipe uses ${e1} eggs for every ${f1} cups of flour. How many eggs are needed with ${fmt(f2)} cups of flour?`,
      answer: fmt(e2),
      steps: [`$\\frac{${f1}}{${e1}} = \\frac{${fmt(f2)}}{e}$`, `${fmt(f2)} is ${fmt(scale)} times ${f1}, so e = ${e1} × ${fmt(scale)} = ${fmt(e2)}`],
      hints: ['Flour and eggs must stay in the same ratio.', 'By what number was the flour multiplied? Multiply the eggs by the same number.'],
      wrong: [
        [fmt(e1 + (f2 - f1)), 'adds the extra flour to the eggs'],
        [fmt(roundTo((f1 * f2) / e1, 2)), 'sets up the proportion upside down'],
      ],
    });
  },
});

export const scaleFactor = defineGenerator({
  skillId: 49,
  levels: ['Map distance to real distance with a scale', 'Scale factor between a figure and its copy', 'Model length from a real length (decimal answers)'],
  make(rng, level) {
    if (level === 1) {
      const s = rng.pick([2, 4, 5, 10, 20, 25, 50]);
      const d = rng.int(2, 12);
      return mk({
        stem: `On a map, 1 cm stands for ${s} km. Two towns are ${d} cm apart on the map. How far apart are they in real life, in kilometers?`,
        answer: d * s,
        steps: [`Each centimeter is ${s} km`, `${d} × ${s} = ${d * s} km`],
        hints: ['The scale tells you how many kilometers each centimeter stands for.', 'Multiply the map distance by that number.'],
        wrong: [
          [d + s, 'adds the scale'],
          [fmt(roundTo(d / s, 2)), 'divides by the scale'],
        ],
      });
    }
    if (level === 2) {
      const w = rng.int(2, 9);
      const h = rng.int(2, 9);
      if (w === h) return undefined;
      const k = rng.pick([2, 3, 2.5, 1.5, 0.5]);
      const W = w * k;
      const H = h * k;
      if (!Number.isInteger(W) || !Number.isInteger(H)) return undefined;
      const kf = frac(W, w);
      const dec = fDecimal(kf);
      return mk({
        stem: `A rectangle ${w} cm by ${h} cm is ${k > 1 ? 'enlarged' : 'reduced'} to a similar rectangle ${W} cm by ${H} cm. What is the scale factor?`,
        answer: dec ?? fStr(kf),
        accepted: [fStr(kf)],
        asFrac: kf,
        steps: ['Scale factor = new length ÷ original length', `${W} ÷ ${w} = ${fmt(k)} (check: ${H} ÷ ${h} = ${fmt(k)})`],
        hints: ['Compare a side of the new rectangle with the matching side of the original.', 'Divide the new length by the original length.'],
        wrong: [
          [fStr(frac(w, W)), 'divides the original by the new length'],
          [W - w, 'subtracts the lengths'],
        ],
      });
    }
    const ft = rng.pick([4, 8, 12, 16, 20]);
    const real = rng.int(3, 30) * (ft / 4) + rng.pick([0, ft / 4, ft / 2]);
    const model = real / ft;
    if (Number.isInteger(model)) return undefined;
    return mk({
      stem: `A model boat is built with the scale 1 inch : ${ft} feet. The real boat is ${fmt(real)} feet long. How long is the model, in inches?`,
      answer: fmt(model),
      steps: [`Each inch of the model stands for ${ft} feet`, `${fmt(real)} ÷ ${ft} = ${fmt(model)} inches`],
      hints: ['How many feet of the real boat does 1 inch of the model stand for?', 'Divide the real length by that number.'],
      wrong: [
        [fmt(real * ft), 'multiplies instead of dividing'],
        [fmt(roundTo((real * 12) / ft, 2)), 'converts feet to inches first, then divides'],
        [fmt(real - ft), 'subtracts the scale'],
      ],
    });
  },
});

export const unitRate = defineGenerator({
  skillId: 50,
  levels: ['Cost of one item from a whole-number total', 'Unit price or speed with decimals', 'Which is the better buy (compare unit prices)'],
  make(rng, level) {
    if (level === 1) {
      const n = rng.int(2, 9);
      const each = rng.int(2, 15);
      return mk({
        stem: `${n} notebooks cost \\$${n * each}. What is the cost of one notebook?`,
        answer: each,
        accepted: [`${each}.00`],
        steps: ['Unit rate = total cost ÷ number of items', `${n * each} ÷ ${n} = ${each} dollars`],
        hints: ['A unit rate is the amount for one.', 'Share the total cost equally among the notebooks.'],
        wrong: [
          [n * each * n, 'multiplies instead of dividing'],
          [fmt(roundTo(n / (n * each), 4)), 'divides the number of notebooks by the cost'],
        ],
      });
    }
    if (level === 2) {
      if (rng.chance(0.5)) {
        const lb = rng.int(2, 6);
        const per = rng.int(79, 499) / 100;
        const total = money(lb * per);
        return mk({
          stem: `${lb} pounds of apples cost \\$${total}. What is the price per pound?`,
          answer: money(per),
          accepted: [fmt(per)],
          numeric: [money(per), fmt(per)],
          steps: ['Price per pound = cost ÷ pounds', `${total} ÷ ${lb} = ${money(per)}`],
          hints: ['A unit price is the cost of one unit: here, one pound.', 'Divide the cost by the number of pounds.'],
          wrong: [
            [money(lb * Number(total)), 'multiplies instead of dividing'],
            [fmt(roundTo(lb / Number(total), 3)), 'divides pounds by dollars'],
          ],
        });
      }
      const h = rng.pick([1.5, 2.5, 3.5, 0.5, 4.5]);
      const mph = rng.int(20, 70);
      const miles = mph * h;
      return mk({
        stem: `A car travels ${fmt(miles)} miles in ${fmt(h)} hours at a steady speed. How many miles does it travel per hour?`,
        answer: mph,
        steps: ['Speed = distance ÷ time', `${fmt(miles)} ÷ ${fmt(h)} = ${mph} miles per hour`],
        hints: ['Miles per hour means miles in one hour.', 'Divide the distance by the time.'],
        wrong: [
          [fmt(miles * h), 'multiplies distance and time'],
          [fmt(roundTo(miles / Math.floor(h), 2)), 'ignores the half hour'],
        ],
      });
    }
    const sa = rng.pick([8, 12, 16, 20, 24]);
    const sb = rng.pick([10, 18, 28, 32, 36]);
    const pa = rng.int(150, 600) / 100;
    const pb = rng.int(150, 900) / 100;
    const ua = pa / sa;
    const ub = pb / sb;
    if (Math.abs(ua - ub) < 0.005 || (pa < pb) === (ua < ub)) return undefined; // the cheaper package must not be the better buy
    const ans = ua < ub ? 'Brand A' : 'Brand B';
    return mkChoice(rng, {
      stem: `Brand A sells ${sa} ounces of cereal for \\$${money(pa)}. Brand B sells ${sb} ounces for \\$${money(pb)}. Which is the better buy?`,
      answer: ans,
      options: ['Brand A', 'Brand B'],
      keepOrder: true,
      steps: [`Brand A: ${money(pa)} ÷ ${sa} ≈ \\$${fmt(roundTo(ua, 3))} per ounce`, `Brand B: ${money(pb)} ÷ ${sb} ≈ \\$${fmt(roundTo(ub, 3))} per ounce`, `The lower price per ounce is ${ans}`],
      hints: ['The cheaper box is not always the better buy: compare the price of one ounce.', 'Divide each price by its number of ounces.'],
      wrong: [[ans === 'Brand A' ? 'Brand B' : 'Brand A', 'picks the lower total price without comparing unit prices']],
    });
  },
});

export const percentDiscount = defineGenerator({
  skillId: 63,
  levels: ['Sale price after 10%, 20%, 25% or 50% off', 'Sale price after 15%–40% off (cents)', 'Original price from the sale price and the discount'],
  make(rng, level) {
    if (level < 3) {
      const p = level === 1 ? rng.pick([10, 20, 25, 50]) : rng.pick([15, 30, 35, 40, 12, 18]);
      const price = level === 1 ? rng.int(2, 30) * 4 : rng.int(1000, 9999) / 100;
      if (Math.round(price * 100 * p) % 100 !== 0) return undefined; // the discount comes out to whole cents: no rounding rule needed
      const off = roundTo((price * p) / 100, 2);
      const sale = roundTo(price - off, 2);
      const ps = level === 1 ? fmt(price) : money(price);
      return mk({
        stem: `A jacket costs \\$${ps}. It is on sale for ${p}% off. What is the sale price?`,
        answer: money(sale),
        accepted: [fmt(sale)],
        numeric: [money(sale), fmt(sale)],
        steps: [
          `Discount: ${p}% of ${ps} = ${fmt(p / 100)} × ${ps} = ${money(off)}`,
          `Sale price: ${ps} - ${money(off)} = ${money(sale)}`,
          ...(level === 2 ? [`Check: you pay ${100 - p}% of the price, ${fmt((100 - p) / 100)} × ${ps} = ${money(sale)}`] : []),
        ],
        hints: ['First find how much money the discount takes off.', 'Subtract the discount from the original price (or find the percent you still pay).'],
        wrong: [
          [money(off), 'gives the discount instead of the sale price'],
          [money(roundTo(price - p, 2)), 'subtracts the percent as if it were dollars'],
          [money(roundTo(price + off, 2)), 'adds the discount'],
        ],
      });
    }
    const p = rng.pick([10, 15, 20, 25, 30, 40]);
    const original = rng.int(4, 40) * 5;
    const sale = roundTo((original * (100 - p)) / 100, 2);
    return mk({
      stem: `After a ${p}% discount, a pair of shoes costs \\$${money(sale)}. What was the original price?`,
      answer: original,
      accepted: [money(original)],
      steps: [`After ${p}% off you pay ${100 - p}% of the original`, `${fmt((100 - p) / 100)} × original = ${money(sale)}`, `original = ${money(sale)} ÷ ${fmt((100 - p) / 100)} = ${original}`],
      hints: ['The sale price is a percent of the original price: which percent?', 'Divide the sale price by that percent written as a decimal.'],
      wrong: [
        [money(roundTo(sale * (1 + p / 100), 2)), 'adds the percent of the sale price back on'],
        [money(roundTo(sale / (p / 100), 2)), 'divides by the discount percent'],
        [money(roundTo(sale + p, 2)), 'adds the percent as dollars'],
      ],
    });
  },
});

export const percents = defineGenerator({
  skillId: 64,
  levels: ['Percent increase', 'Percent decrease (based on the original)', 'Successive percent changes'],
  make(rng, level) {
    if (level < 3) {
      const p = rng.pick([10, 20, 25, 40, 50, 60, 75]);
      const base = rng.int(1, 15) * 20;
      const change = (base * p) / 100;
      const inc = level === 1;
      if (!inc && p >= 100) return undefined;
      const from = base;
      const to = inc ? base + change : base - change;
      return mk({
        stem: `A price changed from \\$${from} to \\$${to}. What was the percent ${inc ? 'increase' : 'decrease'}?`,
        ...pctAnswer(p),
        steps: [`Change: ${inc ? `${to} - ${from}` : `${from} - ${to}`} = ${change}`, `Percent ${inc ? 'increase' : 'decrease'} = change ÷ original = ${change} ÷ ${from} = ${fmt(p / 100)} = ${p}%`],
        hints: ['Find the amount of the change first.', 'Divide the change by the ORIGINAL amount, then write it as a percent.'],
        wrong: [
          [`${fmt(roundTo((change / to) * 100, 1))}%`, 'divides by the new amount instead of the original'],
          [`${change}%`, 'gives the amount of change as the percent'],
          [`${fmt(roundTo((to / from) * 100, 1))}%`, 'gives the new amount as a percent of the old'],
        ],
      });
    }
    const price = rng.int(4, 40) * 5;
    const p = rng.pick([10, 20, 25, 50]);
    const up = roundTo(price * (1 + p / 100), 2);
    const final = roundTo(up * (1 - p / 100), 2);
    return mk({
      stem: `A store raises the price of a \\$${price} game by ${p}%. A month later the new price is cut by ${p}%. What is the final price?`,
      answer: money(final),
      accepted: [fmt(final)],
      numeric: [money(final), fmt(final)],
      steps: [`After the raise: ${price} × ${fmt(1 + p / 100)} = ${money(up)}`, `After the cut: ${money(up)} × ${fmt(1 - p / 100)} = ${money(final)}`],
      hints: ['The second percent is taken of the new price, not of the original one.', 'Work one change at a time.'],
      wrong: [
        [price, 'thinks the two changes cancel out'],
        [money(roundTo(up - (price * p) / 100, 2)), 'takes the second percent of the original price'],
      ],
    });
  },
});

export const rate = defineGenerator({
  skillId: 65,
  levels: ['Distance from speed and time', 'Time from distance and speed', 'Average speed over two legs of a trip'],
  make(rng, level) {
    if (level === 1) {
      const r = rng.int(3, 15) * 5;
      const t = rng.int(2, 6);
      return mk({
        stem: `A train travels at ${r} miles per hour for ${t} hours. How far does it travel, in miles?`,
        answer: r * t,
        steps: ['Distance = rate × time', `${r} × ${t} = ${r * t} miles`],
        hints: ['Each hour the train goes the same distance.', 'Multiply the speed by the number of hours.'],
        wrong: [
          [r + t, 'adds the speed and the time'],
          [fmt(roundTo(r / t, 2)), 'divides the speed by the time'],
        ],
      });
    }
    if (level === 2) {
      const r = rng.int(4, 16) * 5;
      const t = rng.pick([1.5, 2, 2.5, 3, 3.5, 4, 0.5]);
      const d = r * t;
      if (!Number.isInteger(d)) return undefined;
      return mk({
        stem: `A cyclist rides ${d} kilometers at a steady ${r} kilometers per hour. How many hours does the ride take?`,
        answer: fmt(t),
        steps: ['Time = distance ÷ rate', `${d} ÷ ${r} = ${fmt(t)} hours`],
        hints: ['Distance = rate × time, so time is distance divided by rate.', 'How many groups of the speed fit into the distance?'],
        wrong: [
          [d * r, 'multiplies distance and rate'],
          [fmt(roundTo(r / d, 3)), 'divides the rate by the distance'],
          [fmt(Math.round(t)), 'rounds the time to whole hours'],
        ],
      });
    }
    const d = rng.pick([60, 120, 180, 240]);
    const [r1, r2] = rng.shuffle([20, 30, 40, 60, 80, 120].filter((v) => d % v === 0)).slice(0, 2) as [number, number];
    if (r1 === undefined || r2 === undefined) return undefined;
    const t1 = d / r1;
    const t2 = d / r2;
    const avg = (2 * d) / (t1 + t2);
    if (!Number.isInteger(avg * 10)) return undefined;
    return mk({
      stem: `Ana drives ${d} miles at ${r1} miles per hour, then another ${d} miles at ${r2} miles per hour. What is her average speed for the whole trip, in miles per hour?`,
      answer: fmt(avg),
      steps: [`Time for the first part: ${d} ÷ ${r1} = ${fmt(t1)} h; second part: ${d} ÷ ${r2} = ${fmt(t2)} h`, `Total: ${2 * d} miles in ${fmt(t1 + t2)} hours`, `Average speed = ${2 * d} ÷ ${fmt(t1 + t2)} = ${fmt(avg)} mph`],
      hints: ['Average speed is total distance divided by total time.', 'Find how long each part of the trip takes.'],
      wrong: [
        [fmt((r1 + r2) / 2), 'averages the two speeds'],
        [fmt(roundTo(d / (t1 + t2), 2)), 'uses only one part of the distance'],
      ],
    });
  },
});

export const RATIOS_PERCENTS = [findingPercents, proportion, scaleFactor, unitRate, percentDiscount, percents, rate];
