/**
 * Geometry: polygon and triangle angles, congruence, angle pairs, parallel lines, the Pythagorean
 * theorem, nets, changing dimensions, similar figures, angle types, reflections, rotations,
 * translations and midpoints (skills 16–22, 24, 29, 72–74, 89, 100).
 */
import type { Rng } from '../../rng';
import type { Figure } from '../types';
import { defineGenerator, fDecimal, fStr, fmt, frac, linear, mk, mkChoice, nonZero, paren, roundTo } from './util';
import { ACCENT, FILL, INK, PALETTE, circle, dot, line, path, plane, polygon, rect, sideLabel, svgFigure, text } from './svg';

const POLY_NAMES: Record<number, string> = { 4: 'quadrilateral', 5: 'pentagon', 6: 'hexagon', 7: 'heptagon', 8: 'octagon', 9: 'nonagon', 10: 'decagon', 12: 'dodecagon' };
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

// ---------- 16 Interior angles of polygons ----------

export const polygonAngles = defineGenerator({
  skillId: 16,
  levels: ['Sum of the interior angles of a polygon', 'Each interior angle of a regular polygon', 'Missing interior angle of a quadrilateral, pentagon or hexagon'],
  make(rng, level) {
    if (level === 1) {
      const n = rng.int(4, 20);
      const s = (n - 2) * 180;
      return mk({
        stem: POLY_NAMES[n] ? `What is the sum of the interior angles of a ${POLY_NAMES[n]} (${n} sides)?` : `What is the sum of the interior angles of a polygon with ${n} sides?`,
        answer: s,
        steps: [`A polygon with n sides can be split into n - 2 triangles from one vertex: ${n} - 2 = ${n - 2}`, `${n - 2} × 180° = ${s}°`],
        hints: ['Draw all the diagonals from one vertex: how many triangles do you get?', 'Each triangle has angles that add up to 180°.'],
        wrong: [
          [n * 180, 'uses n triangles instead of n - 2'],
          [360, 'thinks every polygon has 360°'],
          [(n - 1) * 180, 'uses n - 1 triangles'],
        ],
      });
    }
    if (level === 2) {
      const n = rng.pick([5, 6, 8, 9, 10, 12, 15, 18, 20, 24, 30, 36]);
      const s = (n - 2) * 180;
      return mk({
        stem: POLY_NAMES[n] && rng.chance(0.6) ? `What is the measure of each interior angle of a regular ${POLY_NAMES[n]}?` : `What is the measure of each interior angle of a regular polygon with ${n} sides?`,
        answer: s / n,
        steps: [`Sum of the interior angles: (${n} - 2) × 180° = ${s}°`, `A regular polygon has ${n} equal angles: ${s}° ÷ ${n} = ${s / n}°`],
        hints: ['Find the sum of all the interior angles first.', 'In a regular polygon all the angles are equal: share the sum among them.'],
        wrong: [
          [s, 'gives the sum of the angles'],
          [360 / n, 'gives the exterior angle'],
          [fmt(roundTo((n * 180) / n, 2)), 'uses n triangles'],
        ],
      });
    }
    const n = rng.pick([4, 5, 6]);
    const s = (n - 2) * 180;
    const avg = s / n;
    const known = Array.from({ length: n - 1 }, () => rng.int(Math.round(avg - 35), Math.round(avg + 35)));
    const x = s - sum(known);
    if (x < 45 || x > 175) return undefined;
    return mk({
      stem: `A ${POLY_NAMES[n]} has interior angles of ${known.map((k) => `${k}°`).join(', ')} and $x°$. What is $x$?`,
      answer: x,
      accepted: [`x = ${x}`],
      phrases: [`x = ${x}`],
      steps: [`Sum of the interior angles: (${n} - 2) × 180° = ${s}°`, `Known angles: ${known.join(' + ')} = ${sum(known)}°`, `x = ${s} - ${sum(known)} = ${x}`],
      hints: [`First find the sum of the interior angles of a ${POLY_NAMES[n]}.`, 'Subtract the angles you know from that sum.'],
      wrong: [
        ...(360 - sum(known) > 0 ? [[360 - sum(known), 'uses 360° for every polygon'] as [number, string]] : []),
        [n * 180 - sum(known), 'uses n × 180°'],
        [fmt(roundTo(sum(known) / (n - 1), 1)), 'averages the known angles'],
      ],
    });
  },
});

// ---------- 17 Triangle angles ----------

export const triangleAngles = defineGenerator({
  skillId: 17,
  levels: ['Third angle of a triangle from two angles', 'Angles of an isosceles triangle', 'Angles written as expressions in x'],
  make(rng, level) {
    if (level === 1) {
      const a = rng.int(25, 100);
      const b = rng.int(20, 150 - a);
      const c = 180 - a - b;
      return mk({
        stem: `Two angles of a triangle measure ${a}° and ${b}°. What is the measure of the third angle?`,
        answer: c,
        steps: ['The angles of a triangle add up to 180°', `${a} + ${b} = ${a + b}`, `180 - ${a + b} = ${c}°`],
        hints: ['What do the three angles of any triangle add up to?', 'Subtract the two angles you know from that total.'],
        wrong: [
          [360 - a - b, 'uses 360° for a triangle'],
          [a + b, 'adds the two angles'],
          [90 - Math.abs(a - b), 'subtracts from 90°'],
        ],
      });
    }
    if (level === 2) {
      if (rng.chance(0.5)) {
        const v = rng.int(10, 80) * 2;
        const base = (180 - v) / 2;
        return mk({
          stem: `In an isosceles triangle the angle between the two equal sides measures ${v}°. What is the measure of each of the other two angles?`,
          answer: base,
          steps: ['The two base angles of an isosceles triangle are equal', `Together they are 180 - ${v} = ${180 - v}°`, `Each: ${180 - v} ÷ 2 = ${base}°`],
          hints: ['In an isosceles triangle, the angles opposite the equal sides are equal.', 'Subtract the given angle from 180°, then share the rest equally.'],
          wrong: [
            [180 - v, 'forgets to split the remaining angle between the two base angles'],
            [v, 'thinks all three angles are equal to the given one'],
            [v / 2, 'halves the given angle'],
          ],
        });
      }
      const b = rng.int(20, 85);
      const v = 180 - 2 * b;
      return mk({
        stem: `Each base angle of an isosceles triangle measures ${b}°. What is the measure of the third angle?`,
        answer: v,
        steps: ['The two base angles are equal', `${b} + ${b} = ${2 * b}`, `180 - ${2 * b} = ${v}°`],
        hints: ['An isosceles triangle has two equal base angles.', 'Both base angles count toward the 180°.'],
        wrong: [
          [180 - b, 'subtracts only one base angle'],
          [b, 'thinks all three angles are equal'],
        ],
      });
    }
    const x = rng.int(10, 30);
    const p = rng.int(2, 3);
    const q = rng.int(1, 4);
    const r = 180 - x - p * x - q * x;
    // angles: x, (px + c), (qx + d) with c + d = r - ... keep constants simple
    const c = rng.int(-10, 20);
    const d = 180 - (1 + p + q) * x - c;
    if (Math.abs(d) > 60 || p * x + c <= 0 || q * x + d <= 0 || r === 0) return undefined;
    const A2 = linear([[p, 'x'], [c, '']]);
    const A3 = linear([[q, 'x'], [d, '']]);
    const k = 1 + p + q;
    return mk({
      stem: `The angles of a triangle measure $x°$, $(${A2})°$ and $(${A3})°$. What is the value of $x$?`,
      answer: x,
      accepted: [`x = ${x}`],
      phrases: [`x = ${x}`],
      steps: [`x + (${A2}) + (${A3}) = 180`, `${k}x ${c + d < 0 ? '-' : '+'} ${Math.abs(c + d)} = 180`, `${k}x = ${180 - c - d}`, `x = ${x}`],
      hints: ['Add the three angle expressions and set the sum equal to 180.', 'Combine the x terms and the numbers, then solve.'],
      wrong: [
        [fmt(roundTo(180 / k, 2)), 'ignores the constant terms'],
        [fmt(roundTo((360 - c - d) / k, 2)), 'uses 360° instead of 180°'],
        [p * x + c, 'gives one of the angle measures instead of x'],
      ],
    });
  },
});

