/**
 * Measurement: unit conversion, circles, perimeter, reading a ruler, areas, surface areas and
 * volumes (skills 23, 25–28, 75–84). Circle items say "Use 3.14 for π" and are computed with
 * integer arithmetic, so the stated rounding is exact.
 */
import type { Figure } from '../types';
import { defineGenerator, fDecimal, fStr, fmt, frac, mixedStr, mk, roundTo, type Frac } from './util';
import { ACCENT, FILL, INK, circle, line, path, polygon, rect, sideLabel, svgFigure, text } from './svg';

// ---------- shape figures ----------

const dash = { 'stroke-dasharray': '5 4', 'stroke-width': 1.2 };

/** Fits a w×h drawing into roughly 300×180 px. */
const fit = (w: number, h: number) => Math.min(300 / w, 170 / h);

function rectFigure(w: number, h: number, unit: string, labels: { w?: string; h?: string } = {}): Figure {
  const k = fit(w, h);
  const W = w * k;
  const H = h * k;
  const x0 = 40;
  const y0 = 20;
  const body = [rect(x0, y0, W, H, { fill: FILL }), sideLabel(x0, y0 + H, x0 + W, y0 + H, labels.w ?? `${fmt(w)} ${unit}`, -16), sideLabel(x0 + W, y0 + H, x0 + W, y0, labels.h ?? `${fmt(h)} ${unit}`, -30)].join('');
  return svgFigure(Math.round(x0 + W + 80), Math.round(y0 + H + 40), body, `Rectangle, ${labels.w ?? `${fmt(w)} ${unit}`} wide and ${labels.h ?? `${fmt(h)} ${unit}`} tall.`);
}

function parallelogramFigure(b: number, h: number, slant: number, unit: string): Figure {
  const off = Math.sqrt(Math.max(slant * slant - h * h, 0.25 * h * h));
  const k = fit(b + off, h);
  const [B, H, O] = [b * k, h * k, off * k];
  const x0 = 30;
  const y0 = 20;
  const pts: [number, number][] = [
    [x0 + O, y0],
    [x0 + O + B, y0],
    [x0 + B, y0 + H],
    [x0, y0 + H],
  ];
  const body = [
    polygon(pts),
    line(x0 + O, y0, x0 + O, y0 + H, { ...dash, stroke: ACCENT }),
    rect(x0 + O, y0 + H - 10, 10, 10, { 'stroke-width': 1 }),
    text(x0 + O + 6, y0 + H / 2 + 4, `${fmt(h)} ${unit}`, { 'text-anchor': 'start', fill: ACCENT }),
    sideLabel(x0 + B, y0 + H, x0, y0 + H, `${fmt(b)} ${unit}`, 16),
    sideLabel(x0, y0 + H, x0 + O, y0, `${fmt(slant)} ${unit}`, 18),
  ].join('');
  return svgFigure(Math.round(x0 + O + B + 40), Math.round(y0 + H + 40), body, `Parallelogram with base ${fmt(b)} ${unit}, slanted side ${fmt(slant)} ${unit}, and height (dashed, perpendicular to the base) ${fmt(h)} ${unit}.`);
}

function triangleFigure(b: number, h: number, apexOffset: number, unit: string, side?: number): Figure {
  const k = fit(Math.max(b, apexOffset, b - apexOffset) + Math.abs(Math.min(apexOffset, 0)), h);
  const x0 = 30 + Math.max(0, -apexOffset * k);
  const y0 = 20;
  const A: [number, number] = [x0, y0 + h * k];
  const B: [number, number] = [x0 + b * k, y0 + h * k];
  const C: [number, number] = [x0 + apexOffset * k, y0];
  const parts = [polygon([A, B, C]), line(C[0], C[1], C[0], A[1], { ...dash, stroke: ACCENT })];
  if (apexOffset < 0 || apexOffset > b) parts.push(line(apexOffset < 0 ? C[0] : B[0], A[1], apexOffset < 0 ? A[0] : C[0], A[1], dash));
  parts.push(rect(apexOffset > b ? C[0] - 10 : C[0], A[1] - 10, 10, 10, { 'stroke-width': 1 }));
  parts.push(text(C[0] + 6, (C[1] + A[1]) / 2 + 4, `${fmt(h)} ${unit}`, { 'text-anchor': 'start', fill: ACCENT }));
  parts.push(sideLabel(B[0], B[1], A[0], A[1], `${fmt(b)} ${unit}`, 16));
  if (side !== undefined) parts.push(sideLabel(B[0], B[1], C[0], C[1], `${fmt(side)} ${unit}`, 16));
  const width = Math.max(A[0], B[0], C[0]) + 70;
  return svgFigure(Math.round(width), Math.round(A[1] + 40), parts.join(''), `Triangle with base ${fmt(b)} ${unit} and height (dashed) ${fmt(h)} ${unit}${side !== undefined ? `; another side is ${fmt(side)} ${unit}` : ''}.`);
}

function trapezoidFigure(b1: number, b2: number, h: number, unit: string): Figure {
  const k = fit(Math.max(b1, b2), h);
  const x0 = 30;
  const y0 = 20;
  const shift = ((b1 - b2) / 2) * k;
  const pts: [number, number][] = [
    [x0 + shift, y0],
    [x0 + shift + b2 * k, y0],
    [x0 + b1 * k, y0 + h * k],
    [x0, y0 + h * k],
  ];
  const body = [
    polygon(pts),
    line(x0 + shift, y0, x0 + shift, y0 + h * k, { ...dash, stroke: ACCENT }),
    text(x0 + shift + 6, y0 + (h * k) / 2 + 4, `${fmt(h)} ${unit}`, { 'text-anchor': 'start', fill: ACCENT }),
    sideLabel(pts[0]![0], y0, pts[1]![0], y0, `${fmt(b2)} ${unit}`, 10),
    sideLabel(x0 + b1 * k, y0 + h * k, x0, y0 + h * k, `${fmt(b1)} ${unit}`, 16),
  ].join('');
  return svgFigure(Math.round(x0 + b1 * k + 40), Math.round(y0 + h * k + 40), body, `Trapezoid with parallel sides ${fmt(b1)} ${unit} (bottom) and ${fmt(b2)} ${unit} (top), and height (dashed) ${fmt(h)} ${unit}.`);
}

function circleFigure(value: number, kind: 'radius' | 'diameter', unit: string): Figure {
  const cx = 110;
  const cy = 100;
  const r = 80;
  const parts = [circle(cx, cy, r, { fill: FILL }), circle(cx, cy, 3, { fill: INK })];
  if (kind === 'radius') parts.push(line(cx, cy, cx + r, cy, { stroke: ACCENT, 'stroke-width': 2 }), text(cx + r / 2, cy - 8, `${fmt(value)} ${unit}`, { fill: ACCENT }));
  else parts.push(line(cx - r, cy, cx + r, cy, { stroke: ACCENT, 'stroke-width': 2 }), text(cx, cy - 8, `${fmt(value)} ${unit}`, { fill: ACCENT }));
  return svgFigure(230, 200, parts.join(''), `Circle with ${kind} ${fmt(value)} ${unit} drawn ${kind === 'radius' ? 'from the center to the edge' : 'across through the center'}.`);
}

