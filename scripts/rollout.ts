/**
 * Generative fidelity of the learner (docs/learning-model.md): closed-loop rollouts on the held-out
 * students of a fold, per tracer, of the engine's own learner: the stored shift and each student's
 * ability offset from its warm-up rows (abilityOffset, the estimator and shrinkage the persona seeds
 * were derived with). Reports the mean (generated − real) accuracy, the per-decile errors (by decile
 * of real rollout accuracy, of warm-up accuracy, and each distribution sorted on its own) and the
 * SD ratio (SD of generated / SD of real accuracy over students). Exits 1 when a tracer's mean is
 * outside ±1.5 pp.
 *
 *   npm run rollout -- [--data ../shared/data/assist2009_pid] [--fold 1] [--tracer akt,bkt] [--context 50] [--steps 150] [--repeats 2] [--students 0]
 *   npm run rollout -- --no-ability [--shift -0.21]   # the shift alone (no per-student ability; engine 3 with its shift), for comparison
 *   npm run rollout -- --fit          # also search the logit shift that brings the mean to 0 (with the offsets), and print it
 *   npm run rollout -- --fit-ability --split valid --repeats 1
 *       # search τ of the ability shrinkage whose closed-loop SD ratio is 1 (c̄ re-weighted for each τ), and print it
 *   npm run rollout -- --per-student-ability [--bound 4] [--ability-scale 1] [--split test|valid]
 *       # the lab note's analysis (docs/measurements/2026-12-03-per-student-ability.md): a raw and a
 *       # centred × scale offset fitted with the shift, open-loop references, per-decile errors side by side
 */
import { resolve } from 'node:path';
import { readFold } from '../src/adapters/node/datasets';
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { Rng } from '../src/core/rng/index';
import { GENERATIVE_TOLERANCE, abilityCalibration, decilesBy, fitAbilityOffset, generativeShift, learnerRollout, olsSlope, openLoopAccuracy, rollout, type AbilityCalibration, type RolloutResult } from '../src/core/learner/rollout';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const data = arg('--data', resolve('../shared/data/assist2009_pid'));
const fold = Number(arg('--fold', '1'));
const o = { context: Number(arg('--context', '50')), steps: Number(arg('--steps', '150')), repeats: Number(arg('--repeats', '2')) };
const limit = Number(arg('--students', '0'));
const fit = process.argv.includes('--fit');
const fitAbility = process.argv.includes('--fit-ability');
const noAbility = process.argv.includes('--no-ability');
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
console.log(`${source}: ${students.length} ${split === 'test' ? 'held-out' : 'validation'} students with ≥ ${o.context + o.steps} rows; context ${o.context}, ${o.steps} steps, ${o.repeats} repeats\n`);
let ok = true;
for (const name of arg('--tracer', 'akt,bkt').split(',')) {
  const tracer = await env.tracer(name);
  const stored = process.argv.includes('--shift') ? Number(arg('--shift', '')) : generativeShift(name);
  if (!Number.isFinite(stored)) throw new Error(`--shift must be a number of logits (got ${arg('--shift', '')})`);
  const cal = abilityCalibration(name);
  if (!cal) throw new Error(`no ability calibration for tracer "${name}" in src/core/data/generative-calibration.json`);
  const run = (shift: number) => (noAbility ? rollout(tracer, students, { ...o, shift, rng: new Rng(7) }) : learnerRollout(tracer, students, { ...o, shift, rng: new Rng(7) }));
  const res = await run(stored);
  const label = noAbility ? `shift ${stored} only (no per-student ability)` : `the engine's learner: shift ${stored}, ability offset (c̄ ${cal.center}, τ ${cal.tau})`;
  report(name, label, res);
  if ('fits' in res) {
    const offs = (res as Awaited<ReturnType<typeof learnerRollout>>).rows.map((r) => r.offset);
    console.log(`${name}: ability offsets applied: mean ${mean(offs).toFixed(3)}, SD ${sd(offs).toFixed(3)}, range ${Math.min(...offs).toFixed(2)} … ${Math.max(...offs).toFixed(2)}; ${(res as Awaited<ReturnType<typeof learnerRollout>>).fits.filter((f) => f.clamped).length} warm-ups clamped`);
  }
  if (Math.abs(res.meanDiff) > TOLERANCE) ok = false;
  if (perStudent) await perStudentAbility(name, tracer, stored, noAbility ? res : await rollout(tracer, students, { ...o, shift: stored, rng: new Rng(7) }));
  if (fit) {
    // Bisection on the shift: the mean difference falls as the shift falls.
    let lo = Number(arg('--lo', '-1')), hi = Number(arg('--hi', '1'));
    for (let i = 0; i < 7; i++) {
      const mid = (lo + hi) / 2;
      const r = await run(mid);
      console.log(`  fit: shift ${mid.toFixed(4)} → ${pp(r.meanDiff)} pp`);
      if (r.meanDiff > 0) hi = mid;
      else lo = mid;
    }
    console.log(`${name}: fitted shift ${((lo + hi) / 2).toFixed(3)}${noAbility ? ' (without per-student ability)' : ' (with the ability offsets)'}`);
  }
  if (fitAbility) await fitTau(name, tracer, stored, cal);
}
process.exitCode = ok ? 0 : 1;

