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

/** The logit shift for a tracer (0 for a tracer never fitted, e.g. a test double). */
export function generativeShift(tracer: string): number {
  return CAL.tracers[tracer]?.shift ?? 0;
}

export interface RolloutStudent {
  skills: readonly number[];
  questions: readonly number[];
  responses: readonly number[];
}

export interface RolloutResult {
  students: number;
  /** Mean over students of (generated − real) accuracy over the rollout steps. */
  meanDiff: number;
  /** By decile of real accuracy (lowest first): mean real, mean generated, count. */
  deciles: { real: number; generated: number; n: number }[];
}

const logit = (p: number) => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
};
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export async function rollout(tracer: KnowledgeTracer, students: readonly RolloutStudent[], o: { context: number; steps: number; repeats: number; shift: number; rng: Rng }): Promise<RolloutResult> {
  const rows: { real: number; generated: number }[] = [];
  for (const st of students) {
    if (st.skills.length < o.context + o.steps) continue;
    let real = 0;
    for (let k = o.context; k < o.context + o.steps; k++) real += st.responses[k]!;
    let gen = 0;
    for (let r = 0; r < o.repeats; r++) {
      const h: Interaction[] = [];
      for (let k = 0; k < o.context; k++) h.push({ skill: st.skills[k]!, question: st.questions[k]!, correct: st.responses[k] === 1 });
      for (let k = o.context; k < o.context + o.steps; k++) {
        const [p] = await tracer.predict(h, [{ skill: st.skills[k]!, question: st.questions[k]!, level: 0 }]);
        const correct = o.rng.next() < sigmoid(logit(p!) + o.shift);
        if (correct) gen++;
        h.push({ skill: st.skills[k]!, question: st.questions[k]!, correct });
      }
    }
    rows.push({ real: real / o.steps, generated: gen / (o.steps * o.repeats) });
  }
  rows.sort((a, b) => a.real - b.real);
  const deciles: RolloutResult['deciles'] = [];
  for (let d = 0; d < 10; d++) {
    const part = rows.slice(Math.floor((d * rows.length) / 10), Math.floor(((d + 1) * rows.length) / 10));
    if (part.length === 0) continue;
    deciles.push({ real: part.reduce((a, x) => a + x.real, 0) / part.length, generated: part.reduce((a, x) => a + x.generated, 0) / part.length, n: part.length });
  }
  const meanDiff = rows.reduce((a, x) => a + x.generated - x.real, 0) / Math.max(1, rows.length);
  return { students: rows.length, meanDiff, deciles };
}
