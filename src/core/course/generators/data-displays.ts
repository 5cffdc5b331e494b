/** Data displays: box plots, circle graphs, histograms, number lines, scatter plots, stem-and-leaf plots, tables, Venn diagrams, coordinate graphs (skills 1–8, 106). */
import type { Rng } from '../../rng';
import type { Figure, ItemContent } from '../types';
import { defineGenerator, fmt, frac, fStr, mixedStr, mk, mkChoice, type Frac } from './util';
import { ACCENT, FILL, INK, PALETTE, circle, dot, line, numberLineBody, path, plane, polyline, rect, scale, svgFigure, text } from './svg';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

// ---------- 1 Box and whisker ----------

function boxPlot(v: readonly [number, number, number, number, number], axisMax: number, step: number, labelEvery: number, what: string): Figure {
  const x = scale(0, axisMax, 30, 470);
  const [mn, q1, md, q3, mx] = v;
  const yMid = 50;
  const body = [
    line(x(mn), yMid, x(q1), yMid, { 'stroke-width': 2 }),
    line(x(q3), yMid, x(mx), yMid, { 'stroke-width': 2 }),
    line(x(mn), yMid - 12, x(mn), yMid + 12, { 'stroke-width': 2 }),
    line(x(mx), yMid - 12, x(mx), yMid + 12, { 'stroke-width': 2 }),
    rect(x(q1), yMid - 22, x(q3) - x(q1), 44, { fill: FILL, 'stroke-width': 2 }),
    line(x(md), yMid - 22, x(md), yMid + 22, { stroke: ACCENT, 'stroke-width': 3 }),
    numberLineBody({ min: 0, max: axisMax, step, labelEvery }, 110),
    text(250, 150, what),
  ].join('');
  return svgFigure(500, 160, body, `Box-and-whisker plot of ${what} on a scale from 0 to ${axisMax}: minimum ${mn}, lower quartile ${q1}, median ${md}, upper quartile ${q3}, maximum ${mx}.`);
}

function fiveNumbers(rng: Rng, step: number, maxTicks: number): [number, number, number, number, number] {
  const t = [rng.int(1, 3)];
  for (let i = 0; i < 4; i++) t.push(t[i]! + rng.int(1, 4));
  if (t[4]! > maxTicks - 1) return fiveNumbers(rng, step, maxTicks);
  return t.map((k) => k * step) as [number, number, number, number, number];
}

export const boxAndWhisker = defineGenerator({
  skillId: 1,
  levels: ['Read the median from a box plot', 'Interquartile range from a box plot', 'Percent of the data between two values of a box plot'],
  make(rng, level) {
    const step = level === 3 ? 2 : 5;
    const axisMax = level === 3 ? 40 : level === 2 ? 100 : 50;
    const v = fiveNumbers(rng, step, axisMax / step);
    const [mn, q1, md, q3, mx] = v;
    const what = rng.pick(['test scores', 'minutes of reading', 'heights in inches', 'points per game']);
    const fig = boxPlot(v, axisMax, step, level === 3 ? 5 : 2, what);
    if (level === 1) {
      return mk({
        stem: `The box-and-whisker plot shows ${what}. What is the median?`,
        figure: fig,
        answer: md,
        steps: ['The median is the line inside the box', `It is at ${md} on the scale`],
        hints: ['A box plot marks five numbers: minimum, lower quartile, median, upper quartile and maximum.', 'Look for the line drawn inside the box and read the scale below it.'],
        wrong: [
          [q1, 'reads the left edge of the box'],
          [q3, 'reads the right edge of the box'],
          [fmt((mn + mx) / 2), 'takes the middle of the whiskers'],
        ],
      });
    }
    if (level === 2) {
      const iqr = q3 - q1;
      return mk({
        stem: `The box-and-whisker plot shows ${what}. What is the interquartile range?`,
        figure: fig,
        answer: iqr,
        steps: [`Upper quartile (right edge of the box): ${q3}; lower quartile (left edge): ${q1}`, `Interquartile range = ${q3} - ${q1} = ${iqr}`],
        hints: ['The interquartile range is the length of the box.', 'Subtract the lower quartile from the upper quartile.'],
        wrong: [
          [mx - mn, 'computes the range instead'],
          [q3 - md, 'measures from the median to the upper quartile'],
          [md, 'gives the median'],
        ],
      });
    }
    const pairs: [number, number, number, string][] = [
      [mn, q1, 25, 'from the minimum to the lower quartile'],
      [mn, md, 50, 'from the minimum to the median'],
      [mn, q3, 75, 'from the minimum to the upper quartile'],
      [q1, mx, 75, 'from the lower quartile to the maximum'],
      [md, mx, 50, 'from the median to the maximum'],
      [q3, mx, 25, 'from the upper quartile to the maximum'],
      [q1, q3, 50, 'the box, from the lower to the upper quartile'],
    ];
    const [a, b, pct, where] = rng.pick(pairs);
    const parts = pct / 25;
    return mk({
      stem: `The box-and-whisker plot shows ${what}. About what percent of the data lie between ${a} and ${b}?`,
      figure: fig,
      answer: `${pct}%`,
      accepted: [String(pct)],
      numeric: [String(pct)],
      steps: ['The four parts of a box plot (two whiskers, two halves of the box) each hold about 25% of the data', `${a} to ${b} is ${where}: ${parts} part${parts > 1 ? 's' : ''}`, `${parts} × 25% = ${pct}%`],
      hints: ['Each whisker and each half of the box holds about a quarter of the data, however long it looks.', 'Count how many of the four quarters lie between the two values.'],
      wrong: [
        [`${Math.round(((b - a) / (mx - mn)) * 100)}%`, 'judges the percent by the length on the scale'],
        ...[25, 50, 75].filter((p) => p !== pct).map((p): [string, string] => [`${p}%`, 'miscounts the quarters of the plot']),
      ],
    });
  },
});

