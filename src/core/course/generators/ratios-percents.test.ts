import { describe, it } from 'vitest';
import { RATIOS_PERCENTS } from './ratios-percents';
import { percentOf } from './expressions';
import { type Oracle, nums, plain, runOracles } from './harness.test-util';

const r2 = (x: number) => Math.round(x * 100) / 100;

const ORACLES: Record<number, Oracle> = {
  44: (it) => {
    const [p, b] = nums(plain(it));
    return (p! * b!) / 100;
  },
  47: (it, level) => {
    const s = plain(it);
    const n = nums(s);
    if (level === 1) return `${(n[1]! / n[0]!) * 100}%`;
    if (level === 2) return `${(n[0]! / n[1]!) * 100}%`;
    return n[0]! / (n[1]! / 100);
  },
  48: (it, level) => {
    const s = plain(it);
    const n = nums(s);
    if (level === 1) return (n[0]! * n[2]!) / n[1]!;
    if (level === 2) return (n[1]! * n[2]!) / n[0]!;
    if (s.includes('notebooks')) return r2((n[1]! / n[0]!) * n[2]!);
    if (s.includes('gallons')) return (n[2]! * n[0]!) / n[1]!;
    return (n[0]! * n[2]!) / n[1]!;
  },
  49: (it, level) => {
    const n = nums(plain(it));
    if (level === 1) return n[1]! * n[2]!;
    if (level === 2) return n[2]! / n[0]!;
    return n[2]! / n[1]!;
  },
  50: (it, level) => {
    const s = plain(it);
    const n = nums(s);
    if (level === 1 || s.includes('pounds')) return n[1]! / n[0]!;
    if (level === 2) return n[0]! / n[1]!;
    return n[1]! / n[0]! < n[3]! / n[2]! ? 'Brand A' : 'Brand B';
  },
  63: (it, level) => {
    const n = nums(plain(it));
    if (level < 3) return r2(n[0]! * (1 - n[1]! / 100));
    return n[1]! / (1 - n[0]! / 100);
  },
  64: (it, level) => {
    const s = plain(it);
    const n = nums(s);
    if (level < 3) return `${r2((Math.abs(n[1]! - n[0]!) / n[0]!) * 100)}%`;
    return r2(n[0]! * (1 + n[1]! / 100) * (1 - n[2]! / 100));
  },
  65: (it, level) => {
    const n = nums(plain(it));
    if (level === 1) return n[0]! * n[1]!;
    if (level === 2) return n[0]! / n[1]!;
    return (n[0]! + n[2]!) / (n[0]! / n[1]! + n[2]! / n[3]!);
  },
};

describe('ratio, rate and percent generators', () => {
  it('answers agree with an independent computation', () => runOracles([percentOf, ...RATIOS_PERCENTS], ORACLES));
});