// ---------- 18 Congruence ----------

const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ'.split('');
const CRITERIA = ['SSS', 'SAS', 'ASA', 'AAS'];

export const congruence = defineGenerator({
  skillId: 18,
  levels: ['Corresponding side of congruent triangles', 'Length or angle from a congruence statement', 'Which rule (SSS, SAS, ASA, AAS) proves two triangles congruent'],
  make(rng: Rng, level) {
    const ls = rng.shuffle(LETTERS).slice(0, 6);
    const T = ls.slice(0, 3);
    const U = ls.slice(3, 6);
    const tri = (t: string[]) => t.join('');
    if (level === 1) {
      const [i, j] = rng.pick([
        [0, 1],
        [1, 2],
        [0, 2],
      ] as const);
      const side = `${T[i]}${T[j]}`;
      const ans = `${U[i]}${U[j]}`;
      const others = [
        [0, 1],
        [1, 2],
        [0, 2],
      ]
        .filter(([a, b]) => !(a === i && b === j))
        .map(([a, b]) => `${U[a!]}${U[b!]}`);
      return mk({
        stem: `$\\triangle ${tri(T)} \\cong \\triangle ${tri(U)}$. Which side of $\\triangle ${tri(U)}$ corresponds to side $\\overline{${side}}$?`,
        kind: 'text',
        answer: ans,
        accepted: [`${U[j]}${U[i]}`],
        phrases: [`${ans} corresponds`, `side ${ans}`],
        steps: ['In a congruence statement, letters in the same position correspond', `${T[i]} ↔ ${U[i]} and ${T[j]} ↔ ${U[j]}, so ${side} ↔ ${ans}`],
        hints: ['Match the letters by their position in each triangle\'s name.', `Which letter of the second name is in the same place as ${T[i]}? And as ${T[j]}?`],
        wrong: others.map((o): [string, string] => [o, 'matches the letters by alphabet or by the picture, not by position']),
      });
    }
    if (level === 2) {
      const ab = rng.int(4, 15);
      const bc = rng.int(4, 15);
      const angB = rng.int(30, 120);
      if (ab === bc) return undefined;
      const askSide = rng.chance(0.6);
      return mk({
        stem: `$\\triangle ${tri(T)} \\cong \\triangle ${tri(U)}$. In $\\triangle ${tri(T)}$, $${T[0]}${T[1]} = ${ab}$ cm, $${T[1]}${T[2]} = ${bc}$ cm and $\\angle ${T[1]} = ${angB}^\\circ$. ${askSide ? `What is the length of $\\overline{${U[1]}${U[2]}}$ in cm?` : `What is the measure of $\\angle ${U[1]}$ in degrees?`}`,
        answer: askSide ? bc : angB,
        phrasesOnly: askSide ? `${U[1]}${U[2]}` : `angle ${U[1]}`,
        phrases: askSide ? [] : [`∠${U[1]} = ${angB}`, `∠${U[1]} is ${angB}`],
        steps: [`Corresponding parts of congruent triangles are equal: ${askSide ? `${U[1]}${U[2]} corresponds to ${T[1]}${T[2]}` : `∠${U[1]} corresponds to ∠${T[1]}`}`, `So it is ${askSide ? `${bc} cm` : `${angB}°`}`],
        hints: ['Match the vertices by their positions in the congruence statement.', 'Corresponding sides have equal lengths and corresponding angles have equal measures.'],
        wrong: askSide
          ? [
              [ab, 'matches the wrong side'],
              [ab + bc, 'adds the sides'],
            ]
          : [
              [180 - angB, 'uses the supplement'],
              [90, 'assumes a right angle'],
            ],
      });
    }
    const rule = rng.pick(CRITERIA);
    const [A, B, C] = T as [string, string, string];
    const [D, E, F] = U as [string, string, string];
    const facts: Record<string, string> = {
      SSS: `$${A}${B} = ${D}${E}$, $${B}${C} = ${E}${F}$ and $${C}${A} = ${F}${D}$`,
      SAS: `$${A}${B} = ${D}${E}$, $\\angle ${B} = \\angle ${E}$ and $${B}${C} = ${E}${F}$`,
      ASA: `$\\angle ${A} = \\angle ${D}$, $${A}${B} = ${D}${E}$ and $\\angle ${B} = \\angle ${E}$`,
      AAS: `$\\angle ${A} = \\angle ${D}$, $\\angle ${B} = \\angle ${E}$ and $${B}${C} = ${E}${F}$`,
    };
    const why: Record<string, string> = {
      SSS: 'three pairs of equal sides',
      SAS: `two pairs of equal sides and the angle between them (∠${B} is between ${A}${B} and ${B}${C})`,
      ASA: `two pairs of equal angles and the side between them (${A}${B} joins ∠${A} and ∠${B})`,
      AAS: `two pairs of equal angles and a side that is not between them (${B}${C} is not between ∠${A} and ∠${B})`,
    };
    return mkChoice(rng, {
      stem: `In $\\triangle ${A}${B}${C}$ and $\\triangle ${D}${E}${F}$: ${facts[rule]}. Which rule shows that the triangles are congruent?`,
      answer: rule,
      options: CRITERIA,
      keepOrder: true,
      steps: [`The facts give ${why[rule]}`, `That is the ${rule} rule`],
      hints: ['Count how many pairs of sides and how many pairs of angles are equal.', 'Then check where the side is: between the two angles (or the angle between the two sides), or not.'],
      wrong: CRITERIA.filter((c) => c !== rule && c.split('').sort().join('') === rule.split('').sort().join('')).map((c): [string, string] => [c, 'mixes up whether the side or angle is included between the others'])
        .concat(CRITERIA.filter((c) => c.split('').sort().join('') !== rule.split('').sort().join('')).slice(0, 2).map((c): [string, string] => [c, 'miscounts the sides and angles'])),
    });
  },
});

// ---------- 19 Complementary and supplementary angles ----------

export const compSuppAngles = defineGenerator({
  skillId: 19,
  levels: ['Complement of an angle', 'Supplement of an angle', 'Complementary or supplementary angles written as expressions in x'],
  make(rng, level) {
    if (level === 1) {
      const a = rng.int(5, 85);
      return mk({
        stem: `An angle measures ${a}°. What is the measure of its complement?`,
        answer: 90 - a,
        steps: ['Complementary angles add up to 90°', `90 - ${a} = ${90 - a}°`],
        hints: ['Complementary angles together make a right angle.', 'Subtract the angle from the total for complementary angles.'],
        wrong: [
          [180 - a, 'uses 180° (supplement) instead of 90°'],
          [360 - a, 'uses 360°'],
        ],
      });
    }
    if (level === 2) {
      const a = rng.int(12, 168);
      return mk({
        stem: `An angle measures ${a}°. What is the measure of its supplement?`,
        answer: 180 - a,
        steps: ['Supplementary angles add up to 180°', `180 - ${a} = ${180 - a}°`],
        hints: ['Supplementary angles together make a straight line.', 'Subtract the angle from the total for supplementary angles.'],
        wrong: [
          [90 - a > 0 ? 90 - a : 360 - a, 'uses the wrong total (90° or 360°)'],
          [a, 'gives the angle itself'],
        ],
      });
    }
    const supp = rng.chance(0.5);
    const total = supp ? 180 : 90;
    const x = rng.int(5, supp ? 30 : 15);
    const p = rng.int(1, 3);
    const q = rng.int(1, 3);
    const c = rng.int(-10, 20);
    const d = total - (p + q) * x - c;
    if (p * x + c <= 0 || q * x + d <= 0 || Math.abs(d) > 40) return undefined;
    const A1 = linear([[p, 'x'], [c, '']]);
    const A2 = linear([[q, 'x'], [d, '']]);
    return mk({
      stem: `Two angles are ${supp ? 'supplementary' : 'complementary'}. One measures $(${A1})°$ and the other measures $(${A2})°$. What is the value of $x$?`,
      answer: x,
      accepted: [`x = ${x}`],
      phrases: [`x = ${x}`],
      steps: [`${supp ? 'Supplementary' : 'Complementary'} angles add to ${total}°: (${A1}) + (${A2}) = ${total}`, `${p + q}x ${c + d < 0 ? '-' : '+'} ${Math.abs(c + d)} = ${total}`, `${p + q}x = ${total - c - d}`, `x = ${x}`],
      hints: [`What do ${supp ? 'supplementary' : 'complementary'} angles add up to?`, 'Add the two expressions, set the sum equal to that total, and solve for x.'],
      wrong: [
        [fmt(roundTo((supp ? 90 - c - d : 180 - c - d) / (p + q), 2)), `uses ${supp ? '90°' : '180°'} as the total`],
        [p * x + c, 'gives an angle measure instead of x'],
      ],
    });
  },
});

