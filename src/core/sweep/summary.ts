/**
 * What a sweep reports: the per-run summary computed from a trace, and the aggregate table (mean
 * and 95% t-interval over seeds for each axis that `AXES` marks `sweep`, per scenario and
 * overall). Pure; shared by the CLI (worker threads) and the page (web workers). Docs: docs/sweeps.md.
 */
import { scenarioLabel } from '../scenario/library';
import type { TraceEvent, ActionKind, TerminationReason } from '../trace/types';
import { ACTION_KINDS } from '../trace/types';
import { scoreTrace } from '../scoring/report';
import { SWEEP_AXES, type AxisStat, type SweepAxis } from '../scoring/axes';
import { learnerActivity, type LearnerActivity } from '../scoring/activity';
import type { RunWarning } from '../scoring/warnings';
import { meanCi95 } from '../stats/index';
import { CONTROL_TUTOR } from '../scoring/value-added';

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
  /** The run's warnings (scoring/warnings.ts), present only when it has any. */
  warnings?: RunWarning[];
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
    ...(r.warnings?.length ? { warnings: r.warnings } : {}),
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
  /**
   * Only when the sweep has several tutors (RunSummary.tutor: "planner", "llm/reactive/gpt-4.1-mini"):
   * one summary per tutor, in the order given (or first seen), each over that tutor's runs alone.
   * The fields above then pool the runs of every tutor; compare tutors with these.
   */
  byTutor?: SweepSummary[];
}

function stat(xs: number[]): AxisStat {
  if (xs.length === 0) return { mean: null, lo: null, hi: null, n: 0 };
  const c = meanCi95(xs);
  return { mean: c.mean, lo: c.lo, hi: c.hi, n: c.n };
}

const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export interface SweepSummaryOptions {
  /**
   * The tutors planned (labels as RunSummary.tutor has them), in the order to report them, so that
   * a tutor whose runs all failed still has its section. Default: the tutors of `runs`, first seen first.
   */
  tutors?: readonly string[];
  /** Runs that left no summary (their worker died, they were cancelled): listed in `failed` with endReason null. */
  unfinished?: readonly { runId: string; tutor: string }[];
}

/** The sweep's summary; with more than one tutor, `byTutor` holds one summary per tutor. */
export function summarizeSweep(given: readonly RunSummary[], opts: SweepSummaryOptions = {}): SweepSummary {
  const runs = attachControls(given);
  const unfinished = opts.unfinished ?? [];
  const tutors = [...new Set([...(opts.tutors ?? []), ...runs.map((r) => r.tutor), ...unfinished.map((u) => u.tutor)])];
  const sum = summarizeRuns(runs, tutors, unfinished);
  if (tutors.length > 1)
    sum.byTutor = tutors.map((t) =>
      summarizeRuns(
        runs.filter((r) => r.tutor === t),
        [t],
        unfinished.filter((u) => u.tutor === t),
      ),
    );
  return sum;
}

/** The part of a run id after the seed ("__voice-…" for an LLM student voice, else ""). */
function voiceSuffix(r: RunSummary): string {
  const at = r.runId.lastIndexOf(`__s${r.seed}`);
  return at < 0 ? '' : r.runId.slice(at + `__s${r.seed}`.length);
}

/**
 * Each run's value added over the sweep's no-tutor control on the same student: the silent
 * tutor's run on the same scenario, seed, learner model, ability and student voice. Both runs must
 * have reached the horizon (their learning gains then cover the same days); otherwise, and without
 * a control in the sweep, the run's value added stays null. A silent run's own is 0 (summarizeRun).
 */
export function attachControls(runs: readonly RunSummary[]): RunSummary[] {
  const key = (r: RunSummary) => JSON.stringify([r.scenarioId, r.seed, r.tracer, r.ability, voiceSuffix(r)]);
  const controls = new Map<string, RunSummary>();
  for (const r of runs) if (r.tutor === CONTROL_TUTOR && r.endReason === 'horizon_reached') controls.set(key(r), r);
  return runs.map((r) => {
    if (r.tutor === CONTROL_TUTOR) return { ...r, axes: { ...r.axes, valueAdded: r.axes.valueAdded ?? (r.axes.learningGain === null ? null : 0) } };
    const c = controls.get(key(r));
    const ok = c && r.endReason === 'horizon_reached' && r.axes.learningGain !== null && c.axes.learningGain !== null;
    return { ...r, axes: { ...r.axes, valueAdded: ok ? r.axes.learningGain! - c.axes.learningGain! : null } };
  });
}