function cylinderFigure(value: number, kind: 'radius' | 'diameter', h: number, unit: string): Figure {
  const cx = 110;
  const rx = 70;
  const ry = 18;
  const top = 30;
  const H = 130;
  const parts = [
    path(`M${cx - rx},${top} L${cx - rx},${top + H} A${rx},${ry} 0 0 0 ${cx + rx},${top + H} L${cx + rx},${top}`, { fill: FILL }),
    `<ellipse cx="${cx}" cy="${top}" rx="${rx}" ry="${ry}" fill="${FILL}" stroke="${INK}" stroke-width="1.5"/>`,
    path(`M${cx - rx},${top + H} A${rx},${ry} 0 0 1 ${cx + rx},${top + H}`, dash),
    kind === 'radius' ? line(cx, top, cx + rx, top, { stroke: ACCENT, 'stroke-width': 2 }) : line(cx - rx, top, cx + rx, top, { stroke: ACCENT, 'stroke-width': 2 }),
    text(kind === 'radius' ? cx + rx / 2 : cx, top - 6, `${fmt(value)} ${unit}`, { fill: ACCENT }),
    line(cx + rx + 14, top, cx + rx + 14, top + H, { 'stroke-width': 1 }),
    text(cx + rx + 20, top + H / 2 + 4, `${fmt(h)} ${unit}`, { 'text-anchor': 'start' }),
  ];
  return svgFigure(260, 190, parts.join(''), `Cylinder with ${kind} ${fmt(value)} ${unit} and height ${fmt(h)} ${unit}.`);
}

function boxFigure(l: number, w: number, h: number, unit: string, open = false): Figure {
  const k = Math.min(170 / (l + w * 0.5), 120 / (h + w * 0.5));
  const L = l * k;
  const H = h * k;
  const D = w * k * 0.5;
  const x0 = 30;
  const y0 = 20 + D;
  const front: [number, number][] = [
    [x0, y0],
    [x0 + L, y0],
    [x0 + L, y0 + H],
    [x0, y0 + H],
  ];
  const topFace: [number, number][] = [
    [x0, y0],
    [x0 + D, y0 - D],
    [x0 + L + D, y0 - D],
    [x0 + L, y0],
  ];
  const side: [number, number][] = [
    [x0 + L, y0],
    [x0 + L + D, y0 - D],
    [x0 + L + D, y0 + H - D],
    [x0 + L, y0 + H],
  ];
  const body = [
    polygon(front),
    polygon(topFace, { fill: open ? '#ffffff' : '#bfdbfe' }),
    polygon(side, { fill: '#93c5fd' }),
    sideLabel(x0 + L, y0 + H, x0, y0 + H, `${fmt(l)} ${unit}`, 16),
    text(x0 + L + D + 8, y0 + H / 2 - D / 2 + 4, `${fmt(h)} ${unit}`, { 'text-anchor': 'start' }),
    text(x0 + L + D / 2 + 8, y0 + H - D / 2 + 16, `${fmt(w)} ${unit}`, { 'text-anchor': 'start' }),
  ].join('');
  return svgFigure(Math.round(x0 + L + D + 80), Math.round(y0 + H + 40), body, `${open ? 'Open box (no top) shaped like a rectangular prism' : 'Rectangular prism'}: length ${fmt(l)} ${unit}, width ${fmt(w)} ${unit}, height ${fmt(h)} ${unit}.`);
}

// ---------- 3.14 arithmetic in hundredths ----------

/** 3.14 × n where n is given in units of 1/q (q = 1, 2, 4, …): returns the exact decimal. */
const times314 = (n: number) => Number(((314 * Math.round(n * 10000)) / 1000000).toFixed(6));
/** Exact rounding to `places` of a value that is a multiple of 10^-6. */
const round6 = (v: number, places: number) => {
  const micro = Math.round(v * 1e6);
  const f = 10 ** (6 - places);
  return Math.round(micro / f) / 10 ** places;
};
const PI_NOTE = 'Use 3.14 for $\\pi$.';

interface Unit {
  a: string;
  name: string;
}
const LENGTH_UNITS: Unit[] = [
  { a: 'cm', name: 'centimeters' },
  { a: 'm', name: 'meters' },
  { a: 'in', name: 'inches' },
  { a: 'ft', name: 'feet' },
  { a: 'mm', name: 'millimeters' },
];

// ---------- 23 Unit conversion ----------

interface Conv {
  big: string;
  small: string;
  f: number;
}
const CONVS: Conv[] = [
  { big: 'feet', small: 'inches', f: 12 },
  { big: 'yards', small: 'feet', f: 3 },
  { big: 'meters', small: 'centimeters', f: 100 },
  { big: 'kilometers', small: 'meters', f: 1000 },
  { big: 'centimeters', small: 'millimeters', f: 10 },
  { big: 'pounds', small: 'ounces', f: 16 },
  { big: 'kilograms', small: 'grams', f: 1000 },
  { big: 'gallons', small: 'quarts', f: 4 },
  { big: 'liters', small: 'milliliters', f: 1000 },
  { big: 'hours', small: 'minutes', f: 60 },
  { big: 'minutes', small: 'seconds', f: 60 },
  { big: 'days', small: 'hours', f: 24 },
  { big: 'weeks', small: 'days', f: 7 },
];
const CHAINS: [Conv, Conv][] = [
  [CONVS[1]!, CONVS[0]!],
  [CONVS[9]!, CONVS[10]!],
  [CONVS[3]!, CONVS[2]!],
  [CONVS[11]!, CONVS[9]!],
  [CONVS[7]!, { big: 'quarts', small: 'pints', f: 2 }],
];

export const unitConversion = defineGenerator({
  skillId: 23,
  levels: ['Larger unit to smaller unit (multiply)', 'Smaller unit to larger unit (divide; decimal answers)', 'Two-step conversions (e.g. yards to inches, hours to seconds)'],
  make(rng, level) {
    if (level === 1) {
      const c = rng.pick(CONVS);
      const n = rng.int(2, 12);
      return mk({
        stem: `How many ${c.small} are in ${n} ${c.big}?`,
        answer: n * c.f,
        steps: [`1 ${c.big.replace(/s$/, '').replace(/fee$/, 'foot')} = ${c.f} ${c.small}`, `${n} × ${c.f} = ${n * c.f} ${c.small}`],
        hints: [`How many ${c.small} make one of the larger unit?`, 'Going from a larger unit to a smaller one gives more units: multiply.'],
        wrong: [
          [fmt(roundTo(n / c.f, 3)), 'divides instead of multiplying'],
          [n + c.f, 'adds the conversion factor'],
        ],
      });
    }
    if (level === 2) {
      const c = rng.pick(CONVS.filter((x) => x.f <= 100));
      const big = rng.int(2, 12) + rng.pick([0.5, 0.25, 0.75]);
      const small = big * c.f;
      if (!Number.isInteger(small)) return undefined;
      return mk({
        stem: `Convert ${fmt(small)} ${c.small} to ${c.big}.`,
        answer: fmt(big),
        steps: [`${c.f} ${c.small} = 1 of the larger unit`, `${fmt(small)} ÷ ${c.f} = ${fmt(big)} ${c.big}`],
        hints: [`How many ${c.small} make one of the larger unit?`, 'Going from a smaller unit to a larger one gives fewer units: divide.'],
        wrong: [
          [small * c.f, 'multiplies instead of dividing'],
          [Math.floor(big), 'drops the remainder'],
          [fmt(Math.floor(big) + (small - Math.floor(big) * c.f) / 10), 'writes the leftover smaller units as a decimal'],
        ],
      });
    }
    const [c1, c2] = rng.pick(CHAINS);
    const n = rng.int(2, 9);
    const mid = n * c1.f;
    const out = mid * c2.f;
    return mk({
      stem: `How many ${c2.small} are in ${n} ${c1.big}?`,
      answer: out,
      steps: [`${n} ${c1.big} = ${n} × ${c1.f} = ${mid} ${c1.small}`, `${mid} ${c1.small} = ${mid} × ${c2.f} = ${out} ${c2.small}`],
      hints: [`Go through an in-between unit: ${c1.big} → ${c1.small} → ${c2.small}.`, 'Multiply by each conversion factor in turn.'],
      wrong: [
        [mid, `stops at ${c1.small}`],
        [n * c2.f, 'uses only the second conversion factor'],
        [n * (c1.f + c2.f), 'adds the conversion factors'],
      ],
    });
  },
});

// ---------- 25 Area of a circle, 26 circumference ----------

