/**
 * Linear functions: intercepts, evaluating and rewriting linear equations, slope from a graph,
 * a situation, an equation or two points, writing equations from pairs, situations, tables and
 * graphs, and systems by graphing (skills 61, 62, 66, 92–98, 110).
 */
import type { Rng } from '../../rng';
import type { Figure } from '../types';
import { defineGenerator, fDecimal, fStr, fmt, frac, linear, mk, mkChoice, nonZero, paren, type Frac } from './util';
import { ACCENT, PALETTE, dot, plane, svgFigure, text } from './svg';

/** "y = 2x + 3", "y = (2/3)x - 1", "y = -x" (plain, unambiguous). */
function lineEq(m: Frac, b: number, y = 'y', x = 'x'): string {
  let mx: string;
  if (m[0] === 0) mx = '';
  else if (m[1] === 1) mx = linear([[m[0], x]]);
  else mx = `${m[0] < 0 ? '-' : ''}(${Math.abs(m[0])}/${m[1]})${x}`;
  if (!mx) return `${y} = ${b}`;
  return `${y} = ${mx}${b === 0 ? '' : ` ${b < 0 ? '-' : '+'} ${Math.abs(b)}`}`;
}
/** LaTeX of the same line. */
function lineTex(m: Frac, b: number): string {
  const mx = m[1] === 1 ? linear([[m[0], 'x']]) : `${m[0] < 0 ? '-' : ''}\\frac{${Math.abs(m[0])}}{${m[1]}}x`;
  return `y = ${mx}${b === 0 ? '' : ` ${b < 0 ? '-' : '+'} ${Math.abs(b)}`}`;
}
const slopeAnswer = (m: Frac) => ({ answer: fStr(m), accepted: fDecimal(m) && m[1] !== 1 ? [fDecimal(m)!] : [], asFrac: m });
const eqAnswer = (m: Frac, b: number, y = 'y', x = 'x') => {
  const a = lineEq(m, b, y, x);
  const alt = m[1] === 1 ? [] : [a.replace(/\((\d+)\/(\d+)\)/, '$1/$2')];
  return { kind: 'equation' as const, answer: a, accepted: alt, phrases: [a, a.replace(/\s+/g, '')] };
};

/** A line through two marked lattice points on a grid. */
function lineFigure(rng: Rng, m: Frac, b: number, labelled = true): { fig: Figure; p1: [number, number]; p2: [number, number] } | undefined {
  // choose a lattice point on the line and step by the run
  const xs = [-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6].filter((x) => ((m[0] * x) % m[1]) === 0);
  const x1 = rng.pick(xs.filter((x) => x <= 2));
  const y1 = (m[0] * x1) / m[1] + b;
  const x2 = x1 + m[1] * (m[1] === 1 ? rng.int(1, 3) : 1);
  const y2 = (m[0] * x2) / m[1] + b;
  if (Math.abs(y1) > 7 || Math.abs(y2) > 7 || x2 > 7) return undefined;
  const pl = plane({ xmin: -7, xmax: 7, ymin: -7, ymax: 7, unit: 22, labelEvery: 1 });
  const body = [pl.body, pl.lineThrough(fVal(m), b), dot(pl.X(x1), pl.Y(y1), 5), dot(pl.X(x2), pl.Y(y2), 5)];
  if (labelled) body.push(text(pl.X(x1) - 10, pl.Y(y1) - 10, `(${x1}, ${y1})`, { 'font-size': 11, fill: ACCENT, 'text-anchor': 'end' }), text(pl.X(x2) + 10, pl.Y(y2) - 10, `(${x2}, ${y2})`, { 'font-size': 11, fill: ACCENT, 'text-anchor': 'start' }));
  return {
    fig: svgFigure(pl.width, pl.height, body.join(''), `Coordinate grid from -7 to 7 with a straight line through the marked points (${x1}, ${y1}) and (${x2}, ${y2}).`),
    p1: [x1, y1],
    p2: [x2, y2],
  };
}
const fVal = (f: Frac) => f[0] / f[1];

function randomSlope(rng: Rng, level: 1 | 2 | 3): Frac {
  if (level === 1) return [rng.int(1, 4), 1];
  if (level === 2) return [-rng.int(1, 4), 1];
  for (;;) {
    const f = frac(nonZero(rng, -3, 3), rng.int(2, 4));
    if (f[1] !== 1) return f;
  }
}

// ---------- 66 Slope from a graph ----------