// ---------- 2 Circle graph ----------

function pieChart(slices: { label: string; pct: number; shown: boolean }[], title: string): Figure {
  const cx = 110;
  const cy = 110;
  const r = 90;
  let a0 = -Math.PI / 2;
  const parts: string[] = [];
  slices.forEach((s, i) => {
    const a1 = a0 + (s.pct / 100) * 2 * Math.PI;
    const large = a1 - a0 > Math.PI ? 1 : 0;
    const x0 = cx + r * Math.cos(a0);
    const y0 = cy + r * Math.sin(a0);
    const x1 = cx + r * Math.cos(a1);
    const y1 = cy + r * Math.sin(a1);
    parts.push(path(`M${cx},${cy} L${x0.toFixed(2)},${y0.toFixed(2)} A${r},${r} 0 ${large} 1 ${x1.toFixed(2)},${y1.toFixed(2)} Z`, { fill: PALETTE[i % PALETTE.length]!, stroke: '#ffffff', 'stroke-width': 2 }));
    const am = (a0 + a1) / 2;
    parts.push(text(cx + r * 0.62 * Math.cos(am), cy + r * 0.62 * Math.sin(am) + 4, s.shown ? `${s.pct}%` : '?', { fill: '#ffffff', 'font-weight': 'bold' }));
    parts.push(rect(230, 30 + i * 26, 16, 16, { fill: PALETTE[i % PALETTE.length]!, stroke: 'none' }));
    parts.push(text(254, 43 + i * 26, `${s.label}: ${s.shown ? `${s.pct}%` : '?'}`, { 'text-anchor': 'start' }));
    a0 = a1;
  });
  parts.push(text(110, 220, title));
  const alt = `Circle graph of ${title}: ${slices.map((s) => `${s.label} ${s.shown ? `${s.pct}%` : 'unlabelled'}`).join(', ')}.`;
  return svgFigure(400, 230, parts.join(''), alt);
}

const PIE_TOPICS = [
  { title: 'favorite sports', labels: ['Soccer', 'Basketball', 'Swimming', 'Tennis', 'Baseball'], who: 'students' },
  { title: 'favorite fruits', labels: ['Apples', 'Bananas', 'Grapes', 'Oranges', 'Mangoes'], who: 'students' },
  { title: 'ways to get to school', labels: ['Bus', 'Car', 'Walk', 'Bike', 'Train'], who: 'students' },
  { title: 'a monthly budget', labels: ['Rent', 'Food', 'Savings', 'Travel', 'Fun'], who: 'dollars' },
];

function piePercents(rng: Rng, k: number): number[] {
  for (;;) {
    const cuts = new Set<number>();
    while (cuts.size < k - 1) cuts.add(rng.int(1, 19) * 5);
    const c = [0, ...[...cuts].sort((a, b) => a - b), 100];
    const p = c.slice(1).map((v, i) => v - c[i]!);
    if (p.every((x) => x >= 10)) return p;
  }
}

export const circleGraph = defineGenerator({
  skillId: 2,
  levels: ['Missing percent of a circle graph (parts add to 100%)', 'Number in a category from its percent and the total', 'Central angle of a sector in degrees'],
  make(rng, level) {
    const topic = rng.pick(PIE_TOPICS);
    const k = rng.pick([4, 5]);
    const pcts = piePercents(rng, k);
    const labels = rng.shuffle(topic.labels).slice(0, k);
    const i = rng.int(0, k - 1);
    const target = labels[i]!;
    const p = pcts[i]!;
    if (level === 1) {
      const others = pcts.filter((_, j) => j !== i);
      const fig = pieChart(labels.map((l, j) => ({ label: l, pct: pcts[j]!, shown: j !== i })), topic.title);
      return mk({
        stem: `The circle graph shows ${topic.title}. What percent is ${target}?`,
        figure: fig,
        answer: `${p}%`,
        accepted: [String(p)],
        numeric: [String(p)],
        steps: [`The whole circle is 100%`, `The other parts add to ${others.join(' + ')} = ${sum(others)}%`, `${target}: 100% - ${sum(others)}% = ${p}%`],
        hints: ['All the parts of a circle graph together make 100%.', 'Add the percents you know, then find what is left of 100%.'],
        wrong: [
          [`${sum(others)}%`, 'gives the total of the known parts'],
          [`${100 / k}%`, 'assumes all parts are equal'],
          [`${360 - sum(others)}%`, 'subtracts from 360 instead of 100'],
        ],
      });
    }
    const fig = pieChart(labels.map((l, j) => ({ label: l, pct: pcts[j]! })).map((s) => ({ ...s, shown: true })), topic.title);
    if (level === 2) {
      const total = rng.pick([40, 60, 80, 120, 200, 240, 300, 400, 500]);
      const n = (p * total) / 100;
      if (!Number.isInteger(n)) return undefined;
      const unit = topic.who === 'dollars' ? 'dollars' : 'students';
      const stem =
        topic.who === 'dollars'
          ? `The circle graph shows a monthly budget of \\$${total}. How many dollars are spent on ${target}?`
          : `The circle graph shows the ${topic.title} of ${total} students. How many students chose ${target}?`;
      return mk({
        stem,
        figure: fig,
        answer: n,
        steps: [`${target} is ${p}% of the whole`, `${p}% of ${total} = ${p / 100} × ${total} = ${n} ${unit}`],
        hints: ['The percent tells what part of the whole total belongs to that category.', `Find ${p}% of the total: write the percent as a decimal and multiply.`],
        wrong: [
          [p, 'gives the percent instead of the number'],
          [p * total, 'multiplies by the percent without dividing by 100'],
          [fmt(Math.round((total / p) * 100) / 100), 'divides the total by the percent'],
        ],
      });
    }
    const angle = (p * 360) / 100;
    return mk({
      stem: `The circle graph shows ${topic.title}. What is the measure, in degrees, of the central angle of the ${target} sector?`,
      figure: fig,
      answer: angle,
      steps: ['A full circle is 360°', `${target} is ${p}% of the circle`, `${p / 100} × 360° = ${angle}°`],
      hints: ['The whole circle is 360 degrees and the whole data set is 100%.', 'Find the same percent of 360°.'],
      wrong: [
        [p, 'gives the percent as the angle'],
        [360 - angle, 'gives the angle of the rest of the circle'],
        [fmt((p * 180) / 100), 'uses 180° for a full circle'],
      ],
    });
  },
});

