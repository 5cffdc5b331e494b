/** The Lab's no-tutor control: what it plans for a run (real BKT runs of the built-in learner, a few days), and the value-added line. */
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_TUTOR, ENGINE_VERSION, controlKeyText, controlRecord, effectiveScenario, executeRun, gainThrough, lastCheck, runIdOf, runRecord, scoreTrace, type RunRecord, type TraceEvent } from '../../core/index';
import { bktEnv, defaultScenario, onBkt } from '../../testing/fixtures';
import type { StoredRun } from '../../adapters/browser/run-store';
import { planControl, ppDay, reportWithControl, valueAddedLine, type ControlContext } from './controls';

const rec = (tutor: string, seed = 42, voice: RunRecord['voice'] = { kind: 'templates' }): RunRecord => runRecord({ scenario: onBkt(defaultScenario()), source: 'scenarios/default.yaml', tutor: { name: tutor, config: {} }, seed, horizonDays: 4, voice });

function stored(record: RunRecord, events: readonly TraceEvent[], over: Partial<StoredRun> = {}): StoredRun {
  return {
    key: `${runIdOf(record)}@${Math.random()}`,
    runId: runIdOf(record),
    scenarioId: 'default',
    scenarioTitle: 'built-in',
    tutor: record.tutor.name,
    seed: effectiveScenario(record).seed,
    tracer: 'bkt',
    status: 'done',
    endReason: 'horizon_reached',
    createdAt: 0,
    events: events.length,
    report: events.length ? scoreTrace(events) : null,
    error: null,
    record,
    ...over,
  };
}

const ctx = (runs: StoredRun[], over: Partial<ControlContext> = {}): ControlContext => ({ runs, isLive: () => false, started: new Map(), voiceProblem: () => null, ...over });

let planner: TraceEvent[];
let silent: TraceEvent[];
let silentOther: TraceEvent[];
beforeAll(async () => {
  planner = (await executeRun(rec('planner'), bktEnv())).events;
  silent = (await executeRun(controlRecord(rec('planner')), bktEnv())).events;
  silentOther = (await executeRun(rec(CONTROL_TUTOR, 7), bktEnv())).events;
});