export const slopeFromGraph = defineGenerator({
  skillId: 66,
  levels: ['Positive whole-number slope from a graph', 'Negative whole-number slope from a graph', 'Fractional slope (either sign) from a graph'],
  make(rng, level) {
    const m = randomSlope(rng, level);
    const b = rng.int(-4, 4);
    const L = lineFigure(rng, m, b, level < 3);
    if (!L) return undefined;
    const [x1, y1] = L.p1;
    const [x2, y2] = L.p2;
    return mk({
      stem: 'What is the slope of the line?',
      figure: L.fig,
      ...slopeAnswer(m),
      steps: [
        `Use two points on the line: (${x1}, ${y1}) and (${x2}, ${y2})`,
        `Rise: ${y2} - ${paren(y1)} = ${y2 - y1}; run: ${x2} - ${paren(x1)} = ${x2 - x1}`,
        ...(level > 1 ? [level === 2 ? 'The line falls from left to right, so the slope is negative' : `Simplify the fraction ${y2 - y1}/${x2 - x1}`] : []),
        `Slope = rise ÷ run = ${fStr(frac(y2 - y1, x2 - x1))}`,
      ],
      hints: ['Pick two points where the line crosses grid corners.', 'Slope = rise ÷ run; a line going down from left to right has a negative slope.'],
      wrong: [
        [fStr(frac(m[1], m[0])), 'divides the run by the rise'],
        [fStr(frac(-m[0], m[1])), 'gets the sign wrong'],
        [b, 'gives the y-intercept'],
      ],
    });
  },
});

// ---------- 95 Equation from a graph ----------

export const equationFromGraph = defineGenerator({
  skillId: 95,
  levels: ['Line through the origin: y = mx', 'y = mx + b with whole numbers', 'y = mx + b with a fractional slope'],
  make(rng, level) {
    const m = level === 3 ? randomSlope(rng, 3) : ([nonZero(rng, -3, 4), 1] as Frac);
    const b = level === 1 ? 0 : nonZero(rng, -5, 5);
    const L = lineFigure(rng, m, b, true);
    if (!L) return undefined;
    const [x1, y1] = L.p1;
    const [x2, y2] = L.p2;
    return mk({
      stem: 'Write the equation of the line in the form $y = mx + b$.',
      figure: L.fig,
      ...eqAnswer(m, b),
      steps: level === 1 ? [`Slope: (${y2} - ${paren(y1)}) ÷ (${x2} - ${paren(x1)}) = ${fStr(m)}; the line passes through the origin`, lineEq(m, b)] : [`Slope: (${y2} - ${paren(y1)}) ÷ (${x2} - ${paren(x1)}) = ${fStr(m)}`, `y-intercept: the line crosses the y-axis at ${b}`, lineEq(m, b)],
      hints: ['Find the slope from two points on the line (rise over run).', 'Find where the line crosses the y-axis: that is b.'],
      wrong: [
        [lineEq(frac(m[1], m[0]), b), 'uses run over rise for the slope'],
        [lineEq(m, -b || 1), 'gets the sign of the intercept wrong'],
        [lineEq([b || 1, 1], fVal(m) === Math.round(fVal(m)) ? fVal(m) : 1), 'swaps the slope and the intercept'],
      ],
    });
  },
});

// ---------- 98 Slope from two points, 97 from an equation, 96 from a situation ----------

export const slopeFromPoints = defineGenerator({
  skillId: 98,
  levels: ['Positive whole-number slope from two points', 'Negative slope with negative coordinates', 'Fractional slope from two points'],
  make(rng, level) {
    const m = randomSlope(rng, level);
    const x1 = level === 1 ? rng.int(0, 6) : rng.int(-8, 4);
    const y1 = level === 1 ? rng.int(0, 9) : rng.int(-9, 9);
    const k = rng.int(1, 3);
    const x2 = x1 + m[1] * k;
    const y2 = y1 + m[0] * k;
    return mk({
      stem: `What is the slope of the line through $(${x1}, ${y1})$ and $(${x2}, ${y2})$?`,
      ...slopeAnswer(m),
      steps: [`Slope = (y₂ - y₁) ÷ (x₂ - x₁)`, `(${y2} - ${paren(y1)}) ÷ (${x2} - ${paren(x1)}) = ${y2 - y1} ÷ ${x2 - x1}`, `= ${fStr(m)}`],
      hints: ['Slope is the change in y divided by the change in x.', 'Subtract the coordinates in the same order on the top and on the bottom.'],
      wrong: [
        [fStr(frac(x2 - x1, y2 - y1)), 'divides the change in x by the change in y'],
        [fStr(frac(y2 - y1, x1 - x2)), 'subtracts in different orders on top and bottom'],
        ...(y2 + y1 !== 0 && x2 + x1 !== 0 ? [[fStr(frac(y2 + y1, x2 + x1)), 'adds the coordinates instead of subtracting'] as [string, string]] : []),
      ],
    });
  },
});