export const areaCircle = defineGenerator({
  skillId: 25,
  levels: ['Area from the radius (3.14)', 'Area from the diameter, rounded to the nearest tenth', 'Area from the circumference'],
  make(rng, level) {
    const U = rng.pick(LENGTH_UNITS);
    if (level === 1) {
      const r = rng.int(1, 20);
      const a = times314(r * r);
      return mk({
        stem: `A circle has a radius of ${r} ${U.a}. What is its area in square ${U.name}? ${PI_NOTE}`,
        figure: circleFigure(r, 'radius', U.a),
        answer: a,
        steps: ['$A = \\pi r^2$', `A = 3.14 × ${r}^2 = 3.14 × ${r * r} = ${fmt(a)} ${U.a}²`],
        hints: ['The area of a circle is π times the radius squared.', 'Square the radius first, then multiply by 3.14.'],
        wrong: [
          [times314(2 * r), 'computes the circumference'],
          [times314(r), 'forgets to square the radius'],
          [times314((2 * r) ** 2), 'uses the diameter as the radius'],
        ],
      });
    }
    if (level === 2) {
      const d = rng.int(3, 40);
      const exact = times314((d * d) / 4);
      const a = round6(exact, 1);
      if (Math.abs(exact - a) < 1e-9) return undefined;
      return mk({
        stem: `A circle has a diameter of ${d} ${U.a}. What is its area in square ${U.name}? ${PI_NOTE} Round to the nearest tenth.`,
        figure: circleFigure(d, 'diameter', U.a),
        answer: a,
        steps: [`The radius is half the diameter: ${d} ÷ 2 = ${fmt(d / 2)} ${U.a}`, `A = 3.14 × ${fmt(d / 2)}^2 = 3.14 × ${fmt((d * d) / 4)} = ${fmt(exact)}`, `Rounded: ${fmt(a)} ${U.a}²`],
        hints: ['The formula uses the radius, not the diameter.', 'Halve the diameter, square it, multiply by 3.14, then round.'],
        wrong: [
          [round6(times314(d * d), 1), 'uses the diameter in place of the radius'],
          [round6(times314(d), 1), 'computes the circumference'],
          [round6(times314(d / 2), 1), 'forgets to square the radius'],
        ],
      });
    }
    const r = rng.int(2, 15);
    const c = times314(2 * r);
    const a = times314(r * r);
    return mk({
      stem: `The circumference of a circle is ${fmt(c)} ${U.name}. What is its area in square ${U.name}? ${PI_NOTE}`,
      answer: a,
      steps: [`C = 2πr, so r = ${fmt(c)} ÷ (2 × 3.14) = ${fmt(c)} ÷ 6.28 = ${r}`, `A = 3.14 × ${r}^2 = ${fmt(a)} ${U.a}²`],
      hints: ['First use the circumference to find the radius.', 'C = 2 × 3.14 × r; then use A = 3.14 × r².'],
      wrong: [
        [times314(4 * r * r), 'finds the diameter and uses it as the radius'],
        [fmt(roundTo(c * c, 2)), 'squares the circumference'],
        [times314(r), 'forgets to square the radius'],
      ],
    });
  },
});

export const circumference = defineGenerator({
  skillId: 26,
  levels: ['Circumference from the diameter (3.14)', 'Circumference from the radius', 'Perimeter of a semicircle (curved part plus diameter)'],
  make(rng, level) {
    const U = rng.pick(LENGTH_UNITS);
    if (level === 1) {
      const d = rng.int(2, 50);
      const c = times314(d);
      return mk({
        stem: `A circle has a diameter of ${d} ${U.a}. What is its circumference in ${U.name}? ${PI_NOTE}`,
        figure: circleFigure(d, 'diameter', U.a),
        answer: c,
        steps: ['$C = \\pi d$', `C = 3.14 × ${d} = ${fmt(c)} ${U.a}`],
        hints: ['The circumference is the distance around the circle.', 'Multiply the diameter by π.'],
        wrong: [
          [times314(2 * d), 'doubles the diameter as if it were the radius'],
          [times314((d * d) / 4), 'computes the area'],
        ],
      });
    }
    if (level === 2) {
      const r = rng.int(2, 25);
      const c = times314(2 * r);
      return mk({
        stem: `A circle has a radius of ${r} ${U.a}. What is its circumference in ${U.name}? ${PI_NOTE}`,
        figure: circleFigure(r, 'radius', U.a),
        answer: c,
        steps: ['$C = 2\\pi r$', `C = 2 × 3.14 × ${r} = ${fmt(c)} ${U.a}`],
        hints: ['The diameter is twice the radius.', 'Use C = 2πr (or π times the diameter).'],
        wrong: [
          [times314(r), 'multiplies π by the radius instead of the diameter'],
          [times314(r * r), 'computes the area'],
        ],
      });
    }
    const d = rng.int(4, 30);
    const arc = times314(d / 2);
    const p = Number((arc + d).toFixed(4));
    return mk({
      stem: `A semicircle has a diameter of ${d} ${U.a}. What is its perimeter (the curved part plus the straight side) in ${U.name}? ${PI_NOTE}`,
      answer: p,
      steps: [`Half the circumference: 3.14 × ${d} ÷ 2 = ${fmt(arc)}`, `Add the diameter: ${fmt(arc)} + ${d} = ${fmt(p)} ${U.a}`],
      hints: ['The curved part is half of a full circle\'s circumference.', 'Do not forget the straight edge.'],
      wrong: [
        [arc, 'forgets the straight side'],
        [times314(d), 'uses the full circumference'],
        [Number((times314(d) + d).toFixed(4)), 'uses the full circumference and adds the diameter'],
      ],
    });
  },
});

// ---------- 27 Perimeter ----------