// ---------- 3 Histogram ----------

function histogram(bins: string[], counts: number[], xLabel: string, yLabel: string): Figure {
  const maxC = Math.max(...counts);
  const top = Math.ceil((maxC + 1) / 2) * 2;
  const left = 60;
  const bottom = 200;
  const h = 160;
  const bw = 60;
  const Y = scale(0, top, bottom, bottom - h);
  const parts: string[] = [];
  for (let v = 0; v <= top; v += 1) {
    parts.push(line(left, Y(v), left + bw * bins.length, Y(v), { stroke: '#e5e7eb', 'stroke-width': 1 }));
    if (v % 2 === 0) parts.push(text(left - 8, Y(v) + 4, v, { 'text-anchor': 'end', 'font-size': 11 }));
  }
  bins.forEach((b, i) => {
    parts.push(rect(left + i * bw, Y(counts[i]!), bw, bottom - Y(counts[i]!), { fill: FILL, stroke: INK }));
    parts.push(text(left + i * bw + bw / 2, bottom + 16, b, { 'font-size': 11 }));
  });
  parts.push(line(left, bottom, left + bw * bins.length, bottom, { 'stroke-width': 2 }), line(left, bottom, left, bottom - h, { 'stroke-width': 2 }));
  parts.push(text(left + (bw * bins.length) / 2, bottom + 36, xLabel));
  parts.push(text(16, bottom - h / 2, yLabel, { transform: `rotate(-90 16 ${bottom - h / 2})` }));
  const width = left + bw * bins.length + 20;
  return svgFigure(width, 250, parts.join(''), `Histogram of ${xLabel.toLowerCase()}: ${bins.map((b, i) => `${b}: ${counts[i]}`).join('; ')} (${yLabel.toLowerCase()}).`);
}

export const histogramSkill = defineGenerator({
  skillId: 3,
  levels: ['Read one bar of a histogram', 'Total over several intervals ("at least …")', 'Interval that contains the median'],
  make(rng, level) {
    const starts = [50, 60, 70, 80, 90];
    const bins = starts.map((s) => `${s}–${s + 9}`);
    const counts = starts.map(() => rng.int(1, 10));
    const fig = histogram(bins, counts, 'Test score', 'Number of students');
    if (level === 1) {
      const i = rng.int(0, 4);
      return mk({
        stem: `The histogram shows the test scores of a class. How many students scored from ${starts[i]} to ${starts[i]! + 9}?`,
        figure: fig,
        answer: counts[i]!,
        steps: [`Find the bar labelled ${bins[i]}`, `Its top is at ${counts[i]} on the vertical scale`],
        hints: ['Each bar covers an interval of scores; its height is how many students are in it.', 'Find the right bar, then read across from its top to the vertical scale.'],
        wrong: [
          [starts[i]!, 'gives the score instead of the number of students'],
          [counts[(i + 1) % 5]!, 'reads the neighbouring bar'],
          [sum(counts), 'gives the total number of students'],
        ],
      });
    }
    if (level === 2) {
      const i = rng.int(1, 3);
      const n = sum(counts.slice(i));
      return mk({
        stem: `The histogram shows the test scores of a class. How many students scored ${starts[i]} or higher?`,
        figure: fig,
        answer: n,
        steps: [`The intervals from ${starts[i]} up are ${bins.slice(i).join(', ')}`, `Add their bars: ${counts.slice(i).join(' + ')} = ${n}`],
        hints: ['More than one bar is involved.', `Add the heights of every bar from the ${bins[i]} interval to the right.`],
        wrong: [
          [counts[i]!, 'counts only the first interval'],
          [sum(counts.slice(i + 1)), `leaves out the ${bins[i]} interval`],
          [sum(counts), 'counts every student'],
        ],
      });
    }
    const total = sum(counts);
    const cum = counts.map((_, i) => sum(counts.slice(0, i + 1)));
    const binOf = (k: number) => cum.findIndex((c) => c >= k);
    const lo = binOf(Math.ceil(total / 2));
    const hi = binOf(Math.floor(total / 2) + 1);
    if (lo !== hi) return undefined;
    const mode = counts.indexOf(Math.max(...counts));
    return mkChoice(rng, {
      stem: `The histogram shows the test scores of a class. Which interval contains the median score?`,
      figure: fig,
      answer: bins[lo]!,
      options: bins,
      keepOrder: true,
      steps: [`There are ${counts.join(' + ')} = ${total} students`, `The median is the score of student number ${total % 2 ? (total + 1) / 2 : `${total / 2} and ${total / 2 + 1}`} in order`, `Running totals: ${cum.join(', ')}, so the median falls in ${bins[lo]}`],
      hints: ['The median is the middle score when all the scores are in order.', 'Find how many students there are, then add up the bars from the left until you reach the middle student.'],
      wrong: [
        [bins[mode]!, 'picks the tallest bar (the mode)'],
        [bins[2]!, 'picks the middle interval of the scale'],
      ],
    });
  },
});