export const slopeFromEquation = defineGenerator({
  skillId: 97,
  levels: ['y = mx + b: read m', 'y = b - mx or a fractional m', 'Standard form ax + by = c'],
  make(rng, level) {
    if (level === 1) {
      const m = nonZero(rng, -9, 9);
      const b = nonZero(rng, -12, 12);
      return mk({
        stem: `What is the slope of the line $${lineTex([m, 1], b)}$?`,
        answer: m,
        phrasesOnly: 'slope',
        steps: ['In y = mx + b, the slope is m, the number multiplying x', `m = ${m}`],
        hints: ['Compare the equation with y = mx + b.', 'The slope is the coefficient of x, not the constant.'],
        wrong: [
          [b, 'gives the y-intercept'],
          [-m, 'drops the sign'],
        ],
      });
    }
    if (level === 2) {
      if (rng.chance(0.5)) {
        const m = nonZero(rng, -9, 9);
        const b = nonZero(rng, 1, 15);
        return mk({
          stem: `What is the slope of the line $y = ${b} ${m < 0 ? '+' : '-'} ${Math.abs(m) === 1 ? '' : Math.abs(m)}x$?`,
          answer: -m,
          phrasesOnly: 'slope',
          steps: [`Rewrite in the order y = mx + b: y = ${linear([[-m, 'x'], [b, '']])}`, `The slope is ${-m}`],
          hints: ['The terms are in a different order from y = mx + b.', 'The slope is the coefficient of x, including its sign.'],
          wrong: [
            [b, 'takes the first number as the slope'],
            [m, 'ignores the sign in front of the x-term'],
          ],
        });
      }
      const m = randomSlope(rng, 3);
      const b = nonZero(rng, -9, 9);
      return mk({
        stem: `What is the slope of the line $${lineTex(m, b)}$?`,
        ...slopeAnswer(m),
        phrases: [`slope is ${fStr(m)}`],
        steps: ['The equation is in the form y = mx + b', `m = ${fStr(m)}`],
        hints: ['Compare the equation with y = mx + b.', 'The whole fraction in front of x is the slope.'],
        wrong: [
          [b, 'gives the y-intercept'],
          [fStr(frac(m[1], m[0])), 'inverts the fraction'],
        ],
      });
    }
    const a = nonZero(rng, -6, 6);
    const bb = nonZero(rng, -6, 6);
    const c = rng.int(-12, 12);
    const m = frac(-a, bb);
    if (Math.abs(a) === Math.abs(bb)) return undefined;
    return mk({
      stem: `What is the slope of the line $${linear([[a, 'x'], [bb, 'y']])} = ${c}$?`,
      ...slopeAnswer(m),
      steps: [`Solve for y: ${linear([[bb, 'y']])} = ${linear([[-a, 'x'], [c, '']])}`, `Divide by ${bb}: the coefficient of x is ${fStr(m)}`, `Slope = ${fStr(m)}`],
      hints: ['Rewrite the equation in the form y = mx + b.', 'Move the x-term to the other side (change its sign), then divide by the coefficient of y.'],
      wrong: [
        [fStr(frac(a, bb)), 'forgets to change the sign when moving the x-term'],
        [fStr(frac(-bb, a)), 'divides the wrong way round'],
        [a, 'takes the coefficient of x as the slope'],
      ],
    });
  },
});

