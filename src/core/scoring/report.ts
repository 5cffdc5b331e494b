import type { TraceEvent, ActionKind, TerminationReason } from '../trace/types';
import { actionCounts, independence, leakage, learningGain, responsiveness, type CurvePoint, type Scored } from './metrics';

/** Judged axes (filled by the judge panel; null = unscored). */
export const JUDGED_AXES = ['helpfulness', 'gagne', 'rosenshine', 'answerHolding', 'pedagogy'] as const;
export type JudgedAxis = (typeof JUDGED_AXES)[number];

export interface ScoreReport {
  runId: string;
  scenarioId: string;
  tutor: string;
  seed: number;
  complete: boolean;
  endReason: TerminationReason | null;
  learningGain: number | null;
  responsiveness: number | null;
  leakage: number | null;
  independence: number | null;
  actions: Record<ActionKind, number>;
  dailySolveRate: (number | null)[];
  curve: CurvePoint[];
  judged: Record<JudgedAxis, number | null>;
  details: {
    learningGain: Scored['detail'] & { reason?: string };
    responsiveness: Scored['detail'] & { reason?: string };
    leakage: Scored['detail'] & { reason?: string };
    independence: Scored['detail'] & { reason?: string };
    implicitSilences: number;
    toolErrors: number;
    turns: number;
  };
}

const withReason = <D>(s: Scored<D>) => ({ ...s.detail, ...(s.reason ? { reason: s.reason } : {}) });

/** Scores a trace on every deterministic axis. Judged axes are null until a panel scores them. */
export function scoreTrace(events: readonly TraceEvent[]): ScoreReport {
  const start = events[0];
  if (!start || start.type !== 'run_start') throw new Error('a trace starts with run_start');
  const end = events[events.length - 1];
  const lg = learningGain(events);
  const resp = responsiveness(events);
  const leak = leakage(events);
  const ind = independence(events);
  const acts = actionCounts(events);
  const horizon = start.scenario.horizonDays;
  const daily: (number | null)[] = Array.from({ length: horizon + 1 }, () => null);
  for (const p of lg.detail.curve) if (p.day <= horizon) daily[p.day] = p.solveRate;
  return {
    runId: start.runId,
    scenarioId: start.scenario.id,
    tutor: start.tutor.name,
    seed: start.scenario.seed,
    complete: end?.type === 'run_end',
    endReason: end?.type === 'run_end' ? end.reason : null,
    learningGain: lg.value,
    responsiveness: resp.value,
    leakage: leak.value,
    independence: ind.value,
    actions: acts.counts,
    dailySolveRate: daily,
    curve: lg.detail.curve,
    judged: { helpfulness: null, gagne: null, rosenshine: null, answerHolding: null, pedagogy: null },
    details: {
      learningGain: withReason(lg),
      responsiveness: withReason(resp),
      leakage: withReason(leak),
      independence: withReason(ind),
      implicitSilences: acts.implicitSilences,
      toolErrors: acts.toolErrors,
      turns: acts.turns,
    },
  };
}