// ---------- 4 Number line ----------

export const numberLine = defineGenerator({
  skillId: 4,
  levels: ['Whole number at an unlabelled tick (ticks of 1)', 'Integer on a line with ticks of 2 or 5 and negatives', 'Fraction or mixed number on a line divided into halves, thirds, quarters or fifths'],
  make(rng, level) {
    if (level === 1) {
      const min = rng.pick([0, 10, 20, 30]);
      const v = min + rng.pick([1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14]);
      const body = numberLineBody({ min, max: min + 15, step: 1, labelEvery: 5, points: [{ value: v, label: 'A' }] });
      const fig = svgFigure(500, 80, body, `Number line from ${min} to ${min + 15} with a tick at every whole number; labels at ${min}, ${min + 5}, ${min + 10} and ${min + 15}; point A is at ${v}.`);
      const base = min + Math.floor((v - min) / 5) * 5;
      return mk({
        stem: 'What number does point A show on the number line?',
        figure: fig,
        answer: v,
        steps: [`Each tick is 1 more than the one before it`, `Start at the label ${base} and count ${v - base} ticks to the right: ${v}`],
        hints: ['Work out what each small space on the number line is worth.', 'Start at the nearest labelled number and count the ticks to point A.'],
        wrong: [
          [v + 1, 'counts the starting tick as one step'],
          [base, 'reads the nearest label'],
          [v - 1, 'counts one tick too few'],
        ],
      });
    }
    if (level === 2) {
      const step = rng.pick([2, 4, 5, 10]);
      const min = -step * rng.pick([4, 6, 8]);
      const max = min + 10 * step;
      const k = rng.pick([1, 3, 5, 7, 9]);
      const v = min + k * step;
      if (v === 0) return undefined;
      const body = numberLineBody({ min, max, step, labelEvery: 2, points: [{ value: v, label: 'P' }] });
      const fig = svgFigure(500, 80, body, `Number line from ${min} to ${max} with ticks every ${step}; every other tick is labelled; point P is at ${v}.`);
      return mk({
        stem: 'What number does point P show on the number line?',
        figure: fig,
        answer: v,
        steps: [`The labels go up by ${2 * step} every two ticks, so each tick is ${step}`, `Point P is ${k} ticks to the right of ${min}: ${min} + ${k} × ${step} = ${v}`],
        hints: ['First find how much one tick is worth: look at two labels and count the spaces between them.', 'Count from the nearest label, and remember numbers left of 0 are negative.'],
        wrong: [
          [-v, 'ignores the negative side of the line'],
          [v - step + 1, 'counts each tick as 1'],
          [v + step, 'counts in the wrong direction'],
        ],
      });
    }
    const d = rng.pick([2, 3, 4, 5]);
    const w = rng.int(0, 2);
    const k = rng.int(1, d - 1);
    const value: Frac = frac(w * d + k, d);
    const body = numberLineBody({ min: 0, max: 3, step: 1 / d, labelEvery: d, points: [{ value: w + k / d, label: 'B' }] });
    const fig = svgFigure(500, 80, body, `Number line from 0 to 3; each whole is divided into ${d} equal parts; labels at 0, 1, 2 and 3; point B is ${k} part${k > 1 ? 's' : ''} after ${w}.`);
    const ans = mixedStr(value);
    return mk({
      stem: 'What number does point B show on the number line? Write it as a fraction or a mixed number.',
      figure: fig,
      answer: ans,
      accepted: [fStr(value)],
      asFrac: value,
      steps: [`From 0 to 1 there are ${d} equal spaces, so each space is $\\frac{1}{${d}}$`, `B is ${k} space${k > 1 ? 's' : ''} after ${w}`, `B = ${w} + ${k}/${d} = ${ans}`],
      hints: ['Count the spaces (not the tick marks) between two whole numbers.', 'Each space is one part of a whole: write how many parts past the whole number point B is.'],
      wrong: [
        [d > 2 ? mixedStr(frac(w * (d - 1) + k, d - 1)) : String(w + 1), 'counts the tick marks between the whole numbers instead of the spaces'],
        [fmt(w + k / 10), 'reads each tick as one tenth'],
        [mixedStr(frac(w * (d + 1) + k, d + 1)), 'counts the marks including both ends'],
      ],
    });
  },
});

// ---------- 5 Scatter plot ----------

function scatterFig(pts: [number, number][], xLabel: string, yLabel: string, xmax: number, ymax: number, stepY: number): Figure {
  const pl = plane({ xmin: 0, xmax, ymin: 0, ymax, stepY, unit: 26, xLabel, yLabel, axesAtEdge: true, labelEvery: 1 });
  const body = pl.body + pts.map(([x, y]) => dot(pl.X(x), pl.Y(y), 5)).join('');
  return svgFigure(pl.width, pl.height, body, `Scatter plot of ${yLabel.toLowerCase()} against ${xLabel.toLowerCase()}; points: ${pts.map(([x, y]) => `(${x}, ${y})`).join(', ')}.`);
}