export const slopeFromSituation = defineGenerator({
  skillId: 96,
  levels: ['Constant rate stated in words', 'Rate from two data points in a story', 'Negative or decimal rate from two data points'],
  make(rng, level) {
    if (level === 1) {
      const start = rng.int(2, 20);
      const r = rng.int(2, 9);
      return mk({
        stem: `A plant is ${start} cm tall and grows ${r} cm each week. On a graph of its height (y, in cm) against time (x, in weeks), what is the slope of the line?`,
        answer: r,
        phrasesOnly: 'slope',
        steps: ['The slope is the rate of change: how much y changes for each 1 unit of x', `Each week the height grows ${r} cm, so the slope is ${r}`],
        hints: ['Slope means change in y per 1 unit of x.', 'Which number tells how much the height changes each week?'],
        wrong: [
          [start, 'gives the starting height (the y-intercept)'],
          [start + r, 'adds the start and the rate'],
        ],
      });
    }
    const t1 = rng.int(1, 4);
    const t2 = t1 + rng.int(2, 5);
    const r = level === 2 ? rng.int(30, 70) : -rng.int(3, 19) / 2;
    const y0 = level === 2 ? rng.int(0, 50) : rng.int(60, 100);
    const y1 = y0 + r * t1;
    const y2 = y0 + r * t2;
    const stem =
      level === 2
        ? `A car has traveled ${fmt(y1)} miles after ${t1} hour${t1 === 1 ? '' : 's'} and ${fmt(y2)} miles after ${t2} hours, at a steady speed. What is the slope of the line of distance (y) against time (x)?`
        : `A tank holds ${fmt(y1)} liters of water after ${t1} minute${t1 === 1 ? '' : 's'} of draining and ${fmt(y2)} liters after ${t2} minutes. What is the slope of the line of water (y) against time (x)?`;
    return mk({
      stem,
      answer: fmt(r),
      steps: [`Change in y: ${fmt(y2)} - ${fmt(y1)} = ${fmt(y2 - y1)}`, `Change in x: ${t2} - ${t1} = ${t2 - t1}`, `Slope = ${fmt(y2 - y1)} ÷ ${t2 - t1} = ${fmt(r)}`],
      hints: ['The slope is the change in y divided by the change in x.', level === 3 ? 'The amount goes down, so the slope is negative.' : 'Use the two (time, distance) pairs as points.'],
      wrong: [
        [fmt(Math.abs(r) === r ? Math.round((y2 / t2) * 100) / 100 : -r), level === 3 ? 'drops the negative sign' : 'divides one distance by its time, including the start'],
        [fmt(Math.round(((t2 - t1) / (y2 - y1)) * 1000) / 1000), 'divides the change in x by the change in y'],
        [fmt(y2 - y1), 'forgets to divide by the change in time'],
      ],
    });
  },
});

// ---------- 61 Intercepts, 62 linear equations ----------

export const intercepts = defineGenerator({
  skillId: 61,
  levels: ['y-intercept of y = mx + b', 'x-intercept of y = mx + b', 'Intercept of a line in standard form, as a point'],
  make(rng, level) {
    if (level === 1) {
      const m = nonZero(rng, -6, 6);
      const b = nonZero(rng, -12, 12);
      return mk({
        stem: `What is the y-intercept of the line $${lineTex([m, 1], b)}$?`,
        answer: b,
        phrasesOnly: 'y-intercept',
        steps: ['In y = mx + b, the y-intercept is b (the value of y when x = 0)', `b = ${b}`],
        hints: ['The y-intercept is where the line crosses the y-axis, where x = 0.', 'Put x = 0 into the equation.'],
        wrong: [
          [m, 'gives the slope'],
          [-b, 'drops the sign'],
        ],
      });
    }
    if (level === 2) {
      const m = nonZero(rng, -5, 5);
      const xi = nonZero(rng, -8, 8);
      const b = -m * xi;
      return mk({
        stem: `What is the x-intercept of the line $${lineTex([m, 1], b)}$?`,
        answer: xi,
        steps: ['The x-intercept is where y = 0', `0 = ${linear([[m, 'x'], [b, '']])}, so ${linear([[m, 'x']])} = ${-b}`, `x = ${xi}`],
        hints: ['The x-intercept is where the line crosses the x-axis: y = 0 there.', 'Set y to 0 and solve for x.'],
        wrong: [
          [b, 'gives the y-intercept'],
          [-xi, 'gets the sign wrong'],
          [fmt(b / m), 'divides b by m without changing the sign'],
        ],
      });
    }
    const a = nonZero(rng, -6, 6);
    const bb = nonZero(rng, -6, 6);
    const xInt = rng.chance(0.5);
    const k = nonZero(rng, -6, 6);
    const c = xInt ? a * k : bb * k;
    if (Math.abs(a) === Math.abs(bb)) return undefined;
    const pt = xInt ? `(${k}, 0)` : `(0, ${k})`;
    return mk({
      stem: `At what point does the line $${linear([[a, 'x'], [bb, 'y']])} = ${c}$ cross the ${xInt ? 'x' : 'y'}-axis? Write the point as $(x, y)$.`,
      kind: 'list',
      answer: pt,
      phrases: [pt, pt.replace(/\s/g, '')],
      steps: [`On the ${xInt ? 'x' : 'y'}-axis, ${xInt ? 'y' : 'x'} = 0`, `${xInt ? linear([[a, 'x']]) : linear([[bb, 'y']])} = ${c}, so ${xInt ? 'x' : 'y'} = ${k}`, `The point is ${pt}`],
      hints: [`A point on the ${xInt ? 'x' : 'y'}-axis has ${xInt ? 'y' : 'x'}-coordinate 0.`, 'Put that 0 into the equation and solve for the other coordinate.'],
      wrong: [
        [xInt ? `(0, ${k})` : `(${k}, 0)`, 'puts the intercept on the wrong axis'],
        [xInt ? `(${c / bb}, 0)` : `(0, ${c / a})`, 'divides by the wrong coefficient'],
      ],
    });
  },
});