// ---------- 20 Parallel lines cut by a transversal ----------

function parallelFigure(acute: number): { fig: Figure; isAcute: (k: number) => boolean } {
  const rad = (acute * Math.PI) / 180;
  const y1 = 80;
  const y2 = 170;
  const cx1 = 210;
  const cx2 = cx1 - (y2 - y1) / Math.tan(rad);
  const ext = 60;
  const dx = Math.cos(rad);
  const dy = Math.sin(rad);
  const parts = [
    line(20, y1, 380, y1, { 'stroke-width': 2 }),
    line(20, y2, 380, y2, { 'stroke-width': 2 }),
    path(`M372,${y1} l-8,-4 v8 z M372,${y2} l-8,-4 v8 z`, { fill: INK }),
    line(cx2 - dx * ext, y2 + dy * ext, cx1 + dx * ext, y1 - dy * ext, { stroke: ACCENT, 'stroke-width': 2 }),
    text(30, y1 - 8, 'm', { 'font-style': 'italic' }),
    text(30, y2 - 8, 'n', { 'font-style': 'italic' }),
  ];
  // Angle labels around each intersection: 1 top-left, 2 top-right, 3 bottom-left, 4 bottom-right; 5–8 likewise below.
  const bis = [(acute + 180) / 2, acute / 2, 180 + acute / 2, 270 + acute / 2];
  [
    [cx1, y1, 1],
    [cx2, y2, 5],
  ].forEach(([cx, cy, first]) => {
    bis.forEach((deg, i) => {
      const r = (deg * Math.PI) / 180;
      parts.push(text(cx! + 24 * Math.cos(r), cy! - 24 * Math.sin(r) + 5, String(first! + i), { 'font-size': 14, 'font-weight': 'bold' }));
    });
  });
  const fig = svgFigure(400, 250, parts.join(''), `Two parallel lines m and n cut by a transversal. At each crossing the angles are numbered 1, 2, 3, 4 (upper crossing) and 5, 6, 7, 8 (lower crossing), going top-left, top-right, bottom-left, bottom-right. Angles 2, 3, 6 and 7 are acute; angles 1, 4, 5 and 8 are obtuse.`);
  return { fig, isAcute: (k) => [2, 3, 6, 7].includes(k) };
}

const PAIR_NAMES: [number, number, string][] = [
  [1, 5, 'corresponding'],
  [2, 6, 'corresponding'],
  [3, 7, 'corresponding'],
  [4, 8, 'corresponding'],
  [3, 6, 'alternate interior'],
  [4, 5, 'alternate interior'],
  [1, 8, 'alternate exterior'],
  [2, 7, 'alternate exterior'],
  [1, 4, 'vertical'],
  [2, 3, 'vertical'],
  [5, 8, 'vertical'],
  [6, 7, 'vertical'],
];
const SUPP_NAMES: [number, number, string][] = [
  [3, 5, 'same-side interior'],
  [4, 6, 'same-side interior'],
  [1, 2, 'a linear pair'],
  [5, 7, 'a linear pair'],
  [2, 4, 'a linear pair'],
  [1, 7, 'same-side exterior'],
  [2, 8, 'same-side exterior'],
];

export const parallelLines = defineGenerator({
  skillId: 20,
  levels: ['Equal angles: corresponding, alternate, vertical', 'Supplementary angles: same-side interior, linear pairs', 'Angles as expressions in x'],
  make(rng, level) {
    const acute = rng.int(35, 75);
    const { fig, isAcute } = parallelFigure(acute);
    const measure = (k: number) => (isAcute(k) ? acute : 180 - acute);
    if (level < 3) {
      const [p, q, name] = rng.pick(level === 1 ? PAIR_NAMES : SUPP_NAMES);
      const [given, asked] = rng.chance(0.5) ? [p, q] : [q, p];
      const ans = measure(asked);
      return mk({
        stem: `Lines $m$ and $n$ are parallel. $\\angle ${given}$ measures ${measure(given)}°. What is the measure of $\\angle ${asked}$?`,
        figure: fig,
        answer: ans,
        ...(level === 1 ? { phrasesOnly: `angle ${asked}`, phrases: [`∠${asked} = ${ans}`, `∠${asked} is ${ans}`, `∠${asked} measures ${ans}`, `also ${ans}`] } : {}),
        steps:
          level === 1
            ? [`Angles ${given} and ${asked} are ${name} angles`, `${name === 'vertical' ? 'Vertical angles' : `With parallel lines, ${name} angles`} are equal: ${ans}°`]
            : [`Angles ${given} and ${asked} are ${name === 'a linear pair' ? 'a linear pair' : `${name} angles`}`, 'Such angles are supplementary: they add up to 180°', `180 - ${measure(given)} = ${ans}°`],
        hints: ['Find where the two angles are: at the same crossing or at different crossings, on the same side of the transversal or not.', 'Angle pairs with parallel lines are either equal or add up to 180°. Do these two look the same size?'],
        wrong: [
          [level === 1 ? 180 - ans : measure(given), level === 1 ? 'thinks the angles are supplementary' : 'thinks the angles are equal'],
          [Math.abs(90 - measure(given)), 'thinks the angles are complementary'],
        ],
      });
    }
    const eq = rng.chance(0.5);
    const [p, q] = rng.pick(eq ? PAIR_NAMES.filter((x) => x[2] !== 'vertical') : SUPP_NAMES.filter((x) => x[2] === 'same-side interior'));
    const target = measure(p);
    const a = rng.int(2, 5);
    const x = rng.int(5, 30);
    const c = target - a * x;
    if (Math.abs(c) > 60 || c === 0) return undefined;
    const expr = linear([[a, 'x'], [c, '']]);
    return mk({
      stem: `Lines $m$ and $n$ are parallel. $\\angle ${p}$ measures $(${expr})°$ and $\\angle ${q}$ measures ${measure(q)}°. What is the value of $x$?`,
      figure: fig,
      answer: x,
      accepted: [`x = ${x}`],
      phrases: [`x = ${x}`],
      steps: [eq ? `Angles ${p} and ${q} are equal: ${expr} = ${measure(q)}` : `Angles ${p} and ${q} are supplementary: ${expr} + ${measure(q)} = 180, so ${expr} = ${180 - measure(q)}`, `${a}x = ${target - c}`, `x = ${x}`],
      hints: ['Decide whether the two angles are equal or supplementary.', 'Write an equation with the expression and solve it for x.'],
      wrong: [
        [fmt(roundTo((eq ? 180 - measure(q) - c : measure(q) - c) / a, 2)), eq ? 'treats the angles as supplementary' : 'treats the angles as equal'],
        [target, 'gives the angle measure instead of x'],
      ],
    });
  },
});

// ---------- 21 Pythagorean theorem ----------

const TRIPLES: [number, number, number][] = [
  [3, 4, 5],
  [5, 12, 13],
  [8, 15, 17],
  [7, 24, 25],
  [20, 21, 29],
  [9, 40, 41],
  [12, 35, 37],
  [11, 60, 61],
  [28, 45, 53],
  [33, 56, 65],
];

