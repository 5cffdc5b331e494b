/**
 * Closed-loop rollouts: does the learner *generate* what real students do? (docs/learning-model.md,
 * "Generative fidelity".) For a held-out student with at least context + steps rows, the learner's
 * history starts as the student's first `context` real rows; then, for each of the next `steps`
 * rows, the tracer (with the generative calibration below) predicts the student's item and an
 * outcome is drawn and appended, as in a run. The generated accuracy over those steps is compared
 * with the student's real accuracy over the same rows, overall and per decile of real accuracy.
 *
 * The one-step predictions of a tracer can be accurate (AUC) and still drift when fed its own
 * samples. The generative calibration corrects the drift with a shift of the logit:
 * P' = σ(logit P + shift), one number per tracer, fitted by `npm run rollout -- --fit` on the
 * fold-1 held-out students and stored in src/core/data/generative-calibration.json.
 */
import type { Interaction, KnowledgeTracer } from './kt/types';
import type { Rng } from '../rng';
import calibrationFile from '../data/generative-calibration.json';

export interface GenerativeCalibration {
  /** Added to the tracer's logit. */
  shift: number;
  /** How it was measured (command, data, students, result). */
  fitted: string;
  /** Per-learner ability (abilityOffset below): the population centre and spread of the offsets. */
  ability: AbilityCalibration;
}

/**
 * How a learner's own ability reaches the tracer: c, the maximum-likelihood logit offset of the
 * learner's warm-up rows against the uncalibrated tracer (fitAbilityOffset with shift 0), taken
 * relative to the population centre and shrunk by the empirical-Bayes weight τ²/(τ² + se²(c)),
 * so a short or uninformative warm-up moves the learner little (Efron & Morris 1975).
 */
export interface AbilityCalibration {
  /** c̄: the precision-weighted mean of c over the fitting students (logits). */
  center: number;
  /** τ: the spread of true offsets the shrinkage assumes (logits), chosen on the validation students. */
  tau: number;
  /** The bound of the bisection (logits): a warm-up all right or all wrong gets ±bound, se at the bound. */
  bound: number;
  /** How it was fitted (command, data, students, result). */
  fitted: string;
}

const CAL = calibrationFile as unknown as { version: string; tracers: Record<string, GenerativeCalibration> };
export const GENERATIVE_CALIBRATION_VERSION = CAL.version;

/** The stored per-learner ability calibration of a tracer (undefined for a tracer never fitted, e.g. a test double). */
export function abilityCalibration(tracer: string): AbilityCalibration | undefined {
  return CAL.tracers[tracer]?.ability;
}

/** The empirical-Bayes ability offset w·(c − c̄), w = τ²/(τ² + se²), from a fitted offset c with standard error se. */
export function shrinkAbility(fit: { offset: number; se: number }, cal: { center: number; tau: number }): number {
  if (!(cal.tau >= 0) || !Number.isFinite(fit.se) || !(fit.se > 0)) throw new Error(`shrinkAbility: needs tau ≥ 0 and se > 0 (got tau ${cal.tau}, se ${fit.se})`);
  const w = (cal.tau * cal.tau) / (cal.tau * cal.tau + fit.se * fit.se);
  return w * (fit.offset - cal.center);
}

/**
 * A learner's ability offset (logits, added to the tracer's logit with the shift) from its warm-up
 * history: the estimator the engine's persona seeds were derived with (scripts/derive/
 * seed-ability.ts) and the rollout test applies to held-out students (`npm run rollout`).
 */
export async function abilityOffset(tracer: KnowledgeTracer, warmup: readonly Interaction[], cal: AbilityCalibration): Promise<{ offset: number; c: number; se: number; clamped: boolean }> {
  const st: RolloutStudent = { skills: warmup.map((x) => x.skill), questions: warmup.map((x) => x.question), responses: warmup.map((x) => (x.correct ? 1 : 0)) };
  const f = await fitAbilityOffset(tracer, st, { context: warmup.length, shift: 0, bound: cal.bound });
  return { offset: shrinkAbility(f, cal), c: f.offset, se: f.se, clamped: f.clamped };
}

/** The rollout test's bound on the mean of generated − real accuracy (issue 30: within ±1.5 pp). */
export const GENERATIVE_TOLERANCE = 0.015;

/** The logit shift for a tracer (0 for a tracer never fitted, e.g. a test double). */
export function generativeShift(tracer: string): number {
  return CAL.tracers[tracer]?.shift ?? 0;
}

export interface RolloutStudent {
  skills: readonly number[];
  questions: readonly number[];
  responses: readonly number[];
}

