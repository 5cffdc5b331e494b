/**
 * Value added by a tutor: the run's learning gain minus the learning gain of the same student with
 * no tutor (the control), on the same scenario, schedule, seed, learner model, ability, voice and
 * horizon, over the same days (through the run's last daily probe). The control is the `silent`
 * reference tutor (it stays silent on every wake: the course's own homework goes on). A silent run
 * is its own control: its value added is 0 by definition. Definitions: docs/metrics.md ("Value
 * added") and docs/analyses.md.
 *
 * Pure: the caller runs (or finds) the control and hands its curve here. Play's debrief, the CLI,
 * the sweep summary and the analyses share these functions.
 */
import type { CurvePoint as ScoredPoint } from './metrics';

/** What these functions read of a probe curve point. */
type CurvePoint = Pick<ScoredPoint, 'day' | 'solveRate'>;

/** The registry name of the no-tutor control. */
export const CONTROL_TUTOR = 'silent';

/**
 * The registry name of the tutor whose curve is the steady-learning reference: the oracle plans on
 * the learner's true knowledge (simulated learners only), so its curve on the same student is what
 * informed planning attains in this simulator (analysis/curves.ts).
 */
export const REFERENCE_TUTOR = 'oracle';

/** The learning gain of a probe curve through day `day` (mean per-day change from day 0): the scorer's definition on a shorter window. */
export function gainThrough(curve: readonly CurvePoint[], day: number): number | null {
  const first = curve.find((p) => p.day === 0);
  const last = [...curve].filter((p) => p.day > 0 && p.day <= day).sort((a, b) => a.day - b.day).pop();
  return first && last ? (last.solveRate - first.solveRate) / last.day : null;
}

/** The last probe day of a curve (the last daily check). */
export const lastCheck = (curve: readonly CurvePoint[]): number => Math.max(0, ...curve.map((p) => p.day));

/**
 * The run's gain, the control's gain through the run's last probe day, and their difference (null
 * when either has no probe after day 0 by then, or the control stops short of the run's last probe day).
 */
export function valueAdded(played: readonly CurvePoint[], control: readonly CurvePoint[]): { through: number; played: number | null; silent: number | null; added: number | null } {
  const through = lastCheck(played);
  const p = gainThrough(played, through);
  const s = lastCheck(control) >= through ? gainThrough(control, through) : null;
  return { through, played: p, silent: s, added: p !== null && s !== null ? p - s : null };
}

/** What a score report holds about its value added (ScoreReport.valueAdded). */
export interface ValueAddedDetail {
  /** Run gain − control gain (fraction per day); null with `reason`. */
  value: number | null;
  /** The control run (null: none given). */
  controlRunId: string | null;
  /** The control's learning gain over the same days. */
  controlGain: number | null;
  /** The day both gains run through (the run's last probe day). */
  through: number | null;
  reason?: string;
}

export const NO_CONTROL = 'no no-tutor control run on the same student (run the silent tutor on the same scenario, seed, learner model, ability and voice)';

/** What these functions read of a score report (report.ts imports this module, so it is named structurally). */
interface Scored {
  runId: string;
  learningGain: number | null;
  curve: readonly CurvePoint[];
}

/** A silent run's own value added: 0 when its learning gain is scored (it is its own control). */
export function ownControl(r: Scored): ValueAddedDetail {
  const through = lastCheck(r.curve);
  return r.learningGain === null ? { value: null, controlRunId: r.runId, controlGain: null, through, reason: 'learning gain unscored' } : { value: 0, controlRunId: r.runId, controlGain: r.learningGain, through };
}

/** The report with its value added over `control` (another run's report on the same student), or with the reason it has none. */
export function withControl<R extends Scored>(r: R, control: Scored | null): R & { valueAdded: ValueAddedDetail } {
  if (!control) return { ...r, valueAdded: { value: null, controlRunId: null, controlGain: null, through: null, reason: NO_CONTROL } };
  const v = valueAdded(r.curve, control.curve);
  const reason = v.added !== null ? undefined : v.played === null ? 'learning gain unscored' : `the control run has no probe through day ${v.through}`;
  return { ...r, valueAdded: { value: v.added, controlRunId: control.runId, controlGain: v.silent, through: v.through, ...(reason ? { reason } : {}) } };
}
