import { describe, expect, it } from 'vitest';
import { miniScenario } from '../../testing/fixtures';
import { formatSweepSummary, parseSeedList, planSweep, summarizeSweep, type RunSummary } from './index';
import { meanCi95 } from '../stats/index';

const run = (scenarioId: string, seed: number, lg: number | null, resp: number | null): RunSummary =>
  ({
    runId: `${scenarioId}__t__s${seed}`,
    scenarioId,
    source: `${scenarioId}.yaml`,
    persona: 'p',
    schedule: 's',
    ability: 'average',
    tutor: 't',
    seed,
    endReason: 'horizon_reached',
    events: 10,
    axes: { learningGain: lg, responsiveness: resp, leakage: 0, independence: null, extraction: null },
    actions: { send_message: 1, stay_silent: 2, assign_items: 0, adjust_level: 0, provide_content: 0 },
    activity: {} as RunSummary['activity'],
  }) as RunSummary;

describe('sweep planning', () => {
  it('parses seed lists and ranges', () => {
    expect(parseSeedList('42')).toEqual([42]);
    expect(parseSeedList('1-3, 10,2')).toEqual([1, 2, 3, 10]);
    expect(() => parseSeedList('3-1')).toThrow(/backwards/);
    expect(() => parseSeedList('a')).toThrow(/not a seed/);
  });

  it('plans scenario × seed jobs with run ids, or each scenario with its own seed', () => {
    const s = miniScenario();
    const t = { ...s, id: 'other' };
    const withholder = { tutor: { name: 'withholder', config: {} } };
    const planner = { tutor: { name: 'planner', config: {} } };
    const jobs = planSweep([{ scenario: s, source: 'a.yaml' }, { scenario: t, source: 'b.yaml' }], withholder, [1, 2]);
    expect(jobs.map((j) => j.runId)).toEqual(['mini-3day__withholder__s1', 'mini-3day__withholder__s2', 'other__withholder__s1', 'other__withholder__s2']);
    expect(jobs.map((j) => j.index)).toEqual([0, 1, 2, 3]);
    expect(jobs.map((j) => [j.record.source, j.record.seed])).toEqual([['a.yaml', 1], ['a.yaml', 2], ['b.yaml', 1], ['b.yaml', 2]]);
    expect(planSweep([{ scenario: s, source: 'a.yaml' }], planner, null).map((j) => j.record.seed)).toEqual([s.seed]);
    expect(planSweep([{ scenario: s, source: 'a.yaml' }], { ...planner, horizonDays: 1, tracer: 'akt' }, [5])[0]!.record).toMatchObject({ horizonDays: 1, tracer: 'akt', seed: 5 });
    expect(() => planSweep([{ scenario: s, source: 'a.yaml' }, { scenario: s, source: 'c.yaml' }], planner, null)).toThrow(/two scenarios have the id/);
  });
});

describe('sweep summary', () => {
  const runs = [run('a', 1, 0.01, 1), run('a', 2, 0.03, 0.5), run('a', 3, 0.02, null), run('b', 1, 0.0, null), run('b', 2, 0.02, null), run('b', 3, 0.01, null)];
  const sum = summarizeSweep(runs);

  it('gives per-scenario mean and 95% interval over seeds, skipping unscored runs', () => {
    const a = sum.scenarios.find((r) => r.scenarioId === 'a')!;
    const ci = meanCi95([0.01, 0.03, 0.02]);
    expect(a.axes.learningGain).toEqual({ mean: ci.mean, lo: ci.lo, hi: ci.hi, n: 3 });
    expect(a.axes.responsiveness.n).toBe(2);
    expect(a.axes.responsiveness.mean).toBeCloseTo(0.75);
    expect(sum.scenarios.find((r) => r.scenarioId === 'b')!.axes.responsiveness).toEqual({ mean: null, lo: null, hi: null, n: 0 });
  });

  it('overall: per-seed means over scenarios, then the interval over seeds', () => {
    const perSeed = [(0.01 + 0.0) / 2, (0.03 + 0.02) / 2, (0.02 + 0.01) / 2];
    const ci = meanCi95(perSeed);
    expect(sum.overall.learningGain.mean).toBeCloseTo(ci.mean, 12);
    expect(sum.overall.learningGain.lo).toBeCloseTo(ci.lo!, 12);
    expect(sum.overall.learningGain.n).toBe(3);
    expect(sum.overallActions.stay_silent).toBe(2);
  });

  it('formats a table with one row per scenario and an overall row', () => {
    const text = formatSweepSummary(sum);
    expect(text).toMatch(/^scenario\s+runs\s+I learning gain/);
    expect(text).toContain('overall (over seeds)');
    expect(text.split('\n').filter((l) => /^[ab]\s/.test(l))).toHaveLength(2);
  });
});