export const linearEquations = defineGenerator({
  skillId: 62,
  levels: ['Find y for a given x', 'Find x for a given y', 'Rewrite ax + by = c in the form y = mx + b'],
  make(rng, level) {
    if (level < 3) {
      const m = nonZero(rng, -6, 6);
      const b = nonZero(rng, -12, 12);
      const x = nonZero(rng, -8, 8);
      const y = m * x + b;
      if (level === 1) {
        return mk({
          stem: `For the line $${lineTex([m, 1], b)}$, what is $y$ when $x = ${x}$?`,
          answer: y,
          accepted: [`y = ${y}`],
          steps: [`Substitute x = ${x}: y = ${m} × ${paren(x)} ${b < 0 ? '-' : '+'} ${Math.abs(b)}`, `y = ${m * x} ${b < 0 ? '-' : '+'} ${Math.abs(b)} = ${y}`],
          hints: ['Replace x with the given number.', 'Multiply first, then add or subtract.'],
          wrong: [
            [m + x + b, 'adds instead of multiplying'],
            [m * (x + b), 'adds before multiplying'],
            [-m * x + b, 'makes a sign error in the product'],
          ],
        });
      }
      return mk({
        stem: `For the line $${lineTex([m, 1], b)}$, what is $x$ when $y = ${y}$?`,
        answer: x,
        accepted: [`x = ${x}`],
        steps: [`${y} = ${linear([[m, 'x'], [b, '']])}`, `${y} ${b < 0 ? '+' : '-'} ${Math.abs(b)} = ${y - b} = ${linear([[m, 'x']])}`, `x = ${y - b} ÷ ${paren(m)} = ${x}`],
        hints: ['Put the given y into the equation and solve for x.', 'Undo the constant first, then divide by the slope.'],
        wrong: [
          [m * y + b, 'substitutes the value for x instead of y'],
          [fmt((y + b) / m), 'moves the constant with the wrong sign'],
          [-x, 'makes a sign error'],
        ],
      });
    }
    const a = nonZero(rng, -6, 6);
    const bb = rng.pick([1, 2, 3, 4, 5, -1, -2, -3]);
    const mm = frac(-a, bb);
    const k = nonZero(rng, -6, 6);
    const c = bb * k;
    return mk({
      stem: `Write $${linear([[a, 'x'], [bb, 'y']])} = ${c}$ in the form $y = mx + b$.`,
      ...eqAnswer(mm, k),
      steps: [`Move the x-term: ${linear([[bb, 'y']])} = ${linear([[-a, 'x'], [c, '']])}`, ...(bb !== 1 ? [`Divide every term by ${bb}`] : []), lineEq(mm, k)],
      hints: ['Get the y-term alone on one side.', 'Then divide every term by the coefficient of y.'],
      wrong: [
        [lineEq(frac(a, bb), k), 'forgets to change the sign of the x-term'],
        [lineEq([-a, 1], c), 'does not divide by the coefficient of y'],
        [lineEq(mm, -k), 'gets the sign of the constant wrong'],
      ],
    });
  },
});

// ---------- 92 From ordered pairs, 93 from a situation, 94 linear patterns ----------