export const perimeter = defineGenerator({
  skillId: 27,
  levels: ['Perimeter of a rectangle', 'Perimeter of a regular polygon or a triangle', 'Perimeter of an L-shaped figure with unlabelled sides'],
  make(rng, level) {
    if (level === 1) {
      const l = rng.int(3, 20);
      const w = rng.int(2, 15);
      if (l === w) return undefined;
      return mk({
        stem: `What is the perimeter of a rectangle ${l} cm long and ${w} cm wide?`,
        figure: rectFigure(l, w, 'cm'),
        answer: 2 * (l + w),
        steps: ['A rectangle has two lengths and two widths', `2 × ${l} + 2 × ${w} = ${2 * (l + w)} cm`],
        hints: ['Perimeter is the distance all the way around.', 'Add all four sides: opposite sides are equal.'],
        wrong: [
          [l + w, 'adds only two sides'],
          [l * w, 'computes the area'],
        ],
      });
    }
    if (level === 2) {
      if (rng.chance(0.5)) {
        const n = rng.pick([5, 6, 8, 10]);
        const s = rng.int(3, 25) / (rng.chance(0.3) ? 2 : 1);
        const names: Record<number, string> = { 5: 'pentagon', 6: 'hexagon', 8: 'octagon', 10: 'decagon' };
        return mk({
          stem: `A regular ${names[n]} has sides of ${fmt(s)} inches. What is its perimeter in inches?`,
          answer: fmt(n * s),
          steps: [`A regular ${names[n]} has ${n} equal sides`, `${n} × ${fmt(s)} = ${fmt(n * s)} in`],
          hints: ['Regular means all sides are the same length.', 'How many sides does the polygon have?'],
          wrong: [
            [fmt((n - 1) * s), 'counts one side too few'],
            [fmt(s * 4), 'uses four sides'],
          ],
        });
      }
      const a = rng.int(3, 20) + rng.pick([0, 0.5]);
      const b = rng.int(3, 20);
      const c = rng.int(Math.ceil(Math.abs(a - b)) + 1, Math.floor(a + b) - 1);
      return mk({
        stem: `A triangle has sides of ${fmt(a)} m, ${b} m and ${c} m. What is its perimeter in meters?`,
        answer: fmt(a + b + c),
        steps: ['Add the three sides', `${fmt(a)} + ${b} + ${c} = ${fmt(a + b + c)} m`],
        hints: ['The perimeter is the total length of the sides.', 'Add all three side lengths.'],
        wrong: [
          [fmt(a + b), 'adds only two sides'],
          [fmt((a * b) / 2), 'computes something like an area'],
        ],
      });
    }
    // L-shape: big W×H rectangle with a w×h corner removed (top right).
    const W = rng.int(6, 14);
    const H = rng.int(6, 12);
    const cw = rng.int(2, W - 3);
    const ch = rng.int(2, H - 3);
    const k = fit(W, H);
    const x0 = 40;
    const y0 = 20;
    const X = (v: number) => x0 + v * k;
    const Y = (v: number) => y0 + (H - v) * k;
    const pts: [number, number][] = [
      [0, 0],
      [W, 0],
      [W, H - ch],
      [W - cw, H - ch],
      [W - cw, H],
      [0, H],
    ];
    const body = [
      polygon(pts.map(([x, y]) => [X(x), Y(y)] as [number, number])),
      sideLabel(X(W), Y(0), X(0), Y(0), `${W} ft`, 16),
      sideLabel(X(0), Y(0), X(0), Y(H), `${H} ft`, 18),
      sideLabel(X(0), Y(H), X(W - cw), Y(H), `${W - cw} ft`, 12),
      sideLabel(X(W), Y(H - ch), X(W), Y(0), `${H - ch} ft`, 24),
    ].join('');
    const fig = svgFigure(Math.round(X(W) + 60), Math.round(Y(0) + 40), body, `L-shaped figure made from a ${W} ft by ${H} ft rectangle with a corner cut out: bottom ${W} ft, left side ${H} ft, top ${W - cw} ft, right side ${H - ch} ft; the two sides of the notch are not labelled.`);
    const p = 2 * (W + H);
    return mk({
      stem: 'What is the perimeter of the figure, in feet? All corners are right angles.',
      figure: fig,
      answer: p,
      steps: [`The missing horizontal side: ${W} - ${W - cw} = ${cw} ft; the missing vertical side: ${H} - ${H - ch} = ${ch} ft`, `${W} + ${H - ch} + ${cw} + ${ch} + ${W - cw} + ${H} = ${p} ft`],
      hints: ['Find the two unlabelled sides first: the horizontal sides at the top must add up to the bottom side.', 'Then add all six sides.'],
      wrong: [
        [W + H + (W - cw) + (H - ch), 'adds only the labelled sides'],
        [W * H - cw * ch, 'computes the area'],
        [p - cw - ch, 'leaves out the notch'],
      ],
    });
  },
});

// ---------- 28 Reading a ruler ----------

function rulerFigure(den: number, start: Frac, end: Frac): Figure {
  const x = (v: number) => 30 + v * 70;
  const y = 90;
  const parts = [rect(20, y - 6, 460, 56, { fill: '#fef9c3', stroke: INK })];
  for (let i = 0; i <= 6 * 8; i++) {
    const v = i / 8;
    if (i % (8 / den) !== 0) continue;
    const len = i % 8 === 0 ? 26 : i % 4 === 0 ? 18 : i % 2 === 0 ? 13 : 8;
    parts.push(line(x(v), y - 6, x(v), y - 6 + len, { 'stroke-width': i % 8 === 0 ? 1.8 : 1.2 }));
    if (i % 8 === 0) parts.push(text(x(v), y + 36, i / 8));
  }
  parts.push(text(470, y + 44, 'in', { 'font-size': 11 }));
  const s = start[0] / start[1];
  const e = end[0] / end[1];
  parts.push(rect(x(s), y - 44, x(e) - x(s), 24, { fill: ACCENT, stroke: ACCENT, rx: 3 }));
  parts.push(line(x(s), y - 20, x(s), y - 6, { ...dash, stroke: ACCENT }), line(x(e), y - 20, x(e), y - 6, { ...dash, stroke: ACCENT }));
  const alt = `Inch ruler from 0 to 6 marked in ${den === 2 ? 'halves' : den === 4 ? 'quarters' : 'eighths'} of an inch; a bar starts at ${mixedStr(start)} in and ends at ${mixedStr(end)} in.`;
  return svgFigure(500, 150, parts.join(''), alt);
}

export const readingRuler = defineGenerator({
  skillId: 28,
  levels: ['Length to the nearest half inch (starting at 0 or a whole inch)', 'Length to the nearest quarter inch (starting at 0 or a whole inch)', 'Length to the nearest eighth inch, starting between inch marks'],
  make(rng, level) {
    const den = level === 1 ? 2 : level === 2 ? 4 : 8;
    const startN = level === 3 ? rng.int(1, 12) : 8 * rng.pick([0, 0, 1, 2, 3]);
    const lenN = rng.int(level === 1 ? 1 : den + 1, level === 1 ? 11 : 4 * den);
    const start = frac(startN, 8);
    const end = frac(startN * (den / 8) + lenN, den);
    const endV = end[0] / end[1];
    if (endV > 6 || (level === 3 && lenN % 2 === 0) || (level === 2 && lenN % 2 === 0) || (level === 1 && lenN % 2 === 0)) return undefined;
    const len = frac(lenN, den);
    const fig = rulerFigure(level === 3 ? 8 : den, start, end);
    const dec = fDecimal(len);
    return mk({
      stem: startN > 0 ? 'How long is the bar, in inches? (It does not start at 0.)' : 'How long is the bar, in inches?',
      figure: fig,
      answer: mixedStr(len),
      accepted: [fStr(len), ...(dec ? [dec] : [])],
      asFrac: len,
      steps: [
        `Each inch is divided into ${den} equal parts, so each small space is 1/${den} inch`,
        ...(startN > 0 ? [`The bar starts at ${mixedStr(start)} in and ends at ${mixedStr(end)} in`, `${mixedStr(end)} - ${mixedStr(start)} = ${mixedStr(len)} in`] : [`The bar ends ${Math.floor(lenN / den)} whole inch${Math.floor(lenN / den) === 1 ? '' : 'es'} and ${lenN % den} part${lenN % den === 1 ? '' : 's'} past 0: ${mixedStr(len)} in`]),
      ],
      hints: ['Count how many spaces there are between two inch marks to know what each small space is worth.', startN > 0 ? 'Read where the bar starts and where it ends, then subtract.' : 'Count the whole inches, then the extra small spaces.'],
      wrong: [
        [fmt(Math.floor(lenN / den) + (lenN % den) / 10), 'reads each small space as a tenth of an inch'],
        ...(startN > 0 ? [[mixedStr(end), 'reads where the bar ends without subtracting the start'] as [string, string]] : []),
        [mixedStr(frac(lenN, den * 2)), 'counts each space as a smaller fraction than it is'],
      ],
    });
  },
});

// ---------- 75–79 Areas ----------

