/**
 * Trace pins: SHA-256 of the JSONL traces the three reference tutors produce on a fixed set of
 * scenarios × seeds, on the AKT and the BKT learner. A refactor must keep them; a deliberate
 * behaviour change bumps ENGINE_VERSION and re-pins (`npm run pins -- --write`).
 *
 *   npm run pins                    check every pin (AKT and BKT, full horizons)
 *   npm run pins -- --write         re-record them into scripts/pins/trace-pins.json
 *   npm run pins -- --tracer bkt    only one learner model
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PIN_KT_RUNTIME, PIN_SCENARIOS, PIN_SEEDS, PIN_TUTORS, pinTrace } from './pin-runs';

const PIN_FILE = fileURLToPath(new URL('./trace-pins.json', import.meta.url));
const args = process.argv.slice(2);
const write = args.includes('--write');
const ti = args.indexOf('--tracer');
const tracers = ti >= 0 ? [args[ti + 1]!] : ['bkt', 'akt'];
const old: Record<string, string> = JSON.parse(readFileSync(PIN_FILE, 'utf8').toString() || '{}').pins ?? {};
const pins: Record<string, string> = { ...old };
let bad = 0;
let n = 0;
const t0 = performance.now();
for (const tracer of tracers) {
  for (const file of PIN_SCENARIOS) {
    for (const tutor of PIN_TUTORS) {
      for (const seed of PIN_SEEDS) {
        const { key, jsonl } = await pinTrace(file, tutor, seed, tracer);
        const hash = createHash('sha256').update(jsonl).digest('hex');
        n++;
        if (write) pins[key] = hash;
        else if (old[key] !== hash) {
          bad++;
          console.error(`MISMATCH ${key}: pinned ${old[key] ?? '(none)'}, now ${hash}`);
        }
      }
    }
  }
}
if (write) {
  writeFileSync(PIN_FILE, JSON.stringify({ note: 'SHA-256 of reference-tutor traces; written by `npm run pins -- --write`', pins: Object.fromEntries(Object.entries(pins).sort()) }, null, 1) + '\n');
  console.log(`wrote ${n} pins to ${PIN_FILE} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
} else {
  console.log(`${n - bad} of ${n} traces match their pins (${((performance.now() - t0) / 1000).toFixed(1)} s; AKT on ${PIN_KT_RUNTIME})`);
  if (bad) process.exit(1);
}