export const equationFromPairs = defineGenerator({
  skillId: 92,
  levels: ['From a table that includes x = 0', 'From two points (whole-number slope)', 'From two points (fractional slope)'],
  make(rng, level) {
    if (level === 1) {
      const m = nonZero(rng, -5, 6);
      const b = rng.int(-9, 9);
      const fig: Figure = { kind: 'table', caption: 'Values of a linear function', header: ['x', 'y'], rows: [0, 1, 2, 3].map((x) => [String(x), String(m * x + b)]) };
      return mk({
        stem: 'The table shows points on a line. Write its equation in the form $y = mx + b$.',
        figure: fig,
        ...eqAnswer([m, 1], b),
        steps: [`When x goes up by 1, y changes by ${m}: the slope is ${m}`, `When x = 0, y = ${b}: the y-intercept is ${b}`, lineEq([m, 1], b)],
        hints: ['How much does y change each time x goes up by 1?', 'What is y when x is 0?'],
        wrong: [
          [lineEq([b || 1, 1], m), 'swaps the slope and the intercept'],
          [lineEq([m, 1], m + b), 'uses the y-value at x = 1 as the intercept'],
        ],
      });
    }
    const m = randomSlope(rng, level === 2 ? (rng.chance(0.5) ? 1 : 2) : 3);
    const b = rng.int(-6, 6);
    const x1 = m[1] * rng.int(-2, 1);
    const x2 = x1 + m[1] * rng.int(1, 2);
    const y1 = (m[0] * x1) / m[1] + b;
    const y2 = (m[0] * x2) / m[1] + b;
    if (x1 === 0 || x2 === 0) return undefined;
    return mk({
      stem: `Write the equation of the line through $(${x1}, ${y1})$ and $(${x2}, ${y2})$ in the form $y = mx + b$.`,
      ...eqAnswer(m, b),
      steps: [`Slope: (${y2} - ${paren(y1)}) ÷ (${x2} - ${paren(x1)}) = ${fStr(m)}`, `Use (${x1}, ${y1}): ${y1} = ${fStr(m)} × ${paren(x1)} + b, so b = ${b}`, lineEq(m, b)],
      hints: ['Find the slope first: change in y over change in x.', 'Put one point and the slope into y = mx + b and solve for b.'],
      wrong: [
        [lineEq(frac(m[1], m[0]), b), 'uses run over rise for the slope'],
        [lineEq(m, y1), 'uses a y-coordinate as the intercept'],
      ],
    });
  },
});

export const equationFromSituation = defineGenerator({
  skillId: 93,
  levels: ['Proportional situation: y = kx', 'Fixed amount plus a rate: y = mx + b', 'Decreasing amount: y = b - mx'],
  make(rng, level) {
    if (level === 1) {
      const r = rng.int(3, 15);
      const ctx = rng.pick([
        { s: `Each movie ticket costs \\$${r}. Write an equation for the total cost $C$ of $t$ tickets.`, y: 'C', x: 't' },
        { s: `Apples cost \\$${r} per bag. Write an equation for the total cost $C$ of $b$ bags.`, y: 'C', x: 'b' },
        { s: `Jo earns \\$${r} per hour babysitting. Write an equation for her earnings $E$ after $h$ hours.`, y: 'E', x: 'h' },
        { s: `A printer prints ${r} pages per minute. Write an equation for the number of pages $P$ printed in $m$ minutes.`, y: 'P', x: 'm' },
      ]);
      return mk({
        stem: ctx.s,
        ...eqAnswer([r, 1], 0, ctx.y, ctx.x),
        steps: ['Each unit adds the same amount', `${ctx.y} = ${r}${ctx.x}`],
        hints: [`What is the total for 1? For 2? For ${ctx.x}?`, 'The total is the rate times the number of units.'],
        wrong: [
          [`${ctx.y} = ${ctx.x} + ${r}`, 'adds the rate instead of multiplying'],
          [`${ctx.x} = ${r}${ctx.y}`, 'swaps the variables'],
        ],
      });
    }
    if (level === 2) {
      const fee = rng.int(2, 10) * 5;
      const r = rng.int(2, 12) * 5;
      if (fee === r) return undefined;
      return mk({
        stem: `A gym charges a \\$${fee} sign-up fee plus \\$${r} per month. Write an equation for the total cost $C$ after $m$ months.`,
        ...eqAnswer([r, 1], fee, 'C', 'm'),
        steps: [`The monthly charge is ${r} for each month: ${r}m`, `The fee is paid once: + ${fee}`, `C = ${r}m + ${fee}`],
        hints: ['Which amount is paid every month, and which only once?', 'Total = (rate × months) + fee.'],
        wrong: [
          [`C = ${fee}m + ${r}`, 'swaps the fee and the monthly rate'],
          [`C = ${r + fee}m`, 'adds the fee to the monthly rate'],
        ],
      });
    }
    const start = rng.int(10, 50) * 10;
    const r = rng.int(2, 25);
    return mk({
      stem: `A tank holds ${start} liters of water and drains at ${r} liters per minute. Write an equation for the amount of water $A$ left after $t$ minutes.`,
      ...eqAnswer([-r, 1], start, 'A', 't'),
      accepted: [`A = ${start} - ${r}t`],
      steps: ['The amount starts at ' + start + ' and goes down by ' + r + ' every minute', `A = ${start} - ${r}t`],
      hints: ['Does the amount go up or down over time? That decides the sign of the rate.', 'Start with the initial amount and take away the amount drained in t minutes.'],
      wrong: [
        [`A = ${r}t + ${start}`, 'adds the drained water instead of subtracting'],
        [`A = ${r}t - ${start}`, 'subtracts the starting amount'],
        [`A = ${start - r}t`, 'combines the start and the rate'],
      ],
    });
  },
});