export const scatterPlot = defineGenerator({
  skillId: 5,
  levels: ['Kind of correlation shown (positive, negative, none)', 'Read one point of a scatter plot', 'Count points meeting two conditions'],
  make(rng, level) {
    const xs = rng.shuffle([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).slice(0, 8).sort((a, b) => a - b);
    if (level === 1) {
      const kind = rng.pick(['positive', 'negative', 'none'] as const);
      const pts: [number, number][] = xs.map((x) => {
        const base = kind === 'positive' ? 10 * x + 10 : kind === 'negative' ? 110 - 10 * x : rng.int(2, 10) * 10;
        return [x, Math.max(0, Math.min(120, base + rng.pick([-10, 0, 0, 10])))];
      });
      if (kind === 'none') {
        const ys = pts.map((p) => p[1]);
        const mx = sum(xs) / xs.length;
        const my = sum(ys) / ys.length;
        const cov = sum(pts.map(([x, y]) => (x - mx) * (y - my)));
        const sx = Math.sqrt(sum(xs.map((x) => (x - mx) ** 2)));
        const sy = Math.sqrt(sum(ys.map((y) => (y - my) ** 2)));
        if (sy === 0 || Math.abs(cov / (sx * sy)) > 0.3) return undefined;
      }
      const fig = scatterFig(pts, 'Hours', 'Score', 11, 120, 20);
      const names = { positive: 'Positive correlation', negative: 'Negative correlation', none: 'No correlation' };
      return mkChoice(rng, {
        stem: 'What kind of correlation does the scatter plot show?',
        figure: fig,
        answer: names[kind],
        options: Object.values(names),
        keepOrder: true,
        steps: [kind === 'none' ? 'The points show no upward or downward trend' : `As the hours increase, the scores tend to ${kind === 'positive' ? 'increase' : 'decrease'}`, `So the plot shows: ${names[kind].toLowerCase()}`],
        hints: ['Look at the overall direction of the points from left to right.', 'Rising together means one kind, one rising while the other falls means another, no pattern means neither.'],
        wrong: Object.values(names)
          .filter((n) => n !== names[kind])
          .map((n): [string, string] => [n, kind === 'none' ? 'sees a trend in scattered points' : 'confuses the direction of the trend']),
      });
    }
    const pts: [number, number][] = xs.map((x) => [x, Math.min(100, Math.max(10, 10 * Math.round(4 + x / 2 + rng.int(-2, 2))))]);
    const fig = scatterFig(pts, 'Hours studied', 'Test score', 11, 100, 10);
    if (level === 2) {
      const [x, y] = rng.pick(pts);
      return mk({
        stem: `The scatter plot shows hours studied and test scores. What was the test score of the student who studied ${x} hours?`,
        figure: fig,
        answer: y,
        steps: [`Find ${x} on the horizontal axis and go straight up to the point`, `Read across to the vertical axis: ${y}`],
        hints: ['The horizontal axis shows hours; the vertical axis shows scores.', `Go up from ${x} hours to the point, then across to the score scale.`],
        wrong: [
          [x * 10, 'reads the hours on the score scale'],
          [pts.find(([px]) => px === x + 1)?.[1] ?? y + 10, 'reads the point of the next student'],
        ],
      });
    }
    const hx = rng.pick([3, 4, 5, 6]);
    const hy = rng.pick([60, 70]);
    const n = pts.filter(([x, y]) => x > hx && y > hy).length;
    return mk({
      stem: `The scatter plot shows hours studied and test scores. How many students studied more than ${hx} hours and scored more than ${hy}?`,
      figure: fig,
      answer: n,
      steps: [`Points with more than ${hx} hours: ${pts.filter(([x]) => x > hx).length}`, `Of those, scores above ${hy}: ${pts.filter(([x, y]) => x > hx && y > hy).map(([x, y]) => `(${x}, ${y})`).join(', ') || 'none'}`, `That is ${n} student${n === 1 ? '' : 's'}`],
      hints: ['Both conditions must hold for a point to count.', `Cover the part of the graph at ${hx} hours or less, then count the points above ${hy}.`],
      wrong: [
        [pts.filter(([x]) => x > hx).length, 'uses only the hours condition'],
        [pts.filter(([, y]) => y > hy).length, 'uses only the score condition'],
        [pts.filter(([x, y]) => x >= hx && y >= hy).length, 'counts points on the boundary too'],
      ],
    });
  },
});

// ---------- 6 Stem and leaf ----------

function stemLeaf(values: number[]): Figure {
  const s = [...values].sort((a, b) => a - b);
  const stems = [...new Set(s.map((v) => Math.floor(v / 10)))];
  const all: number[] = [];
  for (let t = stems[0]!; t <= stems[stems.length - 1]!; t++) all.push(t);
  const ex = s[0]!;
  return {
    kind: 'table',
    caption: `Key: ${Math.floor(ex / 10)} | ${ex % 10} means ${ex}`,
    header: ['Stem', 'Leaf'],
    rows: all.map((t) => [String(t), s.filter((v) => Math.floor(v / 10) === t).map((v) => v % 10).join(' ')]),
  };
}

export const stemAndLeaf = defineGenerator({
  skillId: 6,
  levels: ['Greatest or least value in a stem-and-leaf plot', 'How many values are above a number', 'Median of a stem-and-leaf plot'],
  make(rng, level) {
    const n = level === 3 ? rng.pick([9, 11, 12, 13]) : rng.int(8, 12);
    const lo = rng.int(1, 4) * 10;
    const values = Array.from({ length: n }, () => rng.int(lo, lo + 39));
    const s = [...values].sort((a, b) => a - b);
    const fig = stemLeaf(values);
    if (level === 1) {
      const greatest = rng.chance(0.5);
      const ans = greatest ? s[n - 1]! : s[0]!;
      return mk({
        stem: `The stem-and-leaf plot shows the ages of people at a party. What is the ${greatest ? 'greatest' : 'least'} age?`,
        figure: fig,
        answer: ans,
        steps: [`The ${greatest ? 'last stem and its last leaf' : 'first stem and its first leaf'}: ${Math.floor(ans / 10)} | ${ans % 10}`, `That stands for ${ans}`],
        hints: ['Each leaf is the ones digit; its stem is the tens digit.', `Look at the ${greatest ? 'bottom' : 'top'} row of the plot.`],
        wrong: [
          [Math.floor(ans / 10) + (ans % 10), 'adds the stem and the leaf'],
          [ans % 10, 'reads the leaf alone'],
          [greatest ? s[0]! : s[n - 1]!, `gives the ${greatest ? 'least' : 'greatest'} value instead`],
          [n, 'counts the leaves'],
        ],
      });
    }
    if (level === 2) {
      const cut = rng.int(lo + 8, lo + 30);
      const k = s.filter((v) => v > cut).length;
      if (k === 0 || s.includes(cut)) return undefined;
      return mk({
        stem: `The stem-and-leaf plot shows the ages of people at a party. How many people are older than ${cut}?`,
        figure: fig,
        answer: k,
        steps: [`Ages greater than ${cut}: ${s.filter((v) => v > cut).join(', ')}`, `Count them: ${k}`],
        hints: ['Read each leaf together with its stem to get an age.', `Start at the stem ${Math.floor(cut / 10)} and count every age above ${cut}.`],
        wrong: [
          [s.filter((v) => Math.floor(v / 10) > Math.floor(cut / 10)).length, 'counts only the rows below the stem, missing ages in the same row'],
          [n - k, 'counts the ages that are not above the number'],
          [s.filter((v) => v > cut).length + 1, 'counts one extra'],
        ],
      });
    }
    const m = n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
    return mk({
      stem: 'The stem-and-leaf plot shows the ages of people at a party. What is the median age?',
      figure: fig,
      answer: m,
      steps: [`There are ${n} ages, already in order: ${s.join(', ')}`, n % 2 ? `The middle one is age number ${(n + 1) / 2}: ${m}` : `The middle two are ${s[n / 2 - 1]} and ${s[n / 2]}: (${s[n / 2 - 1]} + ${s[n / 2]}) ÷ 2 = ${fmt(m)}`],
      hints: ['A stem-and-leaf plot lists the data in order, from the top row to the bottom.', 'Count all the leaves, then count to the middle one.'],
      wrong: [
        [fmt(Math.round((sum(values) / n) * 10) / 10), 'computes the mean'],
        [s[Math.floor(n / 2) + 1]!, 'miscounts the position of the middle'],
        [fig.kind === 'table' ? Number(fig.rows[Math.floor(fig.rows.length / 2)]![0]) * 10 : 0, 'picks the middle stem'],
      ],
    });
  },
});

// ---------- 7 Table ----------

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];