export const areaIrregular = defineGenerator({
  skillId: 75,
  levels: ['Area of an L-shaped figure (two rectangles)', 'Area of a rectangle with a triangle on top', 'Area of a rectangle with a semicircle on one end (3.14)'],
  make(rng, level) {
    const x0 = 40;
    const y0 = 20;
    if (level === 1) {
      const W = rng.int(6, 14);
      const H = rng.int(6, 12);
      const cw = rng.int(2, W - 3);
      const ch = rng.int(2, H - 3);
      const k = fit(W, H);
      const X = (v: number) => x0 + v * k;
      const Y = (v: number) => y0 + (H - v) * k;
      const pts: [number, number][] = [
        [0, 0],
        [W, 0],
        [W, H - ch],
        [W - cw, H - ch],
        [W - cw, H],
        [0, H],
      ];
      const body = [
        polygon(pts.map(([x, y]) => [X(x), Y(y)] as [number, number])),
        sideLabel(X(W), Y(0), X(0), Y(0), `${W} m`, 16),
        sideLabel(X(0), Y(0), X(0), Y(H), `${H} m`, 18),
        sideLabel(X(0), Y(H), X(W - cw), Y(H), `${W - cw} m`, 12),
        sideLabel(X(W), Y(H - ch), X(W), Y(0), `${H - ch} m`, 24),
      ].join('');
      const fig = svgFigure(Math.round(X(W) + 60), Math.round(Y(0) + 40), body, `L-shaped figure: bottom ${W} m, left side ${H} m, top ${W - cw} m, right side ${H - ch} m; all corners are right angles.`);
      const area = W * H - cw * ch;
      return mk({
        stem: 'What is the area of the figure, in square meters? All corners are right angles.',
        figure: fig,
        answer: area,
        steps: [`Split it into two rectangles: ${W - cw} × ${H} = ${(W - cw) * H} and ${cw} × ${H - ch} = ${cw * (H - ch)}`, `${(W - cw) * H} + ${cw * (H - ch)} = ${area} m²`],
        hints: ['Cut the figure into two rectangles.', 'Find any missing side lengths from the ones you know, then add the two areas.'],
        wrong: [
          [W * H, 'uses the full rectangle without removing the corner'],
          [2 * (W + H), 'computes the perimeter'],
          [(W - cw) * H + W * (H - ch), 'counts the overlapping part twice'],
        ],
      });
    }
    if (level === 2) {
      const W = rng.int(4, 12) * 2;
      const H = rng.int(3, 10);
      const T = rng.int(2, 8);
      const k = fit(W, H + T);
      const X = (v: number) => x0 + v * k;
      const Y = (v: number) => y0 + (H + T - v) * k;
      const body = [
        polygon([
          [X(0), Y(0)],
          [X(W), Y(0)],
          [X(W), Y(H)],
          [X(W / 2), Y(H + T)],
          [X(0), Y(H)],
        ]),
        line(X(0), Y(H), X(W), Y(H), dash),
        line(X(W / 2), Y(H + T), X(W / 2), Y(H), { ...dash, stroke: ACCENT }),
        text(X(W / 2) + 6, (Y(H + T) + Y(H)) / 2 + 4, `${T} cm`, { 'text-anchor': 'start', fill: ACCENT }),
        sideLabel(X(W), Y(0), X(0), Y(0), `${W} cm`, 16),
        sideLabel(X(0), Y(0), X(0), Y(H), `${H} cm`, 18),
      ].join('');
      const fig = svgFigure(Math.round(X(W) + 50), Math.round(Y(0) + 40), body, `House-shaped figure: a rectangle ${W} cm wide and ${H} cm tall with a triangle on top whose base is the top of the rectangle and whose height is ${T} cm.`);
      const area = W * H + (W * T) / 2;
      return mk({
        stem: 'The figure is a rectangle with a triangle on top. What is its total area, in square centimeters?',
        figure: fig,
        answer: area,
        steps: [`Rectangle: ${W} × ${H} = ${W * H}`, `Triangle: ½ × ${W} × ${T} = ${(W * T) / 2}`, `Total: ${W * H} + ${(W * T) / 2} = ${area} cm²`],
        hints: ['Split the figure into a rectangle and a triangle.', 'The triangle\'s area is half of base × height; its base is the width of the rectangle.'],
        wrong: [
          [W * H + W * T, 'forgets the ½ in the triangle formula'],
          [W * (H + T), 'treats the whole figure as a rectangle'],
          [W * H, 'leaves out the triangle'],
        ],
      });
    }
    const L = rng.int(6, 16);
    const D = rng.int(2, 6) * 2;
    const k = fit(L + D / 2, D);
    const X = (v: number) => x0 + v * k;
    const Y = (v: number) => y0 + v * k;
    const body = [
      path(`M${X(0)},${Y(0)} L${X(L)},${Y(0)} A${(D / 2) * k},${(D / 2) * k} 0 0 1 ${X(L)},${Y(D)} L${X(0)},${Y(D)} Z`, { fill: FILL }),
      line(X(L), Y(0), X(L), Y(D), dash),
      sideLabel(X(0), Y(0), X(L), Y(0), `${L} in`, 12),
      sideLabel(X(0), Y(D), X(0), Y(0), `${D} in`, 24),
    ].join('');
    const fig = svgFigure(Math.round(X(L + D / 2) + 30), Math.round(Y(D) + 30), body, `Figure made of a rectangle ${L} in long and ${D} in wide with a semicircle on its right end; the semicircle's diameter is the ${D} in side.`);
    const semi = times314((D * D) / 8);
    const area = Number((L * D + semi).toFixed(4));
    return mk({
      stem: `The figure is a rectangle with a semicircle on one end. What is its area, in square inches? ${PI_NOTE}`,
      figure: fig,
      answer: area,
      steps: [`Rectangle: ${L} × ${D} = ${L * D}`, `Semicircle: radius ${D / 2}, area ½ × 3.14 × ${D / 2}^2 = ${fmt(semi)}`, `Total: ${L * D} + ${fmt(semi)} = ${fmt(area)} in²`],
      hints: ['Split the figure into a rectangle and half a circle.', 'The semicircle\'s diameter is the short side of the rectangle; use its radius in ½πr².'],
      wrong: [
        [Number((L * D + times314((D * D) / 4)).toFixed(4)), 'adds a whole circle instead of half'],
        [Number((L * D + times314((D * D) / 2)).toFixed(4)), 'uses the diameter as the radius'],
        [L * D, 'leaves out the semicircle'],
      ],
    });
  },
});

export const areaParallelogram = defineGenerator({
  skillId: 76,
  levels: ['Base × height (whole numbers; the slanted side is a distractor)', 'Base × height with decimals', 'Missing height or base from the area'],
  make(rng, level) {
    const b = level === 2 ? rng.int(21, 150) / 10 : rng.int(4, 16);
    const h = level === 2 ? rng.int(2, 12) : rng.int(3, 12);
    const slant = Math.round(h + rng.int(1, 4));
    const area = Number((b * h).toFixed(2));
    if (level < 3) {
      return mk({
        stem: 'What is the area of the parallelogram, in square centimeters?',
        figure: parallelogramFigure(b, h, slant, 'cm'),
        answer: area,
        steps: ['Area of a parallelogram = base × height (the height is perpendicular to the base)', `${fmt(b)} × ${h} = ${fmt(area)} cm²`],
        hints: ['Use the height that makes a right angle with the base, not the slanted side.', 'Multiply the base by the height.'],
        wrong: [
          [Number((b * slant).toFixed(2)), 'multiplies by the slanted side'],
          [Number(((b * h) / 2).toFixed(2)), 'halves the product, as for a triangle'],
          [Number((2 * (b + slant)).toFixed(2)), 'computes the perimeter'],
        ],
      });
    }
    const findH = rng.chance(0.5);
    return mk({
      stem: findH ? `A parallelogram has an area of ${fmt(area)} cm² and a base of ${fmt(b)} cm. What is its height, in cm?` : `A parallelogram has an area of ${fmt(area)} cm² and a height of ${h} cm. What is its base, in cm?`,
      answer: findH ? h : fmt(b),
      steps: ['Area = base × height', findH ? `height = ${fmt(area)} ÷ ${fmt(b)} = ${h} cm` : `base = ${fmt(area)} ÷ ${h} = ${fmt(b)} cm`],
      hints: ['Write the area formula and put in the numbers you know.', 'Undo the multiplication: divide the area by the known length.'],
      wrong: [
        [Number((area * (findH ? b : h)).toFixed(2)), 'multiplies instead of dividing'],
        [Number(((2 * area) / (findH ? b : h)).toFixed(2)), 'uses the triangle formula'],
      ],
    });
  },
});

