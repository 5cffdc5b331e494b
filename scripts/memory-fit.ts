/**
 * Fits the memory model's λ (logits per unit of activation lost) and checks its cap against the
 * published figures on the retention of a maths procedure (no dataset in ../shared/data has time
 * stamps). The decay model itself (c, α, h) is Pavlik & Anderson (2005) and is not refitted here.
 *
 *   npx tsx scripts/memory-fit.ts [--pace 1]   # minutes per practice problem in a session
 *
 * Published figures used (only those we could read; docs/validity.md "Spacing"):
 *  - Rohrer & Taylor (2006), Applied Cognitive Psychology 20:1209–1224, Experiment 1: 10 permutation
 *    problems massed in one session, or 5 + 5 in two sessions one week apart; test 1 or 4 weeks after
 *    the last practice session. Abstract: "The benefit of distributed practise was nil among students
 *    who were tested 1 week later but extremely large among students tested 4 weeks later"; the
 *    4-week test was "virtually doubled". 4-week scores 32 % (massed) and 64 % (spaced), as quoted by
 *    a secondary summary of the paper (we could not read the paper's results section itself).
 *  - Same paper, Experiment 2: 3 or 9 problems in one session; no effect of the extra 6 on the 1- or
 *    4-week test (abstract; no numbers read).
 *  - Ebersbach & Barzagar Nazari (2020), Frontiers in Psychology 11:811, "No Robust Effect of
 *    Distributed Practice on the Short- and Long-Term Retention of Mathematical Procedures": N = 235,
 *    permutation tasks, inter-study interval 0, 1 or 11 days, test after 1 or 5 weeks: no effect of
 *    spacing, poorer after 5 than 1 week (abstract; no numbers read).
 *
 * Model of a test: P(correct) = σ(logit(p0) − λ · min(cap, m(anchor) − m(test))), anchor = last
 * practice + 1 h, with the project's SkillMemory giving m. p0 (the solve rate right after practice)
 * is not read from the paper: p0 = 0.8, the level the simulator's learners reach after practice; λ
 * and p0 fitted together, and other fixed p0, are printed as sensitivity. The two studies bracket λ
 * (the 2020 null from below, Rohrer & Taylor from above); the engine's λ must lie inside (exit 1).
 */
import { MEMORY, SkillMemory } from '../src/core/learner/memory';

const DAY = 1440;
const args = process.argv.slice(2);
const paceArg = args.includes('--pace') ? args[args.indexOf('--pace') + 1] : '1';
const pace = Number(paceArg);
if (!(pace > 0 && pace < 60)) throw new Error(`--pace must be minutes per problem in (0, 60) (got ${paceArg})`);

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const logit = (p: number) => Math.log(p / (1 - p));

/** Activation lost between the anchor (last practice + 1 h) and the test, for practice sessions given as [day, problems]. */
function lost(sessions: [number, number][], testDaysAfterLast: number): number {
  const m = new SkillMemory();
  let last = 0;
  for (const [day, n] of sessions) for (let i = 0; i < n; i++) m.practise(1, (last = day * DAY + 16 * 60 + i * pace));
  const anchor = last + MEMORY.sittingMinutes;
  const lastDay = sessions[sessions.length - 1]![0];
  return m.activation(1, anchor) - m.activation(1, lastDay * DAY + 16 * 60 + testDaysAfterLast * DAY);
}

