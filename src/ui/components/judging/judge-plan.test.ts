/** The judging plan: calls as the panel samples them, tokens and cost from measured runs. */
import { describe, expect, it } from 'vitest';
import { PANEL_DEFAULTS, RUBRICS, RUBRIC_IDS, hashString, sampleDays } from '../../../core/index';
import type { StoredRun } from '../../../adapters/browser/run-store';
import { callsFor, judgePlan } from './judge-plan';

const run = (key: string, runId: string, days: number, status: StoredRun['status'] = 'done', judged?: { calls: number; promptTokens: number; completionTokens: number }): StoredRun =>
  ({
    key,
    runId,
    scenarioId: 's',
    scenarioTitle: 's',
    tutor: 'planner',
    seed: 1,
    tracer: 'bkt',
    status,
    endReason: status === 'done' ? 'horizon_reached' : null,
    createdAt: 0,
    events: 0,
    error: null,
    report: { days, curve: [{ day: days, solveRate: 0.5, gradedRate: 0.5 }], details: { llm: judged ? { judge: { ...judged } } : null } },
    record: { horizonDays: days, scenario: { horizonDays: days } },
  }) as unknown as StoredRun;

describe('judge plan', () => {
  it('counts calls as the panel samples days: rubrics from their first day, × judges', () => {
    const days = sampleDays(30, 4, PANEL_DEFAULTS.strata, hashString('a__planner__s1:judge-days'));
    const expected = RUBRIC_IDS.reduce((n, id) => n + days.filter((d) => d >= RUBRICS[id].fromDay).length, 0);
    expect(callsFor({ runId: 'a__planner__s1', days: 30, horizon: 30 }, { daysPerRun: 4, rubrics: RUBRIC_IDS }, 2)).toBe(expected * 2);
    // Every day of a 3-day run, one rubric that starts on day 2: days 2 and 3.
    const from2 = RUBRIC_IDS.find((id) => RUBRICS[id].fromDay === 2)!;
    expect(callsFor({ runId: 'x', days: 3, horizon: 3 }, { daysPerRun: null, rubrics: [from2] }, 1)).toBe(2);
  });

  it('leaves unfinished runs out, and prices the calls only when every judge has a price and tokens are measured', () => {
    const runs = [run('a', 'a__planner__s1', 3), run('b', 'b__planner__s1', 3), run('c', 'c__planner__s1', 3, 'interrupted')];
    const panel = { daysPerRun: null, rubrics: [...RUBRIC_IDS] };
    const priced = [{ id: 'j1@p', price: { input: 1, output: 2 } }, { id: 'j2@p', price: { input: 3, output: 4 } }];
    const notMeasured = judgePlan(runs, priced, panel, null);
    expect(notMeasured.runs.map((r) => r.key)).toEqual(['a', 'b']);
    expect(notMeasured.skipped).toBe(1);
    expect(notMeasured.tokens).toBeNull();
    expect(notMeasured.cost).toBeNull();
    const perRun = callsFor({ runId: 'a__planner__s1', days: 3, horizon: 3 }, panel, 1);
    const p = judgePlan(runs, priced, panel, { tokensIn: 1000, tokensOut: 100 });
    expect(p.calls).toBe(2 * perRun * 2);
    expect(p.tokens).toEqual({ in: 1000 * p.calls, out: 100 * p.calls });
    // Each judge makes half the calls at its own price.
    const half = p.calls / 2;
    expect(p.cost).toBeCloseTo((half * (1000 * 1 + 100 * 2) + half * (1000 * 3 + 100 * 4)) / 1e6, 12);
    const unpriced = judgePlan(runs, [priced[0]!, { id: 'j3@p', price: null }], panel, { tokensIn: 1000, tokensOut: 100 });
    expect(unpriced.cost).toBeNull();
    expect(unpriced.unpriced).toEqual(['j3@p']);
  });
});