export const pythagorean = defineGenerator({
  skillId: 21,
  levels: ['Hypotenuse from two legs (whole-number answers)', 'A leg from the hypotenuse and the other leg', 'Lengths that are not whole numbers (round to the nearest tenth), word problems'],
  make(rng, level) {
    if (level < 3) {
      const [a0, b0, c0] = rng.pick(TRIPLES);
      const k = rng.int(1, c0 > 20 ? 1 : c0 > 10 ? 3 : 6);
      const [a, b, c] = rng.chance(0.5) ? [a0 * k, b0 * k, c0 * k] : [b0 * k, a0 * k, c0 * k];
      if (level === 1) {
        return mk({
          stem: `A right triangle has legs of length ${a} and ${b}. What is the length of the hypotenuse?`,
          answer: c,
          steps: [`$a^2 + b^2 = c^2$: ${a}^2 + ${b}^2 = ${a * a} + ${b * b} = ${c * c}`, `c = $\\sqrt{${c * c}}$ = ${c}`],
          hints: ['In a right triangle, the squares of the legs add up to the square of the hypotenuse.', 'Square both legs, add, then take the square root.'],
          wrong: [
            [a + b, 'adds the legs'],
            [c * c, 'forgets to take the square root'],
            [fmt(roundTo(Math.sqrt(Math.abs(b * b - a * a)), 1)), 'subtracts the squares'],
          ],
        });
      }
      return mk({
        stem: `A right triangle has a hypotenuse of length ${c} and one leg of length ${a}. What is the length of the other leg?`,
        answer: b,
        steps: [`$a^2 + b^2 = c^2$, so $b^2 = c^2 - a^2$`, `${c}^2 - ${a}^2 = ${c * c} - ${a * a} = ${b * b}`, `b = $\\sqrt{${b * b}}$ = ${b}`],
        hints: ['The hypotenuse is the longest side: its square equals the sum of the squares of the legs.', 'Subtract the square of the known leg from the square of the hypotenuse.'],
        wrong: [
          [fmt(roundTo(Math.sqrt(c * c + a * a), 1)), 'adds the squares instead of subtracting'],
          [c - a, 'subtracts the lengths'],
          [b * b, 'forgets to take the square root'],
        ],
      });
    }
    const a = rng.int(3, 15);
    const b = rng.int(3, 15);
    const hyp = Math.sqrt(a * a + b * b);
    if (Number.isInteger(hyp)) return undefined;
    if (rng.chance(0.5)) {
      const ans = roundTo(hyp, 1);
      return mk({
        stem: `A ladder reaches ${b} feet up a wall, and its foot is ${a} feet from the wall. How long is the ladder? Round to the nearest tenth of a foot.`,
        answer: ans,
        steps: ['The wall, the ground and the ladder form a right triangle; the ladder is the hypotenuse', `${a}^2 + ${b}^2 = ${a * a + b * b}`, `$\\sqrt{${a * a + b * b}}$ ≈ ${fmt(ans)} feet`],
        hints: ['Which side of the right triangle is the ladder?', 'Use $a^2 + b^2 = c^2$, then take the square root and round.'],
        wrong: [
          [a + b, 'adds the two distances'],
          [fmt(roundTo(Math.sqrt(Math.abs(b * b - a * a)), 1)), 'subtracts the squares'],
          [fmt(Math.trunc(hyp * 10) / 10), 'truncates instead of rounding'],
        ],
      });
    }
    const c = Math.max(a, b) + rng.int(1, 6);
    const leg = Math.min(a, b);
    const other = Math.sqrt(c * c - leg * leg);
    if (Number.isInteger(other)) return undefined;
    const ans = roundTo(other, 1);
    return mk({
      stem: `A right triangle has a hypotenuse of ${c} cm and one leg of ${leg} cm. How long is the other leg? Round to the nearest tenth.`,
      answer: ans,
      steps: [`$b^2 = ${c}^2 - ${leg}^2 = ${c * c} - ${leg * leg} = ${c * c - leg * leg}$`, `b = $\\sqrt{${c * c - leg * leg}}$ ≈ ${fmt(ans)} cm`],
      hints: ['The hypotenuse is the longest side.', 'Subtract the square of the leg from the square of the hypotenuse, then take the square root.'],
      wrong: [
        [fmt(roundTo(Math.sqrt(c * c + leg * leg), 1)), 'adds the squares'],
        [c - leg, 'subtracts the lengths'],
      ],
    });
  },
});

// ---------- 22 Nets of 3D figures ----------

type Solid = 'Cube' | 'Rectangular prism' | 'Triangular prism' | 'Square pyramid' | 'Triangular pyramid' | 'Cylinder';
const SOLIDS: Solid[] = ['Cube', 'Rectangular prism', 'Triangular prism', 'Square pyramid', 'Triangular pyramid', 'Cylinder'];
const FEV: Record<Exclude<Solid, 'Cylinder'>, [number, number, number]> = {
  Cube: [6, 12, 8],
  'Rectangular prism': [6, 12, 8],
  'Triangular prism': [5, 9, 6],
  'Square pyramid': [5, 8, 5],
  'Triangular pyramid': [4, 6, 4],
};

/** A net drawing turned by a multiple of 90° inside a square canvas (the same net, seen turned). */
function turned(w: number, h: number, body: string, alt: string, turn: number): Figure {
  if (!turn) return svgFigure(Math.round(w), Math.round(h), body, alt);
  const S = Math.round(Math.max(w, h) + 10);
  return svgFigure(S, S, `<g transform="rotate(${turn} ${S / 2} ${S / 2}) translate(${((S - w) / 2).toFixed(1)} ${((S - h) / 2).toFixed(1)})">${body}</g>`, alt);
}

function netFigure(solid: Solid, dims?: { l: number; w: number; h: number }, turn = 0, variant = 0): Figure {
  const st = { fill: FILL, stroke: INK, 'stroke-width': 1.5 };
  const parts: string[] = [];
  let alt = '';
  if (solid === 'Cube' && !dims && variant === 1) {
    // staircase net: two squares per row, each row shifted by one
    const u = 50;
    const cells: [number, number][] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [2, 1],
      [2, 2],
      [3, 2],
    ];
    for (const [c, r] of cells) parts.push(rect(10 + c * u, 10 + r * u, u, u, st));
    return turned(4 * u + 20, 3 * u + 20, parts.join(''), 'Net made of six equal squares arranged in a staircase (two squares per row, each row shifted one square to the right).', turn);
  }
  if (solid === 'Cube' || solid === 'Rectangular prism') {
    // Cross net: faces l×w (top/bottom), l×h (front/back) in a column, w×h sides.
    const d = dims ?? (solid === 'Cube' ? { l: 2, w: 2, h: 2 } : { l: 3, w: 2, h: 1.5 });
    const u = Math.min(34, 300 / (2 * d.w + 2 * d.h), 260 / (d.l + d.w + d.h + d.w));
    const L = d.l * u;
    const W = d.w * u;
    const H = d.h * u;
    const x0 = 20 + W;
    const y0 = 24;
    const c2: [number, number][] = [
      [y0, W],
      [y0 + W, H],
      [y0 + W + H, W],
      [y0 + 2 * W + H, H],
    ];
    for (const [y, hh] of c2) parts.push(rect(x0, y, L, hh, st));
    parts.push(rect(x0 - W, y0 + W, W, H, st), rect(x0 + L, y0 + W, W, H, st));
    if (dims) {
      parts.push(sideLabel(x0, y0, x0 + L, y0, `${fmt(d.l)} cm`, 12));
      parts.push(sideLabel(x0 + L + W, y0 + W, x0 + L + W, y0 + W + H, `${fmt(d.h)} cm`, 22));
      parts.push(sideLabel(x0 + L, y0 + W, x0 + L + W, y0 + W, `${fmt(d.w)} cm`, 12));
    }
    const width = x0 + L + W + 40;
    const height = y0 + 2 * W + 2 * H + 10;
    alt = dims
      ? `Net of a ${solid === 'Cube' ? 'cube' : 'rectangular prism'}: six rectangles in a cross; length ${fmt(d.l)} cm, width ${fmt(d.w)} cm, height ${fmt(d.h)} cm.`
      : `Net made of six ${solid === 'Cube' ? 'equal squares' : 'rectangles (three pairs of equal ones)'} arranged in a cross.`;
    return dims ? svgFigure(Math.round(width), Math.round(height), parts.join(''), alt) : turned(width, height, parts.join(''), alt, turn);
  }
  if (solid === 'Triangular prism') {
    const w = 60;
    const h = 100;
    const x0 = 30;
    const y0 = 60;
    for (let i = 0; i < 3; i++) parts.push(rect(x0 + i * w, y0, w, h, st));
    parts.push(polygon([[x0 + w, y0], [x0 + 2 * w, y0], [x0 + 1.5 * w, y0 - 52]]), polygon([[x0 + w, y0 + h], [x0 + 2 * w, y0 + h], [x0 + 1.5 * w, y0 + h + 52]]));
    return turned(260, 280, parts.join(''), 'Net made of three equal rectangles in a row with a triangle attached above and below the middle rectangle.', turn);
  }
  if (solid === 'Square pyramid') {
    const s = 70;
    const x0 = 95;
    const y0 = 85;
    parts.push(rect(x0, y0, s, s, st));
    parts.push(polygon([[x0, y0], [x0 + s, y0], [x0 + s / 2, y0 - 70]]), polygon([[x0, y0 + s], [x0 + s, y0 + s], [x0 + s / 2, y0 + s + 70]]));
    parts.push(polygon([[x0, y0], [x0, y0 + s], [x0 - 70, y0 + s / 2]]), polygon([[x0 + s, y0], [x0 + s, y0 + s], [x0 + s + 70, y0 + s / 2]]));
    return turned(260, 245, parts.join(''), 'Net made of one square with a triangle attached to each of its four sides.', turn);
  }
  if (solid === 'Triangular pyramid') {
    const A: [number, number] = [30, 210];
    const B: [number, number] = [230, 210];
    const C: [number, number] = [130, 37];
    const mAB: [number, number] = [130, 210];
    const mBC: [number, number] = [180, 123.5];
    const mCA: [number, number] = [80, 123.5];
    parts.push(polygon([A, mAB, mCA]), polygon([mAB, B, mBC]), polygon([mCA, mBC, C]), polygon([mAB, mBC, mCA]));
    return turned(260, 230, parts.join(''), 'Net made of four equal triangles: one in the middle with a triangle on each of its three sides, forming a large triangle.', turn);
  }
  parts.push(rect(40, 80, 180, 100, st), circle(130, 45, 35, { fill: FILL }), circle(130, 215, 35, { fill: FILL }));
  return turned(260, 260, parts.join(''), 'Net made of one rectangle with a circle attached above and below it.', turn);
}