const design = {
  massed: [[7, 10]] as [number, number][],
  spaced: [[0, 5], [7, 5]] as [number, number][],
  three: [[0, 3]] as [number, number][],
  nine: [[0, 9]] as [number, number][],
};
const L = {
  massed1: lost(design.massed, 7),
  massed4: lost(design.massed, 28),
  spaced1: lost(design.spaced, 7),
  spaced4: lost(design.spaced, 28),
  three1: lost(design.three, 7),
  three4: lost(design.three, 28),
  nine1: lost(design.nine, 7),
  nine4: lost(design.nine, 28),
  // Ebersbach & Barzagar Nazari (2020): ISI 0, 1, 11 days (two sessions), test 5 weeks after the last
  isi0w5: lost([[11, 10]], 35),
  isi1w5: lost([[10, 5], [11, 5]], 35),
  isi11w5: lost([[0, 5], [11, 5]], 35),
};
const f = (x: number, d = 3) => x.toFixed(d);
console.log(`Activation lost (m(anchor) − m(test)), pace ${pace} min/problem, Pavlik & Anderson c=${MEMORY.c} α=${MEMORY.alpha} h=${MEMORY.h}:`);
for (const [k, v] of Object.entries(L)) console.log(`  ${k.padEnd(8)} ${f(v)}`);

/** Points: [lost activation, observed accuracy]. */
type Point = { name: string; lost: number; obs: number };
const exp1: Point[] = [
  { name: 'R&T Exp1 massed, 4 wk', lost: L.massed4, obs: 0.32 },
  { name: 'R&T Exp1 spaced, 4 wk', lost: L.spaced4, obs: 0.64 },
];

function sse(points: Point[], p0: number, lambda: number, cap: number): number {
  return points.reduce((s, p) => s + (sigmoid(logit(p0) - lambda * Math.min(cap, p.lost)) - p.obs) ** 2, 0);
}

/** Grid search of λ (and p0 unless fixed); cap = ∞ unless given. */
function fit(points: Point[], fixedP0?: number, cap = Infinity) {
  let best = { p0: NaN, lambda: NaN, sse: Infinity };
  const p0s = fixedP0 !== undefined ? [fixedP0] : Array.from({ length: 91 }, (_, i) => 0.5 + i * 0.005) // p0 ≤ 0.95: the solve rate right after practice with feedback;
  for (const p0 of p0s)
    for (let lambda = 0; lambda <= 6.0001; lambda += 0.005) {
      const e = sse(points, p0, lambda, cap);
      if (e < best.sse) best = { p0, lambda, sse: e };
    }
  return best;
}

function report(label: string, points: Point[], r: { p0: number; lambda: number; sse: number }, cap = Infinity) {
  console.log(`\n${label}: λ = ${f(r.lambda)} logit/unit, p0 = ${f(r.p0)}, SSE = ${r.sse.toExponential(2)}`);
  for (const p of points) {
    const pred = sigmoid(logit(r.p0) - r.lambda * Math.min(cap, p.lost));
    console.log(`  ${p.name.padEnd(28)} observed ${f(p.obs * 100, 1)} %  model ${f(pred * 100, 1)} %  residual ${f((pred - p.obs) * 100, 1)} pp`);
  }
}

// p0 fixed at 0.8, the simulator's own post-practice level (its learners plateau near 0.77–0.8
// after long practice, issue 30), since the paper's practice accuracy was not read.
const rt = fit(exp1, 0.8);
report('Rohrer & Taylor (2006) Exp 1, 4-week test, p0 = 0.8 (the upper end of the bracket)', exp1, rt);
const main = fit(exp1);
report('Sensitivity: λ and p0 both free (p0 in [0.5, 0.95])', exp1, main);
{
  // Two points, two unknowns: the exact solution with p0 unbounded.
  const lambda = (logit(0.64) - logit(0.32)) / (L.massed4 - L.spaced4);
  const p0 = sigmoid(logit(0.32) + lambda * L.massed4);
  console.log(`  exact two-point solution (p0 unbounded): λ = ${f(lambda)}, p0 = ${f(p0)}`);
}
for (const p0 of [0.7, 0.9]) report(`Sensitivity: p0 fixed at ${p0}`, exp1, fit(exp1, p0));

