import type { TraceEvent, ActionKind, TerminationReason } from '../trace/types';
import { runWarnings, type RunWarning } from './warnings';
import { LEAK_MATCH, actionCounts, independence, leakage, learningGain, responsiveness, type CurvePoint, type Scored } from './metrics';
import { judgedAxes, type JudgedSummary } from '../judges/aggregate';
import { leakageVsJudged } from './leakage-vs-judged';
import { answerExtraction, type ExtractionDetail } from './answer-extraction';
import { llmUsage, voiceFidelity, type LlmUsage, type VoiceFidelity } from './llm-usage';
import { JUDGED_AXES, type JudgedAxis } from '../rubrics/index';
import { tutorLabel } from '../trace/tutor-label';
import { CONTROL_TUTOR, ownControl, type ValueAddedDetail } from './value-added';

/** Judged axes (filled by the judge panel; null = unscored). Declared with the rubrics, which say which axis each scores. */
export { JUDGED_AXES, type JudgedAxis };

/**
 * A run's scores: the stored form (the page keeps it with each run in IndexedDB), so fields are
 * only ever added, as optional ones. How each axis is shown: `axes.ts`.
 */
export interface ScoreReport {
  runId: string;
  scenarioId: string;
  tutor: string;
  seed: number;
  complete: boolean;
  endReason: TerminationReason | null;
  /**
   * Days the run covered (run_end's days): the horizon for a run that reached it, the days played
   * for one its tutor ended (`ended_by_tutor`, scored as a complete run of that length). Absent
   * for a run cut short and in reports stored before it was part of the report.
   */
  days?: number;
  learningGain: number | null;
  responsiveness: number | null;
  leakage: number | null;
  independence: number | null;
  /** Answer extraction yielded; absent in reports stored before it was part of the report. */
  extraction?: number | null;
  /**
   * Value added over the no-tutor control on the same student (value-added.ts): set by
   * `withControl` when the caller has the control run; a silent run is its own control (0). Absent:
   * no control was looked for (stored reports, a plain `scoreTrace` of a non-silent run).
   */
  valueAdded?: ValueAddedDetail;
  actions: Record<ActionKind, number>;
  dailySolveRate: (number | null)[];
  curve: CurvePoint[];
  judged: Record<JudgedAxis, number | null>;
  details: {
    learningGain: Scored['detail'] & { reason?: string };
    responsiveness: Scored['detail'] & { reason?: string };
    leakage: Scored['detail'] & { reason?: string };
    independence: Scored['detail'] & { reason?: string };
    extraction?: ExtractionDetail & { reason?: string };
    implicitSilences: number;
    toolErrors: number;
    turns: number;
    /** Judge panel verdicts behind the judged axes (panel, per-judge means, unscored counts). */
    judged: JudgedSummary;
    /** Tokens and cost by role (tutor, student, judge); null when no LLM was used. */
    llm: LlmUsage | null;
    /** LLM student voice: how often the rendered attempt disagreed with the decided correctness. */
    voice: VoiceFidelity | null;
    /** The judged answer-holding verdicts as a second opinion on leakage: agreement by day and the days they disagree (present when the panel judged answer holding). */
    leakageVsJudged?: { judgedDays: number; agreement: number | null; disagreements: { day: number; detectorLeaked: boolean; judgedHolds: boolean; spans: string[] }[] };
  };
  /** A broken set-up that still scores (a tutor that never acted, calls that keep failing, tool calls as text): scoring/warnings.ts. Absent in reports stored before warnings existed. */
  warnings?: RunWarning[];
}

const withReason = <D>(s: Scored<D>) => ({ ...s.detail, ...(s.reason ? { reason: s.reason } : {}) });

/** Scores a trace on every deterministic axis, and the judged axes from stored verdicts (null = unscored). */
export function scoreTrace(events: readonly TraceEvent[]): ScoreReport {
  const start = events[0];
  if (!start || start.type !== 'run_start') throw new Error('a trace starts with run_start');
  const end = events.find((e) => e.type === 'run_end');
  const lg = learningGain(events);
  const judged = judgedAxes(events);
  const leak = leakage(events);
  // The detector's disclosures, read once (leakage works them out): responsiveness, extraction and the judged comparison read the same list.
  const resp = responsiveness(events, leak.detail.disclosures);
  const ind = independence(events);
  const ext = answerExtraction(events, LEAK_MATCH, leak.detail.disclosures);
  const acts = actionCounts(events);
  const vsJudged = leakageVsJudged(events, leak.detail.disclosures);
  const horizon = start.scenario.horizonDays;
  const daily: (number | null)[] = Array.from({ length: horizon + 1 }, () => null);
  for (const p of lg.detail.curve) if (p.day <= horizon) daily[p.day] = p.solveRate;
  const report: ScoreReport = {
    runId: start.runId,
    scenarioId: start.scenario.id,
    tutor: tutorLabel(start.tutor),
    seed: start.scenario.seed,
    complete: end?.type === 'run_end',
    endReason: end?.type === 'run_end' ? end.reason : null,
    ...(end?.type === 'run_end' ? { days: end.days } : {}),
    learningGain: lg.value,
    responsiveness: resp.value,
    leakage: leak.value,
    independence: ind.value,
    extraction: ext.value,
    actions: acts.counts,
    dailySolveRate: daily,
    curve: lg.detail.curve,
    judged: judged.values,
    details: {
      learningGain: withReason(lg),
      responsiveness: withReason(resp),
      leakage: withReason(leak),
      independence: withReason(ind),
      extraction: withReason(ext),
      implicitSilences: acts.implicitSilences,
      toolErrors: acts.toolErrors,
      turns: acts.turns,
      judged,
      llm: llmUsage(events),
      voice: voiceFidelity(events),
      ...(vsJudged.days.length
        ? { leakageVsJudged: { judgedDays: vsJudged.days.length, agreement: vsJudged.agreement, disagreements: vsJudged.disagreements.map((d) => ({ day: d.day, detectorLeaked: d.detectorLeaked, judgedHolds: d.judgedHolds, spans: d.disclosures.map((x) => `${x.itemId}: ${x.span}`) })) } }
        : {}),
    },
    warnings: runWarnings(events),
  };
  return start.tutor.name === CONTROL_TUTOR ? { ...report, valueAdded: ownControl(report) } : report;
}