export interface RolloutRow {
  /** The student's real accuracy over the rollout steps. */
  real: number;
  /** Share of the generated outcomes that were correct (the draws). */
  generated: number;
  /** Mean of the probabilities the draws were made from (the generated accuracy without draw noise). */
  expected: number;
  /** The student's real accuracy over the context (warm-up) rows. */
  warmup: number;
  /** The per-student logit offset the rollout used (0 without `offsets`). */
  offset: number;
}

export interface RolloutResult {
  students: number;
  /** Mean over students of (generated − real) accuracy over the rollout steps. */
  meanDiff: number;
  /** By decile of real accuracy (lowest first): mean real, mean generated, count. */
  deciles: { real: number; generated: number; n: number }[];
  /** One row per student, in the order of `students`. */
  rows: RolloutRow[];
}

const logit = (p: number) => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
};
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

const warmupRows = (st: RolloutStudent, context: number): Interaction[] => {
  const h: Interaction[] = [];
  for (let k = 0; k < context; k++) h.push({ skill: st.skills[k]!, question: st.questions[k]!, correct: st.responses[k] === 1 });
  return h;
};
const accuracy = (st: RolloutStudent, from: number, to: number) => {
  let n = 0;
  for (let k = from; k < to; k++) n += st.responses[k]!;
  return n / (to - from);
};

/**
 * Closed-loop rollouts. `offsets` (optional, one per student, aligned with `students`) adds a
 * per-student logit offset to every prediction on top of `shift`: the engine's learner is
 * `offsets` from abilityOffset on each student's warm-up (`npm run rollout`). Without it every
 * student gets the shift alone (the engine before per-learner ability).
 */
export async function rollout(tracer: KnowledgeTracer, students: readonly RolloutStudent[], o: { context: number; steps: number; repeats: number; shift: number; rng: Rng; offsets?: readonly number[] }): Promise<RolloutResult> {
  if (o.offsets && o.offsets.length !== students.length) throw new Error(`rollout: ${o.offsets.length} offsets for ${students.length} students`);
  const rows: RolloutRow[] = [];
  for (const [i, st] of students.entries()) {
    if (st.skills.length < o.context + o.steps) continue;
    const offset = o.offsets?.[i] ?? 0;
    let gen = 0;
    let exp = 0;
    for (let r = 0; r < o.repeats; r++) {
      const h = warmupRows(st, o.context);
      for (let k = o.context; k < o.context + o.steps; k++) {
        const [p] = await tracer.predict(h, [{ skill: st.skills[k]!, question: st.questions[k]!, level: 0 }]);
        const q = sigmoid(logit(p!) + o.shift + offset);
        exp += q;
        const correct = o.rng.next() < q;
        if (correct) gen++;
        h.push({ skill: st.skills[k]!, question: st.questions[k]!, correct });
      }
    }
    rows.push({ real: accuracy(st, o.context, o.context + o.steps), generated: gen / (o.steps * o.repeats), expected: exp / (o.steps * o.repeats), warmup: accuracy(st, 0, o.context), offset });
  }
  const meanDiff = rows.reduce((a, x) => a + x.generated - x.real, 0) / Math.max(1, rows.length);
  return { students: rows.length, meanDiff, deciles: decilesBy(rows, (x) => x.real, (x) => x.generated), rows };
}

/**
 * The engine's learner in closed loop: each student's ability offset from its warm-up rows
 * (abilityOffset with the tracer's stored calibration, as the persona seeds were derived) on top of
 * the shift. `shift` defaults to the stored one (`--fit` searches it); `calibration` to the stored
 * one (`--fit-ability` searches it).
 */
export async function learnerRollout(tracer: KnowledgeTracer, students: readonly RolloutStudent[], o: { context: number; steps: number; repeats: number; rng: Rng; shift?: number; calibration?: AbilityCalibration }): Promise<RolloutResult & { fits: { c: number; se: number; clamped: boolean }[] }> {
  const cal = o.calibration ?? abilityCalibration(tracer.info.name);
  if (!cal) throw new Error(`rollout: no ability calibration for tracer "${tracer.info.name}" in generative-calibration.json`);
  const eligible = students.filter((st) => st.skills.length >= o.context + o.steps);
  const fits: { c: number; se: number; clamped: boolean }[] = [];
  const offsets: number[] = [];
  for (const st of eligible) {
    const f = await abilityOffset(tracer, warmupRows(st, o.context), cal);
    fits.push({ c: f.c, se: f.se, clamped: f.clamped });
    offsets.push(f.offset);
  }
  const r = await rollout(tracer, eligible, { context: o.context, steps: o.steps, repeats: o.repeats, rng: o.rng, shift: o.shift ?? generativeShift(tracer.info.name), offsets });
  return { ...r, fits };
}

