/**
 * Fits per-skill Bayesian Knowledge Tracing parameters by expectation–maximisation (Baum–Welch
 * on the two-state HMM, no forgetting) on the training folds of ASSISTments 2009, and evaluates
 * the fitted tracer on the held-out test fold (AKT's split, KC-level rows).
 *
 *   npx tsx scripts/derive/fit-bkt.ts [--data <dir>] [--test-fold 1] [--out src/core/data/bkt-assist2009.json]
 *
 * No npm package fits BKT; the EM below is the textbook forward–backward recursion.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { DATASET_CITATION, DEFAULT_DATA_DIR, readSequences, type StudentSequence } from './common';
import { BktTracer, type BktParamsFile, type BktSkillParams } from '../../src/core/learner/kt/bkt';
import type { Interaction } from '../../src/core/learner/kt/types';
import { accuracy, brier, ece, rocAuc } from '../../src/core/stats/index';

const BOUNDS = { init: [0.01, 0.99], learn: [0.01, 0.6], slip: [0.01, 0.3], guess: [0.01, 0.45] } as const;
const STARTS: BktSkillParams[] = [
  { init: 0.4, learn: 0.1, slip: 0.1, guess: 0.2 },
  { init: 0.6, learn: 0.2, slip: 0.05, guess: 0.3 },
  { init: 0.2, learn: 0.05, slip: 0.15, guess: 0.1 },
];

const clamp = (x: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, x));

function emStep(seqs: number[][], p: BktSkillParams): { next: BktSkillParams; ll: number } {
  let sInit = 0, nSeq = 0, sLearnNum = 0, sLearnDen = 0, sSlipNum = 0, sKnown = 0, sGuessNum = 0, sUnknown = 0, ll = 0;
  for (const obs of seqs) {
    const T = obs.length;
    // forward: alpha[t] = P(known_t, o_1..t) normalised per step
    const a = new Float64Array(T); // P(known_t | o_1..t)
    const emitK = (o: number) => (o ? 1 - p.slip : p.slip);
    const emitU = (o: number) => (o ? p.guess : 1 - p.guess);
    let prior = p.init;
    for (let t = 0; t < T; t++) {
      const o = obs[t] as number;
      const k = prior * emitK(o);
      const u = (1 - prior) * emitU(o);
      const z = k + u;
      ll += Math.log(z);
      a[t] = k / z;
      prior = a[t]! + (1 - a[t]!) * p.learn;
    }
    // backward smoothing for P(known_t | all obs) with transition known->known = 1
    const g = new Float64Array(T);
    g[T - 1] = a[T - 1]!;
    for (let t = T - 2; t >= 0; t--) {
      // P(known_t | all) = P(known_t|o1..t) * P(known_{t+1}|all)/P(known_{t+1}|o1..t)
      // unknown_t -> known_{t+1} with prob learn
      const predK = a[t]! + (1 - a[t]!) * p.learn; // P(known_{t+1} | o1..t)
      const predU = 1 - predK;
      const gNextU = 1 - g[t + 1]!;
      // P(unknown_t | all) = P(unknown_t|o1..t) * (1-learn) * P(unknown_{t+1}|all)/predU + P(unknown_t|o1..t)*learn*P(known_{t+1}|all)/predK
      const uT = 1 - a[t]!;
      const gU = (predU > 0 ? (uT * (1 - p.learn) * gNextU) / predU : 0) + (predK > 0 ? (uT * p.learn * g[t + 1]!) / predK : 0);
      g[t] = 1 - gU;
      // expected transitions unknown_t -> known_{t+1}
      sLearnNum += predK > 0 ? (uT * p.learn * g[t + 1]!) / predK : 0;
      sLearnDen += gU;
    }
    for (let t = 0; t < T; t++) {
      const o = obs[t] as number;
      const k = g[t]!;
      sKnown += k;
      sUnknown += 1 - k;
      if (!o) sSlipNum += k;
      if (o) sGuessNum += 1 - k;
    }
    sInit += g[0]!;
    nSeq++;
  }
  const next = {
    init: clamp(sInit / nSeq, BOUNDS.init),
    learn: clamp(sLearnDen > 0 ? sLearnNum / sLearnDen : p.learn, BOUNDS.learn),
    slip: clamp(sKnown > 0 ? sSlipNum / sKnown : p.slip, BOUNDS.slip),
    guess: clamp(sUnknown > 0 ? sGuessNum / sUnknown : p.guess, BOUNDS.guess),
  };
  return { next, ll };
}

function fitSkill(seqs: number[][]): { params: BktSkillParams; ll: number } {
  let best: { params: BktSkillParams; ll: number } | null = null;
  for (const start of STARTS) {
    let p = start;
    let ll = -Infinity;
    for (let it = 0; it < 200; it++) {
      const r = emStep(seqs, p);
      const done = Math.abs(r.ll - ll) < 1e-4;
      p = r.next;
      ll = r.ll;
      if (done) break;
    }
    if (!best || ll > best.ll) best = { params: p, ll };
  }
  return best!;
}

function perSkillSeqs(students: StudentSequence[]): Map<number, number[][]> {
  const out = new Map<number, number[][]>();
  for (const s of students) {
    const bySkill = new Map<number, number[]>();
    for (let i = 0; i < s.skills.length; i++) {
      const k = s.skills[i] as number;
      let arr = bySkill.get(k);
      if (!arr) bySkill.set(k, (arr = []));
      arr.push(s.responses[i] as number);
    }
    for (const [k, arr] of bySkill) {
      let list = out.get(k);
      if (!list) out.set(k, (list = []));
      list.push(arr);
    }
  }
  return out;
}

const round = (x: number) => Math.round(x * 1e5) / 1e5;

/** Next-step predictions on held-out students (KC-level rows, every row predicted from the rows before it). */
export function evaluateBkt(file: BktParamsFile, students: StudentSequence[]) {
  const tracer = new BktTracer(file);
  const pred: number[] = [];
  const lab: number[] = [];
  for (const s of students) {
    const history: Interaction[] = [];
    for (let i = 0; i < s.skills.length; i++) {
      const skill = s.skills[i] as number;
      const [p] = tracer.predictSync(history, [{ skill, question: 0, level: 0 }]);
      pred.push(p as number);
      lab.push(s.responses[i] as number);
      history.push({ skill, question: s.questions[i] as number, correct: s.responses[i] === 1 });
    }
  }
  return { n: pred.length, auc: rocAuc(pred, lab), acc: accuracy(pred, lab), brier: brier(pred, lab), ece: ece(pred, lab) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string, dflt: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? (process.argv[i + 1] as string) : dflt;
  };
  const dir = arg('--data', DEFAULT_DATA_DIR);
  const testFold = arg('--test-fold', '1');
  const outPath = arg('--out', new URL('../../src/core/data/bkt-assist2009.json', import.meta.url).pathname);
  const all = readSequences(dir);
  const train = all.filter((s) => s.fold !== testFold);
  const test = all.filter((s) => s.fold === testFold);
  const levels = JSON.parse(readFileSync(new URL('../../src/core/data/assist2009-skills.json', import.meta.url), 'utf8')) as {
    skills: { id: number; levels: { logitOffset: number }[] }[];
  };
  const t0 = performance.now();
  let nRows = 0, nCorrect = 0;
  for (const s of train) for (const r of s.responses) { nRows++; nCorrect += r; }
  const popRate = nCorrect / nRows;
  const seqs = perSkillSeqs(train);
  const skills: Record<string, BktSkillParams> = {};
  for (const [k, list] of [...seqs.entries()].sort((a, b) => a[0] - b[0])) {
    const { params } = fitSkill(list);
    skills[String(k)] = { init: round(params.init), learn: round(params.learn), slip: round(params.slip), guess: round(params.guess) };
  }
  const mean = (f: (p: BktSkillParams) => number) => round(Object.values(skills).reduce((a, p) => a + f(p), 0) / Object.keys(skills).length);
  const file: BktParamsFile & Record<string, unknown> = {
    version: `bkt-assist2009-fold${testFold}-1`,
    provenance: `Fitted by scripts/derive/fit-bkt.ts (EM, 3 starts, bounds ${JSON.stringify(BOUNDS)}) on ${train.length} students of the training folds (test fold ${testFold} held out).`,
    citation: DATASET_CITATION,
    nSkills: 110,
    defaults: { init: mean((p) => p.init), learn: mean((p) => p.learn), slip: mean((p) => p.slip), guess: mean((p) => p.guess) },
    skills,
    learnerPrior: { weight: 0, populationRate: round(popRate), shrinkage: 20 },
    levelOffsets: Object.fromEntries(levels.skills.map((s) => [String(s.id), s.levels.map((l) => l.logitOffset) as [number, number, number]])),
  };
  // Choose the learner-prior weight on the training students (no peeking at the test fold).
  const trainSample = train.filter((_, i) => i % 4 === 0);
  let bestW = 0, bestAuc = -1;
  const weights: Record<string, number> = {};
  for (const w of [0, 0.5, 1, 1.5, 2, 3, 4]) {
    file.learnerPrior.weight = w;
    const auc = evaluateBkt(file, trainSample).auc;
    weights[String(w)] = round(auc);
    if (auc > bestAuc) { bestAuc = auc; bestW = w; }
  }
  file.learnerPrior.weight = bestW;
  file.learnerPriorSelection = { trainAucByWeight: weights, chosen: bestW };
  file.learnerPrior.weight = 0;
  const plain = evaluateBkt(file, test);
  file.learnerPrior.weight = bestW;
  file.heldOutPlainBkt = { fold: Number(testFold), ...Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, round(v)])) };
  const evalTest = evaluateBkt(file, test);
  file.heldOut = { fold: Number(testFold), students: test.length, ...Object.fromEntries(Object.entries(evalTest).map(([k, v]) => [k, round(v)])) };
  writeFileSync(outPath, JSON.stringify(file) + '\n');
  console.log(`fitted ${Object.keys(skills).length} skills in ${((performance.now() - t0) / 1000).toFixed(1)} s; held-out fold ${testFold}: ` +
    `plain BKT AUC ${plain.auc.toFixed(4)}; with learner prior (weight ${bestW}) AUC ${evalTest.auc.toFixed(4)}, ACC ${evalTest.acc.toFixed(4)}, Brier ${evalTest.brier.toFixed(4)}, ECE ${evalTest.ece.toFixed(4)} over ${evalTest.n} rows; wrote ${outPath}`);
}
