import { describe, expect, it } from 'vitest';
import { aktFlops, encodePairs } from './akt-bench';

const dims = { d_model: 128, n_blocks: 1, d_ff: 512, final_fc: 512, final_fc2: 256 };

describe('aktFlops: the work the floors divide', () => {
  it('counts the whole L × L square without row blocks', () => {
    expect(encodePairs(184)).toBe(184 * 184);
    expect(encodePairs(1)).toBe(1);
  });

  it('counts what the row blocks compute: each block against its keys, one extra row per later block', () => {
    // rows 0-63 × 64 keys, rows 63-127 × 128 keys, rows 127-183 × 184 keys
    expect(encodePairs(184, [64, 128])).toBe(64 * 64 + 65 * 128 + 57 * 184);
    // a history inside the first block is its square; at 64 rows the second block computes row 63 alone
    expect(encodePairs(40, [64, 128])).toBe(40 * 40);
    expect(encodePairs(64, [64, 128])).toBe(64 * 64 + 1 * 64);
    expect(encodePairs(65, [64, 128])).toBe(64 * 64 + 2 * 65);
    expect(encodePairs(100, [64, 128])).toBe(64 * 64 + 37 * 100);
  });

  it('refuses row blocks that are not increasing whole numbers', () => {
    expect(() => encodePairs(184, [128, 64])).toThrow(/row_blocks must be increasing/);
    expect(() => encodePairs(184, [0])).toThrow(/row_blocks/);
    expect(() => encodePairs(184, [64.5])).toThrow(/row_blocks/);
  });

  it('an encoding in blocks is the square less the attention it skips (3N - 1 attention layers, 4 d per pair)', () => {
    const whole = aktFlops(dims).encode(184);
    const blocked = aktFlops(dims, [64, 128]).encode(184);
    expect(whole - blocked).toBe(2 * 4 * 128 * (184 * 184 - encodePairs(184, [64, 128])));
    // the 106.2 MFLOP step of the model card (one row appended to a 199-row window, a readout of 110) has no encoding in it
    const f = aktFlops(dims, [64, 128]);
    expect(Math.abs((f.append(198) + f.readout(199, 110)) / 1e6 - 106.2)).toBeLessThan(0.05);
  });
});
