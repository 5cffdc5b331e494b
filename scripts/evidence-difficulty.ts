/**
 * Calibration of the AKT tracer by the difficulty of the preceding evidence (docs/validity.md,
 * "Easy items inflate the AKT learner"; src/core/learner/evidence-difficulty.ts). On the held-out
 * students of a fold, AKT's teacher-forced prediction of every row (200-row pieces, as
 * `npm run calibration:real`) is compared with the real outcome:
 *  1. rows whose last k attempts on the same skill were all solved at one bank level E (1 = the
 *     easiest third of the skill's questions, 3 = the hardest; the levels the item bank links its
 *     items to), by the level T of the row's question: real accuracy, AKT, AKT − real;
 *  2. the contrast "after k level-1 successes − after k level-3 successes" for the same T, real and
 *     AKT: AKT over-reads easy evidence relative to hard evidence when its contrast is above the real one;
 *  3. the same contrast by the level of the last k attempts whatever their outcome (the practice a
 *     student met; skill builders draw the next question at random): does practising easy
 *     questions leave real students better or worse on a harder one than practising hard ones?
 *  4. the maximum-likelihood fit P = σ(logit P_AKT + a_T − β_e·easier + β_h·harder) over every row
 *     with a level (easier/harder: level gaps of the solved attempts among the last --window on the
 *     skill): β_e > 0 is easy evidence over-read beyond AKT's miscalibration by question level a_T.
 * Intervals: 95% percentile bootstrap over students (1,000 resamples, fixed seed).
 *
 *   npx tsx scripts/evidence-difficulty.ts [--data ../shared/data/assist2009_pid] [--fold 1] [--split test|valid] [--k 1,2,3] [--window 3]
 */
import { resolve } from 'node:path';
import { readFold } from '../src/adapters/node/datasets';
import { DEFAULT_AKT_DIR, loadNodeAkt } from '../src/adapters/node/akt';
import { teacherForcedAkt } from '../src/adapters/ort/akt-backend';
import { Rng } from '../src/core/rng/index';
import { fitLogistic, practiceLevel, questionLevel, solvedGaps, solvedStreakLevel } from '../src/core/learner/evidence-difficulty';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const data = arg('--data', resolve('../shared/data/assist2009_pid'));
const fold = Number(arg('--fold', '1'));
const split = arg('--split', 'test');
if (split !== 'test' && split !== 'valid') throw new Error(`--split must be test or valid (got ${split})`);
const ks = arg('--k', '1,2,3').split(',').map(Number);
if (ks.some((k) => !Number.isInteger(k) || k < 1)) throw new Error(`--k must be positive integers separated by commas (got ${arg('--k', '')})`);
const window = Number(arg('--window', '3'));
if (!Number.isInteger(window) || window < 1) throw new Error(`--window must be a positive integer (got ${arg('--window', '')})`);

const { students, source } = readFold(data, fold, split);
const { backend, meta } = await loadNodeAkt(resolve(DEFAULT_AKT_DIR), true);
const seqlen = Number((meta.hyperparameters as { seqlen?: number }).seqlen ?? 200);

interface Row {
  student: number;
  target: number;
  real: number;
  pred: number;
  /** Level of the solved streak before the row, per k (0: none). */
  streak: number[];
  /** Level of the last k attempts before the row, solved or not, per k (0: mixed or unknown). */
  practice: number[];
  easier: number;
  harder: number;
}
const rows: Row[] = [];
const t0 = performance.now();
await teacherForcedAkt(backend, students, { seqlen, nQuestions: meta.n_questions, batch: 32 }, (p, t, pred) => {
  const target = questionLevel(p.skills[t]!, p.questions[t]!);
  if (target === 0) return;
  if (!(pred > 0 && pred < 1)) throw new Error(`AKT predicted ${pred} for student ${students[p.student]!.uid}, row ${t} of its piece`);
  rows.push({ student: p.student, target, real: p.responses[t]!, pred, streak: ks.map((k) => solvedStreakLevel(p, t, k)), practice: ks.map((k) => practiceLevel(p, t, k)), ...solvedGaps(p, t, window) });
});
await backend.release();

const pp = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
type CI = { v: number; lo: number; hi: number };
const ci = (x: CI, f = pp) => `${f(x.v).padStart(6)} [${f(x.lo)}, ${f(x.hi)}]`;
/** f over the rows, and its 95% percentile bootstrap over students. */
function boot(sel: Row[], f: (rs: Row[]) => number): CI {
  const by = new Map<number, Row[]>();
  for (const r of sel) {
    const g = by.get(r.student);
    if (g) g.push(r);
    else by.set(r.student, [r]);
  }
  const groups = [...by.values()];
  const rng = new Rng(13);
  const vs: number[] = [];
  for (let b = 0; b < 1000; b++) {
    const rs: Row[] = [];
    for (let i = 0; i < groups.length; i++) rs.push(...groups[rng.int(0, groups.length - 1)]!);
    const v = f(rs);
    if (Number.isFinite(v)) vs.push(v);
  }
  vs.sort((a, b) => a - b);
  return { v: f(sel), lo: vs[Math.floor(0.025 * vs.length)]!, hi: vs[Math.floor(0.975 * vs.length)]! };
}
const mean = (rs: Row[], g: (r: Row) => number) => rs.reduce((a, r) => a + g(r), 0) / rs.length;
const students_ = (rs: Row[]) => new Set(rs.map((r) => r.student)).size;