export const areaRectangle = defineGenerator({
  skillId: 77,
  levels: ['Length × width (whole numbers)', 'Length × width with a decimal or fraction', 'Missing side from the area, or a square from its perimeter'],
  make(rng, level) {
    if (level === 1) {
      const l = rng.int(3, 25);
      const w = rng.int(2, 15);
      if (l === w) return undefined;
      return mk({
        stem: `What is the area of a rectangle ${l} ft long and ${w} ft wide, in square feet?`,
        figure: rectFigure(l, w, 'ft'),
        answer: l * w,
        steps: ['Area = length × width', `${l} × ${w} = ${l * w} ft²`],
        hints: ['Area counts the unit squares that cover the rectangle.', 'Multiply the length by the width.'],
        wrong: [
          [2 * (l + w), 'computes the perimeter'],
          [l + w, 'adds the sides'],
        ],
      });
    }
    if (level === 2) {
      const l = rng.int(3, 20) + rng.pick([0.5, 0.25, 0.75]);
      const w = rng.int(2, 12);
      const a = l * w;
      const lf = frac(Math.round(l * 4), 4);
      const useFrac = rng.chance(0.4);
      const lTxt = useFrac ? mixedStr(lf) : fmt(l);
      return mk({
        stem: useFrac ? `A rectangle is $${lTxt.replace(/(\d+) (\d+)\/(\d+)/, '$1\\frac{$2}{$3}')}$ m long and ${w} m wide. What is its area, in square meters?` : `A rectangle is ${lTxt} m long and ${w} m wide. What is its area, in square meters?`,
        answer: fmt(a),
        steps: ['Area = length × width', `${lTxt} × ${w} = ${fmt(a)} m²`],
        hints: ['Multiply the length by the width.', useFrac ? 'Multiply the whole part and the fraction part separately, or use an improper fraction.' : 'Multiply as with whole numbers, then place the decimal point.'],
        wrong: [
          [fmt(2 * (l + w)), 'computes the perimeter'],
          [fmt(Math.floor(l) * w), 'drops the fraction or decimal part'],
        ],
      });
    }
    if (rng.chance(0.5)) {
      const l = rng.int(4, 20);
      const w = rng.int(2, 15);
      return mk({
        stem: `A rectangle has an area of ${l * w} square inches and a length of ${l} inches. What is its width, in inches?`,
        answer: w,
        steps: ['Area = length × width', `width = ${l * w} ÷ ${l} = ${w} in`],
        hints: ['Which number times the length gives the area?', 'Divide the area by the length.'],
        wrong: [
          [l * w - l, 'subtracts the length from the area'],
          [fmt(roundTo((l * w) / 2 - l, 2)), 'treats the area as a perimeter'],
        ],
      });
    }
    const s = rng.int(3, 20);
    return mk({
      stem: `A square has a perimeter of ${4 * s} cm. What is its area, in square centimeters?`,
      answer: s * s,
      steps: [`Each side: ${4 * s} ÷ 4 = ${s} cm`, `Area: ${s} × ${s} = ${s * s} cm²`],
      hints: ['A square has four equal sides: find the length of one side first.', 'Then multiply the side by itself.'],
      wrong: [
        [4 * s * 4 * s, 'squares the perimeter'],
        [s, 'gives the side length'],
        [(4 * s) ** 2 / 4, 'squares the perimeter and divides by 4'],
      ],
    });
  },
});

export const areaTrapezoid = defineGenerator({
  skillId: 78,
  levels: ['½(b₁ + b₂)h with whole-number results', 'Results with halves or decimal sides', 'Missing height from the area'],
  make(rng, level) {
    const b1 = rng.int(6, 20);
    const b2 = rng.int(2, b1 - 2);
    const h = rng.int(2, 12);
    const area = ((b1 + b2) * h) / 2;
    if (level === 1 && !Number.isInteger(area)) return undefined;
    if (level === 2 && Number.isInteger(area)) return undefined;
    if (level < 3) {
      return mk({
        stem: 'What is the area of the trapezoid, in square centimeters?',
        figure: trapezoidFigure(b1, b2, h, 'cm'),
        answer: fmt(area),
        steps: ['$A = \\frac{1}{2}(b_1 + b_2)h$', `½ × (${b1} + ${b2}) × ${h} = ½ × ${b1 + b2} × ${h} = ${fmt(area)} cm²`],
        hints: ['Add the two parallel sides first.', 'Multiply the sum by the height and take half.'],
        wrong: [
          [(b1 + b2) * h, 'forgets to take half'],
          [b1 * h, 'uses only one base'],
          [fmt((b1 * b2 * h) / 2), 'multiplies the bases instead of adding them'],
        ],
      });
    }
    return mk({
      stem: `A trapezoid has bases of ${b1} cm and ${b2} cm and an area of ${fmt(area)} cm². What is its height, in cm?`,
      answer: h,
      steps: [`${fmt(area)} = ½ × (${b1} + ${b2}) × h = ${fmt((b1 + b2) / 2)} × h`, `h = ${fmt(area)} ÷ ${fmt((b1 + b2) / 2)} = ${h} cm`],
      hints: ['Put the numbers you know into A = ½(b₁ + b₂)h.', 'Half the sum of the bases times h is the area: divide to find h.'],
      wrong: [
        [fmt(roundTo(area / (b1 + b2), 3)), 'forgets the ½'],
        [fmt(roundTo((2 * area) / b1, 3)), 'uses only one base'],
      ],
    });
  },
});

export const areaTriangle = defineGenerator({
  skillId: 79,
  levels: ['½ × base × height (whole-number result)', 'Obtuse triangles, odd products or decimal sides; a slanted side is shown', 'Missing base or height from the area'],
  make(rng, level) {
    const b = rng.int(3, 16) + (level === 2 && rng.chance(0.4) ? 0.5 : 0);
    const h = rng.int(2, 12);
    const area = (b * h) / 2;
    if (level === 1 && !Number.isInteger(area)) return undefined;
    if (level < 3) {
      const apex = level === 1 ? rng.int(1, Math.max(1, Math.floor(b) - 1)) : rng.chance(0.5) ? b + rng.int(1, 4) : rng.int(1, Math.floor(b));
      const side = Math.round(Math.hypot(b - apex, h) * 10) / 10;
      return mk({
        stem: 'What is the area of the triangle, in square inches?',
        figure: triangleFigure(b, h, apex, 'in', level === 2 ? side : undefined),
        answer: fmt(area),
        steps: ['$A = \\frac{1}{2} \\times$ base × height (the height is perpendicular to the base)', `½ × ${fmt(b)} × ${h} = ${fmt(area)} in²`],
        hints: ['A triangle is half of a parallelogram with the same base and height.', 'Multiply the base by the height, then halve.'],
        wrong: [
          [fmt(b * h), 'forgets to halve'],
          ...(level === 2 ? [[fmt(roundTo((b * side) / 2, 2)), 'uses the slanted side instead of the height'] as [string, string]] : []),
          [fmt(b + h), 'adds the base and height'],
        ],
      });
    }
    const findB = rng.chance(0.5);
    return mk({
      stem: findB ? `A triangle has an area of ${fmt(area)} square inches and a height of ${h} inches. What is its base, in inches?` : `A triangle has an area of ${fmt(area)} square inches and a base of ${fmt(b)} inches. What is its height, in inches?`,
      answer: findB ? fmt(b) : h,
      steps: [`${fmt(area)} = ½ × base × height, so base × height = ${fmt(2 * area)}`, findB ? `base = ${fmt(2 * area)} ÷ ${h} = ${fmt(b)} in` : `height = ${fmt(2 * area)} ÷ ${fmt(b)} = ${h} in`],
      hints: ['Double the area first to undo the ½.', 'Then divide by the length you know.'],
      wrong: [
        [fmt(roundTo(area / (findB ? h : b), 3)), 'forgets to double the area'],
        [fmt(area * 2 * (findB ? h : b)), 'multiplies instead of dividing'],
      ],
    });
  },
});

// ---------- 80–84 Surface area and volume ----------