const at = (lostAct: number, r: { p0: number; lambda: number } = rt) => sigmoid(logit(r.p0) - r.lambda * lostAct);
console.log(`\nChecks with the Rohrer & Taylor fit, λ = ${f(rt.lambda)} (published direction, no numbers read):`);
console.log(`  R&T Exp1 1-week test: spaced − massed = ${f((at(L.spaced1) - at(L.massed1)) * 100, 1)} pp (paper: "nil")`);
console.log(`  R&T Exp2 (3 vs 9 problems, one session): 1 wk ${f(at(L.three1) * 100, 1)} % vs ${f(at(L.nine1) * 100, 1)} %; 4 wk ${f(at(L.three4) * 100, 1)} % vs ${f(at(L.nine4) * 100, 1)} % (paper: no effect of the extra 6)`);
console.log(`  R&T Exp2-like forgetting 1 → 4 weeks after one session of 9: ${f(at(L.nine1) * 100, 1)} % → ${f(at(L.nine4) * 100, 1)} %`);
console.log(`  Ebersbach & Barzagar Nazari (2020), 5-week test: ISI 0 ${f(at(L.isi0w5) * 100, 1)} %, ISI 1 d ${f(at(L.isi1w5) * 100, 1)} %, ISI 11 d ${f(at(L.isi11w5) * 100, 1)} % (paper: no effect of ISI)`);

// The 2020 null: the λ under which the 5-week spacing benefit (ISI 11 d − ISI 0) stays below 5 pp.
let nullLambda = 0;
for (let lambda = 0; lambda <= 6; lambda += 0.005) {
  const d = sigmoid(logit(rt.p0) - lambda * L.isi11w5) - sigmoid(logit(rt.p0) - lambda * L.isi0w5);
  if (d < 0.05) nullLambda = lambda;
  else break;
}
console.log(`\nSensitivity to the 2020 null: spacing benefit at 5 weeks stays under 5 pp only for λ ≤ ${f(nullLambda)} (p0 ${f(rt.p0)}); with it, R&T's 4-week scores would be ${f(sigmoid(logit(rt.p0) - nullLambda * L.massed4) * 100, 1)} % massed and ${f(sigmoid(logit(rt.p0) - nullLambda * L.spaced4) * 100, 1)} % spaced.`);

// The two studies disagree (a large 4-week spacing benefit vs none at 5 weeks), and this model cannot
// meet both: together they bracket λ. The engine's λ must lie inside the bracket (exit 1 if not).
const engine = { p0: rt.p0, lambda: MEMORY.lambda };
const inside = MEMORY.lambda >= nullLambda - 1e-9 && MEMORY.lambda <= rt.lambda + 1e-9;
console.log(`\nPublished bracket at p0 ${f(rt.p0)}: λ from ${f(nullLambda)} (Ebersbach & Barzagar Nazari 2020, no benefit) to ${f(rt.lambda)} (Rohrer & Taylor 2006, doubled); the engine's λ = ${MEMORY.lambda}: ${inside ? 'inside' : 'OUTSIDE'}.`);
console.log(`  at the engine's λ: R&T Exp1 4 wk massed ${f(at(L.massed4, engine) * 100, 1)} %, spaced ${f(at(L.spaced4, engine) * 100, 1)} % (published 32 %, 64 %); 1 wk spaced − massed ${f((at(L.spaced1, engine) - at(L.massed1, engine)) * 100, 1)} pp ("nil"); 2020 5-week ISI 11 d − ISI 0 ${f((at(L.isi11w5, engine) - at(L.isi0w5, engine)) * 100, 1)} pp (no effect)`);
if (!inside) process.exitCode = 1;

// The cap: the data need the massed 4-week loss uncapped; a cap below it would lift the massed score.
const needed = Math.max(L.massed4, L.spaced4);
console.log(`\nCap (in units of activation, as MEMORY.maxDrop): the fitted points need losses up to ${f(needed)} units (${f(MEMORY.lambda * needed)} logits at the engine's λ) uncapped; the published figures say nothing about longer absences.`);
for (const cap of [1, 1.5, 2, 3]) {
  const r = fit(exp1, 0.8, cap);
  console.log(`  with a cap of ${cap} units (refit): λ = ${f(r.lambda)}, p0 = ${f(r.p0)}, SSE = ${r.sse.toExponential(2)}`);
}
