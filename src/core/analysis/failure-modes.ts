/**
 * The paper's four failure modes, per tutor and over all runs. Each is decided per run, or left
 * undecided with the reason; a rate is the share of the decided runs (k of n shown).
 *
 * - no curriculum: the panel's Gagné score < 1.5 (undecided: no Gagné verdict scored a day);
 * - no value added: value added over the no-tutor control ≤ 0 (the run's learning gain is no more
 *   than the same student's with no tutor; undecided: no control run on the same student, or no
 *   day-0 and later probe). The paper's "no learning gain": gain against the start alone counts
 *   what the learner would have learned anyway;
 * - neglect: at least one help request got no tutor message at all for the rest of its day
 *   (RunDigest.help; undecided: the learner asked for no help, or the trace was not given);
 * - answer disclosure: answer leakage > 0, or the panel's answer holding < 1 (on some scored day
 *   the panel majority said the tutor did not hold the answer back). A run whose tutor sent no
 *   message disclosed nothing (leakage is null only then); undecided only when neither the leakage
 *   count nor a panel says anything.
 */
import type { RunDigest } from './digest';
import { byText, groupBy } from './stats';

export const NO_CURRICULUM_GAGNE = 1.5;

export const FAILURE_MODES = [
  { id: 'noCurriculum', label: 'no curriculum', rule: `Gagné < ${NO_CURRICULUM_GAGNE}` },
  { id: 'noValueAdded', label: 'no value added', rule: 'value added over no tutor ≤ 0' },
  { id: 'neglect', label: 'neglect', rule: 'a help request left without any tutor message for the rest of its day' },
  { id: 'disclosure', label: 'answer disclosure', rule: 'leakage > 0, or panel answer holding < 1' },
] as const;
export type FailureModeId = (typeof FAILURE_MODES)[number]['id'];

/** A run's verdict on one mode: failed or not, or undecided with why. */
export type ModeVerdict = { failed: boolean } | { undecided: string };

export function failureVerdicts(d: RunDigest): Record<FailureModeId, ModeVerdict> {
  const g = d.axes.gagne;
  const va = d.axes.valueAdded;
  const leak = d.axes.leakage;
  const hold = d.axes.answerHolding;
  const silent = leak === null && d.tutorMessageTurns === 0;
  return {
    noCurriculum: g === null ? { undecided: d.unscored.gagne ?? 'no Gagné score' } : { failed: g < NO_CURRICULUM_GAGNE },
    noValueAdded: va === null || va === undefined ? { undecided: d.unscored.valueAdded ?? 'no value added' } : { failed: va <= 0 },
    neglect: d.help === null ? { undecided: 'needs the trace' } : d.help.requests === 0 ? { undecided: 'no help requests' } : { failed: d.help.neglected > 0 },
    disclosure:
      (leak !== null && leak > 0) || (hold !== null && hold < 1)
        ? { failed: true }
        : leak !== null || hold !== null || silent
          ? { failed: false }
          : { undecided: d.unscored.leakage ?? 'no leakage count and no panel' },
  };
}

export interface ModeRate {
  failed: number;
  /** Decided runs (the rate's denominator). */
  decided: number;
  rate: number | null;
  undecided: { reason: string; runs: number }[];
}

export interface FailureRow {
  /** A tutor label, or "all runs". */
  group: string;
  runs: number;
  modes: Record<FailureModeId, ModeRate>;
}

export const ALL_RUNS = 'all runs';

function rates(runs: readonly RunDigest[], group: string): FailureRow {
  const verdicts = runs.map(failureVerdicts);
  const modes = {} as Record<FailureModeId, ModeRate>;
  for (const m of FAILURE_MODES) {
    const vs = verdicts.map((v) => v[m.id]);
    const decided = vs.filter((v): v is { failed: boolean } => 'failed' in v);
    const failed = decided.filter((v) => v.failed).length;
    const why = new Map<string, number>();
    for (const v of vs) if ('undecided' in v) why.set(v.undecided, (why.get(v.undecided) ?? 0) + 1);
    modes[m.id] = {
      failed,
      decided: decided.length,
      rate: decided.length ? failed / decided.length : null,
      undecided: [...why].map(([reason, n]) => ({ reason, runs: n })).sort((a, b) => b.runs - a.runs || byText(a.reason, b.reason)),
    };
  }
  return { group, runs: runs.length, modes };
}

/** One row per tutor, then the row over all runs. */
export function failureModes(digests: readonly RunDigest[]): FailureRow[] {
  return [...[...groupBy(digests, (d) => d.tutor)].map(([t, rs]) => rates(rs, t)), rates(digests, ALL_RUNS)];
}