export const nets = defineGenerator({
  skillId: 22,
  levels: ['Name the solid a net folds into', 'Faces, edges or vertices of the solid from its net', 'Surface area from a labelled net'],
  make(rng, level) {
    if (level === 1) {
      const s = rng.pick(SOLIDS);
      const tell: Record<Solid, string> = {
        Cube: 'six equal squares',
        'Rectangular prism': 'six rectangles in three equal pairs',
        'Triangular prism': 'two triangles and three rectangles',
        'Square pyramid': 'a square base and four triangles meeting at a point',
        'Triangular pyramid': 'four triangles',
        Cylinder: 'two circles and a rectangle that wraps around them',
      };
      const wrongFor: Record<Solid, Solid[]> = {
        Cube: ['Rectangular prism', 'Square pyramid'],
        'Rectangular prism': ['Cube', 'Triangular prism'],
        'Triangular prism': ['Triangular pyramid', 'Square pyramid'],
        'Square pyramid': ['Triangular pyramid', 'Triangular prism'],
        'Triangular pyramid': ['Triangular prism', 'Square pyramid'],
        Cylinder: ['Rectangular prism', 'Triangular prism'],
      };
      return mkChoice(rng, {
        stem: 'Which solid can be folded from this net?',
        figure: netFigure(s, undefined, rng.pick([0, 90, 180, 270]), s === 'Cube' ? rng.int(0, 1) : 0),
        answer: s,
        options: SOLIDS,
        keepOrder: true,
        steps: [`The net has ${tell[s]}`, `Folded up, it makes a ${s.toLowerCase()}`],
        hints: ['Count the faces and look at their shapes.', 'Imagine folding the faces up around the middle shape: which faces become the base or bases?'],
        wrong: wrongFor[s].map((w): [string, string] => [w, 'matches only some of the faces']),
      });
    }
    if (level === 2) {
      const s = rng.pick(SOLIDS.filter((x): x is Exclude<Solid, 'Cylinder'> => x !== 'Cylinder'));
      const k = rng.int(0, 2);
      const what = ['faces', 'edges', 'vertices'][k]!;
      const ans = FEV[s][k]!;
      return mk({
        stem: `The net folds into a solid. How many ${what} does the solid have?`,
        figure: netFigure(s, undefined, rng.pick([0, 90, 180, 270]), s === 'Cube' ? rng.int(0, 1) : 0),
        answer: ans,
        steps: [`The net folds into a ${s.toLowerCase()}`, `A ${s.toLowerCase()} has ${FEV[s][0]} faces, ${FEV[s][1]} edges and ${FEV[s][2]} vertices, so the answer is ${ans}`],
        hints: ['First work out which solid the net makes.', what === 'faces' ? 'Each shape in the net becomes one face.' : what === 'edges' ? 'Edges are where two faces meet; in the net, count the outside sides and halve them, then add the fold lines.' : 'Vertices are the corners where edges meet.'],
        wrong: [
          [FEV[s][(k + 1) % 3]!, 'counts a different feature (faces, edges and vertices mixed up)'],
          [k === 1 ? FEV[s][1]! * 2 : FEV[s][k]! + 2, k === 1 ? 'counts the edges of every face separately' : 'counts the corners or faces of the flat net'],
        ],
      });
    }
    const cube = rng.chance(0.3);
    const l = rng.int(2, 9);
    const w = cube ? l : rng.int(2, 8);
    const h = cube ? l : rng.int(2, 8);
    if (!cube && (l === w || w === h || l === h)) return undefined;
    const sa = 2 * (l * w + l * h + w * h);
    return mk({
      stem: `The net of a ${cube ? 'cube' : 'rectangular prism'} is shown. What is the total area of the net (the surface area of the ${cube ? 'cube' : 'prism'}) in square centimeters?`,
      figure: netFigure(cube ? 'Cube' : 'Rectangular prism', { l, w, h }),
      answer: sa,
      steps: [`Faces: two of ${l} × ${w} = ${l * w}, two of ${l} × ${h} = ${l * h}, two of ${w} × ${h} = ${w * h}`, `2 × (${l * w} + ${l * h} + ${w * h}) = ${sa} cm²`],
      hints: ['The net shows every face: find the area of each rectangle.', 'Opposite faces are equal, so there are three pairs.'],
      wrong: [
        [l * w * h, 'computes the volume'],
        [l * w + l * h + w * h, 'counts each pair of faces once'],
        [l * w * 6, 'multiplies one face by six'],
      ],
    });
  },
});

// ---------- 24 Effect of changing dimensions ----------