export const linearPattern = defineGenerator({
  skillId: 94,
  levels: ['Next value in a table with a constant difference', 'Which set of points is linear', 'Equation from a table whose x-values do not start at 0'],
  make(rng, level) {
    const m = nonZero(rng, -6, 7);
    const b = rng.int(-10, 12);
    if (level === 1) {
      const xs = [1, 2, 3, 4];
      const fig: Figure = { kind: 'table', caption: 'A linear pattern', header: ['x', 'y'], rows: [...xs.map((x) => [String(x), String(m * x + b)]), ['5', '?']] };
      return mk({
        stem: 'The table shows a linear pattern. What is the missing value of $y$ when $x = 5$?',
        figure: fig,
        answer: 5 * m + b,
        steps: [`y changes by ${m} each time x goes up by 1`, `${4 * m + b} ${m < 0 ? '-' : '+'} ${Math.abs(m)} = ${5 * m + b}`],
        hints: ['Find how much y changes from one row to the next.', 'Apply the same change once more.'],
        wrong: [
          [4 * m + b - m, 'applies the change in the wrong direction'],
          [5 * m, 'multiplies x by the change and forgets the starting value'],
        ],
      });
    }
    if (level === 2) {
      const pts = (f: (x: number) => number) => [1, 2, 3, 4].map((x) => `(${x}, ${f(x)})`).join(', ');
      const lin = pts((x) => m * x + b);
      const quad = pts((x) => x * x + b);
      const dbl = pts((x) => 2 ** x + b);
      const bumpy = pts((x) => m * x + b + (x === 3 ? 1 : 0));
      return mkChoice(rng, {
        stem: 'Which set of points lies on a straight line?',
        answer: lin,
        options: [lin, quad, dbl, bumpy],
        steps: ['Points are on a line when y changes by the same amount each time x goes up by 1', `Only ${lin} has a constant change (${m})`],
        hints: ['Look at the differences between consecutive y-values in each set.', 'A linear pattern has the same difference every time.'],
        wrong: [
          [quad, 'sees a steady increase and calls it linear'],
          [bumpy, 'checks only the first difference'],
        ],
      });
    }
    const x0 = rng.int(2, 5);
    const step = rng.pick([1, 2]);
    const xs = [0, 1, 2, 3].map((i) => x0 + i * step);
    const fig: Figure = { kind: 'table', caption: 'A linear pattern', header: ['x', 'y'], rows: xs.map((x) => [String(x), String(m * x + b)]) };
    return mk({
      stem: 'The table shows a linear relationship. Write its equation in the form $y = mx + b$.',
      figure: fig,
      ...eqAnswer([m, 1], b),
      steps: [`Slope: y changes by ${m * step} when x changes by ${step}, so m = ${m}`, `Use (${xs[0]}, ${m * xs[0]! + b}): ${m * xs[0]! + b} = ${m} × ${xs[0]} + b, so b = ${b}`, lineEq([m, 1], b)],
      hints: ['Find the slope: change in y divided by change in x.', 'The table does not show x = 0: use one row to solve for b.'],
      wrong: [
        [lineEq([m * step, 1], b), 'uses the change in y without dividing by the change in x'],
        [lineEq([m, 1], m * xs[0]! + b), 'uses the first y-value as the intercept'],
      ],
    });
  },
});

// ---------- 110 Systems by graphing ----------