function mean(x: readonly number[]): number {
  return x.reduce((a, b) => a + b, 0) / x.length;
}

/** Mean, the three per-decile groupings, the SD ratio and the criterion of the lab note, for one closed-loop result. */
function report(name: string, label: string, r: RolloutResult) {
  const rows = r.rows;
  const line = (ds: { real: number; generated: number }[]) => ds.map((d) => pp(d.generated - d.real).padStart(6)).join(' ');
  const maxAbs = (ds: { real: number; generated: number }[]) => Math.max(...ds.map((d) => Math.abs(d.generated - d.real)));
  const byReal = decilesBy(rows, (x) => x.real, (x) => x.generated);
  const byWarm = decilesBy(rows, (x) => x.warmup, (x) => x.generated);
  const a = rows.map((x) => x.real).sort((p, q) => p - q), b = rows.map((x) => x.generated).sort((p, q) => p - q);
  const sorted = decilesBy(a.map((real, i) => ({ real, g: b[i]! })), (x) => x.real, (x) => x.g);
  const ratio = sd(rows.map((x) => x.generated)) / sd(rows.map((x) => x.real));
  console.log(`${name}: ${label}`);
  console.log(`  mean generated − real ${pp(r.meanDiff)} pp over ${r.students} students; SD ratio ${ratio.toFixed(2)} (SD of real ${(sd(rows.map((x) => x.real)) * 100).toFixed(1)} pp)`);
  console.log(`  by decile of real rollout accuracy (real ${byReal.map((d) => (d.real * 100).toFixed(1)).join(' ')}): ${line(byReal)}  max ${(maxAbs(byReal) * 100).toFixed(1)}`);
  console.log(`  by decile of warm-up accuracy:                                         ${line(byWarm)}  max ${(maxAbs(byWarm) * 100).toFixed(1)}`);
  console.log(`  each distribution sorted on its own:                                   ${line(sorted)}  max ${(maxAbs(sorted) * 100).toFixed(1)}`);
  const holds = maxAbs(sorted) <= CRITERION.decile && ratio >= CRITERION.sdRatio[0] && ratio <= CRITERION.sdRatio[1] && Math.abs(r.meanDiff) <= TOLERANCE;
  console.log(`  criterion (sorted deciles within ±${CRITERION.decile * 100} pp, SD ratio ${CRITERION.sdRatio.join('–')}, mean within ±${TOLERANCE * 100} pp; proposed, not the exit code): ${holds ? 'holds' : 'fails'}\n`);
}

/**
 * τ of the ability shrinkage, on the students read (use --split valid): bisection for the τ whose
 * closed-loop SD ratio is 1, with c̄ the precision-weighted mean Σ c/(τ² + se²) / Σ 1/(τ² + se²) of
 * the students' offsets for each τ. Also prints the method-of-moments τ (variance of c less the
 * mean se²) as a reference. The shift is the stored one.
 */
async function fitTau(name: string, tracer: Awaited<ReturnType<typeof env.tracer>>, shift: number, cal: AbilityCalibration) {
  const fits: { c: number; se: number }[] = [];
  for (const st of students) fits.push(await fitAbilityOffset(tracer, st, { context: o.context, shift: 0, bound: cal.bound }).then((f) => ({ c: f.offset, se: f.se })));
  const center = (tau: number) => {
    const w = fits.map((f) => 1 / (tau * tau + f.se * f.se));
    return fits.reduce((a, f, i) => a + w[i]! * f.c, 0) / w.reduce((a, b) => a + b, 0);
  };
  const mom = Math.sqrt(Math.max(0, sd(fits.map((f) => f.c)) ** 2 - mean(fits.map((f) => f.se * f.se))));
  console.log(`${name}: offsets c (shift 0, ${o.context} warm-up rows): mean ${mean(fits.map((f) => f.c)).toFixed(3)}, SD ${sd(fits.map((f) => f.c)).toFixed(3)}, mean se ${mean(fits.map((f) => f.se)).toFixed(3)}; method-of-moments τ ${mom.toFixed(3)}`);
  const ratioAt = async (tau: number) => {
    const c = { ...cal, tau, center: center(tau) };
    const r = await learnerRollout(tracer, students, { ...o, shift, rng: new Rng(7), calibration: c });
    return { ratio: sd(r.rows.map((x) => x.generated)) / sd(r.rows.map((x) => x.real)), mean: r.meanDiff, center: c.center };
  };
  let lo = Number(arg('--tau-lo', '0')), hi = Number(arg('--tau-hi', '2'));
  for (let i = 0; i < Number(arg('--tau-steps', '7')); i++) {
    const mid = (lo + hi) / 2;
    const r = await ratioAt(mid);
    console.log(`  fit-ability: τ ${mid.toFixed(4)} (c̄ ${r.center.toFixed(4)}) → SD ratio ${r.ratio.toFixed(3)}, mean ${pp(r.mean)} pp`);
    if (r.ratio > 1) hi = mid;
    else lo = mid;
  }
  const tau = (lo + hi) / 2;
  console.log(`${name}: fitted τ ${tau.toFixed(3)}, c̄ ${center(tau).toFixed(4)}`);
}

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
