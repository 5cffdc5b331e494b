/**
 * The engine keeps the reference tutors' traces byte for byte. Checks every BKT pin (full
 * horizons) and the AKT pins of the 3-day fixture; `npm run pins` checks all of them, AKT included.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PIN_SCENARIOS, PIN_SEEDS, PIN_TUTORS, pinTrace } from './pin-runs';

const pins: Record<string, string> = JSON.parse(readFileSync(new URL('./trace-pins.json', import.meta.url), 'utf8')).pins;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('trace pins', () => {
  it('has a pin for every reference run on both learner models', () => {
    expect(Object.keys(pins)).toHaveLength(2 * PIN_SCENARIOS.length * PIN_TUTORS.length * PIN_SEEDS.length);
  });

  it('BKT: every reference tutor on every pinned scenario and seed gives the pinned trace', async () => {
    for (const file of PIN_SCENARIOS)
      for (const tutor of PIN_TUTORS)
        for (const seed of PIN_SEEDS) {
          const { key, jsonl } = await pinTrace(file, tutor, seed, 'bkt');
          expect(sha(jsonl), key).toBe(pins[key]);
        }
  }, 120_000);

  it('AKT: the 3-day fixture gives the pinned traces', async () => {
    for (const tutor of PIN_TUTORS)
      for (const seed of PIN_SEEDS) {
        const { key, jsonl } = await pinTrace('scenarios/fixtures/mini-3day.yaml', tutor, seed, 'akt');
        expect(sha(jsonl), key).toBe(pins[key]);
      }
  }, 120_000);
});
