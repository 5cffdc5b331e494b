/**
 * Every analysis on hand-made digests or traces with answers worked out by hand: intervals, the
 * reference curve, failure modes, pass^k, rank reorderings, correlations, action frequencies, and
 * the report (order independence, a CSV for every table, escaping).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTION_KINDS, type ActionKind, type RunStartEvent, type TraceEvent } from '../trace/types';
import { AXES, type AxisId } from '../scoring/axes';
import { scoreTrace } from '../scoring/report';
import { tQuantile975 } from '../stats/index';
import { miniScenario, runWith } from '../../testing/fixtures';
import {
  actionFrequencies,
  allPlots,
  allTables,
  averageRanks,
  axesByTutor,
  axisCorrelations,
  axisScatter,
  buildBenchmarkReport,
  digestRun,
  failureModes,
  failureVerdicts,
  kendallTauB,
  modelHarness,
  pairCounts,
  parsePassRule,
  passAtK,
  passHatK,
  passOf,
  plateauDay,
  referenceAt,
  referenceShare,
  runReference,
  attachReferences,
  NO_REFERENCE,
  reportCsvFiles,
  reportHtml,
  reportMarkdown,
  solveRateCurves,
  spearmanRho,
  stat,
  voicesDiffer,
  DEFAULT_PASS_RULE,
  VALUE_ADDED_THRESHOLD,
  type RunDigest,
} from './index';

const zero = () => Object.fromEntries(ACTION_KINDS.map((k) => [k, 0])) as Record<ActionKind, number>;

let runCounter = 0;
/** A digest with every axis unscored unless given. */
function dg(p: Partial<Omit<RunDigest, 'axes'>> & { axes?: Partial<Record<AxisId, number | null>> } = {}): RunDigest {
  const axes = Object.fromEntries(AXES.map((a) => [a.id, p.axes?.[a.id] ?? null])) as Record<AxisId, number | null>;
  const unscored = Object.fromEntries(AXES.filter((a) => axes[a.id] === null).map((a) => [a.id, a.kind === 'judged' ? 'no judge panel has judged the run' : 'test: not scored'])) as Partial<Record<AxisId, string>>;
  const { axes: _a, ...rest } = p;
  return {
    digestVersion: 1,
    runId: `run-${++runCounter}`,
    scenarioId: 'S',
    tutor: 'A',
    tutorName: 'A',
    harness: null,
    model: null,
    seed: 1,
    voice: 'templates',
    tracer: 'bkt',
    persona: 'p',
    schedule: 's',
    ability: 'low',
    horizonDays: 10,
    complete: true,
    endReason: 'horizon_reached',
    unscored,
    panel: null,
    tutorMessageTurns: 5,
    curve: [],
    ceiling: 1,
    actionsByDay: [],
    actions: zero(),
    help: { requests: 0, unanswered: 0, neglected: 0 },
    missing: [],
    ...rest,
    axes,
  };
}