describe('the no-tutor control of a Lab run', () => {
  it('is needed, under the CLI cache key, until a silent run on the same student is stored; then it is found and value added is the difference of the two gains', () => {
    const run = stored(rec('planner'), planner);
    const plan = planControl(run, planner, ctx([run, stored(rec(CONTROL_TUTOR, 7), silentOther)]));
    expect(plan.kind).toBe('needed');
    if (plan.kind !== 'needed') return;
    expect(plan.key).toBe(controlKeyText(rec('planner')));
    expect(plan.ask).toBeNull();
    expect(runIdOf(controlRecord(plan.record))).toBe(runIdOf(rec(CONTROL_TUTOR)));
    // Before the control is run, the axis table's row says so, and the line gives no number.
    expect(reportWithControl(run.report!, plan).valueAdded).toMatchObject({ value: null, reason: 'the no-tutor control has not been run yet' });
    expect(valueAddedLine(run.report!, plan, { starting: true }).text).toMatch(/^Value added over no tutor: starting/);
    expect(valueAddedLine(run.report!, plan).text).toBe('Value added over no tutor: unscored: the same student has not been run with no tutor yet.');

    const control = stored(controlRecord(rec('planner')), silent);
    const found = planControl(run, planner, ctx([control, run]));
    expect(found).toEqual({ kind: 'found', control });
    // Independently: the gains through the run's last daily check, from the two probe curves.
    const curveOf = (ev: readonly TraceEvent[]) => ev.flatMap((e) => (e.type === 'probe' ? [{ day: e.day, solveRate: e.solveRate }] : []));
    const through = lastCheck(curveOf(planner));
    const a = gainThrough(curveOf(planner), through)!;
    const b = gainThrough(curveOf(silent), through)!;
    const shown = reportWithControl(run.report!, found);
    expect(shown.valueAdded!.value).toBeCloseTo(a - b, 12);
    expect(shown.valueAdded!.controlGain).toBeCloseTo(b, 12);
    expect(shown.valueAdded!.controlRunId).toBe(control.runId);
    const line = valueAddedLine(run.report!, found);
    expect(line.text).toBe(`Value added over no tutor: ${ppDay(a - b)} (this run ${ppDay(a)}, the same student with no tutor ${ppDay(b)}, through day ${through}). Higher is better.`);
    expect(line.tone).toBe(a - b > 0 ? 'good' : a - b < 0 ? 'bad' : 'neutral');
    expect(line.detail).toContain(control.runId);
  });

  it('is running while the silent run is live (listed, or just started from this page), and never started twice', () => {
    const run = stored(rec('planner'), planner);
    const live = stored(controlRecord(rec('planner')), [], { status: 'running', endReason: null, report: null });
    expect(planControl(run, planner, ctx([live, run]))).toEqual({ kind: 'running', key: live.key });
    const started = new Map([[controlKeyText(rec('planner')), 'k1']]);
    expect(planControl(run, planner, ctx([run], { started, isLive: (k) => k === 'k1' }))).toEqual({ kind: 'running', key: 'k1' });
    // Started earlier but no longer live and not stored as done: needed again.
    expect(planControl(run, planner, ctx([run], { started })).kind).toBe('needed');
    expect(valueAddedLine(run.report!, { kind: 'running', key: 'k1' }, { progress: 'Day 2 of 4' }).text).toBe('Value added over no tutor: running the same student with no tutor (Day 2 of 4)…');
  });

  it('a failed control is not re-run on its own: its reason shows until the user asks again', () => {
    const run = stored(rec('planner'), planner);
    const bad = stored(controlRecord(rec('planner')), [], { status: 'failed', endReason: 'internal_error', error: 'internal_error: boom', report: null });
    const plan = planControl(run, planner, ctx([bad, run]));
    expect(plan).toMatchObject({ kind: 'needed', failed: `the no-tutor control run ${bad.runId} failed (internal_error: boom)` });
    expect(valueAddedLine(run.report!, plan).text).toBe(`Value added over no tutor: unscored: the no-tutor control run ${bad.runId} failed (internal_error: boom).`);
  });

  it('a silent run is its own control', () => {
    const run = stored(rec(CONTROL_TUTOR, 7), silentOther);
    const plan = planControl(run, silentOther, ctx([run]));
    expect(plan).toEqual({ kind: 'self' });
    expect(reportWithControl(run.report!, plan).valueAdded!.value).toBe(0);
    expect(valueAddedLine(run.report!, plan).text).toMatch(/^This run is the no-tutor control \(the silent tutor\): its value added is 0 by definition\.$/);
  });

  it('is unscored, with the reason, for a field run, another engine, an unfinished run and an LLM voice the page cannot run; an LLM voice it can run waits for a click', () => {
    const run = stored(rec('planner'), planner);
    const [start, ...rest] = planner;
    if (start?.type !== 'run_start') throw new Error('no run_start');
    const field = [{ ...start, learner: { ...start.learner, kind: 'real' } } as TraceEvent, ...rest];
    expect(planControl(run, field, ctx([run]))).toEqual({ kind: 'unscored', reason: 'a field run (a real student) has no simulated no-tutor control' });
    const old = [{ ...start, engine: 'educlaw-lab-engine-1' } as TraceEvent, ...rest];
    expect(planControl(run, old, ctx([run]))).toEqual({ kind: 'unscored', reason: `the run was written by engine educlaw-lab-engine-1; this page runs ${ENGINE_VERSION}, so its no-tutor control would be another student` });
    const cut = planner.filter((e) => e.type !== 'run_end');
    expect(planControl(run, cut, ctx([run]))).toEqual({ kind: 'unscored', reason: 'the run did not finish (no run_end): value added is measured on a finished run' });
    const unscored = reportWithControl(run.report!, { kind: 'unscored', reason: 'why' });
    expect(unscored.valueAdded).toEqual({ value: null, controlRunId: null, controlGain: null, through: null, reason: 'why' });
    expect(valueAddedLine(run.report!, { kind: 'unscored', reason: 'why' }).text).toBe('Value added over no tutor: unscored: why.');

    // The stored record says the voice (this trace ran on templates; the record is what is looked at).
    const llm = stored(rec('planner', 42, { kind: 'llm', provider: 'lab', model: 'm1' }), planner);
    expect(planControl(llm, planner, ctx([llm], { voiceProblem: () => 'no provider "lab" in LLM settings' }))).toEqual({ kind: 'unscored', reason: 'its no-tutor control needs the run\'s student voice: no provider "lab" in LLM settings' });
    const ask = planControl(llm, planner, ctx([llm]));
    expect(ask).toMatchObject({ kind: 'needed', failed: null });
    expect(ask.kind === 'needed' && ask.ask).toMatch(/LLM student voice \(m1 at lab\)/);
    expect(valueAddedLine(llm.report!, ask).text).toMatch(/^Value added over no tutor: unscored: the no-tutor control has not been run: the control uses/);
  });

  it('writes gains as signed percentage points a day', () => {
    expect(ppDay(0.0032)).toBe('+0.32 pp/day');
    expect(ppDay(-0.0001)).toBe('-0.01 pp/day');
    expect(ppDay(0)).toBe('+0.00 pp/day');
  });
});
