import { describe, it } from 'vitest';
import { GEOMETRY } from './geometry';
import { type Oracle, alt, nums, plain, runOracles } from './harness.test-util';
import { evaluate, parseExpr } from '../expr';

const N: Record<string, number> = { quadrilateral: 4, pentagon: 5, hexagon: 6, heptagon: 7, octagon: 8, nonagon: 9, decagon: 10, dodecagon: 12 };
const polyN = (s: string) => {
  const name = Object.keys(N).find((k) => new RegExp(`\\b${k}\\b`).test(s));
  return name ? N[name]! : Number(/with (\d+) sides/.exec(s)![1]);
};
/** Solves sum(expressions in x) = total for x (the expressions are linear). */
function solveSum(exprs: string[], total: number): number {
  const f = (x: number) => exprs.reduce((a, e) => a + evaluate(parseExpr(e), new Map([['x', x]])), 0);
  return (total - f(0)) / (f(1) - f(0));
}
const exprsIn = (s: string) => [...s.matchAll(/\(([^()]*x[^()]*)\)°|(?<![(\w])(x)°/g)].map((m) => m[1] ?? m[2]!);
const pt = (s: string, name: string) => {
  const m = new RegExp(`${name}\\((-?\\d+), (-?\\d+)\\)`).exec(s)!;
  return [Number(m[1]), Number(m[2])] as const;
};
const SOLID_OF: [RegExp, string][] = [
  [/six equal squares/, 'Cube'],
  [/six rectangles/, 'Rectangular prism'],
  [/three equal rectangles/, 'Triangular prism'],
  [/one square with a triangle/, 'Square pyramid'],
  [/four equal triangles/, 'Triangular pyramid'],
  [/rectangle with a circle/, 'Cylinder'],
];
const FEV: Record<string, number[]> = { Cube: [6, 12, 8], 'Rectangular prism': [6, 12, 8], 'Triangular prism': [5, 9, 6], 'Square pyramid': [5, 8, 5], 'Triangular pyramid': [4, 6, 4] };

const ORACLES: Record<number, Oracle> = {
  16: (it, level) => {
    const s = plain(it);
    const n = polyN(s);
    if (level === 1) return (n - 2) * 180;
    if (level === 2) return ((n - 2) * 180) / n;
    const known = nums(s.slice(s.indexOf('angles of'), s.indexOf(' and x')));
    return (n - 2) * 180 - known.reduce((a, b) => a + b, 0);
  },
  17: (it, level) => {
    const s = plain(it);
    const n = nums(s);
    if (level === 1) return 180 - n[0]! - n[1]!;
    if (level === 2) return s.includes('equal sides measures') ? (180 - n[0]!) / 2 : 180 - 2 * n[0]!;
    return solveSum(exprsIn(s), 180);
  },
  18: (it, level) => {
    const s = plain(it);
    const m = /△(\w{3}) ≅ △(\w{3})/.exec(s);
    const map = (t: string) => t.split('').map((c) => m![2]![m![1]!.indexOf(c)]).join('');
    if (level === 1) return map(/corresponds to side (\w\w)\?/.exec(s)![1]!);
    if (level === 2) {
      const [T, U] = [m![1]!, m![2]!];
      const back = (t: string) => t.split('').map((c) => T[U.indexOf(c)]).join('');
      const side = /length of (\w\w) in cm/.exec(s);
      if (side) return nums(s.slice(s.indexOf(`${back(side[1]!)} = `)))[0]!;
      const ang = /measure of ∠(\w) in degrees/.exec(s)!;
      return nums(s.slice(s.indexOf(`∠${back(ang[1]!)} = `)))[0]!;
    }
    const facts = s.slice(s.indexOf(':'), s.indexOf('. Which'));
    const angles = [...facts.matchAll(/∠(\w) = ∠\w/g)].map((x) => x[1]!);
    const sides = [...facts.matchAll(/(?<!∠)\b(\w)(\w) = \w\w\b/g)].map((x) => x[1]! + x[2]!);
    if (sides.length === 3) return 'SSS';
    if (sides.length === 2) return 'SAS';
    return angles.every((a) => sides[0]!.includes(a)) ? 'ASA' : 'AAS';
  },
  19: (it, level) => {
    const s = plain(it);
    if (level === 1) return 90 - nums(s)[0]!;
    if (level === 2) return 180 - nums(s)[0]!;
    return solveSum(exprsIn(s), s.includes('supplementary') ? 180 : 90);
  },
  20: (it, level) => {
    const s = plain(it);
    const acute = nums(/Angles ([\d, and]+) are acute/.exec(alt(it))![1]!);
    const isAcute = (k: number) => acute.includes(k);
    const angles = [...s.matchAll(/∠(\d)/g)].map((m) => Number(m[1]));
    const [p, q] = angles as [number, number];
    const same = isAcute(p) === isAcute(q);
    if (level < 3) {
      const v = nums(s.slice(s.indexOf('measures')))[0]!;
      return same ? v : 180 - v;
    }
    const vq = nums(s.slice(s.lastIndexOf('measures')))[0]!;
    const e = exprsIn(s)[0]!;
    return solveSum([e], same ? vq : 180 - vq);
  },
  21: (it, level) => {
    const s = plain(it);
    const n = nums(s);
    const r1 = (x: number) => Math.round(x * 10) / 10;
    if (level === 1) return Math.hypot(n[0]!, n[1]!);
    if (level === 2) return Math.sqrt(n[0]! ** 2 - n[1]! ** 2);
    if (s.includes('ladder')) return r1(Math.hypot(n[0]!, n[1]!));
    return r1(Math.sqrt(n[0]! ** 2 - n[1]! ** 2));
  },
  22: (it, level) => {
    const a = alt(it);
    const solid = SOLID_OF.find(([re]) => re.test(a))![1];
    if (level === 1) return solid;
    if (level === 2) {
      const k = ['faces', 'edges', 'vertices'].findIndex((w) => plain(it).includes(` ${w} `));
      return FEV[solid]![k]!;
    }
    const [l, w, h] = nums(a);
    return 2 * (l! * w! + l! * h! + w! * h!);
  },
  24: (it, level) => {
    const s = plain(it);
    const k = s.includes('halved') ? 0.5 : nums(s.slice(s.indexOf('multiplied by')))[0]!;
    const n = nums(s);
    if (level === 1) return 2 * (n[0]! + n[1]!) * k;
    if (level === 2) return n[0]! * k * k;
    return n[0]! * k ** 3;
  },
  29: (it, level) => {
    const n = nums(plain(it));
    if (level < 3) return (n[1]! * n[2]!) / n[0]!;
    return (n[0]! * n[2]!) / n[1]!;
  },
  89: (it, level) => {
    const s = plain(it);
    if (level === 1) {
      const d = nums(s)[0]!;
      return d < 90 ? 'Acute' : d === 90 ? 'Right' : d < 180 ? 'Obtuse' : 'Straight';
    }
    if (level === 2) {
      const a = alt(it);
      return a.includes('less than a square corner') ? 'Acute' : a.includes('exactly a square corner') ? 'Right' : 'Obtuse';
    }
    const [a, b] = nums(s);
    const big = Math.max(a!, b!, 180 - a! - b!);
    return big < 90 ? 'Acute triangle' : big === 90 ? 'Right triangle' : 'Obtuse triangle';
  },
  72: (it, level) => {
    const name = /of (\w)\?/.exec(plain(it))![1]!;
    const [x, y] = pt(alt(it), name);
    const [a, b] = level === 1 ? [x, -y] : level === 2 ? [-x, y] : [y, x];
    return `(${a}, ${b})`;
  },
  73: (it) => {
    const s = plain(it);
    const name = /of (\w)\?/.exec(s)![1]!;
    const [x, y] = pt(alt(it), name);
    // rotate by the stated angle, counterclockwise positive
    const deg = (s.includes('clockwise') && !s.includes('counterclockwise') ? -1 : 1) * nums(s.slice(s.indexOf('rotated')))[0]!;
    const r = (deg * Math.PI) / 180;
    const a = Math.round(x * Math.cos(r) - y * Math.sin(r));
    const b = Math.round(x * Math.sin(r) + y * Math.cos(r));
    return `(${a}, ${b})`;
  },
  74: (it, level) => {
    const s = plain(it);
    const mh = /(\d+) units? (right|left)/.exec(s)!;
    const mk = /(\d+) units? (up|down)/.exec(s)!;
    const h = Number(mh[1]) * (mh[2] === 'right' ? 1 : -1);
    const k = Number(mk[1]) * (mk[2] === 'up' ? 1 : -1);
    if (level < 3) {
      const name = /of (\w)\?/.exec(s)![1]!;
      const [x, y] = pt(alt(it), name);
      return `(${x + h}, ${y + k})`;
    }
    const [x, y] = pt(s, "P'");
    return `(${x - h}, ${y - k})`;
  },
  100: (it, level) => {
    const s = plain(it);
    const pts = [...s.matchAll(/\((-?\d+), (-?\d+)\)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    if (level < 3) return `(${(pts[0]![0]! + pts[1]![0]!) / 2}, ${(pts[0]![1]! + pts[1]![1]!) / 2})`;
    const [m, a] = pts as [number[], number[]];
    return `(${2 * m[0]! - a[0]!}, ${2 * m[1]! - a[1]!})`;
  },
};

describe('geometry generators', () => {
  it('answers agree with an independent computation', () => runOracles(GEOMETRY, ORACLES));
});
