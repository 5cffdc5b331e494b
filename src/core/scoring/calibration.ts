/**
 * Calibration of simulated runs (after EduClaw's check): for every (run, day) with graded
 * attempts the learner worked out, the predicted accuracy (mean of the tracer's P(correct),
 * raised by any instruction boost, over that day's attempts) against the observed accuracy
 * (share correct). Pairs are binned by prediction; ECE (10 bins, weighted by pairs) and Brier
 * (mean squared difference over pairs) summarise them. Only attempts the learner worked out
 * count (source "own", graded as submitted, so a persona's slips show); copied answers and
 * guesses are left out unless `includeAll`, because they do not come from what the learner knows.
 *
 * What the figure means depends on who decided the attempts (run_start.scenario.learner.coupling,
 * `calibrationByMode`; docs/learning-model.md, "Coupling"):
 *  - tracer-decides runs: every outcome is a draw from the tracer's own P(correct), so the check
 *    compares the tracer with draws from itself: it measures the persona's slips, the instruction
 *    boosts and sampling noise, not how well the simulated learner tracks a student;
 *  - student-attempts runs: the outcomes are the LLM student's own attempts, graded by the answer
 *    checker, so the check is the paper's: predicted mastery against the LLM student's observed
 *    accuracy, per student model (run_start.voice).
 */
import type { RunStartEvent, TraceEvent } from '../trace/types';
import type { CouplingMode } from '../scenario/schema';
import { reliability, type ReliabilityBin } from '../stats/index';

export interface CalibrationReport {
  runs: number;
  pairs: number;
  attempts: number;
  ece: number | null;
  brier: number | null;
  bins: ReliabilityBin[];
}

export function dayPairs(events: readonly TraceEvent[], includeAll = false): { pred: number; obs: number; n: number }[] {
  const byDay = new Map<number, { sp: number; so: number; n: number }>();
  for (const e of events) {
    // An attempt without a predicted P(correct) (a real student's) has nothing to calibrate.
    // (A written attempt at an item whose answer the tutor disclosed is not evidence, right or wrong: left out.)
    if (e.type !== 'attempt' || e.p === null || (!includeAll && (e.source !== 'own' || !e.evidence))) continue;
    const d = Math.floor(e.t / 1440);
    const acc = byDay.get(d) ?? { sp: 0, so: 0, n: 0 };
    acc.sp += e.p + (1 - e.p) * e.boost;
    acc.so += e.correct ? 1 : 0;
    acc.n++;
    byDay.set(d, acc);
  }
  return [...byDay.values()].map((a) => ({ pred: a.sp / a.n, obs: a.so / a.n, n: a.n }));
}

export function calibration(traces: readonly (readonly TraceEvent[])[], includeAll = false): CalibrationReport {
  const pairs = traces.flatMap((t) => dayPairs(t, includeAll));
  const pred = pairs.map((p) => p.pred);
  const obs = pairs.map((p) => p.obs);
  const bins = reliability(pred, obs, 10);
  const n = pairs.length;
  let ece: number | null = null;
  let brier: number | null = null;
  if (n > 0) {
    ece = bins.reduce((s, b) => s + (b.count ? (b.count / n) * Math.abs(b.meanPred - b.meanObs) : 0), 0);
    brier = pairs.reduce((s, p) => s + (p.pred - p.obs) ** 2, 0) / n;
  }
  return { runs: traces.length, pairs: n, attempts: pairs.reduce((s, p) => s + p.n, 0), ece, brier, bins };
}

/** Who decided a trace's graded attempts (run_start.scenario.learner.coupling; absent: the tracer). */
export function couplingOf(events: readonly TraceEvent[]): CouplingMode {
  const s = events[0]?.type === 'run_start' ? (events[0] as RunStartEvent) : null;
  return s?.scenario.learner.coupling ?? 'tracer-decides';
}

/** How the LLM student's attempts were graded (attempt.student.grading), counted. */
export interface AttemptGradingCounts {
  checked: number;
  no_answer: number;
  malformed: number;
  copied_disclosed: number;
  after_disclosure: number;
}

export interface StudentModelCalibration {
  /** The student model: run_start.voice ("llm:<provider>/<model>"). */
  model: string;
  report: CalibrationReport;
  /** Every written attempt of its runs by grading (copies and other attempts after a disclosure are not in the calibration; malformed and unanswered attempts are, as wrong). */
  grading: AttemptGradingCounts;
  /** Share graded correct among the attempts the calibration counts. */
  accuracy: number | null;
}

export interface CalibrationByMode {
  /** Runs whose attempts the tracer decided: the tracer against draws from itself. */
  tracerDecides: CalibrationReport;
  /** Runs whose attempts an LLM student wrote: predicted mastery against the student's observed accuracy, over all of them and per student model. */
  studentAttempts: { all: CalibrationReport; byModel: StudentModelCalibration[] };
}

/** The calibration split by coupling, and for student-attempts runs per student model (sorted by name). */
export function calibrationByMode(traces: readonly (readonly TraceEvent[])[], includeAll = false): CalibrationByMode {
  const tracer: (readonly TraceEvent[])[] = [];
  const student = new Map<string, (readonly TraceEvent[])[]>();
  for (const t of traces) {
    if (couplingOf(t) !== 'student-attempts') {
      tracer.push(t);
      continue;
    }
    const start = t[0] as RunStartEvent;
    const model = start.voice ?? 'templates';
    student.set(model, [...(student.get(model) ?? []), t]);
  }
  const byModel = [...student.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([model, ts]): StudentModelCalibration => {
      const grading: AttemptGradingCounts = { checked: 0, no_answer: 0, malformed: 0, copied_disclosed: 0, after_disclosure: 0 };
      let n = 0;
      let right = 0;
      for (const t of ts)
        for (const e of t) {
          if (e.type !== 'attempt') continue;
          if (e.student) grading[e.student.grading]++;
          if (e.p !== null && (includeAll || (e.source === 'own' && e.evidence))) {
            n++;
            if (e.correct) right++;
          }
        }
      return { model, report: calibration(ts, includeAll), grading, accuracy: n ? right / n : null };
    });
  return { tracerDecides: calibration(tracer, includeAll), studentAttempts: { all: calibration([...student.values()].flat(), includeAll), byModel } };
}
