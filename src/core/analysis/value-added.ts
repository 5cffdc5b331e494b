/**
 * Value added over the no-tutor control, across a set of runs: each run is paired with the silent
 * tutor's run on the same student (same scenario, seed, student voice, learner model, ability and
 * horizon) found in the set, and its value added is its learning gain minus the control's over the
 * same days (scoring/value-added.ts). A run whose report already carries a value added keeps it.
 * Definitions: docs/analyses.md ("Value added over no tutor").
 */
import { CONTROL_TUTOR, NO_CONTROL, REFERENCE_TUTOR, valueAdded } from '../scoring/value-added';
import type { AxisStat } from '../scoring/axes';
import type { RunDigest } from './digest';
import { studentOf } from './digest';
import { clusteredStat, groupBy, present } from './stats';

/** What pairs a run with its control, and tutors' runs with each other: the same student, scenario and conditions. */
export const pairKey = (d: RunDigest): string => JSON.stringify([d.scenarioId, d.seed, d.voice ?? '?', d.tracer ?? '?', d.ability ?? '?', d.horizonDays]);

/** The digests with `axes.valueAdded` filled from the set's controls where the run's own report had none. */
export function attachControls(digests: readonly RunDigest[]): RunDigest[] {
  const controls = new Map<string, RunDigest>();
  for (const d of digests) if (d.tutorName === CONTROL_TUTOR && !d.field) controls.set(pairKey(d), d);
  return digests.map((d) => {
    if (d.axes.valueAdded !== null && d.axes.valueAdded !== undefined) return d;
    if (d.tutorName === CONTROL_TUTOR) {
      // A silent run is its own control (a digest stored before the axis existed has no value for it).
      if (d.axes.learningGain === null) return { ...d, axes: { ...d.axes, valueAdded: null }, unscored: { ...d.unscored, valueAdded: 'learning gain unscored' } };
      const { valueAdded: _drop, ...unscored } = d.unscored;
      return { ...d, axes: { ...d.axes, valueAdded: 0 }, unscored };
    }
    const c = controls.get(pairKey(d));
    if (!c) return { ...d, axes: { ...d.axes, valueAdded: null }, unscored: { ...d.unscored, valueAdded: NO_CONTROL } };
    const v = valueAdded(d.curve, c.curve);
    const reason = v.added !== null ? undefined : v.played === null ? 'learning gain unscored' : `the control run ${c.runId} has no probe through day ${v.through}`;
    const unscored = { ...d.unscored };
    if (reason) unscored.valueAdded = reason;
    else delete unscored.valueAdded;
    return { ...d, axes: { ...d.axes, valueAdded: v.added }, unscored, controlGain: v.silent, controlRunId: c.runId };
  });
}

/**
 * The digests with `reference` set from the set's oracle runs (REFERENCE_TUTOR) on the same student
 * (pairKey): the oracle's probe curve is the run's steady-learning reference (curves.ts). An oracle
 * run is its own reference; field runs have none (no simulated student to plan on).
 */
export function attachReferences(digests: readonly RunDigest[]): RunDigest[] {
  const oracles = new Map<string, RunDigest>();
  for (const d of digests) if (d.tutorName === REFERENCE_TUTOR && !d.field) oracles.set(pairKey(d), d);
  return digests.map((d) => {
    const o = d.field ? undefined : oracles.get(pairKey(d));
    return o ? { ...d, reference: { runId: o.runId, curve: o.curve } } : d;
  });
}

export interface TutorValueAdded {
  tutor: string;
  runs: number;
  /** Runs with a control (the n of the stats below), and the independent students behind them. */
  paired: number;
  students: number;
  /** The tutor's learning gain, the control's, and the value added, over the paired runs; intervals clustered by student. */
  gain: AxisStat;
  control: AxisStat;
  added: AxisStat;
  /** Runs without a value added, by reason. */
  missing: { reason: string; runs: number }[];
}

/** Per tutor: learning gain, the no-tutor control's gain on the same students, and the value added, each with an interval clustered by student. */
export function valueAddedByTutor(digests: readonly RunDigest[]): TutorValueAdded[] {
  return [...groupBy(digests, (d) => d.tutor)].map(([tutor, runs]) => {
    const ok = runs.filter((d) => d.axes.valueAdded !== null && d.axes.valueAdded !== undefined && d.axes.learningGain !== null);
    const students = ok.map(studentOf);
    const control = ok.map((d) => (d.tutorName === CONTROL_TUTOR ? d.axes.learningGain! : (d.controlGain ?? d.axes.learningGain! - d.axes.valueAdded!)));
    const why = new Map<string, number>();
    for (const d of runs) if (!ok.includes(d)) why.set(d.unscored.valueAdded ?? 'not scored', (why.get(d.unscored.valueAdded ?? 'not scored') ?? 0) + 1);
    return {
      tutor,
      runs: runs.length,
      paired: ok.length,
      students: new Set(students).size,
      gain: clusteredStat(present(ok.map((d) => d.axes.learningGain)), students),
      control: clusteredStat(control, students),
      added: clusteredStat(present(ok.map((d) => d.axes.valueAdded)), students),
      missing: [...why].map(([reason, n]) => ({ reason, runs: n })).sort((a, b) => b.runs - a.runs),
    };
  });
}