export const surfaceAreaCylinder = defineGenerator({
  skillId: 80,
  levels: ['Curved (lateral) surface area 2πrh', 'Total surface area from the radius', 'Total surface area from the diameter, rounded to the nearest tenth'],
  make(rng, level) {
    const r = level === 3 ? rng.int(3, 15) / 2 : rng.int(2, 10);
    const h = rng.int(2, 15);
    const lateral = times314(2 * r * h);
    const total = times314(2 * r * r + 2 * r * h);
    if (level === 1) {
      return mk({
        stem: `A can has a radius of ${r} cm and a height of ${h} cm. What is the area of the label that covers its curved side, in cm²? ${PI_NOTE}`,
        figure: cylinderFigure(r, 'radius', h, 'cm'),
        answer: lateral,
        steps: ['The label unrolls into a rectangle: its length is the circumference, its width the height', `2 × 3.14 × ${r} × ${h} = ${fmt(lateral)} cm²`],
        hints: ['Imagine peeling the label off and flattening it: what shape is it?', 'One side of that rectangle is the circumference 2πr; the other is the height.'],
        wrong: [
          [total, 'includes the top and bottom'],
          [times314(r * r * h), 'computes the volume'],
          [times314(r * h), 'uses πrh instead of 2πrh'],
        ],
      });
    }
    const ans = level === 2 ? total : round6(total, 1);
    if (level === 3 && Math.abs(total - ans) < 1e-9) return undefined;
    const d = 2 * r;
    return mk({
      stem: level === 2 ? `A cylinder has a radius of ${r} m and a height of ${h} m. What is its total surface area, in m²? ${PI_NOTE}` : `A cylinder has a diameter of ${fmt(d)} m and a height of ${h} m. What is its total surface area, in m²? ${PI_NOTE} Round to the nearest tenth.`,
      figure: cylinderFigure(level === 2 ? r : d, level === 2 ? 'radius' : 'diameter', h, 'm'),
      answer: ans,
      steps: [
        ...(level === 3 ? [`The radius is ${fmt(d)} ÷ 2 = ${fmt(r)} m`] : []),
        `Two circles: 2 × 3.14 × ${fmt(r)}^2 = ${fmt(times314(2 * r * r))}`,
        `Curved side: 2 × 3.14 × ${fmt(r)} × ${h} = ${fmt(lateral)}`,
        `Total: ${fmt(times314(2 * r * r))} + ${fmt(lateral)} = ${fmt(total)}${level === 3 ? ` ≈ ${fmt(ans)}` : ''} m²`,
      ],
      hints: ['A cylinder\'s surface is two circles and one rectangle (the curved side unrolled).', level === 3 ? 'Use the radius, half the diameter, in both parts.' : 'Add the areas of the two circles and the curved side.'],
      wrong: [
        [level === 2 ? lateral : round6(lateral, 1), 'leaves out the two circles'],
        [level === 2 ? times314(r * r + 2 * r * h) : round6(times314(r * r + 2 * r * h), 1), 'counts only one circle'],
        ...(level === 3 ? [[round6(times314(2 * d * d + 2 * d * h), 1), 'uses the diameter as the radius'] as [number, string]] : []),
      ],
    });
  },
});

export const surfaceAreaPrism = defineGenerator({
  skillId: 81,
  levels: ['Surface area of a cube', 'Surface area of a rectangular prism', 'Surface area of an open box (no top)'],
  make(rng, level) {
    const U = rng.pick(LENGTH_UNITS);
    if (level === 1) {
      const s = rng.int(2, 20);
      return mk({
        stem: `A cube has edges of ${s} ${U.a}. What is its surface area, in square ${U.name}?`,
        figure: boxFigure(s, s, s, U.a),
        answer: 6 * s * s,
        steps: ['A cube has 6 equal square faces', `6 × ${s}^2 = 6 × ${s * s} = ${6 * s * s} ${U.a}²`],
        hints: ['How many faces does a cube have, and what shape are they?', 'Find the area of one face, then multiply by the number of faces.'],
        wrong: [
          [s ** 3, 'computes the volume'],
          [4 * s * s, 'counts only four faces'],
          [6 * s, 'multiplies the edge by 6 without squaring'],
        ],
      });
    }
    const l = rng.int(2, 12);
    const w = rng.int(2, 10);
    const h = rng.int(2, 10);
    if (l === w || w === h || l === h) return undefined;
    if (level === 2) {
      const sa = 2 * (l * w + l * h + w * h);
      return mk({
        stem: `A box is ${l} in long, ${w} in wide and ${h} in tall. What is its surface area, in square inches?`,
        figure: boxFigure(l, w, h, 'in'),
        answer: sa,
        steps: [`Top and bottom: 2 × ${l} × ${w} = ${2 * l * w}`, `Front and back: 2 × ${l} × ${h} = ${2 * l * h}; sides: 2 × ${w} × ${h} = ${2 * w * h}`, `Total: ${sa} in²`],
        hints: ['A rectangular prism has three pairs of equal faces.', 'Find the area of one face of each pair, add them, and double.'],
        wrong: [
          [l * w * h, 'computes the volume'],
          [l * w + l * h + w * h, 'counts each pair once'],
        ],
      });
    }
    const sa = l * w + 2 * (l * h + w * h);
    return mk({
      stem: `An open box (no top) is ${l} cm long, ${w} cm wide and ${h} cm tall. How much cardboard, in cm², is needed to make it?`,
      figure: boxFigure(l, w, h, 'cm', true),
      answer: sa,
      steps: [`Bottom: ${l} × ${w} = ${l * w}`, `Front and back: 2 × ${l} × ${h} = ${2 * l * h}; sides: 2 × ${w} × ${h} = ${2 * w * h}`, `Total: ${l * w} + ${2 * l * h} + ${2 * w * h} = ${sa} cm²`],
      hints: ['List the faces: which one is missing?', 'Add the bottom, two long sides and two short sides.'],
      wrong: [
        [2 * (l * w + l * h + w * h), 'includes the top'],
        [l * w * h, 'computes the volume'],
        [sa - l * w, 'leaves out the bottom too'],
      ],
    });
  },
});

export const volumeCylinder = defineGenerator({
  skillId: 82,
  levels: ['πr²h from the radius (3.14)', 'From the diameter, rounded to the nearest tenth', 'Height from the volume and radius'],
  make(rng, level) {
    if (level === 1) {
      const r = rng.int(2, 10);
      const h = rng.int(2, 15);
      const v = times314(r * r * h);
      return mk({
        stem: `A cylinder has a radius of ${r} cm and a height of ${h} cm. What is its volume, in cm³? ${PI_NOTE}`,
        figure: cylinderFigure(r, 'radius', h, 'cm'),
        answer: v,
        steps: ['$V = \\pi r^2 h$', `3.14 × ${r}^2 × ${h} = 3.14 × ${r * r} × ${h} = ${fmt(v)} cm³`],
        hints: ['Volume = area of the base × height.', 'The base is a circle with area πr².'],
        wrong: [
          [times314(2 * r * h), 'uses 2πrh (the curved surface)'],
          [times314(r * h), 'forgets to square the radius'],
          [times314(4 * r * r * h), 'uses the diameter as the radius'],
        ],
      });
    }
    if (level === 2) {
      const d = rng.int(3, 20);
      const h = rng.int(2, 12);
      const exact = times314((d * d * h) / 4);
      const v = round6(exact, 1);
      if (Math.abs(exact - v) < 1e-9) return undefined;
      return mk({
        stem: `A cylinder has a diameter of ${d} in and a height of ${h} in. What is its volume, in cubic inches? ${PI_NOTE} Round to the nearest tenth.`,
        figure: cylinderFigure(d, 'diameter', h, 'in'),
        answer: v,
        steps: [`Radius: ${d} ÷ 2 = ${fmt(d / 2)}`, `3.14 × ${fmt(d / 2)}^2 × ${h} = ${fmt(exact)}`, `Rounded: ${fmt(v)} in³`],
        hints: ['The formula needs the radius: halve the diameter.', 'Square the radius, multiply by 3.14 and by the height, then round.'],
        wrong: [
          [round6(times314(d * d * h), 1), 'uses the diameter as the radius'],
          [round6(times314((d * h) / 2), 1), 'forgets to square the radius'],
        ],
      });
    }
    const r = rng.int(2, 10);
    const h = rng.int(2, 15);
    const v = times314(r * r * h);
    return mk({
      stem: `A cylinder has a volume of ${fmt(v)} cm³ and a radius of ${r} cm. What is its height, in cm? ${PI_NOTE}`,
      answer: h,
      steps: [`Base area: 3.14 × ${r}^2 = ${fmt(times314(r * r))}`, `h = ${fmt(v)} ÷ ${fmt(times314(r * r))} = ${h} cm`],
      hints: ['Volume = base area × height.', 'Find the base area, then divide the volume by it.'],
      wrong: [
        [fmt(roundTo(v / times314(r), 3)), 'forgets to square the radius'],
        [fmt(roundTo(v / (r * r), 3)), 'forgets π'],
      ],
    });
  },
});