export const tableSkill = defineGenerator({
  skillId: 7,
  levels: ['Read one value from a two-way table', 'Difference or total across a table', 'Mean of a row of a table'],
  make(rng, level) {
    const items = rng.shuffle(['Muffins', 'Cookies', 'Bagels', 'Pies']).slice(0, 3);
    const data = items.map(() => DAYS.map(() => rng.int(4, 40)));
    if (level === 3) {
      const r = rng.int(0, 2);
      const row = data[r]!;
      const extra = (5 - (sum(row) % 5)) % 5;
      row[4]! += extra;
    }
    const fig: Figure = { kind: 'table', caption: 'Bakery sales', header: ['Item', ...DAYS], rows: items.map((it, i) => [it, ...data[i]!.map(String)]) };
    const r = rng.int(0, 2);
    const c = rng.int(0, 4);
    if (level === 1) {
      const v = data[r]![c]!;
      return mk({
        stem: `The table shows a bakery's sales. How many ${items[r]!.toLowerCase()} were sold on ${DAYS[c]}?`,
        figure: fig,
        answer: v,
        steps: [`Find the row for ${items[r]} and the column for ${DAYS[c]}`, `Where they meet: ${v}`],
        hints: ['Each row is one item; each column is one day.', 'Go along the right row until you reach the right column.'],
        wrong: [
          [data[(r + 1) % 3]![c]!, 'reads the wrong row'],
          [data[r]![(c + 1) % 5]!, 'reads the wrong column'],
          [sum(data[r]!), 'adds the whole row'],
        ],
      });
    }
    if (level === 2) {
      const r2 = (r + 1 + rng.int(0, 1)) % 3;
      const v = sum(data[r]!) - sum(data[r2]!);
      if (v <= 0) return undefined;
      return mk({
        stem: `The table shows a bakery's sales. For the whole week, how many more ${items[r]!.toLowerCase()} than ${items[r2]!.toLowerCase()} were sold?`,
        figure: fig,
        answer: v,
        steps: [`${items[r]}: ${data[r]!.join(' + ')} = ${sum(data[r]!)}`, `${items[r2]}: ${data[r2]!.join(' + ')} = ${sum(data[r2]!)}`, `Difference: ${sum(data[r]!)} - ${sum(data[r2]!)} = ${v}`],
        hints: ['Find each item\'s total for the week first.', 'Then subtract the smaller total from the larger one.'],
        wrong: [
          [sum(data[r]!) + sum(data[r2]!), 'adds the totals instead of subtracting'],
          [sum(data[r]!), 'gives one total only'],
          [data[r]![0]! - data[r2]![0]!, 'compares only Monday'],
        ],
      });
    }
    const row = data[r]!;
    const m = sum(row) / 5;
    return mk({
      stem: `The table shows a bakery's sales. What is the mean number of ${items[r]!.toLowerCase()} sold per day?`,
      figure: fig,
      answer: m,
      steps: [`Add the ${items[r]!.toLowerCase()} row: ${row.join(' + ')} = ${sum(row)}`, `Divide by 5 days: ${sum(row)} ÷ 5 = ${fmt(m)}`],
      hints: ['Use only the row for that item.', 'The mean is the total divided by the number of days.'],
      wrong: [
        [sum(row), 'forgets to divide'],
        [fmt([...row].sort((a, b) => a - b)[2]!), 'gives the median'],
        [fmt(Math.round((sum(data.map((d) => d[c]!)) / 3) * 10) / 10), 'averages a column instead of the row'],
      ],
    });
  },
});