export const changingDimensions = defineGenerator({
  skillId: 24,
  levels: ['New perimeter when every side is scaled', 'New area when both dimensions are scaled', 'New volume when every dimension is scaled'],
  make(rng, level) {
    const k = rng.pick([2, 3, 4, 0.5]);
    const kTxt = k === 0.5 ? 'halved' : `multiplied by ${k}`;
    if (level === 1) {
      const a = rng.int(2, 12) * 2;
      const b = rng.int(2, 12) * 2;
      const p = 2 * (a + b);
      return mk({
        stem: `A rectangle is ${a} cm by ${b} cm. If both its length and width are ${kTxt}, what is the perimeter of the new rectangle, in cm?`,
        answer: fmt(p * k),
        steps: [`Original perimeter: 2 × (${a} + ${b}) = ${p} cm`, `Perimeter is a length, so it is ${kTxt} too: ${p} × ${fmt(k)} = ${fmt(p * k)} cm`],
        hints: ['Perimeter is a length: when every side is scaled, the perimeter is scaled the same way.', 'Find the new sides, or scale the original perimeter.'],
        wrong: [
          [fmt(p * k * k), 'scales the perimeter by the square of the factor'],
          [p, 'keeps the original perimeter'],
          [fmt(p + (k > 1 ? k : -1) * 2), 'adds to the perimeter instead of scaling it'],
        ],
      });
    }
    if (level === 2) {
      const area = rng.int(3, 30) * 4;
      return mk({
        stem: `A rectangle has an area of ${area} cm². If both its length and width are ${kTxt}, what is the area of the new rectangle, in cm²?`,
        answer: fmt(area * k * k),
        steps: [`Area = length × width, and both are ${kTxt}`, `So the area is multiplied by ${fmt(k)} × ${fmt(k)} = ${fmt(k * k)}`, `${area} × ${fmt(k * k)} = ${fmt(area * k * k)} cm²`],
        hints: ['Try it with a simple rectangle, such as 1 by 1.', 'Two dimensions change, so the scale factor is used twice.'],
        wrong: [
          [fmt(area * k), 'scales the area by the factor only once'],
          [fmt(area * 2 * k), 'doubles the factor instead of squaring it'],
        ],
      });
    }
    const vol = rng.int(2, 40) * 8;
    return mk({
      stem: `A box has a volume of ${vol} cm³. If its length, width and height are all ${kTxt}, what is the volume of the new box, in cm³?`,
      answer: fmt(vol * k ** 3),
      steps: ['Volume = length × width × height, and all three are scaled', `So the volume is multiplied by ${fmt(k)}^3 = ${fmt(k ** 3)}`, `${vol} × ${fmt(k ** 3)} = ${fmt(vol * k ** 3)} cm³`],
      hints: ['Volume depends on three dimensions.', 'The scale factor is used once for each dimension.'],
      wrong: [
        [fmt(vol * k), 'scales the volume by the factor only once'],
        [fmt(vol * k * k), 'squares the factor instead of cubing it'],
        [fmt(vol * 3 * k), 'multiplies the factor by 3 instead of cubing it'],
      ],
    });
  },
});

// ---------- 29 Similar figures ----------

export const similarFigures = defineGenerator({
  skillId: 29,
  levels: ['Missing side of similar triangles (whole-number scale factor)', 'Missing side with a scale factor that is not a whole number', 'Indirect measurement with shadows'],
  make(rng, level) {
    const ls = rng.shuffle(LETTERS).slice(0, 6);
    const [A, B, C, D, E, F] = ls as [string, string, string, string, string, string];
    if (level < 3) {
      const k = level === 1 ? rng.int(2, 5) : rng.pick([1.5, 2.5, 0.5, 1.25, 0.75]);
      const ab = rng.int(2, 12) * (k % 1 ? 4 : 1);
      const bc = rng.int(2, 12) * (k % 1 ? 4 : 1);
      if (ab === bc) return undefined;
      const de = ab * k;
      const ef = bc * k;
      const kf = frac(Math.round(de * 4), ab * 4);
      return mk({
        stem: `$\\triangle ${A}${B}${C} \\sim \\triangle ${D}${E}${F}$. $${A}${B} = ${ab}$, $${B}${C} = ${bc}$ and $${D}${E} = ${fmt(de)}$. What is $${E}${F}$?`,
        answer: fmt(ef),
        steps: [`Scale factor from ${A}${B}${C} to ${D}${E}${F}: ${fmt(de)} ÷ ${ab} = ${fDecimal(kf) ?? fStr(kf)}`, `${E}${F} = ${bc} × ${fDecimal(kf) ?? fStr(kf)} = ${fmt(ef)}`],
        hints: ['Corresponding sides of similar figures are in the same ratio.', `Compare ${D}${E} with ${A}${B} to find the scale factor, then use it on ${B}${C}.`],
        wrong: [
          [fmt(bc + (de - ab)), 'adds the difference instead of multiplying by the scale factor'],
          [fmt(roundTo(bc / k, 2)), 'divides by the scale factor'],
          [fmt(de), 'copies the other side'],
        ],
      });
    }
    const person = rng.pick([5, 6]);
    const shadow = rng.pick([2, 3, 4, 8]);
    const k = rng.pick([3, 4, 5, 6, 2.5, 3.5]);
    const treeShadow = shadow * k;
    const tree = person * k;
    return mk({
      stem: `At the same time of day, a ${person}-foot-tall person casts a ${shadow}-foot shadow and a tree casts a ${fmt(treeShadow)}-foot shadow. How tall is the tree, in feet?`,
      answer: fmt(tree),
      steps: [`Height and shadow are proportional: $\\frac{${person}}{${shadow}} = \\frac{h}{${fmt(treeShadow)}}$`, `h = ${person} × ${fmt(treeShadow)} ÷ ${shadow} = ${fmt(tree)} feet`],
      hints: ['The sun makes similar triangles: height compared with shadow is the same for the person and the tree.', 'Set up a proportion with height over shadow on both sides.'],
      wrong: [
        [fmt(roundTo((shadow * treeShadow) / person, 2)), 'sets up the proportion upside down'],
        [fmt(treeShadow + (person - shadow)), 'adds the difference between height and shadow'],
      ],
    });
  },
});

// ---------- 89 Angle types ----------

const ANGLE_TYPES = ['Acute', 'Right', 'Obtuse', 'Straight'];
const angleType = (d: number) => (d < 90 ? 'Acute' : d === 90 ? 'Right' : d < 180 ? 'Obtuse' : 'Straight');

function angleFigure(deg: number, rot: number): Figure {
  const cx = 130;
  const cy = 120;
  const r = 95;
  const a0 = (rot * Math.PI) / 180;
  const a1 = ((rot + deg) * Math.PI) / 180;
  const p0: [number, number] = [cx + r * Math.cos(a0), cy - r * Math.sin(a0)];
  const p1: [number, number] = [cx + r * Math.cos(a1), cy - r * Math.sin(a1)];
  const arc = 26;
  const parts = [
    line(cx, cy, p0[0], p0[1], { 'stroke-width': 2.5 }),
    line(cx, cy, p1[0], p1[1], { 'stroke-width': 2.5 }),
    path(`M${(cx + arc * Math.cos(a0)).toFixed(2)},${(cy - arc * Math.sin(a0)).toFixed(2)} A${arc},${arc} 0 ${deg > 180 ? 1 : 0} 0 ${(cx + arc * Math.cos(a1)).toFixed(2)},${(cy - arc * Math.sin(a1)).toFixed(2)}`, { stroke: ACCENT, 'stroke-width': 2 }),
    dot(cx, cy, 3, INK),
  ];
  return svgFigure(260, 240, parts.join(''), `An angle drawn without a measure; it opens ${deg < 90 ? 'less than a square corner' : deg === 90 ? 'exactly a square corner (marked)' : deg < 180 ? 'more than a square corner but less than a straight line' : 'to a straight line'}.`);
}

