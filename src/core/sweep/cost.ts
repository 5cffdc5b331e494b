/**
 * What a sweep job will cost, estimated before it runs, so that a sweep can hand out the longest
 * jobs first (a sweep in file order ends on its slowest persona while the other workers idle).
 *
 * The estimate is the expected number of graded answers of the run: a run's time is the learner
 * model's step after every answer (AKT: one append and a readout of every skill; docs/kt/model-card.md)
 * plus work per event of the same order. Per day of the horizon (day 0 is a Monday) and per
 * schedule block on that weekday:
 *
 *   chance × (1 − skipBlockProb) × minutes worked ÷ mean minutes per item
 *
 * where minutes worked is the block's minutes less the mean login delay, capped by the mean of
 * `sessionMinutes` when the persona stops on its own. Guesses take a minute (schema: guessProb),
 * so the mean minutes per item is guessProb × 1 + (1 − guessProb) × mean(minutesPerItem). Giving
 * up, frustration and the tutor's messages are left out: they depend on the run itself.
 * Measured against the runs' times in docs/measurements/sweeps.md (`bench:sweep -- --compare-order`).
 *
 * Only the order of dispatch uses it: results, traces and summaries never depend on it.
 */
import type { RunRecord } from '../engine/record';
import { effectiveScenario } from '../engine/record';

const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const mean = (r: readonly [number, number] | readonly number[]): number => (r[0]! + r[1]!) / 2;

/** Expected graded answers of the run the record describes (see the module comment). */
export function estimateRunCost(record: RunRecord): number {
  const s = effectiveScenario(record);
  const p = s.learner.persona;
  const perItem = p.guessProb * 1 + (1 - p.guessProb) * mean(p.minutesPerItem);
  const login = mean(p.loginDelayMinutes);
  const session = p.sessionMinutes ? mean(p.sessionMinutes) : Infinity;
  let answers = 0;
  for (let day = 0; day < s.horizonDays; day++) {
    const weekday = WEEK[day % 7]!;
    for (const b of s.schedule.blocks) {
      if (!b.days.includes(weekday)) continue;
      const minutes = Math.max(0, Math.min(b.minutes - login, session));
      answers += b.chance * (1 - p.skipBlockProb) * (minutes / perItem);
    }
  }
  return answers;
}

/**
 * The jobs in the order to hand them out: the largest estimate first; equal estimates keep their
 * order in the sweep (a stable sort), so the order is a pure function of the jobs.
 */
export function longestFirst<J extends { record: RunRecord }>(jobs: readonly J[]): J[] {
  return jobs
    .map((job, i) => ({ job, i, cost: estimateRunCost(job.record) }))
    .sort((a, b) => b.cost - a.cost || a.i - b.i)
    .map((x) => x.job);
}
