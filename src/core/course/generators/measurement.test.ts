import { describe, it } from 'vitest';
import { MEASUREMENT } from './measurement';
import { type Oracle, alt, nums, plain, runOracles } from './harness.test-util';

const PI = 3.14;
const r1 = (x: number) => Math.round(x * 10 + 1e-9) / 10;
const FACTOR: Record<string, [string, number]> = {
  feet: ['inches', 12],
  yards: ['feet', 3],
  meters: ['centimeters', 100],
  kilometers: ['meters', 1000],
  centimeters: ['millimeters', 10],
  pounds: ['ounces', 16],
  kilograms: ['grams', 1000],
  gallons: ['quarts', 4],
  quarts: ['pints', 2],
  liters: ['milliliters', 1000],
  hours: ['minutes', 60],
  minutes: ['seconds', 60],
  days: ['hours', 24],
  weeks: ['days', 7],
};
/** How many `small` units make one `big` unit, following the chain of conversions. */
function factor(big: string, small: string): number {
  let f = 1;
  let u = big;
  while (u !== small) {
    const next = FACTOR[u];
    if (!next) throw new Error(`no path ${big} → ${small}`);
    f *= next[1];
    u = next[0];
  }
  return f;
}
const mixed = (t: string) => {
  const m = /^(\d+) (\d+)\/(\d+)$/.exec(t) ?? /^()(\d+)\/(\d+)$/.exec(t);
  if (m) return Number(m[1] || 0) + Number(m[2]) / Number(m[3]);
  return Number(t);
};

const ORACLES: Record<number, Oracle> = {
  23: (it, level) => {
    const s = plain(it);
    const n = nums(s)[0]!;
    if (level === 2) {
      const m = /Convert [\d.]+ (\w+) to (\w+)\./.exec(s)!;
      return n / factor(m[2]!, m[1]!);
    }
    const m = /How many (\w+) are in [\d.]+ (\w+)\?/.exec(s)!;
    return n * factor(m[2]!, m[1]!);
  },
  25: (it, level) => {
    const s = plain(it);
    const n = nums(s)[0]!;
    if (level === 1) return PI * n * n;
    if (level === 2) return r1(PI * (n / 2) ** 2);
    const r = n / (2 * PI);
    return PI * Math.round(r) ** 2;
  },
  26: (it, level) => {
    const n = nums(plain(it))[0]!;
    if (level === 1) return PI * n;
    if (level === 2) return 2 * PI * n;
    return (PI * n) / 2 + n;
  },
  27: (it, level) => {
    const s = plain(it);
    if (level === 3) {
      const n = nums(alt(it));
      // bottom, left, top, right of an L: the notch sides are W - top and H - right
      return 2 * (n[2]! + n[3]!); // a rectilinear figure's perimeter equals its bounding rectangle's
    }
    const n = nums(s);
    if (s.includes('rectangle')) return 2 * (n[0]! + n[1]!);
    if (s.includes('triangle')) return n[0]! + n[1]! + n[2]!;
    const sides: Record<string, number> = { pentagon: 5, hexagon: 6, octagon: 8, decagon: 10 };
    return sides[Object.keys(sides).find((k) => s.includes(k))!]! * n[0]!;
  },
  28: (it) => {
    const m = /starts at ([\d /]+) in and ends at ([\d /]+) in/.exec(alt(it))!;
    return String(mixed(m[2]!) - mixed(m[1]!));
  },
  75: (it, level) => {
    const n = nums(alt(it));
    if (level === 1) {
      const [W, H, top, right] = n as [number, number, number, number];
      return top * H + (W - top) * right;
    }
    if (level === 2) {
      const [W, H, T] = n as [number, number, number];
      return W * H + (W * T) / 2;
    }
    const [L, D] = n as [number, number];
    return L * D + (PI * (D / 2) ** 2) / 2;
  },
  76: (it, level) => {
    if (level < 3) {
      const a = alt(it);
      return nums(a.slice(a.indexOf('base')))[0]! * nums(a.slice(a.indexOf('height')))[0]!;
    }
    const n = nums(plain(it));
    return n[0]! / n[1]!;
  },
  77: (it, level) => {
    const s = plain(it);
    const n = nums(s);
    if (level === 1) return n[0]! * n[1]!;
    if (level === 2) {
      const m = /is (\d+(?: \d+\/\d+)?(?:\.\d+)?) m long and (\d+) m wide/.exec(s)!;
      return mixed(m[1]!) * Number(m[2]);
    }
    if (s.startsWith('A square')) return (n[0]! / 4) ** 2;
    return n[0]! / n[1]!;
  },
  78: (it, level) => {
    if (level < 3) {
      const n = nums(alt(it));
      return ((n[0]! + n[1]!) * n[2]!) / 2;
    }
    const n = nums(plain(it));
    return (2 * n[2]!) / (n[0]! + n[1]!);
  },
  79: (it, level) => {
    if (level < 3) {
      const a = alt(it);
      return (nums(a.slice(a.indexOf('base')))[0]! * nums(a.slice(a.indexOf('height')))[0]!) / 2;
    }
    const n = nums(plain(it));
    return (2 * n[0]!) / n[1]!;
  },
  80: (it, level) => {
    const s = plain(it);
    const n = nums(s);
    if (level === 1) return 2 * PI * n[0]! * n[1]!;
    const r = s.includes('diameter') ? n[0]! / 2 : n[0]!;
    const h = n[1]!;
    const sa = 2 * PI * r * r + 2 * PI * r * h;
    return level === 2 ? sa : r1(sa);
  },
  81: (it, level) => {
    const n = nums(plain(it));
    if (level === 1) return 6 * n[0]! ** 2;
    const [l, w, h] = n as [number, number, number];
    return level === 2 ? 2 * (l * w + l * h + w * h) : l * w + 2 * l * h + 2 * w * h;
  },
  82: (it, level) => {
    const n = nums(plain(it));
    if (level === 1) return PI * n[0]! ** 2 * n[1]!;
    if (level === 2) return r1(PI * (n[0]! / 2) ** 2 * n[1]!);
    return n[0]! / (PI * n[1]! ** 2);
  },
  83: (it, level) => {
    const n = nums(plain(it));
    if (level < 3) return n[0]! * n[1]! * n[2]!;
    return n[0]! / (n[1]! * n[2]!);
  },
  84: (it, level) => {
    const s = plain(it);
    const n = nums(s)[0]!;
    if (level === 1) return `${(4 / 3) * (s.includes('diameter') ? n / 2 : n) ** 3}π`;
    const r = s.includes('diameter') ? n / 2 : n;
    const v = (4 / 3) * PI * r ** 3 * (s.includes('hemisphere') ? 0.5 : 1);
    return r1(v);
  },
};

describe('measurement generators', () => {
  it('answers agree with an independent computation', () => runOracles(MEASUREMENT, ORACLES));
});