export const volumePrism = defineGenerator({
  skillId: 83,
  levels: ['Length × width × height (whole numbers)', 'With a decimal or fractional edge', 'Missing edge from the volume'],
  make(rng, level) {
    const l = rng.int(2, 12);
    const w = rng.int(2, 10);
    const h = rng.int(2, 10);
    if (level === 1) {
      return mk({
        stem: `What is the volume of a rectangular prism ${l} cm long, ${w} cm wide and ${h} cm tall, in cm³?`,
        figure: boxFigure(l, w, h, 'cm'),
        answer: l * w * h,
        steps: ['V = length × width × height', `${l} × ${w} × ${h} = ${l * w * h} cm³`],
        hints: ['Volume counts the unit cubes that fill the prism.', 'Multiply the three dimensions.'],
        wrong: [
          [2 * (l * w + l * h + w * h), 'computes the surface area'],
          [l + w + h, 'adds the dimensions'],
          [l * w, 'finds only the base area'],
        ],
      });
    }
    if (level === 2) {
      const hh = h + rng.pick([0.5, 0.25]);
      const v = l * w * hh;
      return mk({
        stem: `A box is ${l} ft long, ${w} ft wide and ${fmt(hh)} ft tall. What is its volume, in cubic feet?`,
        figure: boxFigure(l, w, hh, 'ft'),
        answer: fmt(v),
        steps: [`Base area: ${l} × ${w} = ${l * w}`, `${l * w} × ${fmt(hh)} = ${fmt(v)} ft³`],
        hints: ['Multiply length, width and height.', 'Multiply the whole numbers first, then by the decimal.'],
        wrong: [
          [l * w * Math.floor(hh), 'drops the decimal part'],
          [fmt(l * w + hh), 'adds the height instead of multiplying'],
        ],
      });
    }
    const v = l * w * h;
    return mk({
      stem: `A rectangular prism has a volume of ${v} cm³. Its length is ${l} cm and its width is ${w} cm. What is its height, in cm?`,
      answer: h,
      steps: [`Base area: ${l} × ${w} = ${l * w}`, `Height: ${v} ÷ ${l * w} = ${h} cm`],
      hints: ['V = length × width × height: which number is unknown?', 'Divide the volume by the area of the base.'],
      wrong: [
        [v - l - w, 'subtracts the dimensions'],
        [fmt(roundTo(v / l, 2)), 'divides by the length only'],
      ],
    });
  },
});

export const volumeSphere = defineGenerator({
  skillId: 84,
  levels: ['Volume in terms of π (radius a multiple of 3)', 'Volume with 3.14, rounded to the nearest tenth', 'Volume from the diameter, or of a hemisphere'],
  make(rng, level) {
    const U = rng.pick(LENGTH_UNITS);
    if (level === 1) {
      const r = rng.pick([3, 6, 9, 12, 15]);
      const useD1 = rng.chance(0.4);
      const k = (4 * r ** 3) / 3;
      return mk({
        stem: useD1 ? `A sphere has a diameter of ${2 * r} ${U.a}. What is its volume, in cubic ${U.name}? Leave your answer in terms of $\\pi$.` : `A sphere has a radius of ${r} ${U.a}. What is its volume, in cubic ${U.name}? Leave your answer in terms of $\\pi$.`,
        kind: 'expression',
        answer: `${k}π`,
        accepted: [`${k}pi`],
        numeric: [String(k)],
        phrases: [`${k}π`, `${k} pi`, `${k}pi`],
        steps: [...(useD1 ? [`The radius is half the diameter: ${r}`] : []), '$V = \\frac{4}{3}\\pi r^3$', `${r}^3 = ${r ** 3}`, `$\\frac{4}{3}$ × ${r ** 3} = ${k}, so V = ${k}π ${U.a}³`],
        hints: ['Use V = (4/3)πr³.', 'Cube the radius, multiply by 4/3, and keep π as a symbol.'],
        wrong: [
          [`${4 * r * r}π`, 'uses the surface area formula 4πr²'],
          [`${(4 * r * r) / 3}π`, 'squares the radius instead of cubing it'],
          [`${4 * r ** 3}π`, 'forgets to divide by 3'],
        ],
      });
    }
    const useD = level === 3 && rng.chance(0.5);
    const hemi = level === 3 && !useD;
    const r = useD ? rng.int(2, 10) : rng.int(2, 12);
    const d = 2 * r;
    // V = 4/3 × 3.14 × r³ = 1256 r³ / 300 (hemisphere: half)
    const num = 1256 * r ** 3 * (hemi ? 1 : 2);
    const den = 600;
    const v = Math.round((num * 10) / den) / 10;
    if (Math.abs((num * 10) % den) * 2 === den) return undefined;
    const exact = num / den;
    return mk({
      stem: hemi ? `A hemisphere (half a sphere) has a radius of ${r} ${U.a}. What is its volume, in cubic ${U.name}? ${PI_NOTE} Round to the nearest tenth.` : useD ? `A ball has a diameter of ${d} ${U.a}. What is its volume, in cubic ${U.name}? ${PI_NOTE} Round to the nearest tenth.` : `A sphere has a radius of ${r} ${U.a}. What is its volume, in cubic ${U.name}? ${PI_NOTE} Round to the nearest tenth.`,
      answer: v,
      steps: [...(useD ? [`Radius: ${d} ÷ 2 = ${r}`] : []), `$V = \\frac{4}{3}\\pi r^3$ = 4/3 × 3.14 × ${r ** 3}${hemi ? ', and a hemisphere is half of that' : ''}`, `= ${fmt(roundTo(exact, 4))} ≈ ${fmt(v)}`],
      hints: [hemi ? 'Find the volume of the whole sphere, then take half.' : 'Use V = (4/3)πr³ with the radius.', 'Cube the radius, multiply by 3.14 and by 4, divide by 3, then round.'],
      wrong: [
        [Math.round((4 * 3.14 * r * r * (hemi ? 0.5 : 1)) * 10) / 10, 'uses the surface area formula'],
        ...(useD ? [[Math.round(((1256 * d ** 3) / 300) * 10) / 10, 'uses the diameter as the radius'] as [number, string]] : []),
        ...(hemi ? [[Math.round(((1256 * r ** 3) / 300) * 10) / 10, 'forgets to take half'] as [number, string]] : []),
        [Math.round(((314 * r ** 3) / 100) * (hemi ? 0.5 : 1) * 10) / 10, 'forgets the 4/3'],
      ],
    });
  },
});

export const MEASUREMENT = [unitConversion, areaCircle, circumference, perimeter, readingRuler, areaIrregular, areaParallelogram, areaRectangle, areaTrapezoid, areaTriangle, surfaceAreaCylinder, surfaceAreaPrism, volumeCylinder, volumePrism, volumeSphere];

