/**
 * The whole results report of a set of runs: every analysis (`analyseBenchmark`, JSON), and the
 * same as sections of tables and plot specs (`buildBenchmarkReport`) that the Markdown, HTML and
 * CSV renderers (`render.ts`) and the page's BenchmarkResults component print. Pure: the same runs
 * (in any order) and options give the same report. Definitions: docs/analyses.md.
 */
import { ACTION_KINDS } from '../trace/types';
import { AXES, UNITS, axisById, type AnyAxis, type AxisId, type AxisStat } from '../scoring/axes';
import { digestAll, type AnalysisInput, type RunDigest } from './digest';
import { axesByTutor, axesByTutorVoice, type TutorAxes, type TutorVoiceAxes } from './axes-by-tutor';
import { solveRateCurves, type TutorCurve } from './curves';
import { axisScatter, type ScatterData } from './scatter';
import { modelHarness, type ModelHarness, type RankTable } from './model-harness';
import { ALL_RUNS, FAILURE_MODES, failureModes, type FailureRow } from './failure-modes';
import { DEFAULT_PASS_RULE, parsePassRule, passAtK, voicesDiffer, type PassKResult, type TrialsOver } from './pass-k';
import { actionFrequencies, type TutorActions } from './actions';
import { axisCorrelations, type AxisPair } from './correlations';
import { byText, groupBy } from './stats';
import { curvesSpec, distributionSpec, groupedBarSpec, heatmapSpec, lineSpec, rankSpec, scatterSpec, type CurveRow, type DistributionRow } from './plots';
import { fieldComparisons, type FieldComparison } from './field';
import { attachControls, attachReferences, valueAddedByTutor, type TutorValueAdded } from './value-added';
import { headToHeads, type HeadToHead, type HeadToHeadResult } from './head-to-head';
import { studentOf, SHARED_STUDENT_ENGINES } from './digest';
import { CONTROL_TUTOR, REFERENCE_TUTOR } from '../scoring/value-added';
import { num, pct, statCsv, statText, type CsvCell, type ReportPlot, type ReportSection, type ReportTable } from './table';

export interface ReportOptions {
  /** The pass rule of pass^k (parsePassRule); default DEFAULT_PASS_RULE. */
  passRule?: string;
  /** The axis of the model × harness table; default learningGain. */
  rankAxis?: AxisId;
  title?: string;
  /** The command that reproduces the report (printed at the top). */
  command?: string;
}

export interface Overview {
  runs: number;
  /** Independent students behind the runs (RunDigest.student), and the engines the runs came from. */
  students: number;
  engines: string[];
  tutors: { tutor: string; runs: number; students: number; scenarios: number; seeds: number[]; voices: string[]; tracers: string[]; incomplete: number; judged: number; warned: number }[];
  scenarios: string[];
  seeds: number[];
  voices: string[];
  tracers: string[];
  /** Runs that did not reach their horizon (their scores enter the analyses as scored). */
  incomplete: { runId: string; tutor: string; endReason: string | null }[];
  /** Runs with set-up warnings (scoring/warnings.ts): a tutor that never acted, calls that kept failing, tool calls as text. */
  warned: { runId: string; tutor: string; warnings: string[] }[];
  /** Runs given without their trace (what needs it is "needs the trace" for them). */
  withoutTrace: number;
  judged: number;
}

export interface BenchmarkAnalyses {
  overview: Overview;
  axes: TutorAxes[];
  /** Every axis per tutor and student voice (student model); empty when the runs have one voice. */
  byVoice: TutorVoiceAxes[];
  curves: TutorCurve[];
  scatter: ScatterData[];
  modelHarness: ModelHarness;
  failureModes: FailureRow[];
  passK: PassKResult[];
  actions: TutorActions[];
  correlations: AxisPair[];
  /** Field runs against simulated runs of the same tutor (empty: no field run in the set). */
  field: FieldComparison[];
  /** Per tutor: learning gain, the no-tutor control's on the same students, value added (clustered by student). */
  valueAdded: TutorValueAdded[];
  /** Paired comparisons of every two tutors on shared students, per axis, and the rankings. */
  headToHead: HeadToHeadResult;
}

export interface BenchmarkReport {
  title: string;
  /** One line: runs, tutors, scenarios, seeds. */
  summary: string;
  command: string | null;
  options: { passRule: string; rankAxis: AxisId };
  sections: ReportSection[];
  analyses: BenchmarkAnalyses;
}

const order = (a: RunDigest, b: RunDigest) => byText(a.tutor, b.tutor) || byText(a.scenarioId, b.scenarioId) || a.seed - b.seed || byText(a.voice ?? '', b.voice ?? '') || byText(a.tracer ?? '', b.tracer ?? '') || byText(a.runId, b.runId);
const uniq = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

function overview(ds: readonly RunDigest[]): Overview {
  return {
    runs: ds.length,
    students: new Set(ds.map(studentOf)).size,
    engines: uniq(ds.map((d) => d.engine ?? 'unknown')).sort(byText),
    tutors: [...groupBy(ds, (d) => d.tutor)].map(([tutor, rs]) => ({
      tutor,
      runs: rs.length,
      students: new Set(rs.map(studentOf)).size,
      scenarios: uniq(rs.map((r) => r.scenarioId)).length,
      seeds: uniq(rs.map((r) => r.seed)).sort((a, b) => a - b),
      voices: uniq(rs.map((r) => r.voice ?? 'unknown')).sort(byText),
      tracers: uniq(rs.map((r) => r.tracer ?? 'unknown')).sort(byText),
      incomplete: rs.filter((r) => !r.complete).length,
      judged: rs.filter((r) => r.panel !== null).length,
      warned: rs.filter((r) => (r.warnings ?? []).length > 0).length,
    })),
    scenarios: uniq(ds.map((d) => d.scenarioId)).sort(byText),
    seeds: uniq(ds.map((d) => d.seed)).sort((a, b) => a - b),
    voices: uniq(ds.map((d) => d.voice ?? 'unknown')).sort(byText),
    tracers: uniq(ds.map((d) => d.tracer ?? 'unknown')).sort(byText),
    incomplete: ds.filter((d) => !d.complete).map((d) => ({ runId: d.runId, tutor: d.tutor, endReason: d.endReason })),
    warned: ds.filter((d) => (d.warnings ?? []).length > 0).map((d) => ({ runId: d.runId, tutor: d.tutor, warnings: d.warnings ?? [] })),
    withoutTrace: ds.filter((d) => d.missing.includes('events')).length,
    judged: ds.filter((d) => d.panel !== null).length,
  };
}

/** The digests, sorted (so that input order never changes a number), with the options resolved. */
function prepare(inputs: readonly AnalysisInput[], opts: ReportOptions) {
  // Value added needs the set's no-tutor controls: filled in once here, so every analysis reads it.
  const digests = attachReferences(attachControls(digestAll(inputs).sort(order)));
  const rule = parsePassRule(opts.passRule ?? DEFAULT_PASS_RULE);
  const rankAxis = opts.rankAxis ?? 'learningGain';
  if (!axisById(rankAxis)) throw new Error(`unknown axis "${rankAxis}" (axes: ${AXES.map((a) => a.id).join(', ')})`);
  return { digests, rule, rankAxis };
}

/** Every analysis of the runs, as data. */
export function analyseBenchmark(inputs: readonly AnalysisInput[], opts: ReportOptions = {}): BenchmarkAnalyses {
  const { digests, rule, rankAxis } = prepare(inputs, opts);
  // Across voices when some task has runs with several voices; across seeds and voices whenever the runs have more than one voice.
  // The paper's pass^k (across student voices) first when some task ran with several voices; across seeds always; across both whenever the runs have more than one voice.
  const overs: TrialsOver[] = [...(voicesDiffer(digests) ? (['voices'] as const) : []), 'seeds', ...(new Set(digests.map((d) => d.voice ?? '?')).size > 1 ? (['runs'] as const) : [])];
  return {
    overview: overview(digests),
    axes: axesByTutor(digests),
    byVoice: axesByTutorVoice(digests),
    curves: solveRateCurves(digests),
    scatter: [axisScatter(digests, 'responsiveness', 'helpfulness'), axisScatter(digests, 'responsiveness', 'learningGain')],
    modelHarness: modelHarness(digests, rankAxis),
    failureModes: failureModes(digests),
    passK: overs.map((o) => passAtK(digests, rule, o)),
    actions: actionFrequencies(digests),
    correlations: axisCorrelations(digests),
    field: fieldComparisons(digests),
    valueAdded: valueAddedByTutor(digests),
    headToHead: headToHeads(digests),
  };
}

