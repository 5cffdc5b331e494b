import { describe, it } from 'vitest';
import { DATA_DISPLAYS } from './data-displays';
import { type Oracle, alt, med, nums, plain, runOracles, table, total } from './harness.test-util';
import type { ItemContent } from '../types';

/** Points "(x, y)" listed in a text. */
const points = (s: string) => [...s.matchAll(/\((-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\)/g)].map((m) => [Number(m[1]), Number(m[2])] as [number, number]);

/** Reads a number line off the SVG itself: tick labels and their x positions, and the marked dot. */
function readNumberLine(it: ItemContent): number {
  if (it.figure?.kind !== 'svg') throw new Error('no svg');
  const svg = it.figure.svg;
  const labels = [...svg.matchAll(/<text x="([\d.]+)" y="64"[^>]*>(-?[\d.]+)<\/text>/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
  const dotX = Number(/<circle cx="([\d.]+)" cy="40" r="6"/.exec(svg)![1]);
  const [x0, v0] = labels[0]!;
  const [x1, v1] = labels[labels.length - 1]!;
  return v0 + ((dotX - x0) / (x1 - x0)) * (v1 - v0);
}

const boxNames = ['minimum', 'lower quartile', 'median', 'upper quartile', 'maximum'];

const ORACLES: Record<number, Oracle> = {
  1: (it, level) => {
    const a = alt(it);
    const v = boxNames.map((n) => Number(new RegExp(`${n} (\\d+)`).exec(a)![1]));
    if (level === 1) return v[2]!;
    if (level === 2) return v[3]! - v[1]!;
    const [x, y] = nums(plain(it).slice(plain(it).indexOf('between')));
    return `${(v.indexOf(y!) - v.indexOf(x!)) * 25}%`;
  },
  2: (it, level) => {
    const a = alt(it);
    const slices = [...a.matchAll(/(\w+) (\d+)%/g)].map((m) => [m[1]!, Number(m[2])] as const);
    const target = slices.map((x) => x[0]).find((l) => plain(it).includes(` ${l}`));
    if (level === 1) return `${100 - total(slices.map((x) => x[1]))}%`;
    const p = slices.find(([l]) => l === target)![1];
    if (level === 2) {
      const n = nums(plain(it))[0]!;
      return (p * n) / 100;
    }
    return p * 3.6;
  },
  3: (it, level) => {
    const bins = [...alt(it).matchAll(/(\d+)–\d+: (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
    const s = plain(it);
    if (level === 1) {
      const lo = nums(s.slice(s.indexOf('from')))[0];
      return bins.find(([b]) => b === lo)![1];
    }
    if (level === 2) {
      const lo = nums(s.slice(s.indexOf('scored')))[0]!;
      return total(bins.filter(([b]) => b >= lo).map((b) => b[1]));
    }
    const scores = bins.flatMap(([b, c]) => Array<number>(c).fill(b));
    const m = med(scores);
    return `${m}–${m + 9}`;
  },
  // the drawing is exact to 0.01 px; every tick is a multiple of 1/60
  4: (it) => `${Math.round(readNumberLine(it) * 60)}/60`,
  5: (it, level) => {
    const pts = points(alt(it));
    const s = plain(it);
    if (level === 1) {
      const xs = pts.map((p) => p[0]);
      const ys = pts.map((p) => p[1]);
      const mx = total(xs) / xs.length;
      const my = total(ys) / ys.length;
      const r = total(pts.map(([x, y]) => (x - mx) * (y - my))) / Math.sqrt(total(xs.map((x) => (x - mx) ** 2)) * total(ys.map((y) => (y - my) ** 2)));
      return r > 0.5 ? 'Positive correlation' : r < -0.5 ? 'Negative correlation' : 'No correlation';
    }
    if (level === 2) {
      const h = nums(s.slice(s.indexOf('studied', 60)))[0];
      return pts.find(([x]) => x === h)![1];
    }
    const [hx, hy] = nums(s.slice(s.indexOf('more than')));
    return pts.filter(([x, y]) => x > hx! && y > hy!).length;
  },
  6: (it, level) => {
    const values = table(it).rows.flatMap(([st, leaves]) => (leaves ? leaves.split(' ').map((l) => Number(st) * 10 + Number(l)) : []));
    const s = plain(it);
    if (level === 1) return s.includes('greatest') ? Math.max(...values) : Math.min(...values);
    if (level === 2) {
      const cut = nums(s.slice(s.indexOf('older than')))[0]!;
      return values.filter((v) => v > cut).length;
    }
    return med(values);
  },
  7: (it, level) => {
    const t = table(it);
    const s = plain(it);
    const rowOf = (name: string) => t.rows.find((r) => s.toLowerCase().includes(r[0]!.toLowerCase()) && r[0] === name)!.slice(1).map(Number);
    const named = t.rows.filter((r) => s.toLowerCase().includes(r[0]!.toLowerCase())).map((r) => r[0]!);
    if (level === 1) {
      const col = t.header.findIndex((h) => s.includes(h));
      return rowOf(named[0]!)[col - 1]!;
    }
    if (level === 2) {
      const order = named.sort((a, b) => s.toLowerCase().indexOf(a.toLowerCase()) - s.toLowerCase().indexOf(b.toLowerCase()));
      return total(rowOf(order[0]!)) - total(rowOf(order[1]!));
    }
    return total(rowOf(named[0]!)) / 5;
  },
  8: (it, level) => {
    const a = alt(it);
    const onlyA = Number(/: (\d+) in \w+(?: club)? only/.exec(a)![1]);
    const onlyB = Number(/(\d+) in \w+(?: club)? only, (?:\d+|an unknown number) outside/.exec(a)![1]);
    const both = Number(/(\d+) in both/.exec(a)?.[1]);
    const s = plain(it);
    if (level === 1) return both;
    if (level === 2) return s.includes('(or both)') ? onlyA + both + onlyB : onlyA + both;
    return nums(s.slice(s.indexOf('There are')))[0]! - onlyA - both - onlyB;
  },
  106: (it, level) => {
    const pts = points(alt(it));
    const s = plain(it);
    if (level === 1) {
      const t = nums(s.slice(s.indexOf('after')))[0];
      return pts.find(([x]) => x === t)![1];
    }
    if (level === 2) {
      const i = pts.findIndex((p, k) => k > 0 && pts[k - 1]![1] === p[1]);
      return pts[i]![0] - pts[i - 1]![0];
    }
    const tt = nums(s.slice(s.indexOf('during')));
    const [ta, tb] = tt.length >= 2 ? [tt[0]!, tt[1]!] : [0, tt[0]!];
    const da = pts.find(([x]) => x === ta)![1];
    const db = pts.find(([x]) => x === tb)![1];
    return Math.abs(db - da) / (tb - ta);
  },
};

describe('data display generators', () => {
  it('answers agree with an independent reading of the figure', () => runOracles(DATA_DISPLAYS, ORACLES));
});