/**
 * Rows grouped into deciles of `key` (lowest first; ties keep the input order): mean real and mean
 * `value` per decile, with the count.
 */
export function decilesBy<T extends { real: number }>(rows: readonly T[], key: (x: T) => number, value: (x: T) => number): { real: number; generated: number; n: number }[] {
  const sorted = [...rows].sort((a, b) => key(a) - key(b));
  const out: { real: number; generated: number; n: number }[] = [];
  for (let d = 0; d < 10; d++) {
    const part = sorted.slice(Math.floor((d * sorted.length) / 10), Math.floor(((d + 1) * sorted.length) / 10));
    if (part.length === 0) continue;
    out.push({ real: part.reduce((a, x) => a + x.real, 0) / part.length, generated: part.reduce((a, x) => a + value(x), 0) / part.length, n: part.length });
  }
  return out;
}

/**
 * A student's ability as a logit offset, from the context (warm-up) rows only: the maximum-
 * likelihood a of P_k = σ(logit p_k + shift + a), where p_k is the tracer's prediction of warm-up
 * row k from the real rows before it. The likelihood's score equation is Σ_k P_k(a) = Σ_k y_k
 * (predicted correct = real correct over the warm-up), solved by bisection on [−bound, bound]; a
 * warm-up that is all right or all wrong has no finite root and gets ±bound (`clamped`). `se`: the
 * standard error of the estimate, 1/√(Σ_k P_k(1 − P_k)) at the offset returned (the inverse Fisher
 * information of the one-parameter logistic model).
 */
export async function fitAbilityOffset(tracer: KnowledgeTracer, st: RolloutStudent, o: { context: number; shift: number; bound: number; iterations?: number }): Promise<{ offset: number; se: number; clamped: boolean }> {
  if (st.skills.length < o.context) throw new Error(`fitAbilityOffset: ${st.skills.length} rows, fewer than the context ${o.context}`);
  const h = warmupRows(st, o.context);
  const z: number[] = [];
  for (let k = 0; k < o.context; k++) {
    const [p] = await tracer.predict(h.slice(0, k), [{ skill: h[k]!.skill, question: h[k]!.question, level: 0 }]);
    z.push(logit(p!) + o.shift);
  }
  const right = h.filter((x) => x.correct).length;
  const excess = (a: number) => z.reduce((s, x) => s + sigmoid(x + a), 0) - right;
  const se = (a: number) => 1 / Math.sqrt(z.reduce((s, x) => s + sigmoid(x + a) * (1 - sigmoid(x + a)), 0));
  if (excess(-o.bound) >= 0) return { offset: -o.bound, se: se(-o.bound), clamped: true };
  if (excess(o.bound) <= 0) return { offset: o.bound, se: se(o.bound), clamped: true };
  let lo = -o.bound, hi = o.bound;
  for (let i = 0; i < (o.iterations ?? 40); i++) {
    const mid = (lo + hi) / 2;
    if (excess(mid) > 0) hi = mid;
    else lo = mid;
  }
  const a = (lo + hi) / 2;
  return { offset: a, se: se(a), clamped: false };
}

/**
 * Open-loop references for a student's rollout steps, as expected accuracies (no draws):
 * `frozen`, the tracer's predictions of every rollout item from the warm-up rows alone (what it
 * believes about the student when the rollout starts, before any of its own samples); and
 * `teacherForced`, each rollout item predicted from all real rows before it (it reads the
 * student's real rollout rows as history, so it is a reference, not a generator).
 */
export async function openLoopAccuracy(tracer: KnowledgeTracer, st: RolloutStudent, o: { context: number; steps: number; shift: number; offset?: number }): Promise<{ frozen: number; teacherForced: number }> {
  const add = o.shift + (o.offset ?? 0);
  const h = warmupRows(st, o.context);
  const queries = [];
  for (let k = o.context; k < o.context + o.steps; k++) queries.push({ skill: st.skills[k]!, question: st.questions[k]!, level: 0 });
  const frozen = (await tracer.predict(h, queries)).reduce((s, p) => s + sigmoid(logit(p) + add), 0) / o.steps;
  let tf = 0;
  for (let k = o.context; k < o.context + o.steps; k++) {
    const [p] = await tracer.predict(h, [queries[k - o.context]!]);
    tf += sigmoid(logit(p!) + add);
    h.push({ skill: st.skills[k]!, question: st.questions[k]!, correct: st.responses[k] === 1 });
  }
  return { frozen, teacherForced: tf / o.steps };
}

/** Ordinary least-squares slope of y on x. */
export function olsSlope(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n, my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
  }
  return sxy / sxx;
}