// ---------- 8 Venn diagram ----------

function venn(a: string, b: string, onlyA: number, both: number, onlyB: number, neither: number | '?', hideBoth = false): Figure {
  const parts = [
    rect(10, 10, 380, 200, { rx: 8 }),
    circle(150, 115, 85, { fill: 'rgba(29,78,216,0.12)', stroke: PALETTE[0]! }),
    circle(250, 115, 85, { fill: 'rgba(217,119,6,0.12)', stroke: PALETTE[1]! }),
    text(110, 36, a, { 'font-weight': 'bold' }),
    text(290, 36, b, { 'font-weight': 'bold' }),
    text(115, 120, onlyA, { 'font-size': 18 }),
    text(200, 120, hideBoth ? '?' : both, { 'font-size': 18 }),
    text(285, 120, onlyB, { 'font-size': 18 }),
    text(360, 196, neither, { 'font-size': 16 }),
  ].join('');
  const alt = `Venn diagram of two overlapping circles, ${a} and ${b}, inside a rectangle: ${onlyA} in ${a} only, ${hideBoth ? 'an unknown number' : both} in both, ${onlyB} in ${b} only, ${neither === '?' ? 'an unknown number' : neither} outside both circles.`;
  return svgFigure(400, 220, parts, alt);
}

const VENN_TOPICS: [string, string, string][] = [
  ['Soccer', 'Music', 'students who play soccer, play music, or both'],
  ['Cats', 'Dogs', 'families who own cats, dogs, or both'],
  ['Math club', 'Art club', 'students in math club, art club, or both'],
];

export const vennDiagram = defineGenerator({
  skillId: 8,
  levels: ['Read the overlap of a Venn diagram', 'Total in one set (only + both) or in either set', 'Number outside both sets from the total'],
  make(rng, level) {
    const [a, b, desc] = rng.pick(VENN_TOPICS);
    const onlyA = rng.int(3, 20);
    const both = rng.int(2, 12);
    const onlyB = rng.int(3, 20);
    const neither = rng.int(1, 10);
    if (level === 1) {
      return mk({
        stem: `The Venn diagram shows ${desc}. How many are in both ${a} and ${b}?`,
        figure: venn(a, b, onlyA, both, onlyB, neither),
        answer: both,
        steps: ['Both groups means the region where the circles overlap', `The overlap shows ${both}`],
        hints: ['Each region of a Venn diagram stands for a different group.', 'Which region is inside both circles at once?'],
        wrong: [
          [onlyA + both + onlyB, 'counts everything inside the circles'],
          [onlyA, 'reads the part of one circle only'],
        ],
      });
    }
    if (level === 2) {
      const either = rng.chance(0.5);
      const ans = either ? onlyA + both + onlyB : onlyA + both;
      return mk({
        stem: either ? `The Venn diagram shows ${desc}. How many are in ${a} or ${b} (or both)?` : `The Venn diagram shows ${desc}. How many are in the ${a} group in all?`,
        figure: venn(a, b, onlyA, both, onlyB, neither),
        answer: ans,
        steps: either ? ['Everything inside either circle counts, the overlap once', `${onlyA} + ${both} + ${onlyB} = ${ans}`] : [`The whole ${a} circle counts, including the overlap`, `${onlyA} + ${both} = ${ans}`],
        hints: ['A circle includes its overlap with the other circle.', either ? 'Add every region inside the circles, counting the overlap only once.' : `Add all the regions inside the ${a} circle.`],
        wrong: either
          ? [
              [onlyA + 2 * both + onlyB, 'counts the overlap twice'],
              [onlyA + onlyB, 'leaves out the overlap'],
              [onlyA + both + onlyB + neither, 'includes those outside both circles'],
            ]
          : [
              [onlyA, 'forgets the overlap'],
              [onlyA + both + onlyB, 'adds the other circle too'],
            ],
      });
    }
    const total = onlyA + both + onlyB + neither;
    return mk({
      stem: `The Venn diagram shows ${desc}. There are ${total} in all. How many are in neither group?`,
      figure: venn(a, b, onlyA, both, onlyB, '?'),
      answer: neither,
      steps: [`Inside the circles: ${onlyA} + ${both} + ${onlyB} = ${onlyA + both + onlyB}`, `Neither: ${total} - ${onlyA + both + onlyB} = ${neither}`],
      hints: ['Everyone is somewhere in the rectangle: in a circle or outside both.', 'Subtract everyone inside the circles from the total.'],
      wrong: [
        [total - (onlyA + both) - (onlyB + both), 'subtracts the overlap twice'],
        [total - onlyA - onlyB, 'forgets to subtract the overlap'],
        [onlyA + both + onlyB, 'gives the number inside the circles'],
      ],
    });
  },
});