export const angleKinds = defineGenerator({
  skillId: 89,
  levels: ['Classify an angle from its measure', 'Classify a drawn angle', 'Classify a triangle by its angles (find the third angle first)'],
  make(rng, level) {
    if (level === 1) {
      const d = rng.pick([rng.int(5, 85), 90, rng.int(95, 175), 180]);
      const t = angleType(d);
      return mkChoice(rng, {
        stem: `An angle measures ${d}°. What kind of angle is it?`,
        answer: t,
        options: ANGLE_TYPES,
        keepOrder: true,
        steps: ['Acute: less than 90°; right: exactly 90°; obtuse: between 90° and 180°; straight: 180°', `${d}° is ${t.toLowerCase()}`],
        hints: ['Compare the measure with 90° and with 180°.', 'A right angle is a square corner; a straight angle is a straight line.'],
        wrong: ANGLE_TYPES.filter((x) => x !== t)
          .slice(0, 2)
          .map((x): [string, string] => [x, 'mixes up the names of the angle types']),
      });
    }
    if (level === 2) {
      const d = rng.pick([rng.int(20, 75), rng.int(105, 165), 90]);
      const t = angleType(d);
      const fig = angleFigure(d, d === 90 ? 0 : rng.int(0, 60));
      const sq = d === 90 ? fig.kind === 'svg' ? { ...fig, svg: fig.svg.replace('</svg>', `${rect(130, 110, 10, 10, { fill: 'none' })}</svg>`) } : fig : fig;
      return mkChoice(rng, {
        stem: 'What kind of angle is shown?',
        figure: sq,
        answer: t,
        options: ANGLE_TYPES.slice(0, 3),
        keepOrder: true,
        steps: ['Compare the opening with a square corner (90°)', `It is ${d < 90 ? 'smaller than' : d === 90 ? 'exactly' : 'larger than'} a square corner, so it is ${t.toLowerCase()}`],
        hints: ['Hold the corner of a sheet of paper against the angle.', 'Smaller than the corner, exactly the corner, or bigger?'],
        wrong: ANGLE_TYPES.slice(0, 3)
          .filter((x) => x !== t)
          .map((x): [string, string] => [x, 'judges the angle by the length of its sides or its tilt']),
      });
    }
    const kind = rng.pick(['Acute triangle', 'Right triangle', 'Obtuse triangle']);
    let a: number;
    let b: number;
    if (kind === 'Right triangle') {
      a = rng.int(20, 70);
      b = 90 - a;
    } else if (kind === 'Obtuse triangle') {
      a = rng.int(10, 40);
      b = rng.int(10, 80 - a);
    } else {
      a = rng.int(50, 80);
      b = rng.int(Math.max(20, 91 - a), 85);
      if (180 - a - b >= 90) return undefined;
    }
    const c = 180 - a - b;
    if (c <= 0) return undefined;
    return mkChoice(rng, {
      stem: `Two angles of a triangle measure ${a}° and ${b}°. Classify the triangle by its angles.`,
      answer: kind,
      options: ['Acute triangle', 'Right triangle', 'Obtuse triangle'],
      keepOrder: true,
      steps: [`Third angle: 180 - ${a} - ${b} = ${c}°`, `The largest angle is ${Math.max(a, b, c)}°, so it is ${kind === 'Acute triangle' ? 'an acute' : kind === 'Right triangle' ? 'a right' : 'an obtuse'} triangle`],
      hints: ['Find the third angle first.', 'The largest angle decides: under 90°, exactly 90°, or over 90°.'],
      wrong: ['Acute triangle', 'Right triangle', 'Obtuse triangle']
        .filter((x) => x !== kind)
        .map((x): [string, string] => [x, 'classifies from the two given angles without finding the third']),
    });
  },
});

// ---------- 72–74 Transformations, 100 midpoint ----------

type Pt = [number, number];
const ptText = ([x, y]: Pt) => `(${x}, ${y})`;

function triangleOnGrid(pts: Pt[], labels: string[], extra: { pts: Pt[]; labels: string[] } | undefined = undefined): Figure {
  const pl = plane({ xmin: -7, xmax: 7, ymin: -7, ymax: 7, unit: 22, labelEvery: 1 });
  const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
  const cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
  const off = ([x, y]: Pt): [number, number] => {
    const dx = x - cx;
    const dy = y - cy;
    const len = Math.hypot(dx, dy) || 1;
    return [pl.X(x) + (dx / len) * 13, pl.Y(y) - (dy / len) * 13 + 4];
  };
  const body = [
    pl.body,
    polygon(pts.map(([x, y]) => [pl.X(x), pl.Y(y)] as [number, number]), { fill: 'rgba(29,78,216,0.15)', stroke: ACCENT, 'stroke-width': 2 }),
    ...pts.map((p, i) => dot(pl.X(p[0]), pl.Y(p[1]), 4) + text(off(p)[0], off(p)[1], labels[i]!, { 'font-weight': 'bold', fill: ACCENT })),
    ...(extra ? extra.pts.map(([x, y], i) => dot(pl.X(x), pl.Y(y), 4, PALETTE[1]) + text(pl.X(x) + 10, pl.Y(y) - 8, extra.labels[i]!, { 'font-weight': 'bold', fill: PALETTE[1] })) : []),
  ].join('');
  const alt = `Coordinate grid from -7 to 7 with triangle ${labels.join('')}: ${pts.map((p, i) => `${labels[i]}${ptText(p)}`).join(', ')}${extra ? `; also ${extra.pts.map((p, i) => `${extra.labels[i]}${ptText(p)}`).join(', ')}` : ''}.`;
  return svgFigure(pl.width, pl.height, body, alt);
}

function smallTriangle(rng: Rng): Pt[] {
  for (;;) {
    const x0 = nonZero(rng, -5, 5);
    const y0 = nonZero(rng, -5, 5);
    const pts: Pt[] = [
      [x0, y0],
      [x0 + rng.int(2, 4) * (rng.chance(0.5) ? 1 : -1), y0],
      [x0, y0 + rng.int(2, 4) * (rng.chance(0.5) ? 1 : -1)],
    ];
    const ok = pts.every(([x, y]) => Math.abs(x) <= 6 && Math.abs(y) <= 6 && x !== 0 && y !== 0 && x !== y && x !== -y);
    if (ok) return pts;
  }
}

function pointAnswer(p: Pt, wrong: [Pt, string][]) {
  return {
    kind: 'list' as const,
    answer: ptText(p),
    accepted: [`${p[0]}, ${p[1]}`],
    phrases: [ptText(p), `(${p[0]},${p[1]})`],
    wrong: wrong.map(([q, why]): [string, string] => [ptText(q), why]),
  };
}

export const reflection = defineGenerator({
  skillId: 72,
  levels: ['Reflect a point over the x-axis', 'Reflect a point over the y-axis', 'Reflect a point over the line y = x'],
  make(rng, level) {
    const pts = smallTriangle(rng);
    const i = rng.int(0, 2);
    const name = 'ABC'[i]!;
    const [x, y] = pts[i]!;
    const img: Pt = level === 1 ? [x, -y] : level === 2 ? [-x, y] : [y, x];
    const line = level === 1 ? 'the x-axis' : level === 2 ? 'the y-axis' : 'the line $y = x$';
    const rule = level === 1 ? '(x, y) → (x, -y)' : level === 2 ? '(x, y) → (-x, y)' : '(x, y) → (y, x)';
    return mk({
      stem: `Triangle ABC is reflected over ${line}. What are the coordinates of ${name}', the image of ${name}?`,
      figure: triangleOnGrid(pts, ['A', 'B', 'C']),
      ...pointAnswer(img, [
        [level === 1 ? [-x, y] : level === 2 ? [x, -y] : [-y, -x], level === 3 ? 'reflects over y = -x' : 'reflects over the other axis'],
        [[-x, -y], 'changes both signs (a rotation, not a reflection)'],
        [[y, x], 'swaps the coordinates'],
      ]),
      steps: [`${name} is at ${ptText([x, y])}`, `Reflecting over ${line.replace(/\$/g, '')}: ${rule}`, `${name}' = ${ptText(img)}`],
      hints: [level === 3 ? 'Reflecting over y = x swaps the roles of the two axes.' : `Points on ${line} do not move; every other point moves straight across it to the same distance on the other side.`, level === 1 ? 'Which coordinate stays the same, and which changes sign?' : level === 2 ? 'The distance to the y-axis stays the same but the point moves to the other side.' : 'What happens to the x- and y-coordinates?'],
    });
  },
});

export const rotation = defineGenerator({
  skillId: 73,
  levels: ['Rotate a point 180° about the origin', 'Rotate a point 90° counterclockwise about the origin', 'Rotate a point 90° clockwise (or 270° counterclockwise) about the origin'],
  make(rng, level) {
    const pts = smallTriangle(rng);
    const i = rng.int(0, 2);
    const name = 'ABC'[i]!;
    const [x, y] = pts[i]!;
    const img: Pt = level === 1 ? [-x, -y] : level === 2 ? [-y, x] : [y, -x];
    const how = level === 1 ? '180°' : level === 2 ? '90° counterclockwise' : rng.chance(0.5) ? '90° clockwise' : '270° counterclockwise';
    const rule = level === 1 ? '(x, y) → (-x, -y)' : level === 2 ? '(x, y) → (-y, x)' : '(x, y) → (y, -x)';
    return mk({
      stem: `Triangle ABC is rotated ${how} about the origin. What are the coordinates of ${name}', the image of ${name}?`,
      figure: triangleOnGrid(pts, ['A', 'B', 'C']),
      ...pointAnswer(img, [
        [level === 1 ? [x, -y] : level === 2 ? [y, -x] : [-y, x], level === 1 ? 'reflects instead of rotating' : 'rotates in the wrong direction'],
        [[y, x], 'only swaps the coordinates'],
        [[-x, y], 'changes only one sign'],
      ]),
      steps: [`${name} is at ${ptText([x, y])}`, `A ${how} rotation about the origin: ${rule}`, `${name}' = ${ptText(img)}`],
      hints: ['Turn the grid (or tracing paper) about the origin and watch where the point lands.', level === 1 ? 'A half turn sends a point to the opposite side of the origin.' : 'A quarter turn swaps the roles of x and y; decide which sign changes by checking the quadrant.'],
    });
  },
});

