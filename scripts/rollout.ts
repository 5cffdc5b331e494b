/**
 * Generative fidelity of the learner (docs/learning-model.md): closed-loop rollouts on the held-out
 * students of a fold, per tracer; overall (generated − real) accuracy and per decile. Exits 1 when
 * a tracer's mean is outside ±1.5 pp with its stored calibration.
 *
 *   npm run rollout -- [--data ../shared/data/assist2009_pid] [--fold 1] [--tracer akt,bkt] [--context 50] [--steps 150] [--repeats 2] [--students 0]
 *   npm run rollout -- --fit      # also search the logit shift that brings the mean to 0, and print it
 *   npm run rollout -- --per-student-ability [--bound 4] [--ability-scale 1] [--split test|valid]
 *       # also: each student's ability as a logit offset fitted on its warm-up (context) rows only,
 *       # the rollout redone with it (raw, and centred × the scale), and open-loop references;
 *       # per-decile errors side by side. --split valid: the fold's validation students instead
 */
import { resolve } from 'node:path';
import { readFold } from '../src/adapters/node/datasets';
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { Rng } from '../src/core/rng/index';
import { GENERATIVE_TOLERANCE, decilesBy, fitAbilityOffset, generativeShift, olsSlope, openLoopAccuracy, rollout, type RolloutResult } from '../src/core/learner/rollout';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const data = arg('--data', resolve('../shared/data/assist2009_pid'));
const fold = Number(arg('--fold', '1'));
const o = { context: Number(arg('--context', '50')), steps: Number(arg('--steps', '150')), repeats: Number(arg('--repeats', '2')) };
const limit = Number(arg('--students', '0'));
const fit = process.argv.includes('--fit');
const perStudent = process.argv.includes('--per-student-ability');
const bound = Number(arg('--bound', '4'));
const scale = Number(arg('--ability-scale', '1'));
if (!(scale >= 0)) throw new Error(`--ability-scale must be a number ≥ 0 (got ${arg('--ability-scale', '1')})`);
if (!(bound > 0)) throw new Error(`--bound must be a positive number of logits (got ${arg('--bound', '4')})`);
const TOLERANCE = GENERATIVE_TOLERANCE;
const CRITERION = { decile: 0.08, sdRatio: [0.85, 1.15] as const };
const split = arg('--split', 'test');
if (split !== 'test' && split !== 'valid') throw new Error(`--split must be test or valid (got ${split})`);
const { students: all, source } = readFold(data, fold, split);
const eligible = all.filter((s) => s.skills.length >= o.context + o.steps);
const students = limit > 0 ? eligible.slice(0, limit) : eligible;
const env = nodeRunEnv();
const pp = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}`;
const show = (r: RolloutResult) => r.deciles.map((d) => pp(d.generated - d.real)).join(' ');
console.log(`${source}: ${students.length} ${split === 'test' ? 'held-out' : 'validation'} students with ≥ ${o.context + o.steps} rows; context ${o.context}, ${o.steps} steps, ${o.repeats} repeats\n`);
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
  if (perStudent) await perStudentAbility(name, tracer, stored, cal);
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

/**
 * Is the regression to the mean a loss of the student's own ability? Each student's ability as a
 * logit offset fitted on the warm-up rows only (no rollout row is read), the rollout redone with
 * it on the same draws, and open-loop references that separate "the tracer's belief at the start"
 * from "the drift while it reads its own samples". docs/measurements/2026-12-03-per-student-ability.md.
 */
async function perStudentAbility(name: string, tracer: Awaited<ReturnType<typeof env.tracer>>, shift: number, before: RolloutResult) {
  const fits: Awaited<ReturnType<typeof fitAbilityOffset>>[] = [];
  for (const st of students) fits.push(await fitAbilityOffset(tracer, st, { context: o.context, shift, bound }));
  const offsets = fits.map((f) => f.offset);
  // The offsets also carry a population part (the warm-up rows read with the closed-loop shift);
  // centred, they keep only how the student differs from the other held-out students' warm-ups.
  const meanOffset = offsets.reduce((a, b) => a + b, 0) / offsets.length;
  const centred = offsets.map((a) => scale * (a - meanOffset));
  const after = await rollout(tracer, students, { ...o, shift, rng: new Rng(7), offsets });
  const afterC = await rollout(tracer, students, { ...o, shift, rng: new Rng(7), offsets: centred });
  type Open = Awaited<ReturnType<typeof openLoopAccuracy>>;
  const open: { plain: Open; withOffset: Open; withCentred: Open }[] = [];
  for (const [i, st] of students.entries()) {
    const plain = await openLoopAccuracy(tracer, st, { context: o.context, steps: o.steps, shift });
    const withOffset = await openLoopAccuracy(tracer, st, { context: o.context, steps: o.steps, shift, offset: offsets[i] });
    const withCentred = await openLoopAccuracy(tracer, st, { context: o.context, steps: o.steps, shift, offset: centred[i] });
    open.push({ plain, withOffset, withCentred });
  }
  const sorted = [...offsets].sort((a, b) => a - b);
  const q = (f: number) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))]!;
  console.log(`\n${name}: per-student ability (logit offset on top of the shift ${shift}, fitted on the ${o.context} warm-up rows; bound ±${bound}): mean ${meanOffset.toFixed(2)}, median ${q(0.5).toFixed(2)}, 10–90% ${q(0.1).toFixed(2)} … ${q(0.9).toFixed(2)}, ${fits.filter((f) => f.clamped).length} clamped; correlation with warm-up accuracy ${corr(offsets, before.rows.map((r) => r.warmup)).toFixed(2)}`);
  // Every column as (student → value); real is the student's accuracy over the rollout rows.
  const rows = before.rows.map((r, i) => ({
    real: r.real,
    warmup: r.warmup,
    closedBefore: r.generated,
    closedBeforeExp: r.expected,
    closedAfter: after.rows[i]!.generated,
    closedAfterExp: after.rows[i]!.expected,
    closedCentred: afterC.rows[i]!.generated,
    closedCentredExp: afterC.rows[i]!.expected,
    frozenCentred: open[i]!.withCentred.frozen,
    frozenBefore: open[i]!.plain.frozen,
    frozenAfter: open[i]!.withOffset.frozen,
    persistence: r.warmup,
    teacherForced: open[i]!.plain.teacherForced,
  }));
  type Row = (typeof rows)[number];
  const cols: { label: string; v: (x: Row) => number; slopeOf?: (x: Row) => number }[] = [
    { label: 'closed loop, shift only (today)', v: (x) => x.closedBefore, slopeOf: (x) => x.closedBeforeExp },
    { label: 'closed loop, shift + own ability', v: (x) => x.closedAfter, slopeOf: (x) => x.closedAfterExp },
    { label: `closed loop, shift + own ability centred ×${scale}`, v: (x) => x.closedCentred, slopeOf: (x) => x.closedCentredExp },
    { label: 'frozen at warm-up, shift only', v: (x) => x.frozenBefore },
    { label: 'frozen at warm-up, + own ability', v: (x) => x.frozenAfter },
    { label: `frozen at warm-up, + own ability centred ×${scale}`, v: (x) => x.frozenCentred },
    { label: 'warm-up accuracy (no model)', v: (x) => x.persistence },
    { label: 'teacher-forced (reads real rows; reference)', v: (x) => x.teacherForced },
  ];
  const byReal = (c: (typeof cols)[number]) => decilesBy(rows, (x) => x.real, c.v);
  const byWarm = (c: (typeof cols)[number]) => decilesBy(rows, (x) => x.warmup, c.v);
  const line = (ds: { real: number; generated: number }[]) => ds.map((d) => pp(d.generated - d.real).padStart(6)).join(' ');
  const maxAbs = (ds: { real: number; generated: number }[]) => Math.max(...ds.map((d) => Math.abs(d.generated - d.real)));
  console.log(`\n${name}: value − real, pp, by decile of real rollout accuracy (real: ${byReal(cols[0]!).map((d) => (d.real * 100).toFixed(1)).join(' ')})`);
  for (const c of cols) console.log(`  ${c.label.padEnd(50)} ${line(byReal(c))}`);
  console.log(`${name}: value − real, pp, by decile of warm-up accuracy (real: ${byWarm(cols[0]!).map((d) => (d.real * 100).toFixed(1)).join(' ')})`);
  for (const c of cols) console.log(`  ${c.label.padEnd(50)} ${line(byWarm(c))}`);
  // The population view: real and generated accuracies each sorted on their own (decile means of
  // each distribution; a generator of students should match it, whatever student is whose).
  const quant = (v: (x: Row) => number) => {
    const a = [...rows.map((x) => x.real)].sort((p, q) => p - q), b = [...rows.map(v)].sort((p, q) => p - q);
    return decilesBy(a.map((real, i) => ({ real, g: b[i]! })), (x) => x.real, (x) => x.g);
  };
  console.log(`${name}: value − real, pp, decile by decile of each distribution sorted on its own (real: ${quant(cols[0]!.v).map((d) => (d.real * 100).toFixed(1)).join(' ')})`);
  for (const c of cols) console.log(`  ${c.label.padEnd(50)} ${line(quant(c.v))}`);
  const realSd = sd(rows.map((x) => x.real));
  console.log(`${name}: summary (slope: OLS of real on the value over students, 1 = the right spread, > 1 = too little spread; [95% bootstrap]; SD ratio: SD of the value / SD of real ${(realSd * 100).toFixed(1)} pp)`);
  console.log(`  ${'column'.padEnd(50)}   mean  slope [95%]          SD ratio  max|decile| real / warm-up / sorted`);
  for (const c of cols) {
    const s = c.slopeOf ?? c.v;
    const x = rows.map(s), y = rows.map((r) => r.real);
    const [lo, hi] = bootSlope(x, y);
    const mean = rows.reduce((a, r) => a + c.v(r) - r.real, 0) / rows.length;
    console.log(`  ${c.label.padEnd(50)} ${pp(mean).padStart(6)}  ${olsSlope(x, y).toFixed(2)} [${lo.toFixed(2)}, ${hi.toFixed(2)}]  ${(sd(rows.map(c.v)) / realSd).toFixed(2).padStart(8)}  ${(maxAbs(byReal(c)) * 100).toFixed(1)} / ${(maxAbs(byWarm(c)) * 100).toFixed(1)} / ${(maxAbs(quant(c.v)) * 100).toFixed(1)}`);
  }
  // The proposed per-decile criterion (docs/measurements/2026-12-03-per-student-ability.md; set
  // after the first measurement, not enforced by the exit code): a generator's population of
  // students matches the real one decile by decile, with the real spread and the real mean.
  for (const c of cols.slice(0, 3)) {
    const mean = rows.reduce((a, r) => a + c.v(r) - r.real, 0) / rows.length;
    const worst = maxAbs(quant(c.v)), ratio = sd(rows.map(c.v)) / realSd;
    const holds = worst <= CRITERION.decile && ratio >= CRITERION.sdRatio[0] && ratio <= CRITERION.sdRatio[1] && Math.abs(mean) <= TOLERANCE;
    console.log(`${name}: criterion (sorted deciles within ±${CRITERION.decile * 100} pp, SD ratio ${CRITERION.sdRatio.join('–')}, mean within ±${TOLERANCE * 100} pp): ${c.label}: ${holds ? 'holds' : 'fails'} (${(worst * 100).toFixed(1)} pp, ${ratio.toFixed(2)}, ${pp(mean)} pp)`);
  }
}

function sd(x: readonly number[]): number {
  const m = x.reduce((a, b) => a + b, 0) / x.length;
  return Math.sqrt(x.reduce((a, b) => a + (b - m) ** 2, 0) / (x.length - 1));
}
function corr(x: readonly number[], y: readonly number[]): number {
  return (olsSlope(x, y) * sd(x)) / sd(y);
}
/** Percentile bootstrap over students (2,000 resamples, fixed seed). */
function bootSlope(x: readonly number[], y: readonly number[]): [number, number] {
  const r = new Rng(11);
  const s: number[] = [];
  for (let b = 0; b < 2000; b++) {
    const xs: number[] = [], ys: number[] = [];
    for (let i = 0; i < x.length; i++) {
      const j = r.int(0, x.length - 1);
      xs.push(x[j]!);
      ys.push(y[j]!);
    }
    s.push(olsSlope(xs, ys));
  }
  s.sort((a, b) => a - b);
  return [s[50]!, s[1949]!];
}
