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

  it('lists seeds ascending whatever order the runs finished in', () => {
    const rev = summarizeSweep([...runs].reverse());
    expect(rev.seeds).toEqual([1, 2, 3]);
    expect(rev.scenarios.map((r) => r.seeds)).toEqual([[1, 2, 3], [1, 2, 3]]);
    expect(formatSweepSummary(rev)).toContain('3 seeds (1, 2, 3)');
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

  it('names a library scenario as people read it ("gamer · homework-only"), as the page does', () => {
    const text = formatSweepSummary(summarizeSweep([run('gamer--homework-only', 1, 0.01, 1), run('gamer--homework-only', 2, 0.02, 1)]));
    expect(text).toMatch(/^gamer · homework-only\s+2\s/m);
    expect(text).not.toContain('gamer--homework-only');
  });
});

describe('sweep summary with several tutors', () => {
  const as = (tutor: string, r: RunSummary): RunSummary => ({ ...r, tutor, runId: r.runId.replace('__t__', `__${tutor.replace(/\//g, '-')}__`) });
  const runs = [
    ...[run('a', 1, 0.01, 1), run('a', 2, 0.03, 1), run('b', 1, 0.02, null), run('b', 2, 0.04, null)].map((r) => as('planner', r)),
    ...[run('a', 1, 0.1, 0.5), run('a', 2, 0.2, 0.5), run('b', 1, 0.3, null)].map((r) => as('llm/reactive/m', r)),
  ];

  it('one summary per tutor (in the order planned), each over its own runs only; a tutor with no finished run still has one; runs that left no summary are failed in their tutor', () => {
    const sum = summarizeSweep(runs, { tutors: ['llm/reactive/m', 'planner', 'llm/notes/m'], unfinished: [{ runId: 'b__llm-reactive-m__s2', tutor: 'llm/reactive/m' }] });
    expect(sum.byTutor!.map((t) => [t.tutor, t.runs, t.failed.map((f) => f.runId)])).toEqual([
      ['llm/reactive/m', 3, ['b__llm-reactive-m__s2']],
      ['planner', 4, []],
      ['llm/notes/m', 0, []],
    ]);
    const llm = sum.byTutor![0]!;
    expect(llm.overall.learningGain.mean).toBeCloseTo(meanCi95([(0.1 + 0.3) / 2, 0.2]).mean, 12);
    expect(llm.scenarios.map((r) => [r.scenarioId, r.runs])).toEqual([['a', 2], ['b', 1]]);
    expect(sum.byTutor![1]!.overall).toEqual(summarizeSweep(runs.filter((r) => r.tutor === 'planner')).overall);
    expect(sum.byTutor![2]!.overall.learningGain).toEqual({ mean: null, lo: null, hi: null, n: 0 });
    expect(sum.byTutor!.every((t) => t.byTutor === undefined)).toBe(true);
    // The pooled fields: every run, every failure.
    expect(sum.runs).toBe(7);
    expect(sum.failed).toEqual([{ runId: 'b__llm-reactive-m__s2', endReason: null }]);
    expect(sum.tutor).toBe('llm/reactive/m, planner, llm/notes/m');
  });

  it('one tutor: no byTutor, and the text is the single table as before', () => {
    const one = summarizeSweep(runs.filter((r) => r.tutor === 'planner'));
    expect(one.byTutor).toBeUndefined();
    expect(formatSweepSummary(one)).toMatch(/^scenario\s+runs/);
    expect(formatSweepSummary(one)).not.toContain('==');
  });

  it('formats a section per tutor, then a table of the tutors\' overall rows', () => {
    const text = formatSweepSummary(summarizeSweep(runs));
    expect(text.match(/^== .* ==$/gm)).toEqual(['== tutor planner ==', '== tutor llm/reactive/m ==', '== tutors compared (overall over seeds) ==']);
    const compared = text.slice(text.indexOf('== tutors compared'));
    expect(compared.split('\n').filter((l) => /^(planner|llm\/reactive\/m)\s/.test(l)).map((l) => l.split(/\s+/).slice(0, 2))).toEqual([['planner', '4'], ['llm/reactive/m', '3']]);
    expect(compared).toContain('2 tutors; 7 runs over 2 scenarios × 2 seeds (1, 2)');
    const section = text.slice(0, text.indexOf('== tutor llm/reactive/m'));
    expect(section).toContain('tutor planner; 4 runs over 2 scenarios × 2 seeds (1, 2)');
  });
});