console.log(`${source}: ${students.length} ${split === 'test' ? 'held-out' : 'validation'} students, ${rows.length} rows with a question level (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
console.log(`\n1. rows whose last k attempts on the skill were all solved at level E, by the level T of the row's question (pp)`);
console.log(`${'k'.padStart(2)} ${'E'.padStart(2)} ${'T'.padStart(2)} ${'rows'.padStart(6)} ${'stud'.padStart(5)}   real    AKT   AKT − real [95%]`);
for (const [ki, k] of ks.entries()) {
  for (const target of [1, 2, 3]) {
    for (const evid of [1, 2, 3]) {
      const sel = rows.filter((r) => r.streak[ki] === evid && r.target === target);
      if (sel.length < 30) continue;
      const d = boot(sel, (rs) => mean(rs, (r) => r.pred - r.real));
      console.log(`${String(k).padStart(2)} ${String(evid).padStart(2)} ${String(target).padStart(2)} ${String(sel.length).padStart(6)} ${String(students_(sel)).padStart(5)}  ${(mean(sel, (r) => r.real) * 100).toFixed(1).padStart(5)}  ${(mean(sel, (r) => r.pred) * 100).toFixed(1).padStart(5)}  ${ci(d)}`);
    }
  }
}
console.log(`\n2. after k level-1 successes − after k level-3 successes, same question level T (pp)`);
console.log(`${'k'.padStart(2)} ${'T'.padStart(3)}   real Δ [95%]             AKT Δ [95%]              AKT Δ − real Δ [95%]`);
for (const [ki, k] of ks.entries()) {
  for (const target of [1, 2, 3, 0]) {
    const sel = rows.filter((r) => (target === 0 ? r.target >= 2 : r.target === target) && (r.streak[ki] === 1 || r.streak[ki] === 3));
    const easy = (rs: Row[]) => rs.filter((r) => r.streak[ki] === 1), hard = (rs: Row[]) => rs.filter((r) => r.streak[ki] === 3);
    if (easy(sel).length < 30 || hard(sel).length < 30) continue;
    const delta = (g: (r: Row) => number) => (rs: Row[]) => mean(easy(rs), g) - mean(hard(rs), g);
    const real = boot(sel, delta((r) => r.real));
    const akt = boot(sel, delta((r) => r.pred));
    const dd = boot(sel, (rs) => delta((r) => r.pred)(rs) - delta((r) => r.real)(rs));
    console.log(`${String(k).padStart(2)} ${(target === 0 ? '2-3' : String(target)).padStart(3)}  ${ci(real).padEnd(24)} ${ci(akt).padEnd(24)} ${ci(dd)}`);
  }
}
console.log(`\n3. after k attempts at level 1 − after k attempts at level 3, solved or not, same question level T (pp)`);
console.log(`${'k'.padStart(2)} ${'T'.padStart(3)}  ${'easy n'.padStart(6)} ${'hard n'.padStart(6)}  real Δ [95%]             AKT Δ [95%]              AKT Δ − real Δ [95%]`);
for (const [ki, k] of ks.entries()) {
  for (const target of [1, 2, 3, 0]) {
    const sel = rows.filter((r) => (target === 0 ? r.target >= 2 : r.target === target) && (r.practice[ki] === 1 || r.practice[ki] === 3));
    const easy = (rs: Row[]) => rs.filter((r) => r.practice[ki] === 1), hard = (rs: Row[]) => rs.filter((r) => r.practice[ki] === 3);
    if (easy(sel).length < 30 || hard(sel).length < 30) continue;
    const delta = (g: (r: Row) => number) => (rs: Row[]) => mean(easy(rs), g) - mean(hard(rs), g);
    const real = boot(sel, delta((r) => r.real));
    const akt = boot(sel, delta((r) => r.pred));
    const dd = boot(sel, (rs) => delta((r) => r.pred)(rs) - delta((r) => r.real)(rs));
    console.log(`${String(k).padStart(2)} ${(target === 0 ? '2-3' : String(target)).padStart(3)}  ${String(easy(sel).length).padStart(6)} ${String(hard(sel).length).padStart(6)}  ${ci(real).padEnd(24)} ${ci(akt).padEnd(24)} ${ci(dd)}`);
  }
}
// 4. The fit, with and without the per-level intercepts.
const logit = (p: number) => Math.log(p / (1 - p));
const lv = (r: Row) => [r.target === 1 ? 1 : 0, r.target === 2 ? 1 : 0, r.target === 3 ? 1 : 0];
const withLevels = fitLogistic(rows.map((r) => ({ z: logit(r.pred), y: r.real, f: [...lv(r), -r.easier, r.harder] })));
const alone = fitLogistic(rows.map((r) => ({ z: logit(r.pred), y: r.real, f: [-r.easier, r.harder] })));
const f3 = (v: number, se: number) => `${v >= 0 ? '+' : ''}${v.toFixed(3)} ± ${(1.96 * se).toFixed(3)}`;
console.log(`\n4. P = σ(logit P_AKT + a_T − β_e·easier + β_h·harder), maximum likelihood over the ${rows.length} rows (${rows.filter((r) => r.easier > 0).length} with easier solved evidence, ${rows.filter((r) => r.harder > 0).length} with harder) among the last ${window} attempts on the skill; logits, ± 1.96 se`);
console.log(`   with a_T:    β_e ${f3(withLevels.theta[3]!, withLevels.se[3]!)}   β_h ${f3(withLevels.theta[4]!, withLevels.se[4]!)}   a_1..a_3 ${withLevels.theta.slice(0, 3).map((v, j) => f3(v, withLevels.se[j]!)).join(', ')}`);
console.log(`   without a_T: β_e ${f3(alone.theta[0]!, alone.se[0]!)}   β_h ${f3(alone.theta[1]!, alone.se[1]!)}`);