describe('statistics', () => {
  it('mean and 95% t-interval only for n ≥ 2; nothing for n = 0', () => {
    const s = stat([0.01, 0.02, 0.03]);
    expect(s.mean).toBeCloseTo(0.02, 12);
    expect(s.hi! - s.mean!).toBeCloseTo((tQuantile975(2) * 0.01) / Math.sqrt(3), 12);
    expect(s.n).toBe(3);
    expect(stat([5])).toEqual({ mean: 5, lo: null, hi: null, n: 1 });
    expect(stat([])).toEqual({ mean: null, lo: null, hi: null, n: 0 });
  });
  it('average ranks, best first, ties sharing the mean rank', () => {
    expect(averageRanks([0.3, 0.1, 0.3, 0.2])).toEqual([1.5, 4, 1.5, 3]);
    expect(averageRanks([0.3, 0.1, 0.2], 'lower')).toEqual([3, 1, 2]);
  });
  it("Spearman's rho and Kendall's tau-b on worked examples", () => {
    // one adjacent swap of four: Σd² = 2, rho = 1 − 6·2/(4·15) = 0.8; 5 concordant, 1 discordant: tau = 4/6
    expect(spearmanRho([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.8, 12);
    expect(kendallTauB([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(4 / 6, 12);
    // ties: nc = 4, nd = 0, one tie in each: 4 / √(5 · 5) = 0.8 (scipy.stats.kendalltau agrees)
    expect(kendallTauB([1, 2, 2, 3], [1, 2, 3, 3])).toBeCloseTo(0.8, 12);
    expect(pairCounts([1, 2, 3], [3, 2, 1])).toMatchObject({ concordant: 0, discordant: 3, pairs: 3 });
    expect(spearmanRho([1, 2], [2, 1])).toBeNull();
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNull();
  });
  it('pass^k = C(c,k)/C(n,k), null for k > n', () => {
    expect(passHatK(4, 2, 1)).toBe(0.5);
    expect(passHatK(4, 2, 2)).toBeCloseTo(1 / 6, 12); // C(2,2)/C(4,2)
    expect(passHatK(4, 2, 3)).toBe(0);
    expect(passHatK(5, 4, 3)).toBeCloseTo(4 / 10, 12); // C(4,3)/C(5,3)
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(3, 3, 4)).toBeNull();
    expect(() => passHatK(3, 4, 1)).toThrow();
  });
});

describe('digests from traces', () => {
  let start: RunStartEvent;
  let real: readonly TraceEvent[];
  beforeAll(async () => {
    const r = await runWith(miniScenario(), 'planner', { seed: 1 });
    real = r.events;
    start = r.events[0] as RunStartEvent;
  });
  const T = (day: number, hhmm: number) => (day - 1) * 1440 + hhmm;

  it('neglect: a help request with no tutor message at all for the rest of its day', () => {
    const help = Object.values(start.helpTemplates)[0]!;
    const item = start.itemBank.items[0]!;
    let seq = 0;
    const ev = (e: Record<string, unknown>) => ({ seq: seq++, ...e }) as unknown as TraceEvent;
    const events: TraceEvent[] = [
      { ...start, seq: seq++ },
      ev({ t: 0, type: 'lms_event', kind: 'day_start', day: 1 }),
      ev({ t: T(1, 960), type: 'message', from: 'learner', text: help, itemId: item.id }), // answered at once (a hint of its item engages it)
      ev({ t: T(1, 961), type: 'message', from: 'tutor', text: `${item.hints[0]} Try the first step.`, via: 'send_message', turn: 1 }),
      ev({ t: T(1, 962), type: 'message', from: 'learner', text: help }), // unanswered (logout closes it) but a tutor message follows that day
      ev({ t: T(1, 963), type: 'lms_event', kind: 'logout', day: 1 }),
      ev({ t: T(1, 1000), type: 'message', from: 'tutor', text: 'Here is a hint for later.', via: 'send_message', turn: 2 }),
      ev({ t: T(1, 1001), type: 'message', from: 'learner', text: help }), // neglected: nothing until the day ends
      ev({ t: T(1, 1439), type: 'lms_event', kind: 'end_of_day', day: 1 }),
      ev({ t: T(2, 0), type: 'lms_event', kind: 'day_start', day: 2 }),
      ev({ t: T(2, 960), type: 'message', from: 'learner', text: help }), // neglected: the next day starts
      ev({ t: T(3, 0), type: 'lms_event', kind: 'day_start', day: 3 }),
      ev({ t: T(3, 960), type: 'message', from: 'learner', text: help }), // the trace ends mid-day: not counted
    ];
    const d = digestRun({ events });
    expect(d.help).toEqual({ requests: 5, unanswered: 4, neglected: 2 });
    expect(d.axes.responsiveness).toBeCloseTo(1 / 5, 12);
    expect(failureVerdicts(d).neglect).toEqual({ failed: true });
  });

  it('actions per day: successful action calls by day, implicit silences as stay_silent', () => {
    let seq = 0;
    const ev = (e: Record<string, unknown>) => ({ seq: seq++, ...e }) as unknown as TraceEvent;
    const ok = { ok: true, value: null };
    const events: TraceEvent[] = [
      { ...start, seq: seq++ },
      ev({ t: 0, type: 'lms_event', kind: 'day_start', day: 1 }),
      ev({ t: 10, type: 'tool_call', turn: 1, tool: 'send_message', kind: 'message', args: {}, result: ok }),
      ev({ t: 11, type: 'tool_call', turn: 1, tool: 'get_course_map', kind: 'read', args: {}, result: ok }),
      ev({ t: 12, type: 'tool_call', turn: 1, tool: 'adjust_level', kind: 'write', args: {}, result: { ok: false, error: { code: 'ILLEGAL', message: 'no' } } }),
      ev({ t: 13, type: 'turn_end', turn: 1, actions: 1, implicitSilence: false }),
      ev({ t: 14, type: 'turn_end', turn: 2, actions: 0, implicitSilence: true }),
      ev({ t: 1440, type: 'lms_event', kind: 'day_start', day: 2 }),
      ev({ t: 3000, type: 'lms_event', kind: 'day_start', day: 3 }),
      ev({ t: 3001, type: 'tool_call', turn: 3, tool: 'assign_items', kind: 'write', args: {}, result: ok }),
    ];
    const d = digestRun({ events });
    expect(d.actionsByDay!.map((x) => x.day)).toEqual([1, 2, 3]);
    expect(d.actionsByDay![0]!.counts).toEqual({ ...zero(), send_message: 1, stay_silent: 1 });
    expect(d.actionsByDay![1]!.counts).toEqual(zero());
    expect(d.actionsByDay![2]!.counts).toEqual({ ...zero(), assign_items: 1 });
    // the per-day counts add up to the report's totals
    for (const k of ACTION_KINDS) expect(d.actionsByDay!.reduce((a, x) => a + x.counts[k], 0)).toBe(d.actions[k]);
  });

  it("the persona ceiling follows the probe formula: (1 − g)(1 − c) + g·a; 1 without habits", () => {
    const persona = { ...start.scenario.learner.persona, guessProb: 0.2, carelessness: 0.1, guessAccuracy: 0.25 };
    const s2 = { ...start, scenario: { ...start.scenario, learner: { ...start.scenario.learner, persona } } };
    expect(digestRun({ events: [s2, ...real.slice(1)] }).ceiling).toBeCloseTo(0.8 * 0.9 + 0.2 * 0.25, 12);
    expect(digestRun({ events: real }).ceiling).toBe(1);
  });

  it('a real run digests to the report it scores, and without its events says what is missing', () => {
    const d = digestRun({ events: real });
    const r = scoreTrace(real);
    expect(d.axes.learningGain).toBe(r.learningGain);
    expect(d.curve).toEqual(r.curve.map((p) => ({ day: p.day, solveRate: p.solveRate })));
    expect(d.tutor).toBe('planner');
    expect(d.voice).toBe('templates');
    expect(d.unscored.helpfulness).toBe('no judge panel has judged the run');
    const bare = digestRun({ report: r });
    expect(bare.missing).toEqual(['events']);
    expect(bare.help).toBeNull();
    expect(bare.actionsByDay).toBeNull();
    expect(bare.ceiling).toBeNull();
    expect(bare.axes).toEqual(d.axes);
    expect(failureVerdicts(bare).neglect).toEqual({ undecided: 'needs the trace' });
    expect(() => digestRun({})).toThrow(/events or its score report/);
  });

  it('an LLM tutor gets harness and model from its config in run_start', () => {
    const s2 = { ...start, tutor: { name: 'llm', config: { harness: 'notes', model: 'org/m-1', provider: 'local' } } };
    expect(digestRun({ events: [s2, ...real.slice(1)] })).toMatchObject({ tutor: 'llm/notes/org/m-1', tutorName: 'llm', harness: 'notes', model: 'org/m-1' });
  });
  it('an LLM tutor without a trace gets harness and model from its label (the model may contain "/")', () => {
    const r = { ...scoreTrace(real), tutor: 'llm/notes/meta-llama/llama-3.1-8b' };
    expect(digestRun({ report: r })).toMatchObject({ tutorName: 'llm', harness: 'notes', model: 'meta-llama/llama-3.1-8b' });
  });
});

describe('axes per tutor', () => {
  it('mean and interval over runs, n counted, judged axes unscored with the reason', () => {
    const rows = axesByTutor([dg({ seed: 1, axes: { learningGain: 0.01 } }), dg({ seed: 2, axes: { learningGain: 0.02 } }), dg({ seed: 3, axes: { learningGain: 0.03, responsiveness: 0.5 } }), dg({ tutor: 'B', axes: { learningGain: 0.05 } })]);
    expect(rows.map((r) => r.tutor)).toEqual(['A', 'B']);
    const a = rows[0]!.axes;
    expect(a.learningGain.stat.mean).toBeCloseTo(0.02, 12);
    expect(a.learningGain.stat.lo).toBeCloseTo(0.02 - (4.302652729749464 * 0.01) / Math.sqrt(3), 10); // t(0.975; 2), scipy
    expect(a.learningGain.stat.students).toBe(3);
    expect(a.responsiveness.stat).toEqual({ mean: 0.5, lo: null, hi: null, n: 1, students: 1 });
    expect(a.responsiveness.unscored).toEqual([{ reason: 'test: not scored', runs: 2 }]);
    expect(a.helpfulness.stat.n).toBe(0);
    expect(a.helpfulness.stat.mean).toBeNull();
    expect(a.helpfulness.unscored).toEqual([{ reason: 'no judge panel has judged the run', runs: 3 }]);
    expect(rows[1]!.axes.learningGain.stat).toEqual({ mean: 0.05, lo: null, hi: null, n: 1, students: 1 });
  });
  it('intervals are clustered by student: runs of one seed on an engine that shares students are one student', () => {
    // engine 2: a seed fixes the student for every scenario, so three scenarios of seed 1 are one student: no interval
    const shared = axesByTutor(['S1', 'S2', 'S3'].map((scenarioId, i) => dg({ scenarioId, engine: 'educlaw-lab-engine-2', seed: 1, axes: { learningGain: 0.01 * (i + 1) } })));
    expect(shared[0]!.axes.learningGain.stat).toMatchObject({ n: 3, students: 1, lo: null });
    // an engine that draws a student per (persona, schedule) pair: three students, the ordinary t-interval
    const own = axesByTutor(['p1', 'p2', 'p3'].map((persona, i) => dg({ persona, engine: 'educlaw-lab-engine-3', seed: 1, axes: { learningGain: 0.01 * (i + 1) } })));
    expect(own[0]!.axes.learningGain.stat).toMatchObject({ n: 3, students: 3 });
    expect(own[0]!.axes.learningGain.stat.lo).toBeCloseTo(0.02 - (4.303 * 0.01) / Math.sqrt(3), 4);
  });
});

describe('learning curves and the reference', () => {
  const curve = [
    { day: 0, solveRate: 0.4 },
    { day: 1, solveRate: 0.5 },
    { day: 2, solveRate: 0.58 },
    { day: 3, solveRate: 0.59 },
    { day: 10, solveRate: 0.6 },
  ];
  const oracleCurve = [
    { day: 0, solveRate: 0.4 },
    { day: 1, solveRate: 0.55 },
    { day: 2, solveRate: 0.62 },
    { day: 3, solveRate: 0.66 },
    { day: 10, solveRate: 0.9 },
  ];
  it("the reference is the oracle's curve on the same student, attached by pairKey", () => {
    const [run, oracle, other] = attachReferences([dg({ curve }), dg({ tutor: 'oracle', tutorName: 'oracle', curve: oracleCurve }), dg({ curve, seed: 2 })]);
    expect(run!.reference?.runId).toBe(oracle!.runId);
    expect(referenceAt(run!, 0)).toBeCloseTo(0.4, 12);
    expect(referenceAt(run!, 2)).toBeCloseTo(0.62, 12);
    expect(referenceAt(run!, 10)).toBeCloseTo(0.9, 12);
    // a day the oracle was not probed: no number
    expect(referenceAt(run!, 5)).toBeNull();
    // gained 0.2 of the oracle's 0.5
    expect(referenceShare(run!)).toBeCloseTo(0.4, 12);
    // the oracle is its own reference
    expect(referenceShare(oracle!)).toBeCloseTo(1, 12);
    // another seed is another student: no reference, with the reason
    expect(referenceAt(other!, 2)).toBeNull();
    expect(runReference(other!)).toEqual({ reason: NO_REFERENCE });
    // 90% of the final 0.2 gain is first reached on day 2 (0.58)
    expect(plateauDay(run!)).toBe(2);
  });
  it('no headroom, no positive gain, a field run: null, never a number', () => {
    const flat = [{ day: 0, solveRate: 0.4 }, { day: 10, solveRate: 0.38 }];
    const [run] = attachReferences([dg({ curve }), dg({ tutor: 'oracle', tutorName: 'oracle', curve: flat })]);
    expect(referenceShare(run!)).toBeNull();
    expect(referenceAt(run!, 10)).toBeCloseTo(0.38, 12);
    expect(plateauDay(dg({ curve: [{ day: 0, solveRate: 0.4 }, { day: 10, solveRate: 0.4 }] }))).toBeNull();
    const [field] = attachReferences([dg({ curve, field: true }), dg({ tutor: 'oracle', tutorName: 'oracle', curve: oracleCurve })]);
    expect(field!.reference).toBeUndefined();
    expect(referenceAt(field!, 2)).toBeNull();
  });
  it("per tutor: per-day means over the runs probed that day, the mean reference, and the runs left out", () => {
    const oracle2 = [{ day: 0, solveRate: 0.2 }, { day: 2, solveRate: 0.5 }, { day: 10, solveRate: 0.6 }];
    const ds = attachReferences([
      dg({ curve }),
      dg({ curve: [{ day: 0, solveRate: 0.2 }, { day: 10, solveRate: 0.4 }], seed: 2 }),
      dg({ curve: [{ day: 0, solveRate: 0.3 }, { day: 10, solveRate: 0.3 }], seed: 3 }),
      dg({ tutor: 'oracle', tutorName: 'oracle', curve: oracleCurve }),
      dg({ tutor: 'oracle', tutorName: 'oracle', curve: oracle2, seed: 2 }),
    ]);
    const c = solveRateCurves(ds).find((x) => x.tutor === 'A');
    const day = (d: number) => c!.points.find((p) => p.day === d)!;
    expect(day(0).solveRate.mean).toBeCloseTo(0.3, 12);
    expect(day(0).solveRate.n).toBe(3);
    expect(day(1).solveRate).toEqual({ mean: 0.5, lo: null, hi: null, n: 1 });
    // reference at day 2: run 1 0.62, run 2 0.5 → 0.56 over 2 runs; neither A run was probed that day except run 1
    expect(day(2).reference.mean).toBeCloseTo(0.56, 12);
    expect(day(2).reference.n).toBe(2);
    expect(day(2).solveRate.n).toBe(1);
    expect(c!.noReference).toEqual([{ reason: NO_REFERENCE, runs: 1 }]);
    // run 1: 0.2 of 0.5; run 2: 0.2 of 0.4
    expect(c!.referenceShare.mean).toBeCloseTo((0.4 + 0.5) / 2, 12);
    expect(c!.referenceEnd.mean).toBeCloseTo((0.9 + 0.6) / 2, 12);
    expect(c!.noPositiveGain).toBe(1);
  });
});

describe('responsiveness against helpfulness', () => {
  it('plots runs with both scored and counts the rest', () => {
    const s = axisScatter([dg({ axes: { responsiveness: 1, helpfulness: 6 } }), dg({ axes: { responsiveness: 0.5 } }), dg({ tutor: 'B', axes: { helpfulness: 4 } })], 'responsiveness', 'helpfulness');
    expect(s.points.map((p) => [p.tutor, p.x, p.y])).toEqual([['A', 1, 6]]);
    expect(s.tutors).toEqual([
      { tutor: 'A', runs: 2, plotted: 1, xUnscored: 0, yUnscored: 1 },
      { tutor: 'B', runs: 1, plotted: 0, xUnscored: 1, yUnscored: 0 },
    ]);
  });
});

describe('model × harness', () => {
  const llm = (model: string, harness: string, gain: number) => dg({ tutor: `llm/${harness}/${model}`, tutorName: 'llm', harness, model, axes: { learningGain: gain } });
  it('ranks reorder across harnesses: rho and tau −1, every pair discordant, one leader per harness', () => {
    const m = modelHarness([llm('m1', 'h1', 0.3), llm('m2', 'h1', 0.2), llm('m3', 'h1', 0.1), llm('m1', 'h2', 0.1), llm('m2', 'h2', 0.2), llm('m3', 'h2', 0.3), llm('m3', 'h2', 0.5), dg({ tutor: 'planner', axes: { learningGain: 1 } })]);
    expect(m.runs).toBe(7);
    const t = m.byHarness;
    expect(t.rows).toEqual(['m1', 'm2', 'm3']);
    expect(t.cols).toEqual(['h1', 'h2']);
    expect(t.cells.m3!.h2!.mean).toBeCloseTo(0.4, 12);
    expect(t.cells.m3!.h2!.n).toBe(2);
    expect(t.ranks.h1).toEqual({ m1: 1, m2: 2, m3: 3 });
    expect(t.ranks.h2).toEqual({ m1: 3, m2: 2, m3: 1 });
    expect(t.leaders).toEqual({ h1: ['m1'], h2: ['m3'] });
    expect(t.pairs).toHaveLength(1);
    expect(t.pairs[0]).toMatchObject({ a: 'h1', b: 'h2', n: 3, discordant: 3, concordant: 0, reason: null });
    expect(t.pairs[0]!.rho).toBeCloseTo(-1, 12);
    expect(t.pairs[0]!.tau).toBeCloseTo(-1, 12);
    // transposed: within each model, the harnesses
    expect(m.byModel.leaders).toEqual({ m1: ['h1'], m2: ['h1', 'h2'], m3: ['h2'] });
    expect(m.byModel.ranks.m2).toEqual({ h1: 1.5, h2: 1.5 });
    expect(m.byModel.pairs.find((p) => p.a === 'm1' && p.b === 'm3')).toMatchObject({ n: 2, rho: null, tau: null, discordant: 1, reason: 'fewer than 3 harnesses in both' });
  });
  it('a lower-is-better axis ranks the lowest first', () => {
    const m = modelHarness([dg({ harness: 'h', model: 'a', axes: { leakage: 0.2 } }), dg({ harness: 'h', model: 'b', axes: { leakage: 0 } })], 'leakage');
    expect(m.byHarness.ranks.h).toEqual({ a: 2, b: 1 });
  });
});

describe('failure modes', () => {
  it('decides each mode per run with the documented thresholds, and counts the undecided', () => {
    const rows = failureModes([
      dg({ axes: { gagne: 1.4, learningGain: 0.01, valueAdded: 0, leakage: 0 }, help: { requests: 2, unanswered: 1, neglected: 1 } }),
      dg({ axes: { gagne: 1.5, learningGain: 0.001, valueAdded: 0.001, leakage: 0.1 }, help: { requests: 1, unanswered: 0, neglected: 0 } }),
      dg({ axes: { learningGain: 0.02, valueAdded: -0.01, leakage: 0, answerHolding: 0.8 } }),
      dg({ axes: { learningGain: null, leakage: null }, tutorMessageTurns: 0 }),
      dg({ tutor: 'B', axes: { leakage: null }, tutorMessageTurns: null, help: null }),
    ]);
    const a = rows.find((r) => r.group === 'A')!;
    expect(a.modes.noCurriculum).toMatchObject({ failed: 1, decided: 2, rate: 0.5 });
    expect(a.modes.noCurriculum.undecided).toEqual([{ reason: 'no judge panel has judged the run', runs: 2 }]);
    // value added ≤ 0 over the no-tutor control fails, though every one of these runs gained on its start
    expect(a.modes.noValueAdded).toMatchObject({ failed: 2, decided: 3 });
    expect(a.modes.neglect).toMatchObject({ failed: 1, decided: 2, undecided: [{ reason: 'no help requests', runs: 2 }] });
    // leakage > 0, and the panel's "not held" on some day; the silent tutor disclosed nothing
    expect(a.modes.disclosure).toMatchObject({ failed: 2, decided: 4, rate: 0.5 });
    const b = rows.find((r) => r.group === 'B')!;
    expect(b.modes.disclosure).toMatchObject({ failed: 0, decided: 0, rate: null });
    expect(b.modes.neglect.undecided).toEqual([{ reason: 'needs the trace', runs: 1 }]);
    const all = rows.at(-1)!;
    expect(all.group).toBe('all runs');
    expect(all.runs).toBe(5);
    expect(all.modes.noValueAdded).toMatchObject({ failed: 2, decided: 3 });
  });
});

describe('pass^k', () => {
  it('parses rules and refuses what it cannot read', () => {
    expect(parsePassRule('learningGain>0 , leakage = 0').text).toBe('learningGain > 0 && leakage == 0');
    expect(parsePassRule('responsiveness >= 0.5 and helpfulness > 5').clauses).toEqual([
      { axis: 'responsiveness', op: '>=', value: 0.5 },
      { axis: 'helpfulness', op: '>', value: 5 },
    ]);
    expect(() => parsePassRule('gain > 0')).toThrow(/unknown axis "gain"/);
    expect(() => parsePassRule('learningGain >> 0')).toThrow(/cannot read/);
    expect(() => parsePassRule('  ')).toThrow(/empty/);
  });
  it('a clause on an unscored axis leaves the trial undecided unless a decided clause fails', () => {
    const rule = parsePassRule('learningGain > 0 && leakage == 0');
    expect(passOf(rule, dg({ axes: { learningGain: 0.01, leakage: 0 } }))).toEqual({ pass: true });
    expect(passOf(rule, dg({ axes: { learningGain: 0.01, leakage: 0.2 } }))).toEqual({ pass: false });
    expect(passOf(rule, dg({ axes: { learningGain: 0.01 } }))).toEqual({ undecided: 'leakage unscored' });
    expect(passOf(rule, dg({ axes: { learningGain: -0.01 } }))).toEqual({ pass: false });
  });
  it('the default rule fails a silent tutor: value added 0, no messages (leakage unscored)', () => {
    const rule = parsePassRule(DEFAULT_PASS_RULE);
    expect(rule.clauses[0]).toEqual({ axis: 'valueAdded', op: '>', value: VALUE_ADDED_THRESHOLD });
    expect(passOf(rule, dg({ tutorName: 'silent', axes: { learningGain: 0.003, valueAdded: 0, leakage: null } }))).toEqual({ pass: false });
    expect(passOf(rule, dg({ axes: { learningGain: 0.003, valueAdded: 0.002, leakage: 0 } }))).toEqual({ pass: true });
    expect(passOf(rule, dg({ axes: { learningGain: 0.003, leakage: 0 } }))).toEqual({ undecided: 'valueAdded unscored' });
  });
  it('per task C(c,k)/C(n,k) over seeds, averaged over the same tasks for every k (those with at least K trials)', () => {
    const rule = parsePassRule('learningGain > 0');
    const run = (scenarioId: string, seed: number, gain: number | null) => dg({ scenarioId, seed, runId: `${scenarioId}-s${seed}`, axes: { learningGain: gain } });
    const r = passAtK([run('S1', 1, 0.1), run('S1', 2, 0.1), run('S1', 3, -0.1), run('S1', 4, 0), run('S2', 1, 0.2), run('S2', 2, 0.3), run('S2', 3, null)], rule);
    const t = r.tutors[0]!;
    expect(t.tasks.map((x) => [x.task.split(' · ')[0], x.n, x.c, x.undecided])).toEqual([
      ['S1', 4, 2, 0],
      ['S2', 2, 2, 1],
    ]);
    // The runs behind a failing task: its failed trials (not the passes, not the undecided).
    expect(t.tasks.map((x) => x.failed)).toEqual([['S1-s3', 'S1-s4'], []]);
    // K = the median decided-trial count (4 and 2: 3); only S1 has 3 trials, so every k is over S1 alone, and pass^k cannot rise with k
    expect(r.minTrials).toBe(3);
    expect(r.ks).toEqual([1, 2, 3]);
    expect(t.leftOut).toBe(1);
    expect(t.byK.map((b) => [b.k, b.tasks, b.stat.mean])).toEqual([
      [1, 1, 0.5],
      [2, 1, expect.closeTo(1 / 6, 12)],
      [3, 1, 0],
    ]);
    expect(t.undecidedReasons).toEqual([{ reason: 'learningGain unscored', runs: 1 }]);
  });
  it('across voices: a task per seed, the voices its trials', () => {
    const rule = parsePassRule('learningGain > 0');
    const v = (voice: string, seed: number, gain: number) => dg({ voice, seed, axes: { learningGain: gain } });
    const runs = [v('templates', 1, 0.1), v('llm:a/x', 1, -0.1), v('templates', 2, 0.1), v('llm:a/x', 2, 0.1)];
    expect(voicesDiffer(runs)).toBe(true);
    expect(voicesDiffer(runs.filter((r) => r.voice === 'templates'))).toBe(false);
    const r = passAtK(runs, rule, 'voices');
    expect(r.tutors[0]!.tasks.map((t) => [t.n, t.c])).toEqual([
      [2, 1],
      [2, 2],
    ]);
    expect(r.tutors[0]!.byK[1]!.stat.mean).toBeCloseTo((0 + 1) / 2, 12);
    // across voices k runs up to the number of voices (no cap at 4)
    const five = ['a', 'b', 'c', 'd', 'e'].map((m) => v(`llm:p/${m}`, 1, 0.1));
    expect(passAtK(five, rule, 'voices').ks).toEqual([1, 2, 3, 4, 5]);
    expect(passAtK(five.map((d, i) => ({ ...d, seed: i })), rule, 'seeds').ks).toEqual([1]);
  });
});

describe('action kinds', () => {
  it('per run and per day; kinds never used are named', () => {
    const day = (d: number, send: number) => ({ day: d, counts: { ...zero(), send_message: send } });
    const rows = actionFrequencies([
      dg({ actions: { ...zero(), send_message: 3, stay_silent: 1 }, actionsByDay: [day(1, 1), day(2, 2)] }),
      dg({ actions: { ...zero(), send_message: 1 }, actionsByDay: [day(1, 1)] }),
      dg({ actions: zero(), actionsByDay: null }),
    ]);
    const a = rows[0]!;
    expect(a.kinds.send_message.perRun.mean).toBeCloseTo(4 / 3, 12);
    expect(a.kinds.send_message).toMatchObject({ runsUsing: 2, total: 4 });
    expect(a.neverUsed).toEqual(['assign_items', 'adjust_level', 'provide_content']);
    expect(a.perDay.map((d) => [d.day, d.n, d.kinds.send_message.mean])).toEqual([
      [1, 2, 1],
      [2, 1, 2],
    ]);
    expect(a.noDays).toBe(1);
  });
});

describe('axis correlations', () => {
  it('Spearman over the runs that scored both, with n and the reason when undefined', () => {
    const ps = axisCorrelations([
      dg({ axes: { learningGain: 0.1, responsiveness: 0.2, leakage: 0 } }),
      dg({ axes: { learningGain: 0.2, responsiveness: 0.5, leakage: 0 } }),
      dg({ axes: { learningGain: 0.3, responsiveness: 0.4, leakage: 0 } }),
      dg({ axes: { learningGain: 0.4, responsiveness: 0.9, leakage: 0 } }),
      dg({ tutor: 'B', axes: { learningGain: 0.5 } }),
    ]);
    const find = (g: string, a: AxisId, b: AxisId) => ps.find((p) => p.group === g && p.a === a && p.b === b)!;
    expect(find('all runs', 'learningGain', 'responsiveness')).toMatchObject({ n: 4 });
    expect(find('all runs', 'learningGain', 'responsiveness').rho).toBeCloseTo(0.8, 12);
    expect(find('all runs', 'learningGain', 'leakage')).toMatchObject({ n: 4, rho: null, reason: 'an axis does not vary over these runs' });
    expect(find('all runs', 'learningGain', 'helpfulness')).toMatchObject({ n: 0, rho: null, reason: 'fewer than 3 runs scored both' });
    expect(find('A', 'learningGain', 'responsiveness').n).toBe(4);
    expect(find('B', 'learningGain', 'responsiveness').n).toBe(0);
  });
});

describe('the report', () => {
  const runs = () => [
    dg({ runId: 'r1', seed: 1, curve: [{ day: 0, solveRate: 0.4 }, { day: 10, solveRate: 0.5 }], axes: { learningGain: 0.01, responsiveness: 1, leakage: 0, independence: 0.5 } }),
    dg({ runId: 'r2', seed: 2, curve: [{ day: 0, solveRate: 0.4 }, { day: 10, solveRate: 0.6 }], axes: { learningGain: 0.02, responsiveness: 0.5, leakage: 0, independence: 0.2 } }),
    dg({ runId: 'r3', seed: 3, curve: [{ day: 0, solveRate: 0.4 }, { day: 10, solveRate: 0.3 }], axes: { learningGain: -0.01, responsiveness: 0.75, leakage: 0.1, independence: 0.3 } }),
    dg({ runId: 'r4', tutor: 'B <script>alert(1)</script>', curve: [{ day: 0, solveRate: 0.4 }, { day: 10, solveRate: 0.45 }], axes: { learningGain: 0.005, responsiveness: 1, leakage: 0, helpfulness: 6 }, panel: 'p' }),
  ];
  it('does not depend on the order of the runs', () => {
    const a = buildBenchmarkReport(runs());
    const b = buildBenchmarkReport(runs().reverse());
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
  it('has a CSV for every table, a table behind every plot, and titles and descriptions on plots', () => {
    const r = buildBenchmarkReport(runs());
    const tables = allTables(r);
    const csv = reportCsvFiles(r);
    expect(csv.map((c) => c.path)).toEqual(tables.map((t) => `csv/${t.id}.csv`));
    expect(new Set(tables.map((t) => t.id)).size).toBe(tables.length);
    for (const t of tables) for (const row of t.csv.rows) expect(row).toHaveLength(t.csv.head.length);
    for (const t of tables.filter((x) => !x.csvOnly)) for (const row of t.rows) expect(row).toHaveLength(t.head.length);
    for (const p of allPlots(r)) {
      expect(p.title).not.toBe('');
      expect(p.description.length).toBeGreaterThan(20);
      expect(tables.some((t) => t.id === p.table)).toBe(true);
    }
    const runsCsv = csv.find((c) => c.path === 'csv/runs.csv')!.text.trim().split('\n');
    expect(runsCsv).toHaveLength(5);
    // unscored axes are empty cells, never a number
    expect(runsCsv[0]!.split(',').indexOf('helpfulness')).toBeGreaterThan(0);
    const col = runsCsv[0]!.split(',').indexOf('helpfulness');
    expect(runsCsv.slice(1).map((l) => l.split(',')[col])).toEqual(['', '', '', '6']);
  });
  it('prints the numbers in Markdown and HTML, and escapes what the traces hold', () => {
    const r = buildBenchmarkReport(runs(), { command: 'npm run cli -- report x' });
    const md = reportMarkdown(r);
    expect(md).toContain('| A | 3 | 0.67 [');
    expect(md).toContain('![');
    expect(md).toContain('(svg/solve-rate-curves.svg)');
    expect(md).not.toContain('<script>');
    const html = reportHtml(r, { svg: () => '<svg role="img" aria-label="x"></svg>' });
    expect(html).not.toContain('<script>');
    expect(html).toContain('B &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<figure id="plot-solve-rate-curves"><svg');
    expect(html).toContain('<code>npm run cli -- report x</code>');
    // failure modes over all runs: no value added undecided (no no-tutor control in the set), disclosure 1 of 4
    expect(md).toMatch(/\| all runs \| 4 \| undecided \| undecided \| undecided \| 1\/4 \(25\.0%\) \|/);
  });
  it('adds pass^k across voices, and across seeds and voices, when runs differ by voice', () => {
    const v = (voice: string, seed: number) => dg({ voice, seed, axes: { learningGain: 0.01, leakage: 0 } });
    const r = buildBenchmarkReport([v('templates', 1), v('llm:a/x', 1), v('templates', 2), v('llm:a/x', 2)]);
    expect(r.analyses.passK.map((p) => p.over)).toEqual(['voices', 'seeds', 'runs']);
    expect(allTables(r).map((t) => t.id)).toEqual(expect.arrayContaining(['pass-k-seeds', 'pass-k-voices', 'pass-k-runs']));
    expect(buildBenchmarkReport(runs()).analyses.passK.map((p) => p.over)).toEqual(['seeds']);
  });
  it('refuses an unknown axis or a bad rule', () => {
    expect(() => buildBenchmarkReport(runs(), { rankAxis: 'nope' as AxisId })).toThrow(/unknown axis/);
    expect(() => buildBenchmarkReport(runs(), { passRule: 'x > 1' })).toThrow(/unknown axis/);
  });
});