// ---------------------------------------------------------------- tables and plots

function table(id: string, title: string, head: string[], numeric: boolean[], rows: string[][], csvHead: string[], csvRows: CsvCell[][], notes: string[] = [], flags: { csvOnly?: boolean; folded?: boolean } = {}): ReportTable {
  return { id, title, head, numeric, rows, csv: { head: csvHead, rows: csvRows }, notes, ...flags };
}

const axisHead = (a: AnyAxis) => `${a.label} (${a.unit})`;
const studentsText = (s: AxisStat) => (s.students !== undefined && s.students !== s.n ? `, s=${s.students}` : '');
const axisCell = (a: AnyAxis, s: AxisStat) => (s.n === 0 ? (a.kind === 'judged' ? 'unscored' : 'n/a') : `${a.formatStat(s)} (n=${s.n}${studentsText(s)})`);
/** "higher is better" / "lower is better" for an axis with a direction. */
const direction = (a: AnyAxis) => (a.better === 'higher' ? '↑ higher is better' : a.better === 'lower' ? '↓ lower is better' : 'no better direction');
const axisHeadDir = (a: AnyAxis) => `${a.label} (${a.unit}; ${a.better === 'higher' ? '↑' : a.better === 'lower' ? '↓' : '·'})`;
const countsText = (xs: readonly { reason: string; runs: number }[]) => xs.map((x) => `${x.reason} (${x.runs} run${x.runs === 1 ? '' : 's'})`).join('; ');
const list = (xs: readonly string[]) => (xs.length <= 2 ? xs.join(' and ') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
const rateStat = (s: AxisStat) => statText(s, { digits: 1, scale: 100, bounds: [0, 1], suffix: '%' });

function overviewSection(a: BenchmarkAnalyses, digests: readonly RunDigest[], passRule: string): ReportSection {
  const o = a.overview;
  const p: string[] = [
    `${plural(o.runs, 'run')} of ${plural(o.tutors.length, 'tutor')} on ${plural(o.scenarios.length, 'scenario')}; seeds ${o.seeds.join(', ') || 'none'}; student voices ${o.voices.join(', ')}; learner models ${o.tracers.join(', ')}. ${o.judged} of ${o.runs} runs were judged by a panel.`,
    `Each run (one scenario × seed × student voice) is one value in every mean below, but runs of one student are not independent: ${plural(o.runs, 'run')} stand on ${plural(o.students, 'independent student')}. ${o.engines.some((e) => e === 'unknown' || SHARED_STUDENT_ENGINES.includes(e)) ? `On ${list(o.engines.filter((e) => e === 'unknown' || SHARED_STUDENT_ENGINES.includes(e)))} runs a seed fixes the student for every scenario, so a student is a seed there. ` : ''}Intervals are 95% intervals clustered by student (CR1, Student-t on students − 1 degrees of freedom) and appear only with at least two students; "s=" gives the students behind a number. A value that cannot be computed is n/a, or "unscored" for a judged axis, with the reason: never a default number. Every definition is in docs/analyses.md.`,
    `Pass rule for pass^k: \`${passRule}\`.`,
  ];
  if (o.incomplete.length) p.push(`${plural(o.incomplete.length, 'run')} did not reach the horizon and enter every analysis with what they scored: ${o.incomplete.map((r) => `${r.runId} (${r.tutor}, ${r.endReason ?? 'no run_end'})`).join(', ')}.`);
  if (o.warned.length) {
    const codes = [...new Set(o.warned.flatMap((w) => w.warnings))].sort(byText);
    p.push(`Warning: ${plural(o.warned.length, 'run')} may measure a broken set-up rather than the tutor (docs/analyses.md#set-up-warnings): ${codes.map((c) => `${c} in ${list(o.warned.filter((w) => w.warnings.includes(c)).map((w) => `${w.runId} (${w.tutor})`))}`).join('; ')}.`);
  }
  if (o.withoutTrace) p.push(`${plural(o.withoutTrace, 'run')} came without their trace: the reference curve, actions per day, neglect and the student voice are unknown for them (counted as "needs the trace").`);
  const mixed = o.tutors.filter((t) => t.tracers.length > 1);
  if (mixed.length) p.push(`Warning: ${list(mixed.map((t) => t.tutor))} ran on more than one learner model; their means pool learner models.`);
  const tutors = table(
    'tutors',
    'Runs per tutor',
    ['Tutor', 'Runs', 'Students', 'Scenarios', 'Seeds', 'Voices', 'Learner models', 'Did not reach horizon', 'Judged', 'Set-up warnings'],
    [false, true, true, true, false, false, false, true, true, true],
    o.tutors.map((t) => [t.tutor, String(t.runs), String(t.students), String(t.scenarios), t.seeds.join(', '), t.voices.join(', '), t.tracers.join(', '), String(t.incomplete), String(t.judged), String(t.warned)]),
    ['tutor', 'runs', 'students', 'scenarios', 'seeds', 'voices', 'tracers', 'incomplete', 'judged', 'warned'],
    o.tutors.map((t) => [t.tutor, t.runs, t.students, t.scenarios, t.seeds.join(' '), t.voices.join(' '), t.tracers.join(' '), t.incomplete, t.judged, t.warned]),
  );
  const runs = table(
    'runs',
    'Every run (the values every analysis starts from)',
    [],
    [],
    [],
    ['run_id', 'tutor', 'tutor_name', 'harness', 'model', 'scenario', 'persona', 'schedule', 'ability', 'tracer', 'voice', 'seed', 'student', 'engine', 'control_run_id', 'horizon_days', 'reached_horizon', 'end_reason', 'panel', ...AXES.map((x) => x.id), 'probe_ceiling', 'help_requests', 'help_unanswered', 'help_neglected', ...ACTION_KINDS, 'missing', 'warnings'],
    digests.map((d) => [d.runId, d.tutor, d.tutorName, d.harness, d.model, d.scenarioId, d.persona, d.schedule, d.ability, d.tracer, d.voice, d.seed, studentOf(d), d.engine ?? null, d.controlRunId ?? (d.tutorName === CONTROL_TUTOR ? d.runId : null), d.horizonDays, d.complete, d.endReason, d.panel, ...AXES.map((x) => d.axes[x.id]), d.ceiling, d.help?.requests ?? null, d.help?.unanswered ?? null, d.help?.neglected ?? null, ...ACTION_KINDS.map((k) => d.actions[k]), d.missing.join(' '), d.warnings === undefined || d.warnings === null ? null : d.warnings.join(' ')]),
    ['Axis values are stored units: shares as fractions 0–1, learning gain as a fraction per day (× 100 = pp/day).'],
    { csvOnly: true },
  );
  return { id: 'overview', title: 'Runs', paragraphs: p, plots: [], tables: [tutors, runs] };
}

function axesSection(a: BenchmarkAnalyses): ReportSection {
  const notes: string[] = [];
  for (const ax of AXES) {
    const byReason = new Map<string, string[]>();
    for (const t of a.axes) {
      const c = t.axes[ax.id];
      if (c.stat.n === 0) byReason.set(countsText(c.unscored), [...(byReason.get(countsText(c.unscored)) ?? []), t.tutor]);
    }
    for (const [reason, tutors] of byReason) notes.push(`${ax.label}: ${ax.kind === 'judged' ? 'unscored' : 'n/a'} for ${list(tutors)}: ${reason}.`);
  }
  const t = table(
    'axes-by-tutor',
    'Every axis per tutor',
    ['Tutor', 'Runs', ...AXES.map(axisHeadDir)],
    [false, true, ...AXES.map(() => true)],
    a.axes.map((r) => [r.tutor, String(r.runs), ...AXES.map((ax) => axisCell(ax, r.axes[ax.id].stat))]),
    ['tutor', 'axis', 'unit', 'better', 'display_scale', 'mean', 'lo', 'hi', 'n', 'students', 'runs', 'unscored_reasons'],
    a.axes.flatMap((r) => AXES.map((ax) => [r.tutor, ax.id, ax.unit, ax.better, UNITS[ax.unit].scale, ...statCsv(r.axes[ax.id].stat), r.axes[ax.id].stat.students ?? null, r.runs, countsText(r.axes[ax.id].unscored) || null])),
    ['Cells: mean [95% interval clustered by student] (n = runs that scored the axis, s = the independent students behind them when fewer) in the unit of the column; ↑ higher is better, ↓ lower is better; shares are cut to 0–100 in the interval. CSV: stored units (× display_scale = the unit shown).', ...notes],
  );
  return {
    id: 'axes',
    title: 'Axes per tutor',
    paragraphs: ['Every axis of the benchmark (docs/metrics.md) per tutor, over its runs (scenarios × seeds × voices), with intervals clustered by student. The sweep summary\'s overall row averages per seed first; both account for runs sharing a student, in different ways (docs/analyses.md). For how a tutor compares with another on the same students, see "Head to head".'],
    plots: [],
    tables: [t],
  };
}

/** Every axis per tutor and student voice: the results broken down by student model. */
function voiceSection(a: BenchmarkAnalyses): ReportSection {
  const t = table(
    'axes-by-voice',
    'Every axis per tutor and student voice',
    ['Tutor', 'Student voice', 'Runs', ...AXES.map(axisHead)],
    [false, false, true, ...AXES.map(() => true)],
    a.byVoice.map((r) => [r.tutor, r.voice, String(r.runs), ...AXES.map((ax) => axisCell(ax, r.axes[ax.id].stat))]),
    ['tutor', 'voice', 'axis', 'unit', 'display_scale', 'mean', 'lo', 'hi', 'n', 'runs', 'unscored_reasons'],
    a.byVoice.flatMap((r) => AXES.map((ax) => [r.tutor, r.voice, ax.id, ax.unit, UNITS[ax.unit].scale, ...statCsv(r.axes[ax.id].stat), r.runs, countsText(r.axes[ax.id].unscored) || null])),
    ['Cells: mean [95% t-interval] (n = runs that scored the axis) over the runs of that tutor with that student voice. CSV: stored units (× display_scale = the unit shown).'],
  );
  return {
    id: 'by-voice',
    title: 'Axes per student model',
    paragraphs: [
      'The same axes per tutor, broken down by the student voice its runs had (the templates, or an LLM student per model: run_start.voice). A tutor whose scores move with the student model is being measured on the student as much as on its teaching; pass^k across voices (below) asks whether it passes with every one of them.',
    ],
    plots: [],
    tables: [t],
  };
}


/** The reference tutors a result is read against (the yardsticks), when they are in the set: the no-tutor control first. */
export const YARDSTICK_TUTORS = [CONTROL_TUTOR, 'oracle', 'planner', 'withholder', 'answer-giver'] as const;

const gainAxis = () => axisById('learningGain')!;
const ppText = (v: number | null, digits = 2) => (v === null ? 'n/a' : `${v >= 0 ? '+' : ''}${(v * 100).toFixed(digits)}`);
const vaStat = (s: AxisStat) => (s.n === 0 ? 'n/a' : `${gainAxis().formatStat(s)} (n=${s.n}, s=${s.students ?? s.n})`);

function valueAddedSection(a: BenchmarkAnalyses): ReportSection {
  const hasControl = a.valueAdded.some((t) => t.paired > 0 && t.tutor !== CONTROL_TUTOR);
  const t = table(
    'value-added',
    'Value added over no tutor (↑ higher is better)',
    ['Tutor', 'Runs', 'With a control', 'Students', 'Learning gain (pp/day)', 'No tutor, same students (pp/day)', 'Value added (pp/day)', 'Left out'],
    [false, true, true, true, true, true, true, false],
    a.valueAdded.map((r) => [r.tutor, String(r.runs), String(r.paired), String(r.students), vaStat(r.gain), vaStat(r.control), vaStat(r.added), countsText(r.missing) || '—']),
    ['tutor', 'runs', 'paired_runs', 'students', 'gain_mean', 'gain_lo', 'gain_hi', 'control_gain_mean', 'control_gain_lo', 'control_gain_hi', 'value_added_mean', 'value_added_lo', 'value_added_hi', 'left_out'],
    a.valueAdded.map((r) => [r.tutor, r.runs, r.paired, r.students, ...statCsv(r.gain).slice(0, 3), ...statCsv(r.control).slice(0, 3), ...statCsv(r.added).slice(0, 3), countsText(r.missing) || null]),
    ['Over the runs that have a no-tutor control on the same student (scenario, seed, voice, learner model, ability, horizon): mean [95% interval clustered by student] (n = runs, s = independent students). Value added = the run\'s learning gain − the control\'s over the same days; the no-tutor control\'s own is 0 by definition. CSV: fractions per day (× 100 = pp/day).'],
  );
  const paragraphs = [
    'The no-tutor control is the silent tutor on the same student: the same scenario, schedule, seed, learner model, ability and voice, with nobody answering (the course\'s own homework goes on). Its learning gain is what the student learns anyway; a tutor\'s value added is what it adds to that. A learning gain without this yardstick mostly measures the student, not the tutor.',
  ];
  if (!hasControl) paragraphs.push(`No run in this set has its no-tutor control: add the ${CONTROL_TUTOR} tutor on the same scenarios and seeds (npm run cli -- sweep ... --tutor ${CONTROL_TUTOR}, or report --controls to run the missing controls).`);
  return { id: 'value-added', title: 'Value added over no tutor', paragraphs, plots: [], tables: [t] };
}

const h2hNumber = (ax: AnyAxis, v: number | null) => (v === null ? 'n/a' : `${v >= 0 ? '+' : ''}${(v * UNITS[ax.unit].scale).toFixed(UNITS[ax.unit].digits)}`);
const h2hDiff = (ax: AnyAxis, h: HeadToHead) => `${h2hNumber(ax, h.summary.mean)}${h.summary.lo !== null ? ` [${h2hNumber(ax, h.summary.lo)}, ${h2hNumber(ax, h.summary.hi)}]` : ''}`;
const pText = (h: HeadToHead) => (h.summary.wilcoxon ? (h.summary.wilcoxon.p < 0.001 ? '<0.001' : h.summary.wilcoxon.p.toFixed(3)) : 'n/a');
const needText = (h: HeadToHead) => (h.studentsNeeded === null ? 'n/a' : `${h.studentsNeeded} students (${plural(h.seedsNeeded!, 'seed')})`);

function headToHeadSection(a: BenchmarkAnalyses): ReportSection {
  const hs = a.headToHead.comparisons;
  const primary = new Set<AxisId>(['learningGain', 'valueAdded', 'responsiveness', 'leakage', 'independence', 'helpfulness']);
  const shown = hs.filter((h) => primary.has(h.axis) && h.axis !== 'valueAdded');
  const rowOf = (h: HeadToHead) => {
    const ax = axisById(h.axis)!;
    return [ax.label, h.a, h.b, String(h.pairs), String(h.students), h2hDiff(ax, h), h.summary.dz === null ? 'n/a' : h.summary.dz.toFixed(2), `${h.summary.wins}/${h.summary.ties}/${h.summary.losses}`, pText(h), h.distinguishable ? 'yes' : 'no', needText(h)];
  };
  const main = table(
    'head-to-head',
    'Head to head: A − B on the same students',
    ['Axis', 'A', 'B', 'Pairs', 'Students', 'Mean A − B [95%]', 'd_z', 'A better / tie / B better', 'Wilcoxon p', 'Interval excludes 0', 'Needed for 80% power'],
    [false, false, false, true, true, true, true, true, true, false, true],
    shown.map(rowOf),
    ['axis', 'better', 'a', 'b', 'pairs', 'students', 'seeds', 'mean_diff', 'lo', 'hi', 'sd', 'dz', 'a_better', 'ties', 'b_better', 'wilcoxon_p', 'wilcoxon_w_plus', 'wilcoxon_n', 'wilcoxon_method', 'distinguishable', 'students_needed', 'seeds_needed'],
    hs.map((h) => [h.axis, axisById(h.axis)!.better, h.a, h.b, h.pairs, h.students, h.seeds, h.summary.mean, h.summary.lo, h.summary.hi, h.summary.sd, h.summary.dz, h.summary.wins, h.summary.ties, h.summary.losses, h.summary.wilcoxon?.p ?? null, h.summary.wilcoxon?.wPlus ?? null, h.summary.wilcoxon?.n ?? null, h.summary.wilcoxon?.method ?? null, h.distinguishable, h.studentsNeeded, h.seedsNeeded]),
    [
      'Pairs: runs of A and B on the same scenario, seed, voice, learner model, ability and horizon that both scored the axis. Their differences are averaged per student first (runs of one student are not independent), so every statistic is over students: mean [95% t-interval], d_z = mean / sd of the differences, the students on which A was better (in the axis\'s direction), tied, or B was better, and the two-sided Wilcoxon signed-rank p. Differences in the axis\'s display unit (pp/day, percentage points, score points).',
      'Needed for 80% power: the students (and seeds, at this comparison\'s students per seed) a two-sided paired t-test at α = 0.05 needs to detect the observed mean difference with the observed spread. Value added is not listed: A − B on value added equals A − B on learning gain (the same control). The CSV has every directed axis.',
    ],
  );
  const rank = table(
    'ranking',
    'Ranking per axis, and which neighbours are distinguishable from noise',
    ['Axis', 'Rank', 'Tutor', 'Mean', 'Runs', 'Against the next one down (A − B [95%], Wilcoxon p)'],
    [false, true, false, true, true, false],
    a.headToHead.rankings.filter((r) => primary.has(r.axis) && r.axis !== 'valueAdded').flatMap((r) => {
      const ax = axisById(r.axis)!;
      return r.rows.map((row, i) => [ax.label, String(i + 1), row.tutor, ax.format(row.mean), String(row.n), row.vsNext === null ? (i + 1 < r.rows.length ? 'no shared students' : '—') : `${row.vsNext.distinguishable ? 'distinguishable' : 'not distinguishable'}: ${h2hDiff(ax, row.vsNext)}, p ${pText(row.vsNext)} (${plural(row.vsNext.students, 'student')})`]);
    }),
    ['axis', 'rank', 'tutor', 'mean', 'runs', 'next_tutor', 'next_mean_diff', 'next_lo', 'next_hi', 'next_wilcoxon_p', 'next_students', 'distinguishable_from_next'],
    a.headToHead.rankings.flatMap((r) => r.rows.map((row, i) => [r.axis, i + 1, row.tutor, row.mean, row.n, r.rows[i + 1]?.tutor ?? null, row.vsNext?.summary.mean ?? null, row.vsNext?.summary.lo ?? null, row.vsNext?.summary.hi ?? null, row.vsNext?.summary.wilcoxon?.p ?? null, row.vsNext?.students ?? null, row.vsNext ? row.vsNext.distinguishable : null])),
    ['Tutors best first (in the axis\'s direction) by their mean over all their runs; "distinguishable" when the paired 95% interval against the next one down excludes 0. Neighbours that are not distinguishable are tied as far as these students can tell.'],
  );
  // Yardsticks: every tutor against the no-tutor control and the reference tutors present, on learning gain.
  const tutors = a.overview.tutors.map((t) => t.tutor);
  const sticks = YARDSTICK_TUTORS.filter((y) => tutors.includes(y));
  const lg = gainAxis();
  const find = (x: string, y: string) => hs.find((h) => h.axis === 'learningGain' && h.a === x && h.b === y) ?? null;
  const flip = (h: HeadToHead): HeadToHead => ({ ...h, a: h.b, b: h.a, summary: { ...h.summary, mean: h.summary.mean === null ? null : -h.summary.mean, lo: h.summary.hi === null ? null : -h.summary.hi, hi: h.summary.lo === null ? null : -h.summary.lo, dz: h.summary.dz === null ? null : -h.summary.dz, wins: h.summary.losses, losses: h.summary.wins } });
  const vs = (x: string, y: string) => (x === y ? null : (find(x, y) ?? (find(y, x) ? flip(find(y, x)!) : null)));
  const yard = table(
    'yardsticks',
    'Learning gain against the yardsticks, on the same students (A − B, pp/day; ↑ higher is better)',
    ['Tutor', ...sticks.map((y) => (y === CONTROL_TUTOR ? 'vs no tutor (silent)' : `vs ${y}`))],
    [false, ...sticks.map(() => true)],
    tutors.map((t) => [t, ...sticks.map((y) => {
      const h = vs(t, y);
      return t === y ? '—' : h ? `${h2hDiff(lg, h)} (${h.summary.wins}/${h.summary.ties}/${h.summary.losses}, p ${pText(h)}, s=${h.students})` : 'no shared students';
    })]),
    ['tutor', 'yardstick', 'mean_diff', 'lo', 'hi', 'a_better', 'ties', 'b_better', 'wilcoxon_p', 'students'],
    tutors.flatMap((t) => sticks.flatMap((y) => {
      const h = vs(t, y);
      return h ? [[t, y, h.summary.mean, h.summary.lo, h.summary.hi, h.summary.wins, h.summary.ties, h.summary.losses, h.summary.wilcoxon?.p ?? null, h.students]] : [];
    })),
    ['Cells: mean difference [95% t-interval over students] (tutor better / tie / yardstick better, Wilcoxon p, s = students). The steady-learning reference is in "Learning curves"; the no-tutor control is what the same student learns anyway.'],
  );
  const power = hs
    .filter((h) => h.axis === 'learningGain' && h.summary.mean !== null && h.summary.sd !== null)
    .map((h) => `${h.a} vs ${h.b}: observed difference ${ppText(h.summary.mean)} pp/day (sd ${(h.summary.sd! * 100).toFixed(2)} over ${plural(h.students, 'student')}, ${plural(h.seeds, 'seed')}); ${h.studentsNeeded === null ? 'no power line (no difference or no spread)' : `detecting it with 80% power at α = 0.05 needs ${plural(h.studentsNeeded, 'student')}, ${plural(h.seedsNeeded!, 'seed')} at ${(h.students / h.seeds).toFixed(h.students % h.seeds ? 1 : 0)} student${h.students === h.seeds ? '' : 's'} per seed${h.students >= h.studentsNeeded ? ' (this set has enough)' : ''}`}.`);
  const paragraphs = [
    'Every two tutors run on the same students, compared pair by pair: a difference measured on the same student cancels what the student brings (its starting level, its pace), so it needs far fewer runs than comparing two means. Statistics are over independent students (a student\'s runs are averaged first).',
  ];
  if (hs.length === 0) paragraphs.push('No two tutors ran on the same students (same scenarios, seeds, voices, learner model, ability and horizon): nothing to pair.');
  if (power.length) paragraphs.push(`Power, on learning gain: ${power.join(' ')}`);
  return { id: 'head-to-head', title: 'Head to head', paragraphs, plots: [], tables: hs.length ? [yard, main, rank] : [] };
}

const sdText = (a: AnyAxis, sd: number | null) => (sd === null ? 'n/a' : (sd * UNITS[a.unit].scale).toFixed(UNITS[a.unit].digits));
const meanText = (a: AnyAxis, m: number | null) => (m === null ? 'n/a' : a.format(m));

/** Field runs against simulated runs of the same tutor, per axis: distributions and a Mann–Whitney U test (docs/analyses.md, "Field against simulation"). */
function fieldSection(a: BenchmarkAnalyses): ReportSection {
  const tables: ReportTable[] = [];
  const plots: ReportPlot[] = [];
  const paragraphs = [
    'Field runs are a classroom study\'s sessions with real students (docs/classroom.md); simulated runs are runs of the same tutor with the simulated learner. Per axis both have: mean, standard deviation and n on each side, and a two-sided Mann–Whitney U test (exact for samples of at most 40 values without ties, else the normal approximation with tie and continuity corrections). A field run has no knowledge tracer, so its learning gain comes only from the study\'s probe set; the judged axes need a panel on both sides.',
  ];
  for (const c of a.field) {
    const id = `field-${c.tutor.replace(/[^\w.-]+/g, '_')}`;
    if (c.simulatedRuns === 0) paragraphs.push(`${c.tutor}: ${plural(c.fieldRuns, 'field run')} and no simulated run of this tutor in the set: add simulated runs of it (a benchmark or sweep of ${c.tutor}) to compare.`);
    const both = c.rows.filter((r) => r.test);
    tables.push(
      table(
        id,
        `${c.tutor}: ${plural(c.fieldRuns, 'field run')} against ${plural(c.simulatedRuns, 'simulated run')}`,
        ['Axis', 'Field mean (sd)', 'Field n', 'Simulated mean (sd)', 'Simulated n', 'U', 'p', 'Test'],
        [false, true, true, true, true, true, true, false],
        c.rows.map((r) => {
          const ax = axisById(r.axis)!;
          return [r.label, `${meanText(ax, r.field.mean)} (${sdText(ax, r.field.sd)})`, String(r.field.n), `${meanText(ax, r.simulated.mean)} (${sdText(ax, r.simulated.sd)})`, String(r.simulated.n), r.test ? String(r.test.u) : '–', r.test ? r.test.p.toFixed(3) : '–', r.test ? r.test.method : (r.reason ?? '')];
        }),
        ['tutor', 'axis', 'field_mean', 'field_sd', 'field_median', 'field_n', 'simulated_mean', 'simulated_sd', 'simulated_median', 'simulated_n', 'u', 'p', 'method', 'reason'],
        c.rows.map((r) => [c.tutor, r.axis, r.field.mean, r.field.sd, r.field.median, r.field.n, r.simulated.mean, r.simulated.sd, r.simulated.median, r.simulated.n, r.test?.u ?? null, r.test?.p ?? null, r.test?.method ?? null, r.reason]),
        ['Means and standard deviations in the unit of each axis; CSV: stored units. p: two-sided.'],
      ),
    );
    if (both.length) {
      const rows: DistributionRow[] = both.flatMap((r) => {
        const ax = axisById(r.axis)!;
        const k = UNITS[ax.unit].scale;
        return [...r.field.values.map((v) => ({ axis: r.label, side: 'field', value: v * k })), ...r.simulated.values.map((v) => ({ axis: r.label, side: 'simulated', value: v * k }))];
      });
      plots.push({
        id: `${id}-plot`,
        title: `${c.tutor}: field against simulated, per axis`,
        description: `Box plots with every run as a dot: the field runs and the simulated runs of ${c.tutor} on ${list(both.map((r) => r.label))}.`,
        spec: distributionSpec(rows, both.map((r) => r.label), ['field', 'simulated'], `${c.tutor}: field against simulated`, `Field and simulated runs of ${c.tutor} per axis`),
        table: id,
      });
    }
  }
  return { id: 'field', title: 'Field against simulation', paragraphs, plots, tables };
}

function curvesSection(a: BenchmarkAnalyses, tutors: readonly string[]): ReportSection {
  const rows: CurveRow[] = [];
  for (const c of a.curves) {
    for (const p of c.points) {
      if (p.solveRate.mean !== null) rows.push({ tutor: c.tutor, day: p.day, series: 'measured', value: p.solveRate.mean, lo: p.solveRate.lo, hi: p.solveRate.hi });
      if (p.reference.mean !== null) rows.push({ tutor: c.tutor, day: p.day, series: 'steady-learning reference', value: p.reference.mean, lo: null, hi: null });
    }
  }
  const summary = table(
    'curve-summary',
    'Solve rate: start, end, and against the reference',
    ['Tutor', 'Runs', 'Day 0', 'Last probe day', 'Reference (oracle) on the last probe day', 'Share of the reference gain', 'Plateau day (90% of final gain)', 'Left out'],
    [false, true, true, true, true, true, true, false],
    a.curves.map((c) => [
      c.tutor,
      String(c.runs),
      rateStat(c.start),
      rateStat(c.end),
      rateStat(c.referenceEnd),
      statText(c.referenceShare, { digits: 1, scale: 100, suffix: '%' }),
      statText(c.plateauDay, { digits: 1, bounds: [1, Math.max(1, ...c.points.map((p) => p.day))] }),
      [c.noReference.length ? `no reference: ${countsText(c.noReference)}` : '', c.noPositiveGain ? `no plateau day (no positive gain): ${plural(c.noPositiveGain, 'run')}` : ''].filter(Boolean).join('; ') || '—',
    ]),
    ['tutor', 'runs', 'start_mean', 'start_lo', 'start_hi', 'start_n', 'end_mean', 'end_lo', 'end_hi', 'end_n', 'reference_end_mean', 'reference_end_lo', 'reference_end_hi', 'reference_end_n', 'reference_share_mean', 'reference_share_lo', 'reference_share_hi', 'reference_share_n', 'plateau_day_mean', 'plateau_day_lo', 'plateau_day_hi', 'plateau_day_n', 'no_reference', 'no_positive_gain'],
    a.curves.map((c) => [c.tutor, c.runs, ...statCsv(c.start), ...statCsv(c.end), ...statCsv(c.referenceEnd), ...statCsv(c.referenceShare), ...statCsv(c.plateauDay), countsText(c.noReference) || null, c.noPositiveGain]),
    ['Share of the reference gain: (S(last) − S(0)) / (R(last) − S(0)), 100% = gained what the oracle gained on the same student; above 100%: more. Plateau day: the first probe day with 90% of the run\'s final gain (a steady learner: 0.9 × horizon).'],
  );
  const byDay = table(
    'solve-rate-by-day',
    'Solve rate by day, with the reference',
    ['Tutor', 'Day', 'Runs probed', 'Solve rate', 'Reference (runs)'],
    [false, true, true, true, true],
    a.curves.flatMap((c) => c.points.map((p) => [c.tutor, String(p.day), String(p.solveRate.n), statText(p.solveRate, { digits: 1, scale: 100, bounds: [0, 1], suffix: '%', showN: false }), p.reference.mean === null ? 'n/a' : `${pct(p.reference.mean)} (${p.reference.n})`])),
    ['tutor', 'day', 'n', 'mean', 'lo', 'hi', 'reference_mean', 'reference_n'],
    a.curves.flatMap((c) => c.points.map((p) => [c.tutor, p.day, p.solveRate.n, p.solveRate.mean, p.solveRate.lo, p.solveRate.hi, p.reference.mean, p.reference.n])),
    [],
    { folded: true },
  );
  const plots: ReportPlot[] = rows.length
    ? [
        {
          id: 'solve-rate-curves',
          title: 'Probe solve rate by day (dashed: steady-learning reference)',
          description: `Line chart: mean probe solve rate by day for ${list([...tutors])}, with 95% bands where at least two runs were probed, and each tutor's steady-learning reference (the oracle tutor's curve on the same students) as a dashed line, a marker on every day; tutors with equal rates are drawn a few pixels apart so every line shows. Numbers in the table "Solve rate by day, with the reference".`,
          spec: curvesSpec(rows, tutors, 'Probe solve rate by day (dashed: steady-learning reference)', 'Mean probe solve rate per day per tutor, 95% bands, dashed steady-learning reference'),
          table: byDay.id,
        },
      ]
    : [];
  return {
    id: 'curves',
    title: 'Learning curves and the steady-learning reference',
    paragraphs: [
      `S(d) is the probe solve rate after day d (mean P(correct) over the held-out probe set). The steady-learning reference R(d) is, per run, the probe solve rate on day d of the ${REFERENCE_TUTOR} tutor's run on the same student (same scenario, seed, learner model, ability and voice): the built-in planner's strategy played on the learner's true knowledge, which no other tutor sees. It is what informed planning attains inside this simulator, so the share of its gain is a share of a reachable ceiling (a tutor can exceed it); a run without the ${REFERENCE_TUTOR}'s run on its student has no reference (report --controls runs it). A tutor's reference is the mean over its runs.`,
    ],
    plots,
    tables: [summary, byDay],
  };
}

function scatterSection(a: BenchmarkAnalyses, tutors: readonly string[]): ReportSection {
  const plots: ReportPlot[] = [];
  const tables: ReportTable[] = [];
  const paragraphs: string[] = ['One point per run. Runs where either axis is unscored are not plotted; the table counts them per tutor.'];
  for (const s of a.scatter) {
    const ax = axisById(s.x)!;
    const ay = axisById(s.y)!;
    const id = `${s.x}-vs-${s.y}`;
    const counts = table(
      `${id}-counts`,
      `${ax.label} against ${ay.label}: runs plotted`,
      ['Tutor', 'Runs', 'Plotted', `${ax.label} unscored`, `${ay.label} unscored`],
      [false, true, true, true, true],
      s.tutors.map((t) => [t.tutor, String(t.runs), String(t.plotted), String(t.xUnscored), String(t.yUnscored)]),
      ['tutor', 'runs', 'plotted', `${s.x}_unscored`, `${s.y}_unscored`],
      s.tutors.map((t) => [t.tutor, t.runs, t.plotted, t.xUnscored, t.yUnscored]),
    );
    const points = table(`${id}-points`, `${ax.label} against ${ay.label}: points`, [], [], [], ['run_id', 'tutor', 'scenario', 'seed', 'voice', s.x, s.y], s.points.map((p) => [p.runId, p.tutor, p.scenarioId, p.seed, p.voice, p.x, p.y]), [], { csvOnly: true });
    tables.push(counts, points);
    const dim = (x: AnyAxis) => ({ title: `${x.label} (${x.unit})`, percent: x.unit === '%' || x.unit === '% of days', ...(x.unit === 'score 1–10' ? { domain: [1, 10] as [number, number] } : x.unit === 'score 1–5' ? { domain: [1, 5] as [number, number] } : x.unit === '%' ? { domain: [0, 1] as [number, number] } : {}) });
    const scale = (x: AnyAxis) => (x.unit === 'pp/day' ? 100 : 1);
    if (s.points.length) {
      const title = `${ax.label} against ${ay.label}, one point per run`;
      plots.push({
        id,
        title,
        description: `Scatter plot of ${s.points.length} runs: ${ax.label} on the horizontal axis, ${ay.label} on the vertical, coloured and shaped by tutor. Counts in the table "${counts.title}"; the points in csv/${points.id}.csv.`,
        spec: scatterSpec(s.points.map((p) => ({ tutor: p.tutor, runId: p.runId, x: p.x * scale(ax), y: p.y * scale(ay) })), tutors, { ...dim(ax), percent: dim(ax).percent && scale(ax) === 1 }, { ...dim(ay), percent: dim(ay).percent && scale(ay) === 1 }, title, title),
        table: counts.id,
      });
    } else paragraphs.push(`${ax.label} against ${ay.label}: no run has both scored, nothing to plot (${plural(s.tutors.reduce((n, t) => n + t.runs, 0), 'run')} left out; see the counts).`);
  }
  return { id: 'tradeoff', title: 'Responsiveness against helpfulness (and learning gain)', paragraphs, plots, tables };
}

function rankTables(rt: RankTable, axis: AnyAxis, idBase: string, title: string): ReportTable[] {
  const rowName = rt.rowKind === 'model' ? 'Model' : 'Harness';
  const rowsName = rt.rowKind === 'model' ? 'models' : 'harnesses';
  const colName = rt.colKind === 'model' ? 'model' : 'harness';
  const colsName = rt.colKind === 'model' ? 'models' : 'harnesses';
  const cells = table(
    idBase,
    title,
    [rowName, ...rt.cols],
    [false, ...rt.cols.map(() => true)],
    rt.rows.map((r) => [r, ...rt.cols.map((c) => {
      const s = rt.cells[r]![c]!;
      const rank = rt.ranks[c]![r];
      return s.n === 0 ? '—' : `${axis.formatStat(s)} (n=${s.n}) #${rank === null || rank === undefined ? '–' : Number.isInteger(rank) ? rank : rank.toFixed(1)}`;
    })]),
    [rt.rowKind, rt.colKind, 'mean', 'lo', 'hi', 'n', 'rank'],
    rt.rows.flatMap((r) => rt.cols.map((c) => [r, c, ...statCsv(rt.cells[r]![c]!), rt.ranks[c]![r] ?? null])),
    [`Cells: ${axis.label} (${axis.unit}), mean [95% t-interval] (n runs) #rank within the ${colName} (1 = best; ties share the mean rank); — no runs. Leaders: ${rt.cols.map((c) => `${c}: ${rt.leaders[c]!.join(', ') || 'none'}`).join('; ')}.`],
  );
  const agree = table(
    `${idBase}-agreement`,
    `Do the ${colsName} rank the ${rowsName} alike?`,
    [`${colName} A`, `${colName} B`, `${rowName === 'Model' ? 'Models' : 'Harnesses'} in both`, 'Spearman ρ', 'Kendall τ-b', 'Pairs ordered oppositely'],
    [false, false, true, true, true, true],
    rt.pairs.map((p) => [p.a, p.b, String(p.n), p.rho === null ? `n/a (${p.reason})` : num(p.rho), p.tau === null ? `n/a (${p.reason})` : num(p.tau), p.n >= 2 ? `${p.discordant} of ${(p.n * (p.n - 1)) / 2}` : 'n/a']),
    [`${colName}_a`, `${colName}_b`, 'n', 'spearman_rho', 'kendall_tau_b', 'concordant', 'discordant', 'reason'],
    rt.pairs.map((p) => [p.a, p.b, p.n, p.rho, p.tau, p.concordant, p.discordant, p.reason]),
    ['ρ and τ-b over the cell means of the rows both columns have (n ≥ 3); a pair ordered oppositely is a reordering (n ≥ 2).'],
  );
  return [cells, agree];
}

function rankPlot(rt: RankTable, axis: AnyAxis, id: string, tableId: string, tableTitle: string): ReportPlot | null {
  if (rt.cols.length < 2 || rt.rows.length < 2) return null;
  const rows = rt.cols.flatMap((c) => rt.rows.flatMap((r) => (rt.ranks[c]![r] === null || rt.ranks[c]![r] === undefined ? [] : [{ col: c, row: r, rank: rt.ranks[c]![r]! }])));
  const title = `Rank of each ${rt.rowKind} by ${axis.label}, per ${rt.colKind}`;
  return {
    id,
    title,
    description: `Bump chart: the rank (1 = best ${axis.label}) of each ${rt.rowKind} within each ${rt.colKind}; crossing lines are rankings that reorder; tied ranks are drawn a few pixels apart. Numbers in the table "${tableTitle}".`,
    spec: rankSpec(rows, rt.cols, rt.colKind === 'harness' ? 'Harness' : 'Model', rt.rowKind === 'model' ? 'Model' : 'Harness', rt.rows.length, title, title),
    table: tableId,
  };
}

function modelHarnessSection(a: BenchmarkAnalyses): ReportSection {
  const m = a.modelHarness;
  const axis = axisById(m.axis)!;
  const paragraphs = [`LLM tutors as base model × harness, on ${axis.label}. Does a harness's lead survive a change of base model (and a model's a change of harness)?`];
  if (m.unknown) paragraphs.push(`${plural(m.unknown, 'LLM run')} left out: harness or model unknown.`);
  if (m.runs === 0) {
    paragraphs.push('No LLM tutor runs (tutor config with a harness and a model): nothing to tabulate.');
    return { id: 'model-harness', title: 'Base model × harness', paragraphs, plots: [], tables: [] };
  }
  const t1 = rankTables(m.byHarness, axis, 'model-by-harness', 'Models (rows) on each harness (columns)');
  const t2 = rankTables(m.byModel, axis, 'harness-by-model', 'Harnesses (rows) on each model (columns)');
  const plots = [rankPlot(m.byHarness, axis, 'model-ranks', t1[0]!.id, t1[0]!.title), rankPlot(m.byModel, axis, 'harness-ranks', t2[0]!.id, t2[0]!.title)].filter((p): p is ReportPlot => p !== null);
  return { id: 'model-harness', title: 'Base model × harness', paragraphs, plots, tables: [...t1, ...t2] };
}

function failureSection(a: BenchmarkAnalyses, tutors: readonly string[]): ReportSection {
  const cell = (r: FailureRow, id: (typeof FAILURE_MODES)[number]['id']) => {
    const m = r.modes[id];
    return m.decided === 0 ? 'undecided' : `${m.failed}/${m.decided} (${pct(m.rate)})`;
  };
  const notes: string[] = [];
  for (const mode of FAILURE_MODES) {
    const byReason = new Map<string, string[]>();
    for (const r of a.failureModes) {
      if (r.group === ALL_RUNS || !r.modes[mode.id].undecided.length) continue;
      const why = countsText(r.modes[mode.id].undecided);
      byReason.set(why, [...(byReason.get(why) ?? []), r.group]);
    }
    for (const [why, groups] of byReason) notes.push(`${mode.label}: undecided for ${list(groups)}: ${why}.`);
  }
  const t = table(
    'failure-modes',
    'Failure modes: runs that fail / runs decided',
    ['Tutor', 'Runs', ...FAILURE_MODES.map((m) => `${m.label} (${m.rule})`)],
    [false, true, ...FAILURE_MODES.map(() => true)],
    a.failureModes.map((r) => [r.group, String(r.runs), ...FAILURE_MODES.map((m) => cell(r, m.id))]),
    ['group', 'mode', 'rule', 'runs', 'failed', 'decided', 'rate', 'undecided_runs', 'undecided_reasons'],
    a.failureModes.flatMap((r) => FAILURE_MODES.map((m) => [r.group, m.id, m.rule, r.runs, r.modes[m.id].failed, r.modes[m.id].decided, r.modes[m.id].rate, r.modes[m.id].undecided.reduce((n, u) => n + u.runs, 0), countsText(r.modes[m.id].undecided) || null])),
    notes,
  );
  const rows = a.failureModes.filter((r) => r.group !== ALL_RUNS).flatMap((r) => FAILURE_MODES.flatMap((m) => (r.modes[m.id].rate === null ? [] : [{ tutor: r.group, group: m.label, value: r.modes[m.id].rate! }])));
  const title = 'Share of runs in each failure mode, per tutor';
  const plots: ReportPlot[] = rows.length
    ? [{ id: 'failure-modes', title, description: `Grouped bar chart: for each failure mode, the share of each tutor's decided runs that fail it (undecided modes have no bar). Numbers in the table "${t.title}".`, spec: groupedBarSpec(rows, tutors, FAILURE_MODES.map((m) => m.label), 'Failure mode', 'Share of decided runs', true, title, title), table: t.id }]
    : [];
  return {
    id: 'failure-modes',
    title: 'Failure modes',
    paragraphs: ['The four failure modes of EduClaw-Bench, decided per run; a rate is over the runs where the mode is decided (neglect: runs with a help request; no curriculum: runs with a Gagné score). Neglect: a help request that got no tutor message at all for the rest of its day (stricter than unanswered: responsiveness also closes a request at logout or the next request).'],
    plots,
    tables: [t],
  };
}

const OVER_TEXT: Record<TrialsOver, string> = { seeds: 'across seeds (a task: scenario × learner model × ability × voice; trials: its seeds)', voices: 'across student models, as the paper defines it (a task: scenario × learner model × ability × seed; trials: its student voices)', runs: 'across seeds and voices (a task: scenario × learner model × ability; trials: every run)' };

function passKSection(a: BenchmarkAnalyses, tutors: readonly string[], passRule: string): ReportSection {
  const tables: ReportTable[] = [];
  const plots: ReportPlot[] = [];
  for (const r of a.passK) {
    const id = `pass-k-${r.over}`;
    const t = table(
      id,
      `pass^k ${OVER_TEXT[r.over]}`,
      ['Tutor', 'Tasks', 'Tasks behind each k', 'Trials', 'Undecided', ...r.ks.map((k) => `pass^${k}`)],
      [false, true, true, true, true, ...r.ks.map(() => true)],
      r.tutors.map((x) => [x.tutor, String(x.tasks.length), `${x.byK[0]?.tasks ?? 0}${x.leftOut ? ` (${x.leftOut} with fewer than ${r.minTrials} trials left out)` : ''}`, String(x.trials), String(x.undecided), ...x.byK.map((b) => (b.tasks === 0 ? 'n/a' : statText(b.stat, { showN: false })))]),
      ['tutor', 'k', 'mean', 'lo', 'hi', 'tasks', 'tasks_left_out', 'min_trials', 'trials', 'undecided'],
      r.tutors.flatMap((x) => x.byK.map((b) => [x.tutor, b.k, ...statCsv(b.stat).slice(0, 3), b.tasks, x.leftOut, r.minTrials, x.trials, x.undecided])),
      [r.ks.length === 0 ? 'No task has a decided trial: nothing to estimate.' : `pass^k for k = 1..${r.minTrials} over the same tasks (those with at least ${r.minTrials} decided trials, so pass^k can only fall as k grows): the mean of C(c, k) / C(n, k) [95% t-interval over tasks]. Rule: ${passRule}.`, ...r.tutors.filter((x) => x.undecided).map((x) => `${x.tutor}: undecided trials: ${countsText(x.undecidedReasons)}.`)],
    );
    const tasks = table(`${id}-tasks`, `pass^k ${OVER_TEXT[r.over]}: per task`, [], [], [], ['tutor', 'task', 'n', 'c', 'undecided', ...r.ks.map((k) => `pass_${k}`)], r.tutors.flatMap((x) => x.tasks.map((tk) => [x.tutor, tk.task, tk.n, tk.c, tk.undecided, ...tk.passK]))
      , [], { csvOnly: true });
    tables.push(t, tasks);
    const rows = r.tutors.flatMap((x) => x.byK.flatMap((b) => (b.stat.mean === null ? [] : [{ tutor: x.tutor, x: b.k, y: b.stat.mean, lo: b.stat.lo, hi: b.stat.hi }])));
    if (rows.length) {
      const title = `pass^k ${r.over === 'seeds' ? 'across seeds' : r.over === 'voices' ? 'across voices' : 'across seeds and voices'}, k = ${r.ks[0]}..${r.ks[r.ks.length - 1]}`;
      plots.push({ id, title, description: `Line chart: pass^k against k for ${list([...tutors])}, with 95% bands over tasks; tutors with equal values are drawn a few pixels apart so every line shows. Numbers in the table "${t.title}".`, spec: lineSpec(rows, tutors, { title: 'k (trials that must all pass)', domain: [r.ks[0]!, r.ks[r.ks.length - 1]!] }, { title: 'pass^k', domain: [0, 1] }, title, title), table: t.id });
    }
  }
  return {
    id: 'pass-k',
    title: 'Reliability: pass^k',
    paragraphs: [`pass^k (tau-bench): the chance that k trials of the same task all pass, estimated without bias per task by C(c, k)/C(n, k) from n trials with c passes, then averaged over tasks. As the paper defines it, the trials of a task are its student models (voices) on a fixed scenario and seed; across seeds is a separate view (other students, not other student models). A trial passes when \`${passRule}\` holds and fails when a clause it can decide fails; when the only clauses it cannot decide read unscored axes it is undecided and left out. The default rule asks for value added over the no-tutor control above a declared threshold, so a tutor that does nothing fails.`],
    plots,
    tables,
  };
}

function actionsSection(a: BenchmarkAnalyses, tutors: readonly string[]): ReportSection {
  const notes = a.actions.filter((t) => t.neverUsed.length).map((t) => `${t.tutor} never used ${list(t.neverUsed)} (0 of ${t.runs} runs).`);
  const perRun = table(
    'actions-per-run',
    'Actions per run',
    ['Tutor', 'Runs', ...ACTION_KINDS],
    [false, true, ...ACTION_KINDS.map(() => true)],
    a.actions.map((t) => [t.tutor, String(t.runs), ...ACTION_KINDS.map((k) => `${statText(t.kinds[k].perRun, { digits: 1, showN: false })} · ${t.kinds[k].runsUsing}/${t.runs} runs`)]),
    ['tutor', 'kind', 'mean_per_run', 'lo', 'hi', 'runs', 'runs_using', 'total'],
    a.actions.flatMap((t) => ACTION_KINDS.map((k) => [t.tutor, k, ...statCsv(t.kinds[k].perRun).slice(0, 3), t.runs, t.kinds[k].runsUsing, t.kinds[k].total])),
    ['Cells: mean count per run [95% t-interval] · runs that used the kind at least once. A turn with no action counts as stay_silent.', ...notes],
  );
  const perDay = table(
    'actions-per-day',
    'Actions per day',
    [],
    [],
    [],
    ['tutor', 'day', 'n', 'kind', 'mean', 'lo', 'hi'],
    a.actions.flatMap((t) => t.perDay.flatMap((d) => ACTION_KINDS.map((k) => [t.tutor, d.day, d.n, k, d.kinds[k].mean, d.kinds[k].lo, d.kinds[k].hi]))),
    [],
    { csvOnly: true },
  );
  const barRows = a.actions.flatMap((t) => ACTION_KINDS.flatMap((k) => (t.kinds[k].perRun.mean === null ? [] : [{ tutor: t.tutor, group: k, value: t.kinds[k].perRun.mean! }])));
  const title = 'Mean actions per run, by kind';
  const plots: ReportPlot[] = [];
  if (a.actions.length) plots.push({ id: 'actions-per-run', title, description: `Grouped bar chart: mean count per run of each action kind for each tutor. Numbers in the table "${perRun.title}".`, spec: groupedBarSpec(barRows, tutors, ACTION_KINDS, 'Action kind', 'Mean per run', false, title, title), table: perRun.id });
  const dayRows = a.actions.flatMap((t) => t.perDay.flatMap((d) => ACTION_KINDS.flatMap((k) => (d.kinds[k].mean === null ? [] : [{ tutor: t.tutor, x: d.day, y: d.kinds[k].mean!, lo: null, hi: null, facet: k }]))));
  if (dayRows.length) {
    const t2 = 'Mean actions per day, by kind';
    plots.push({ id: 'actions-per-day', title: t2, description: `Small multiples, one per action kind: the mean count per tutoring day for each tutor. Numbers in csv/${perDay.id}.csv.`, spec: lineSpec(dayRows, tutors, { title: 'Day' }, { title: 'Mean count' }, t2, t2, { title: 'Action kind', order: ACTION_KINDS }), table: perDay.id });
  }
  const noDays = a.actions.reduce((n, t) => n + t.noDays, 0);
  return {
    id: 'actions',
    title: 'Action kinds',
    paragraphs: ['How often each tutor takes each of the five observable action kinds, per run and per tutoring day (the paper found adjust_level never used).', ...(noDays ? [`${plural(noDays, 'run')} without a trace have no per-day counts.`] : [])],
    plots,
    tables: [perRun, perDay],
  };
}

const PRIMARY: AxisId[] = ['learningGain', 'responsiveness', 'helpfulness'];

function correlationSection(a: BenchmarkAnalyses): ReportSection {
  const all = a.correlations.filter((p) => p.group === ALL_RUNS);
  const scored = (id: AxisId) => all.some((p) => (p.a === id || p.b === id) && p.n >= 3);
  const axes = AXES.filter((x) => scored(x.id));
  const find = (g: string, x: AxisId, y: AxisId) => a.correlations.find((p) => p.group === g && ((p.a === x && p.b === y) || (p.a === y && p.b === x)));
  const cell = (p: ReturnType<typeof find>) => (!p ? 'n/a' : p.rho === null ? `n/a (n=${p.n})` : `${num(p.rho)} (n=${p.n})`);
  const matrix = table(
    'axis-correlations',
    'Spearman ρ between axes, over all runs',
    ['Axis', ...axes.map((x) => x.short)],
    [false, ...axes.map(() => true)],
    axes.map((x) => [x.label, ...axes.map((y) => (x.id === y.id ? '—' : cell(find(ALL_RUNS, x.id, y.id))))]),
    ['group', 'axis_a', 'axis_b', 'n', 'spearman_rho', 'reason'],
    a.correlations.map((p) => [p.group, p.a, p.b, p.n, p.rho, p.reason]),
    [`Over the runs that scored both axes (n); n/a with fewer than 3 such runs or no variation. Axes with fewer than 3 scored runs are left out of the matrix (${AXES.filter((x) => !scored(x.id)).map((x) => x.short).join(', ') || 'none'}). The CSV has every pair, over all runs and per tutor.`],
  );
  const tutorsList = [...new Set(a.correlations.map((p) => p.group))].filter((g) => g !== ALL_RUNS);
  const pairsP: [AxisId, AxisId][] = [
    [PRIMARY[0]!, PRIMARY[1]!],
    [PRIMARY[0]!, PRIMARY[2]!],
    [PRIMARY[1]!, PRIMARY[2]!],
  ];
  const perTutor = table(
    'axis-correlations-by-tutor',
    'Spearman ρ between the primary axes, per tutor',
    ['Tutor', ...pairsP.map(([x, y]) => `${axisById(x)!.short} vs ${axisById(y)!.short}`)],
    [false, ...pairsP.map(() => true)],
    tutorsList.map((g) => [g, ...pairsP.map(([x, y]) => cell(find(g, x, y)))]),
    ['tutor', 'axis_a', 'axis_b', 'n', 'spearman_rho', 'reason'],
    tutorsList.flatMap((g) => pairsP.map(([x, y]) => {
      const p = find(g, x, y)!;
      return [g, p.a, p.b, p.n, p.rho, p.reason];
    })),
  );
  const cells = axes.flatMap((x) => axes.flatMap((y) => {
    if (x.id === y.id) return [{ a: x.short, b: y.short, rho: 1, label: '1' }];
    const p = find(ALL_RUNS, x.id, y.id);
    return p && p.rho !== null ? [{ a: x.short, b: y.short, rho: p.rho, label: num(p.rho) }] : [];
  }));
  const title = 'Spearman ρ between axes, over all runs';
  const plots: ReportPlot[] = axes.length >= 2 ? [{ id: 'axis-correlations', title, description: `Heat map of Spearman's rho between every two axes with at least 3 scored runs (blue negative, orange positive; blank: undefined). Numbers in the table "${matrix.title}".`, spec: heatmapSpec(cells, axes.map((x) => x.short), title, title), table: matrix.id }] : [];
  return {
    id: 'correlations',
    title: 'How the axes relate',
    paragraphs: ["Spearman's rank correlation between axes over runs. Near-zero correlations mean the axes measure different things (the paper found ρ ≈ 0.01 between I and II on openclaw), so a single composite score would discard signal."],
    plots,
    tables: [matrix, perTutor],
  };
}

/** The whole report: the analyses, and the same as sections of tables and plots. */
export function buildBenchmarkReport(inputs: readonly AnalysisInput[], opts: ReportOptions = {}): BenchmarkReport {
  const { digests, rule, rankAxis } = prepare(inputs, opts);
  const a = analyseBenchmark(digests, opts);
  const tutors = a.overview.tutors.map((t) => t.tutor);
  const o = a.overview;
  return {
    title: opts.title ?? 'Benchmark results',
    summary: `${plural(o.runs, 'run')}, ${plural(o.tutors.length, 'tutor')}, ${plural(o.scenarios.length, 'scenario')}, ${plural(o.seeds.length, 'seed')}`,
    command: opts.command ?? null,
    options: { passRule: rule.text, rankAxis },
    sections: [overviewSection(a, digests, rule.text), ...(a.field.length ? [fieldSection(a)] : []), axesSection(a), valueAddedSection(a), headToHeadSection(a), ...(a.byVoice.length ? [voiceSection(a)] : []), curvesSection(a, tutors), scatterSection(a, tutors), modelHarnessSection(a), failureSection(a, tutors), passKSection(a, tutors, rule.text), actionsSection(a, tutors), correlationSection(a)],
    analyses: a,
  };
}
