/**
 * Generative fidelity of the learner (docs/learning-model.md): closed-loop rollouts on the held-out
 * students of a fold, per tracer; overall (generated − real) accuracy and per decile. Exits 1 when
 * a tracer's mean is outside ±1.5 pp with its stored calibration.
 *
 *   npm run rollout -- [--data ../shared/data/assist2009_pid] [--fold 1] [--tracer akt,bkt] [--context 50] [--steps 150] [--repeats 2] [--students 0]
 *   npm run rollout -- --fit      # also search the logit shift that brings the mean to 0, and print it
 */
import { resolve } from 'node:path';
import { readTestFold } from '../src/adapters/node/datasets';
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { Rng } from '../src/core/rng/index';
import { generativeShift, rollout, type RolloutResult } from '../src/core/learner/rollout';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const data = arg('--data', resolve('../shared/data/assist2009_pid'));
const fold = Number(arg('--fold', '1'));
const o = { context: Number(arg('--context', '50')), steps: Number(arg('--steps', '150')), repeats: Number(arg('--repeats', '2')) };
const limit = Number(arg('--students', '0'));
const fit = process.argv.includes('--fit');
const TOLERANCE = 0.015;
const { students: all, source } = readTestFold(data, fold);
const eligible = all.filter((s) => s.skills.length >= o.context + o.steps);
const students = limit > 0 ? eligible.slice(0, limit) : eligible;
const env = nodeRunEnv();
const pp = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}`;
const show = (r: RolloutResult) => r.deciles.map((d) => pp(d.generated - d.real)).join(' ');
console.log(`${source}: ${students.length} held-out students with ≥ ${o.context + o.steps} rows; context ${o.context}, ${o.steps} steps, ${o.repeats} repeats\n`);
let ok = true;
for (const name of arg('--tracer', 'akt,bkt').split(',')) {
  const tracer = await env.tracer(name);
  const run = (shift: number) => rollout(tracer, students, { ...o, shift, rng: new Rng(7) });
  const raw = await run(0);
  const stored = generativeShift(name);
  const cal = stored === 0 ? raw : await run(stored);
  console.log(`${name}: uncalibrated ${pp(raw.meanDiff)} pp (deciles ${show(raw)})`);
  console.log(`${name}: calibrated (shift ${stored}) ${pp(cal.meanDiff)} pp (deciles ${show(cal)}); real accuracy by decile ${cal.deciles.map((d) => (d.real * 100).toFixed(1)).join(' ')}`);
  if (Math.abs(cal.meanDiff) > TOLERANCE) ok = false;
  if (fit) {
    // Bisection on the shift: the mean difference falls as the shift falls.
    let lo = Number(arg("--lo", "-1")), hi = Number(arg("--hi", "1"));
    for (let i = 0; i < 7; i++) {
      const mid = (lo + hi) / 2;
      const r = await run(mid);
      console.log(`  fit: shift ${mid.toFixed(4)} → ${pp(r.meanDiff)} pp`);
      if (r.meanDiff > 0) hi = mid;
      else lo = mid;
    }
    console.log(`${name}: fitted shift ${((lo + hi) / 2).toFixed(3)}`);
  }
}
process.exitCode = ok ? 0 : 1;
