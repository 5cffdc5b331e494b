import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

type Generator = ReturnType<typeof xoroshiro128plus>;

/**
 * 32-bit FNV-1a hash of a string. Used only to turn a stream label into a seed, so that every
 * part of a run (probes, persona, voice, item generation) draws from its own stream and adding
 * draws to one part never shifts another's numbers. A library would be overkill for 8 lines.
 */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Seeded random source. All randomness in the core comes from an `Rng`; the core never calls
 * `Math.random()`. `fork(label)` derives an independent stream named by a label.
 */
export class Rng {
  readonly seed: number;
  #gen: Generator;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    this.#gen = xoroshiro128plus(this.seed);
  }

  /** Independent child stream; the same (seed, label) always gives the same stream. */
  fork(label: string): Rng {
    return new Rng(hashString(`${this.seed}:${label}`));
  }

  /** Uniform in [0, 1). */
  next(): number {
    return uniformFloat64(this.#gen);
  }

  /** Uniform integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return uniformInt(this.#gen, lo, hi);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Rng.pick: empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** Normal draw (Box–Muller). */
  normal(mean = 0, sd = 1): number {
    const u = Math.max(this.next(), Number.EPSILON);
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
