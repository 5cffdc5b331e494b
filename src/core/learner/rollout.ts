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
}

const CAL = calibrationFile as unknown as { version: string; tracers: Record<string, GenerativeCalibration> };
export const GENERATIVE_CALIBRATION_VERSION = CAL.version;

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
 * per-student logit offset to every prediction on top of `shift` (the per-student ability test of
 * `npm run rollout -- --per-student-ability`; the engine has no such offset). Without it the draws
 * and results are those of the stored-calibration rollout.
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
 * warm-up that is all right or all wrong has no finite root and gets ±bound (`clamped`).
 */
export async function fitAbilityOffset(tracer: KnowledgeTracer, st: RolloutStudent, o: { context: number; shift: number; bound: number; iterations?: number }): Promise<{ offset: number; clamped: boolean }> {
  if (st.skills.length < o.context) throw new Error(`fitAbilityOffset: ${st.skills.length} rows, fewer than the context ${o.context}`);
  const h = warmupRows(st, o.context);
  const z: number[] = [];
  for (let k = 0; k < o.context; k++) {
    const [p] = await tracer.predict(h.slice(0, k), [{ skill: h[k]!.skill, question: h[k]!.question, level: 0 }]);
    z.push(logit(p!) + o.shift);
  }
  const right = h.filter((x) => x.correct).length;
  const excess = (a: number) => z.reduce((s, x) => s + sigmoid(x + a), 0) - right;
  if (excess(-o.bound) >= 0) return { offset: -o.bound, clamped: true };
  if (excess(o.bound) <= 0) return { offset: o.bound, clamped: true };
  let lo = -o.bound, hi = o.bound;
  for (let i = 0; i < (o.iterations ?? 40); i++) {
    const mid = (lo + hi) / 2;
    if (excess(mid) > 0) hi = mid;
    else lo = mid;
  }
  return { offset: (lo + hi) / 2, clamped: false };
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
