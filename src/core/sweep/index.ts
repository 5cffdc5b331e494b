/**
 * Sweeps: one tutor over many scenarios × seeds. This module is the pure part shared by the CLI
 * (worker threads) and the page (web workers): the job list, the per-run summary computed from a
 * trace, and the aggregate table (mean and 95% t-interval over seeds for each deterministic axis,
 * per scenario and overall). How runs are executed is the adapters' business. Docs: docs/sweeps.md.
 */
import type { Scenario } from '../scenario/schema';
import type { TraceEvent, ActionKind, TerminationReason } from '../trace/types';
import { ACTION_KINDS } from '../trace/types';
import { runIdOf, runRecord, type RunRecord, type RunRecordInput } from '../engine/record';
import { scoreTrace } from '../scoring/report';
import { answerExtraction } from '../scoring/extraction';
import { learnerActivity, type LearnerActivity } from '../scoring/activity';
import { meanCi95 } from '../stats/index';

export interface SweepJob {
  /** Position in the sweep (scenario-major, then seed). */
  index: number;
  runId: string;
  /** The run, as data: what a worker (a thread, a page slot, a queue job) hands to executeRun. */
  record: RunRecord;
}

/** What every run of a sweep shares: the tutor and its config, the voice, and the overrides. */
export type SweepBase = Pick<RunRecordInput, 'tutor' | 'voice' | 'tracer' | 'ability' | 'horizonDays'>;

/** Parses "42", "1,2,3", "1-5" or "1-3,10" into a list of distinct seeds in the order given. */
export function parseSeedList(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!m) throw new Error(`seeds: "${part}" is not a seed or a range like 1-5`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new Error(`seeds: range "${part}" runs backwards`);
    if (b - a > 10_000) throw new Error(`seeds: range "${part}" is too long`);
    for (let s = a; s <= b; s++) {
      if (s > 2 ** 32 - 1) throw new Error(`seeds: ${s} is above 2^32-1`);
      if (!out.includes(s)) out.push(s);
    }
  }
  if (out.length === 0) throw new Error('seeds: the list is empty');
  return out;
}

/** Every scenario × seed as run records; `seeds` null runs each scenario with its own seed. Scenario ids must be unique. */
export function planSweep(scenarios: readonly { scenario: Scenario; source: string }[], base: SweepBase, seeds: readonly number[] | null): SweepJob[] {
  const seen = new Map<string, string>();
  for (const { scenario, source } of scenarios) {
    const prev = seen.get(scenario.id);
    if (prev !== undefined) throw new Error(`two scenarios have the id "${scenario.id}" (${prev} and ${source}); run ids would collide`);
    seen.set(scenario.id, source);
  }
  const jobs: SweepJob[] = [];
  for (const { scenario, source } of scenarios) {
    for (const seed of seeds ?? [scenario.seed]) {
      const record = runRecord({ ...base, scenario, source, seed });
      jobs.push({ index: jobs.length, runId: runIdOf(record), record });
    }
  }
  return jobs;
}

/** The deterministic axes a sweep aggregates, with how to show them. */
export const SWEEP_AXES = [
  { key: 'learningGain', label: 'I learning gain', unit: 'pp/day' },
  { key: 'responsiveness', label: 'II responsiveness', unit: '%' },
  { key: 'leakage', label: 'answer leakage', unit: '%' },
  { key: 'independence', label: 'next-turn independence', unit: '%' },
  { key: 'extraction', label: 'answer extraction yielded', unit: '%' },
] as const;
export type SweepAxis = (typeof SWEEP_AXES)[number]['key'];

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
    axes: { learningGain: r.learningGain, responsiveness: r.responsiveness, leakage: r.leakage, independence: r.independence, extraction: answerExtraction(events).value },
    actions: r.actions,
    activity: learnerActivity(events),
  };
}

/** Mean and 95% t-interval over the values that exist; n counts them (null values are "not scored"). */
export interface AxisStat {
  mean: number | null;
  lo: number | null;
  hi: number | null;
  n: number;
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
    const axes = Object.fromEntries(SWEEP_AXES.map(({ key }) => [key, stat(rs.map((r) => r.axes[key]).filter((v): v is number => v !== null))])) as Record<SweepAxis, AxisStat>;
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
    SWEEP_AXES.map(({ key }) => {
      const perSeed = seeds
        .map((s) => runs.filter((r) => r.seed === s).map((r) => r.axes[key]).filter((v): v is number => v !== null))
        .filter((xs) => xs.length > 0)
        .map(meanOf);
      return [key, stat(perSeed)];
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

/**
 * "0.31 [0.12, 0.50]" in the axis' unit; "n/a" when nothing was scored. Shares (%) have their
 * interval shown cut to the possible range 0–100 (a t-interval over few seeds can run past it);
 * the JSON summary keeps the uncut numbers.
 */
export function formatStat(s: AxisStat, unit: '%' | 'pp/day'): string {
  if (s.mean === null) return 'n/a';
  const f = (x: number) => (x * 100).toFixed(unit === '%' ? 1 : 2);
  if (s.lo === null || s.hi === null) return f(s.mean);
  const [lo, hi] = unit === '%' ? [Math.max(0, s.lo), Math.min(1, s.hi)] : [s.lo, s.hi];
  return `${f(s.mean)} [${f(lo)}, ${f(hi)}]`;
}

/** The summary as a plain-text table: one row per scenario, then the overall row. */
export function formatSweepSummary(sum: SweepSummary): string {
  const head = ['scenario', 'runs', ...SWEEP_AXES.map((a) => `${a.label} (${a.unit})`)];
  const rows = sum.scenarios.map((r) => [r.scenarioId, r.failed ? `${r.runs} (${r.failed} failed)` : String(r.runs), ...SWEEP_AXES.map((a) => formatStat(r.axes[a.key], a.unit))]);
  const overall = ['overall (over seeds)', String(sum.runs), ...SWEEP_AXES.map((a) => formatStat(sum.overall[a.key], a.unit))];
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
export { personaTableMarkdown, abilityTableMarkdown, personaParameterMarkdown, personaDescriptionsMarkdown, scheduleTablesMarkdown, aggregateBy, PERSONA_MEASURES, type PersonaMeasures } from './personas';
