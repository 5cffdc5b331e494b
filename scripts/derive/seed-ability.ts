/**
 * The persona seeds' own ability (docs/learning-model.md, "The initial state: persona seeds"): for
 * every seed and tracer, the logit offset the engine's learner adds to every prediction, from the
 * seed's own warm-up rows with the estimator and shrinkage `npm run rollout` applies to held-out
 * students (abilityOffset, src/core/learner/rollout.ts: the maximum-likelihood offset c against the
 * uncalibrated tracer, w·(c − c̄) with w = τ²/(τ² + se²), c̄ and τ from generative-calibration.json).
 *
 *   npx tsx scripts/derive/seed-ability.ts [--tracer akt,bkt]
 *
 * Writes `ability.<tracer>.offsets` and `offsetsProvenance` into src/core/data/persona-seeds.json and
 * prints, per ability bucket, the mean offset and the seeds' mean initial mastery (all skills) with
 * the shift, without and with the offset.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { sharedNodeTracer } from '../../src/adapters/node/run-env';
import { abilityCalibration, abilityOffset, generativeShift, GENERATIVE_CALIBRATION_VERSION } from '../../src/core/learner/rollout';
import { unpackHistory, type PersonaSeedFile } from '../../src/core/learner/seeds';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const seedsPath = new URL('../../src/core/data/persona-seeds.json', import.meta.url);
const file = JSON.parse(readFileSync(seedsPath, 'utf8')) as PersonaSeedFile & Record<string, unknown>;
const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const mean = (x: readonly number[]) => x.reduce((a, b) => a + b, 0) / x.length;
const round = (x: number) => Math.round(x * 1e4) / 1e4;
for (const name of arg('--tracer', 'akt,bkt').split(',')) {
  const ab = file.ability[name];
  if (!ab) throw new Error(`persona seeds have no ability buckets for tracer "${name}" (have: ${Object.keys(file.ability).join(', ')})`);
  const cal = abilityCalibration(name);
  if (!cal) throw new Error(`no ability calibration for tracer "${name}" in src/core/data/generative-calibration.json`);
  const tracer = await sharedNodeTracer(name);
  const t0 = performance.now();
  const fits: Awaited<ReturnType<typeof abilityOffset>>[] = [];
  for (const s of file.seeds) fits.push(await abilityOffset(tracer, unpackHistory(s.h), cal));
  const offsets = fits.map((f) => round(f.offset));
  ab.offsets = offsets;
  ab.offsetsProvenance =
    `Derived by scripts/derive/seed-ability.ts with ${tracer.info.version} and ${GENERATIVE_CALIBRATION_VERSION} (c̄ ${cal.center}, τ ${cal.tau}, bound ±${cal.bound}): ` +
    `per seed, c = the maximum-likelihood logit offset of the seed's warm-up rows against the uncalibrated tracer (each row predicted from the rows before it), ` +
    `se = 1/√(Σ P(1 − P)) at c, offset = τ²/(τ² + se²) · (c − c̄), rounded to 1e-4 (src/core/learner/rollout.ts abilityOffset).`;
  const shift = generativeShift(name);
  console.log(`${name}: ${file.seeds.length} seeds in ${((performance.now() - t0) / 1000).toFixed(0)} s; c mean ${mean(fits.map((f) => f.c)).toFixed(3)}, ${fits.filter((f) => f.clamped).length} clamped at ±${cal.bound}; offsets mean ${mean(offsets).toFixed(3)}, range ${Math.min(...offsets).toFixed(2)} … ${Math.max(...offsets).toFixed(2)}`);
  console.log(`| bucket | seeds | mean warm-up rows | mean offset | initial mastery + shift | + offset |`);
  console.log(`|---|---:|---:|---:|---:|---:|`);
  for (const level of ['low', 'average', 'high'] as const) {
    const idx = ab.buckets.flatMap((b, i) => (b === level ? [i] : []));
    const base = mean(idx.map((i) => sigmoid(logit(ab.initial[i]!) + shift)));
    const moved = mean(idx.map((i) => sigmoid(logit(ab.initial[i]!) + shift + offsets[i]!)));
    console.log(`| ${level} | ${idx.length} | ${mean(idx.map((i) => file.seeds[i]!.n)).toFixed(0)} | ${mean(idx.map((i) => offsets[i]!)).toFixed(3)} | ${base.toFixed(3)} | ${moved.toFixed(3)} |`);
  }
}
writeFileSync(seedsPath, JSON.stringify(file) + '\n');
console.log(`wrote ${seedsPath.pathname}`);