// ---------- 106 Interpreting coordinate graphs ----------

export const coordinateGraphs = defineGenerator({
  skillId: 106,
  levels: ['Read a distance at a given time from a distance–time graph', 'How long the traveller stopped (flat part of the graph)', 'Speed during one part of the trip (rise over run)'],
  make(rng, level) {
    // A walk: out, rest, further out, then back home. Times in minutes (multiples of 5), distance in hundreds of meters.
    const t1 = rng.pick([10, 15, 20]);
    const t2 = t1 + rng.pick([5, 10, 15]);
    const t3 = t2 + rng.pick([10, 15, 20]);
    const t4 = t3 + rng.pick([10, 15, 20]);
    const d1 = rng.int(4, 10) * 100;
    const d2 = d1 + rng.int(3, 8) * 100;
    if (t4 > 70 || d2 > 1800) return undefined;
    const pts: [number, number][] = [
      [0, 0],
      [t1, d1],
      [t2, d1],
      [t3, d2],
      [t4, 0],
    ];
    const pl = plane({ xmin: 0, xmax: 70, ymin: 0, ymax: 1800, stepX: 5, stepY: 100, unit: 18, xLabel: 'Time (minutes)', yLabel: 'Distance from home (m)', axesAtEdge: true, labelEvery: 2 });
    const body = pl.body + polyline(pts.map(([x, y]) => [pl.X(x), pl.Y(y)] as const)) + pts.map(([x, y]) => dot(pl.X(x), pl.Y(y), 4)).join('');
    const fig = svgFigure(pl.width, pl.height, body, `Line graph of Sam's distance from home (meters) against time (minutes), joining the points ${pts.map(([x, y]) => `(${x}, ${y})`).join(', ')}.`);
    if (level === 1) {
      const [t, d] = rng.pick(pts.slice(1, 4));
      return mk({
        stem: `The graph shows Sam's walk. How far from home, in meters, was Sam after ${t} minutes?`,
        figure: fig,
        answer: d,
        steps: [`Find ${t} minutes on the time axis and go up to the graph`, `Read across: ${d} m`],
        hints: ['Time is on the horizontal axis, distance on the vertical axis.', `Go up from ${t} minutes to the graph line, then across to the distance scale.`],
        wrong: [
          [t, 'gives the time instead of the distance'],
          [t * 10, 'reads the time on the distance scale'],
          [d / 100, 'reads the grid squares instead of the scale'],
        ],
      });
    }
    if (level === 2) {
      return mk({
        stem: "The graph shows Sam's walk. For how many minutes did Sam stop to rest?",
        figure: fig,
        answer: t2 - t1,
        steps: ['Resting means the distance does not change: the flat part of the graph', `It runs from ${t1} to ${t2} minutes: ${t2} - ${t1} = ${t2 - t1} minutes`],
        hints: ['When Sam is not moving, what happens to the distance from home?', 'Find the horizontal part of the graph and read the times at its ends.'],
        wrong: [
          [t2, 'gives the time the rest ended'],
          [t1, 'gives the time the rest started'],
          [t4 - t3, 'measures the trip home instead'],
        ],
      });
    }
    const seg = rng.pick([0, 2, 3]);
    const [xa, ya] = pts[seg]!;
    const [xb, yb] = pts[seg + 1]!;
    const speed = Math.abs(yb - ya) / (xb - xa);
    if (!Number.isInteger(speed * 10)) return undefined;
    const when = seg === 0 ? `the first ${t1} minutes` : seg === 2 ? `the time from ${t2} to ${t3} minutes` : `the walk home, from ${t3} to ${t4} minutes`;
    return mk({
      stem: `The graph shows Sam's walk. What was Sam's speed, in meters per minute, during ${when}?`,
      figure: fig,
      answer: speed,
      steps: [`Distance covered: from ${ya} m to ${yb} m is ${Math.abs(yb - ya)} m`, `Time taken: ${xb} - ${xa} = ${xb - xa} minutes`, `Speed = ${Math.abs(yb - ya)} ÷ ${xb - xa} = ${fmt(speed)} meters per minute`],
      hints: ['Speed is distance divided by time.', 'Read the change in distance and the change in time for that part of the graph.'],
      wrong: [
        [fmt(Math.round(((xb - xa) / Math.abs(yb - ya)) * 1000) / 1000), 'divides time by distance'],
        [fmt(Math.round((Math.max(ya, yb) / xb) * 10) / 10), 'divides a distance read off the graph by the time at the end'],
        [Math.abs(yb - ya), 'gives the distance only'],
      ],
    });
  },
});

export const DATA_DISPLAYS = [boxAndWhisker, circleGraph, histogramSkill, numberLine, scatterPlot, stemAndLeaf, tableSkill, vennDiagram, coordinateGraphs];
