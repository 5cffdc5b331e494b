/**
 * What a sweep reports: the per-run summary computed from a trace, and the aggregate table (mean
 * and 95% t-interval over seeds for each axis that `AXES` marks `sweep`, per scenario and
 * overall). Pure; shared by the CLI (worker threads) and the page (web workers). Docs: docs/sweeps.md.
 */
import type { TraceEvent, ActionKind, TerminationReason } from '../trace/types';
import { ACTION_KINDS } from '../trace/types';
import { scoreTrace } from '../scoring/report';
import { SWEEP_AXES, type AxisStat, type SweepAxis } from '../scoring/axes';
import { learnerActivity, type LearnerActivity } from '../scoring/activity';
import { meanCi95 } from '../stats/index';

export { SWEEP_AXES, type AxisStat, type SweepAxis };

/** One run, reduced to what a sweep reports (the full trace is stored separately). */
export interface RunSummary {
  runId: string;
  scenarioId: string;
  source: string;
  /** Persona and schedule names, and the ability level, from the scenario. */
  persona: string;
  schedule: string;
  ability: string;
  /** The knowledge tracer the learner ran on (`akt` or `bkt`). */
  tracer: string;
  tutor: string;
  seed: number;
  endReason: TerminationReason | null;
  events: number;
  axes: Record<SweepAxis, number | null>;
  actions: Record<ActionKind, number>;
  activity: LearnerActivity;
}

export function summarizeRun(events: readonly TraceEvent[], source: string): RunSummary {
  const r = scoreTrace(events);
  const start = events[0];
  if (!start || start.type !== 'run_start') throw new Error('a trace starts with run_start');
  const s = start.scenario;
  return {
    runId: r.runId,
    scenarioId: r.scenarioId,
    source,
    persona: s.learner.persona.preset ?? s.learner.persona.name,
    schedule: s.schedule.name,
    ability: s.learner.ability,
    tracer: s.learner.tracer,
    tutor: r.tutor,
    seed: r.seed,
    endReason: r.endReason,
    events: events.length,
    axes: Object.fromEntries(SWEEP_AXES.map((a) => [a.id, a.value(r)])) as Record<SweepAxis, number | null>,
    actions: r.actions,
    activity: learnerActivity(events),
  };
}

export interface ScenarioRow {
  scenarioId: string;
  source: string;
  persona: string;
  schedule: string;
  runs: number;
  failed: number;
  seeds: number[];
  axes: Record<SweepAxis, AxisStat>;
  actions: Record<ActionKind, number>;
}

export interface SweepSummary {
  tutor: string;
  runs: number;
  /** Runs that did not reach the horizon. */
  failed: { runId: string; endReason: TerminationReason | null }[];
  seeds: number[];
  scenarios: ScenarioRow[];
  /**
   * Overall, per axis: for each seed, the mean over the scenarios that scored the axis; then the
   * mean and 95% t-interval of those per-seed means over seeds (n = seeds). With a single seed the
   * interval is undefined (null) and the mean is the mean over scenarios.
   */
  overall: Record<SweepAxis, AxisStat>;
  /** Mean action counts per run. */
  overallActions: Record<ActionKind, number>;
}

function stat(xs: number[]): AxisStat {
  if (xs.length === 0) return { mean: null, lo: null, hi: null, n: 0 };
  const c = meanCi95(xs);
  return { mean: c.mean, lo: c.lo, hi: c.hi, n: c.n };
}

const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function summarizeSweep(runs: readonly RunSummary[]): SweepSummary {
  const tutors = [...new Set(runs.map((r) => r.tutor))];
  const seeds = [...new Set(runs.map((r) => r.seed))];
  const byScenario = new Map<string, RunSummary[]>();
  for (const r of runs) byScenario.set(r.scenarioId, [...(byScenario.get(r.scenarioId) ?? []), r]);
  const zeroActions = () => Object.fromEntries(ACTION_KINDS.map((k) => [k, 0])) as Record<ActionKind, number>;
  const meanActions = (rs: readonly RunSummary[]) => {
    const a = zeroActions();
    for (const k of ACTION_KINDS) a[k] = rs.length ? meanOf(rs.map((r) => r.actions[k])) : 0;
    return a;
  };
  const scenarios: ScenarioRow[] = [...byScenario.entries()].map(([scenarioId, rs]) => {
    const first = rs[0]!;
    const axes = Object.fromEntries(SWEEP_AXES.map(({ id }) => [id, stat(rs.map((r) => r.axes[id]).filter((v): v is number => v !== null))])) as Record<SweepAxis, AxisStat>;
    return {
      scenarioId,
      source: first.source,
      persona: first.persona,
      schedule: first.schedule,
      runs: rs.length,
      failed: rs.filter((r) => r.endReason !== 'horizon_reached').length,
      seeds: rs.map((r) => r.seed),
      axes,
      actions: meanActions(rs),
    };
  });
  const overall = Object.fromEntries(
    SWEEP_AXES.map(({ id }) => {
      const perSeed = seeds
        .map((s) => runs.filter((r) => r.seed === s).map((r) => r.axes[id]).filter((v): v is number => v !== null))
        .filter((xs) => xs.length > 0)
        .map(meanOf);
      return [id, stat(perSeed)];
    }),
  ) as Record<SweepAxis, AxisStat>;
  return {
    tutor: tutors.join(', '),
    runs: runs.length,
    failed: runs.filter((r) => r.endReason !== 'horizon_reached').map((r) => ({ runId: r.runId, endReason: r.endReason })),
    seeds,
    scenarios,
    overall,
    overallActions: meanActions(runs),
  };
}

/** The summary as a plain-text table: one row per scenario, then the overall row. */
export function formatSweepSummary(sum: SweepSummary): string {
  const head = ['scenario', 'runs', ...SWEEP_AXES.map((a) => `${a.short} (${a.unit})`)];
  const rows = sum.scenarios.map((r) => [r.scenarioId, r.failed ? `${r.runs} (${r.failed} failed)` : String(r.runs), ...SWEEP_AXES.map((a) => a.formatStat(r.axes[a.id]))]);
  const overall = ['overall (over seeds)', String(sum.runs), ...SWEEP_AXES.map((a) => a.formatStat(sum.overall[a.id]))];
  const all = [head, ...rows, overall];
  const widths = head.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const notes = [
    `tutor ${sum.tutor}; ${sum.runs} runs over ${sum.scenarios.length} scenarios × ${sum.seeds.length} seed${sum.seeds.length === 1 ? '' : 's'} (${sum.seeds.join(', ')})`,
    'cells: mean [95% t-interval over seeds, shares cut to 0–100]; one seed gives no interval; n/a: no run scored the axis (e.g. no help requests)',
    `mean actions per run: ${ACTION_KINDS.map((k) => `${k} ${sum.overallActions[k].toFixed(1)}`).join(', ')}`,
    ...(sum.failed.length ? [`runs that did not reach the horizon: ${sum.failed.map((f) => `${f.runId} (${f.endReason ?? 'incomplete'})`).join(', ')}`] : []),
  ];
  return [line(head), rule, ...rows.map(line), rule, line(overall), '', ...notes].join('\n');
}