export const systemsGraphing = defineGenerator({
  skillId: 110,
  levels: ['Read the intersection of two graphed lines (first quadrant)', 'Intersection in any quadrant, one fractional slope', 'Number of solutions: one, none or infinitely many'],
  make(rng, level) {
    if (level < 3) {
      const x = level === 1 ? rng.int(1, 5) : nonZero(rng, -5, 5);
      const y = level === 1 ? rng.int(1, 5) : nonZero(rng, -5, 5);
      const m1: Frac = level === 1 ? [rng.int(1, 3), 1] : rng.pick([[1, 2], [-1, 2], [1, 3], [-1, 3]] as Frac[]);
      const m2: Frac = [nonZero(rng, -3, 3), 1];
      if (fVal(m1) === fVal(m2)) return undefined;
      const b1 = y - fVal(m1) * x;
      const b2 = y - m2[0] * x;
      if (!Number.isInteger(b1) || Math.abs(b1) > 7 || Math.abs(b2) > 7) return undefined;
      const pl = plane({ xmin: -7, xmax: 7, ymin: -7, ymax: 7, unit: 22, labelEvery: 1 });
      const body = [
        pl.body,
        pl.lineThrough(fVal(m1), b1, { stroke: PALETTE[0] }),
        pl.lineThrough(m2[0], b2, { stroke: PALETTE[1] }),
        text(pl.X(-6.8), pl.Y(7) + 14, lineEq(m1, b1), { 'text-anchor': 'start', fill: PALETTE[0], 'font-weight': 'bold' }),
        text(pl.X(-6.8), pl.Y(7) + 30, lineEq(m2, b2), { 'text-anchor': 'start', fill: PALETTE[1], 'font-weight': 'bold' }),
      ].join('');
      const fig = svgFigure(pl.width, pl.height, body, `Coordinate grid from -7 to 7 with two lines: ${lineEq(m1, b1)} and ${lineEq(m2, b2)}.`);
      return mk({
        stem: `The graph shows the lines $${lineTex(m1, b1)}$ and $${lineTex(m2, b2)}$. What is the solution of the system? Write it as $(x, y)$.`,
        figure: fig,
        kind: 'list',
        answer: `(${x}, ${y})`,
        accepted: [`x = ${x}, y = ${y}`],
        phrases: [`(${x}, ${y})`, `(${x},${y})`],
        steps: ['The solution is the point where the lines cross', `They cross at (${x}, ${y})`, `Check: ${lineEq(m1, b1).replace('y = ', '')} and ${lineEq(m2, b2).replace('y = ', '')} both give ${y} when x = ${x}`],
        hints: ['Find the point that lies on both lines.', 'Read its x-coordinate first, then its y-coordinate, and check it in both equations.'],
        wrong: [
          [`(${y}, ${x})`, 'writes the coordinates in the wrong order'],
          [`(0, ${b1})`, 'gives a y-intercept instead of the crossing point'],
        ],
      });
    }
    const kind = rng.pick(['one', 'none', 'infinite'] as const);
    const a = nonZero(rng, -4, 4);
    const b = nonZero(rng, -4, 4);
    const c = rng.int(-10, 10);
    const k = rng.pick([2, 3, -2]);
    let eq2: [number, number, number];
    if (kind === 'infinite') eq2 = [a * k, b * k, c * k];
    else if (kind === 'none') eq2 = [a * k, b * k, c * k + rng.pick([1, 2, 3, -1])];
    else {
      eq2 = [nonZero(rng, -4, 4), nonZero(rng, -4, 4), rng.int(-10, 10)];
      if (eq2[0] * b === eq2[1] * a) return undefined;
    }
    const names = { one: 'Exactly one solution', none: 'No solution', infinite: 'Infinitely many solutions' };
    return mkChoice(rng, {
      stem: `How many solutions does the system $${linear([[a, 'x'], [b, 'y']])} = ${c}$ and $${linear([[eq2[0], 'x'], [eq2[1], 'y']])} = ${eq2[2]}$ have?`,
      answer: names[kind],
      options: Object.values(names),
      keepOrder: true,
      steps: [kind === 'one' ? `The slopes are ${fStr(frac(-a, b))} and ${fStr(frac(-eq2[0], eq2[1]))}: different` : `The second equation's left side is ${k} times the first's, so the slopes are equal`, kind === 'one' ? 'Lines with different slopes cross once' : kind === 'none' ? `But ${eq2[2]} is not ${k} × ${c}: parallel lines, no solution` : `And ${eq2[2]} = ${k} × ${c}: the same line, infinitely many solutions`],
      hints: ['Compare the slopes (and the intercepts) of the two lines.', 'Same slope and same intercept: the same line. Same slope, different intercept: parallel lines. Different slopes: they cross once.'],
      wrong: Object.values(names)
        .filter((n) => n !== names[kind])
        .map((n): [string, string] => [n, 'compares only the slopes or only the constants']),
    });
  },
});

export const LINEAR_FUNCTIONS = [intercepts, linearEquations, slopeFromGraph, equationFromPairs, equationFromSituation, linearPattern, equationFromGraph, slopeFromSituation, slopeFromEquation, slopeFromPoints, systemsGraphing];

