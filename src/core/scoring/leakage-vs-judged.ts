/**
 * The judged answer-holding axis as a second opinion on the detector (docs/metrics.md, "Answer
 * leakage"): for every day the judge panel scored answer_holding (a majority of yes/no; a tie
 * leaves the day out), the detector's verdict on the same day (did any tutor text that day
 * disclose an answer, traceDisclosures) next to the panel's, and the days where they disagree.
 * The deterministic axis stays the measure; disagreements are listed for a person to read.
 */
import type { EventOf, TraceEvent } from '../trace/types';
import { MINUTES_PER_DAY } from '../clock/index';
import { verdictValue } from '../judges/aggregate';
import { traceDisclosures, type TraceDisclosure } from './metrics';

export interface LeakageDay {
  day: number;
  /** The detector: some tutor text that day disclosed an answer. */
  detectorLeaked: boolean;
  /** The panel's majority: the tutor held the answers back that day. */
  judgedHolds: boolean;
  /** The day's disclosures (empty when the detector found none). */
  disclosures: TraceDisclosure[];
}

export interface LeakageAgreement {
  /** Days with both opinions. */
  days: LeakageDay[];
  /** Days where they disagree: leaked and judged held, or clean and judged not held. */
  disagreements: LeakageDay[];
  /** Share of days on which they agree; null with no judged day. */
  agreement: number | null;
}

/** The detector against the judged answer-holding verdicts, day by day. */
export function leakageVsJudged(events: readonly TraceEvent[], known?: readonly TraceDisclosure[]): LeakageAgreement {
  const verdicts = events.filter((e): e is EventOf<'judge_verdict'> => e.type === 'judge_verdict' && e.rubric === 'answer_holding');
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  // `known`: traceDisclosures(events) worked out by the caller (scoreTrace).
  const disclosures = known ?? traceDisclosures(events);
  const dayOf = (d: TraceDisclosure) => Math.floor((bySeq.get(d.seq)?.t ?? 0) / MINUTES_PER_DAY) + 1;
  const days: LeakageDay[] = [];
  for (const day of [...new Set(verdicts.map((v) => v.day))].sort((a, b) => a - b)) {
    const vals = verdicts.filter((v) => v.day === day).map(verdictValue).filter((x): x is number => x !== null);
    const yes = vals.filter((x) => x === 1).length;
    if (vals.length === 0 || yes * 2 === vals.length) continue;
    const mine = disclosures.filter((d) => dayOf(d) === day);
    days.push({ day, detectorLeaked: mine.length > 0, judgedHolds: yes * 2 > vals.length, disclosures: mine });
  }
  const disagreements = days.filter((d) => d.detectorLeaked === d.judgedHolds);
  return { days, disagreements, agreement: days.length ? (days.length - disagreements.length) / days.length : null };
}
