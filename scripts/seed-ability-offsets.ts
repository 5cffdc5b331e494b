/**
 * What a per-learner ability offset would do to the ability levels (docs/measurements/
 * 2026-12-03-per-student-ability.md, "What it would take"): for every persona seed, the
 * maximum-likelihood logit offset on its own warm-up rows (fitAbilityOffset, as
 * `npm run rollout -- --per-student-ability` fits it on held-out students), by ability bucket, and a
 * proxy of the day-0 level: the seeds' mean initial mastery (persona-seeds.json, all 110 skills)
 * moved by λ × the centred offset. A proxy, not the probe solve rate; the analysis behind the plan
 * (engine 3). The engine's own offsets (engine 4): scripts/derive/seed-ability.ts.
 *
 *   npx tsx scripts/seed-ability-offsets.ts [--tracer akt,bkt] [--scales 0.5,1]
 */
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { loadPersonaSeeds } from '../src/core/index';
import { fitAbilityOffset, generativeShift } from '../src/core/learner/rollout';
import { unpackHistory } from '../src/core/learner/seeds';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const scales = arg('--scales', '0.5,1').split(',').map(Number);
if (scales.some((x) => !(x >= 0))) throw new Error(`--scales must be numbers ≥ 0 (got ${arg('--scales', '0.5,1')})`);
const file = await loadPersonaSeeds();
const env = nodeRunEnv();
const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const mean = (x: readonly number[]) => x.reduce((a, b) => a + b, 0) / x.length;
console.log(`${file.count} persona seeds (${file.version}); warm-up ${Math.min(...file.seeds.map((s) => s.n))}–${Math.max(...file.seeds.map((s) => s.n))} rows\n`);
for (const name of arg('--tracer', 'akt,bkt').split(',')) {
  const ab = file.ability[name];
  if (!ab) throw new Error(`persona seeds have no ability buckets for tracer "${name}" (have: ${Object.keys(file.ability).join(', ')})`);
  const tracer = await env.tracer(name);
  const shift = generativeShift(name);
  const a: number[] = [];
  let clamped = 0;
  for (const s of file.seeds) {
    const h = unpackHistory(s.h);
    const f = await fitAbilityOffset(tracer, { skills: h.map((x) => x.skill), questions: h.map((x) => x.question), responses: h.map((x) => (x.correct ? 1 : 0)) }, { context: h.length, shift, bound: 4 });
    a.push(f.offset);
    if (f.clamped) clamped++;
  }
  const center = mean(a);
  console.log(`${name} (shift ${shift}): offsets mean ${center.toFixed(3)}, ${clamped} clamped at ±4`);
  console.log(`| bucket | seeds | centred offset, mean | initial mastery + shift | ${scales.map((l) => `+ ${l} × centred offset`).join(' | ')} |`);
  console.log(`|---|---:|---:|---:|${scales.map(() => '---:').join('|')}|`);
  for (const level of ['low', 'average', 'high'] as const) {
    const idx = ab.buckets.flatMap((b, i) => (b === level ? [i] : []));
    const base = mean(idx.map((i) => sigmoid(logit(ab.initial[i]!) + shift)));
    const moved = scales.map((l) => mean(idx.map((i) => sigmoid(logit(ab.initial[i]!) + shift + l * (a[i]! - center)))));
    console.log(`| ${level} | ${idx.length} | ${mean(idx.map((i) => a[i]! - center)).toFixed(3)} | ${base.toFixed(3)} | ${moved.map((x) => x.toFixed(3)).join(' | ')} |`);
  }
  console.log('');
}