function summarizeRuns(runs: readonly RunSummary[], tutors: readonly string[], unfinished: readonly { runId: string }[]): SweepSummary {
  // Ascending everywhere seeds are listed (tables, text, JSON), whatever order the runs came in.
  const seeds = [...new Set(runs.map((r) => r.seed))].sort((a, b) => a - b);
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
      seeds: rs.map((r) => r.seed).sort((a, b) => a - b),
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
    failed: [...runs.filter((r) => r.endReason !== 'horizon_reached').map((r) => ({ runId: r.runId, endReason: r.endReason })), ...unfinished.map((u) => ({ runId: u.runId, endReason: null }))],
    seeds,
    scenarios,
    overall,
    overallActions: meanActions(runs),
  };
}

const CELLS_NOTE = 'cells: mean [95% t-interval over seeds, shares cut to 0–100]; one seed gives no interval; n/a: no run scored the axis (e.g. no help requests); value added needs the silent tutor in the sweep (the no-tutor control on the same students)';

/** Rows as columns padded to their widest cell (the first left-aligned), with a rule under the head and before `footFrom`. */
function table(head: string[], rows: string[][], footFrom: number): string[] {
  const all = [head, ...rows];
  const widths = head.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(head), rule, ...rows.slice(0, footFrom).map(line), ...(footFrom < rows.length ? [rule, ...rows.slice(footFrom).map(line)] : [])];
}

const axisHead = () => SWEEP_AXES.map((a) => `${a.short} (${a.unit})`);
const seedsText = (seeds: readonly number[]) => `${seeds.length} seed${seeds.length === 1 ? '' : 's'} (${seeds.join(', ')})`;
const failedNote = (sum: SweepSummary) => (sum.failed.length ? [`runs that did not reach the horizon: ${sum.failed.map((f) => `${f.runId} (${f.endReason ?? 'incomplete'})`).join(', ')}`] : []);

/** One tutor's table: one row per scenario, then the overall row. */
function formatOne(sum: SweepSummary): string {
  const rows = sum.scenarios.map((r) => [scenarioLabel(r.scenarioId), r.failed ? `${r.runs} (${r.failed} failed)` : String(r.runs), ...SWEEP_AXES.map((a) => a.formatStat(r.axes[a.id]))]);
  const overall = ['overall (over seeds)', String(sum.runs), ...SWEEP_AXES.map((a) => a.formatStat(sum.overall[a.id]))];
  const notes = [
    `tutor ${sum.tutor}; ${sum.runs} runs over ${sum.scenarios.length} scenarios × ${seedsText(sum.seeds)}`,
    CELLS_NOTE,
    `mean actions per run: ${ACTION_KINDS.map((k) => `${k} ${sum.overallActions[k].toFixed(1)}`).join(', ')}`,
    ...failedNote(sum),
  ];
  return [...table(['scenario', 'runs', ...axisHead()], [...rows, overall], rows.length), '', ...notes].join('\n');
}

/**
 * The summary as plain text (the CLI's summary.txt). One tutor: one row per scenario, then the
 * overall row. Several tutors (`byTutor`): a section per tutor (its own table), then one table
 * comparing the tutors' overall rows.
 */
export function formatSweepSummary(sum: SweepSummary): string {
  if (!sum.byTutor || sum.byTutor.length < 2) return formatOne(sum);
  const sections = sum.byTutor.map((t) => [`== tutor ${t.tutor} ==`, '', formatOne(t)].join('\n'));
  const rows = sum.byTutor.map((t) => [t.tutor, t.failed.length ? `${t.runs} (${t.failed.length} failed)` : String(t.runs), ...SWEEP_AXES.map((a) => a.formatStat(t.overall[a.id]))]);
  const compared = [
    '== tutors compared (overall over seeds) ==',
    '',
    ...table(['tutor', 'runs', ...axisHead()], rows, rows.length),
    '',
    `${sum.byTutor.length} tutors; ${sum.runs} runs over ${new Set(sum.scenarios.map((r) => r.scenarioId)).size} scenarios × ${seedsText(sum.seeds)}`,
    CELLS_NOTE,
  ];
  return [...sections, compared.join('\n')].join('\n\n');
}