export const translation = defineGenerator({
  skillId: 74,
  levels: ['Translate a point right/up (first quadrant)', 'Translate a point left/down across axes', 'Find the original point from its image'],
  make(rng, level) {
    const pts: Pt[] = level === 1 ? (([x0, y0]: Pt): Pt[] => [[x0, y0], [x0 + rng.int(2, 3), y0], [x0, y0 + rng.int(2, 3)]])([rng.int(1, 3), rng.int(1, 3)]) : smallTriangle(rng);
    const i = rng.int(0, 2);
    const name = 'ABC'[i]!;
    const [x, y] = pts[i]!;
    const h = level === 1 ? rng.int(1, 5) : level === 2 ? -rng.int(2, 6) : nonZero(rng, -6, 6);
    const k = level === 1 ? rng.int(1, 5) : level === 2 ? (rng.chance(0.7) ? -rng.int(2, 6) : rng.int(1, 5)) : nonZero(rng, -6, 6);
    const words = `${Math.abs(h)} unit${Math.abs(h) > 1 ? 's' : ''} ${h > 0 ? 'right' : 'left'} and ${Math.abs(k)} unit${Math.abs(k) > 1 ? 's' : ''} ${k > 0 ? 'up' : 'down'}`;
    if (level < 3) {
      const img: Pt = [x + h, y + k];
      return mk({
        stem: `Triangle ABC is translated ${words}. What are the coordinates of ${name}', the image of ${name}?`,
        figure: triangleOnGrid(pts, ['A', 'B', 'C']),
        ...pointAnswer(img, [
          [[x + k, y + h], 'adds the vertical move to x and the horizontal move to y'],
          [[x - h, y - k], 'moves in the opposite directions'],
          [[h, k], 'gives the translation instead of the image'],
        ]),
        steps: [`${name} is at ${ptText([x, y])}`, `Right/left changes x by ${h}; up/down changes y by ${k}`, `${name}' = (${x} ${h < 0 ? '-' : '+'} ${Math.abs(h)}, ${y} ${k < 0 ? '-' : '+'} ${Math.abs(k)}) = ${ptText(img)}`],
        hints: ['A translation slides every point the same way.', 'Moving left or right changes the x-coordinate; moving up or down changes the y-coordinate.'],
      });
    }
    const img: Pt = [x + h, y + k];
    return mk({
      stem: `After a translation ${words}, the image of point P is P'${ptText(img)}. What were the coordinates of P?`,
      ...pointAnswer([x, y], [
        [[img[0] + h, img[1] + k], 'applies the translation again instead of undoing it'],
        [[img[0] - k, img[1] - h], 'undoes the moves on the wrong coordinates'],
      ]),
      steps: [`To go back from P' to P, undo the translation: move ${Math.abs(h)} ${h > 0 ? 'left' : 'right'} and ${Math.abs(k)} ${k > 0 ? 'down' : 'up'}`, `P = (${img[0]} ${h > 0 ? '-' : '+'} ${Math.abs(h)}, ${img[1]} ${k > 0 ? '-' : '+'} ${Math.abs(k)}) = ${ptText([x, y])}`],
      hints: ['P\' is where P ended up. Work backwards.', 'Do the opposite moves: left instead of right, down instead of up.'],
    });
  },
});

export const midpoint = defineGenerator({
  skillId: 100,
  levels: ['Midpoint of two points in the first quadrant (whole numbers)', 'Midpoint with negative coordinates (halves possible)', 'Missing endpoint from a midpoint and the other endpoint'],
  make(rng, level) {
    if (level < 3) {
      const lo = level === 1 ? 0 : -10;
      let a: Pt = [rng.int(lo, 10), rng.int(lo, 10)];
      let b: Pt = [rng.int(lo, 10), rng.int(lo, 10)];
      if (level === 1) {
        b = [a[0] + 2 * rng.int(1, 5), a[1] + 2 * rng.int(-3, 5)];
        if (b[1] < 0) b = [b[0], -b[1]];
      }
      if (level === 2 && !(a[0] < 0 || a[1] < 0 || b[0] < 0 || b[1] < 0)) a = [-a[0] || -3, a[1]];
      const m: Pt = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      return mk({
        stem: `What is the midpoint of the segment joining $(${a[0]}, ${a[1]})$ and $(${b[0]}, ${b[1]})$?`,
        kind: 'list',
        answer: `(${fmt(m[0])}, ${fmt(m[1])})`,
        accepted: [`${fmt(m[0])}, ${fmt(m[1])}`],
        phrases: [`(${fmt(m[0])}, ${fmt(m[1])})`, `(${fmt(m[0])},${fmt(m[1])})`],
        steps: ['Midpoint = (average of the x-coordinates, average of the y-coordinates)', `x: (${a[0]} + ${paren(b[0])}) ÷ 2 = ${fmt(m[0])}; y: (${a[1]} + ${paren(b[1])}) ÷ 2 = ${fmt(m[1])}`, `Midpoint (${fmt(m[0])}, ${fmt(m[1])})`],
        hints: ['The midpoint is halfway between the points in both directions.', 'Average the two x-coordinates, then the two y-coordinates.'],
        wrong: [
          [`(${fmt((b[0] - a[0]) / 2)}, ${fmt((b[1] - a[1]) / 2)})`, 'halves the differences instead of averaging'],
          [`(${a[0] + b[0]}, ${a[1] + b[1]})`, 'adds but forgets to divide by 2'],
          [`(${fmt((a[0] + a[1]) / 2)}, ${fmt((b[0] + b[1]) / 2)})`, 'averages the coordinates of each point'],
        ],
      });
    }
    const a: Pt = [rng.int(-8, 8), rng.int(-8, 8)];
    const m: Pt = [rng.int(-6, 6), rng.int(-6, 6)];
    const b: Pt = [2 * m[0] - a[0], 2 * m[1] - a[1]];
    if (a[0] === m[0] && a[1] === m[1]) return undefined;
    return mk({
      stem: `M$(${m[0]}, ${m[1]})$ is the midpoint of segment AB, and A is $(${a[0]}, ${a[1]})$. What are the coordinates of B?`,
      kind: 'list',
      answer: ptText(b),
      accepted: [`${b[0]}, ${b[1]}`],
      phrases: [ptText(b), `(${b[0]},${b[1]})`],
      steps: [`From A to M: x changes by ${m[0] - a[0]}, y changes by ${m[1] - a[1]}`, `From M to B the changes are the same: (${m[0]} + ${m[0] - a[0]}, ${m[1]} + ${m[1] - a[1]})`, `B = ${ptText(b)}`],
      hints: ['M is halfway from A to B, so the step from A to M equals the step from M to B.', 'Or: the average of the x-coordinates of A and B is the x-coordinate of M.'],
      wrong: [
        [`(${fmt((a[0] + m[0]) / 2)}, ${fmt((a[1] + m[1]) / 2)})`, 'finds the midpoint of A and M'],
        [ptText([m[0] - a[0], m[1] - a[1]]), 'gives the step from A to M'],
      ],
    });
  },
});

export const GEOMETRY = [polygonAngles, triangleAngles, congruence, compSuppAngles, parallelLines, pythagorean, nets, changingDimensions, similarFigures, angleKinds, reflection, rotation, translation, midpoint];

