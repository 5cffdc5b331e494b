import { describe, expect, it } from 'vitest';
import { runRecord, tutorLabel, type ScoreReport, type RunRecordInput } from '../../core/index';
import type { StoredRun } from '../../adapters/browser/run-store';
import { miniScenario, defaultScenario } from '../../testing/fixtures';
import {
  NOT_APPLICABLE,
  UNKNOWN,
  arrangeRuns,
  differingFacts,
  exportFileName,
  fileStem,
  formatBytes,
  factValues,
  filterRuns,
  firstRuns,
  gainCell,
  groupRuns,
  isFiltering,
  runFacts,
  sortRuns,
  type RunFacts,
} from './run-facts';

const day = (d: number, h = 10) => new Date(2026, 4, d, h, 30).getTime();
const report = (gain: number | null) => ({ learningGain: gain }) as ScoreReport;

/** A run the page made: its record is stored with it. */
function made(over: Partial<StoredRun> & { rec?: Partial<RunRecordInput> } = {}): StoredRun {
  const { rec: recOver, ...rest } = over;
  const record = runRecord({ scenario: miniScenario(), tutor: { name: 'planner', config: {} }, ...recOver });
  const seed = record.seed ?? record.scenario.seed;
  const label = tutorLabel({ name: record.tutor.name, config: record.tutor.config });
  return {
    key: `mini-3day__${record.tutor.name}__s${seed}@${Math.random()}`,
    runId: `mini-3day__${record.tutor.name}__s${seed}`,
    scenarioId: 'mini-3day',
    scenarioTitle: 'Mini (3 days, tests)',
    tutor: label,
    seed,
    tracer: record.tracer ?? record.scenario.learner.tracer,
    status: 'done',
    endReason: 'horizon_reached',
    createdAt: day(1),
    events: 500,
    report: report(0.01),
    error: null,
    record,
    ...rest,
  };
}

/** A run imported from a CLI trace: no record, the label is the tutor's name. */
function imported(over: Partial<StoredRun> = {}): StoredRun {
  return {
    key: `gamer--homework-only__withholder__s3@${Math.random()}`,
    runId: 'gamer--homework-only__withholder__s3',
    scenarioId: 'gamer--homework-only',
    scenarioTitle: 'Gamer learner, homework-only schedule',
    tutor: 'withholder',
    seed: 3,
    tracer: 'akt',
    status: 'imported',
    endReason: 'horizon_reached',
    createdAt: day(2),
    events: 900,
    report: report(0.003),
    error: null,
    ...over,
  };
}

const llm = { name: 'llm', config: { harness: 'reactive', model: 'gpt-4.1-mini', provider: 'openai' } };

describe('facts of a stored run', () => {
  it('reads tutor, harness, model, provider, persona, schedule, voice and overrides from the run record', () => {
    const f = runFacts(made({ rec: { tutor: llm, voice: { kind: 'llm', provider: 'local', model: 'llama3.1:8b' }, tracer: 'bkt', ability: 'high', horizonDays: 2 } }));
    expect(f.label).toBe('llm/reactive/gpt-4.1-mini');
    expect(f.values).toMatchObject({ tutor: 'llm', harness: 'reactive', model: 'gpt-4.1-mini', provider: 'openai', persona: 'help-seeker', schedule: 'afternoons', voice: 'llm: llama3.1:8b', tracer: 'bkt', ability: 'high', days: '2', status: 'done', date: '2026-05-01', batch: 'none' });
    expect(f.partial).toBe(false);
  });

  it('an LLM student that writes its attempts (coupling student-attempts) says so in the voice fact', () => {
    const voice = { kind: 'llm', provider: 'local', model: 'llama3.1:8b' } as const;
    expect(runFacts(made({ rec: { voice, coupling: 'student-attempts' } })).values.voice).toBe('llm: llama3.1:8b (writes its attempts)');
    expect(runFacts(made({ rec: { voice, coupling: 'tracer-decides' } })).values.voice).toBe('llm: llama3.1:8b');
  });

  it('a rule-based tutor has no model or harness: n/a, not unknown', () => {
    const f = runFacts(made());
    expect([f.values.model, f.values.harness, f.values.provider, f.values.voice]).toEqual([NOT_APPLICABLE, NOT_APPLICABLE, NOT_APPLICABLE, 'templates']);
    const preset = runFacts(made({ rec: { scenario: defaultScenario() } }));
    expect(preset.values.persona).toBe('steady-worker');
    expect(preset.values.schedule).toBe('after-school');
  });

  it('an imported run has no record: persona and schedule from a library scenario id, the rest unknown', () => {
    const f = runFacts(imported());
    expect(f.values).toMatchObject({ tutor: 'withholder', persona: 'gamer', schedule: 'homework-only', model: NOT_APPLICABLE, voice: UNKNOWN, ability: UNKNOWN, days: UNKNOWN, status: 'imported' });
    const other = runFacts(imported({ scenarioId: 'default-prealgebra-after-school', tutor: 'llm' }));
    expect([other.values.persona, other.values.schedule, other.values.model, other.values.harness]).toEqual([UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN]);
    // A label with harness and model (a run stored before records existed) still gives them.
    const labelled = runFacts(imported({ tutor: 'llm/notes/openai/gpt-4o' }));
    expect([labelled.values.harness, labelled.values.model]).toEqual(['notes', 'openai/gpt-4o']);
  });

  it('marks failed, interrupted, running and imported-incomplete runs as partial, with the end reason', () => {
    const here = made({ status: 'running', endReason: null, report: null });
    const ctx = { liveHere: (k: string) => k === here.key };
    const cases: [StoredRun, string, string][] = [
      [made(), 'done', 'done'],
      [here, 'running', 'running'],
      [made({ status: 'running', endReason: null, report: null }), 'running-elsewhere', 'running in another tab'],
      [made({ status: 'interrupted', endReason: null }), 'interrupted', 'interrupted'],
      [made({ status: 'failed', endReason: 'llm_error' }), 'failed', 'failed: llm_error'],
      [made({ status: 'failed', endReason: null }), 'failed', 'failed: error'],
      [imported({ endReason: null }), 'imported-incomplete', 'imported, incomplete'],
      [imported({ endReason: 'aborted' }), 'imported-ended-early', 'imported, ended early: aborted'],
      [imported(), 'imported', 'imported'],
    ];
    for (const [r, kind, text] of cases) {
      const f = runFacts(r, ctx);
      expect([f.status, f.statusText, f.partial]).toEqual([kind, text, !(kind === 'done' || kind === 'imported')]);
    }
  });

  it('shows a partial run\'s gain greyed and labelled, never as a result', () => {
    expect(gainCell(runFacts(made({ report: report(0.0123) })))).toMatchObject({ text: '+1.23', partial: false });
    const cut = gainCell(runFacts(imported({ endReason: null, report: report(-0.004) })));
    expect(cut).toMatchObject({ text: '-0.40', partial: true });
    expect(cut.title).toMatch(/partial.*not a result/);
    expect(gainCell(runFacts(made({ status: 'running', endReason: null, report: null })))).toMatchObject({ text: '—', partial: true });
  });
});

describe('filter, sort and group', () => {
  const runs: RunFacts[] = [
    made({ createdAt: day(1), report: report(0.02), rec: { seed: 1 } }),
    made({ createdAt: day(2), report: report(0.05), rec: { seed: 2, tracer: 'akt' } }),
    made({ createdAt: day(3), report: report(0.09), status: 'failed', endReason: 'llm_error', rec: { seed: 3, tutor: llm } }),
    made({ createdAt: day(4), report: report(0.01), rec: { seed: 4, tutor: llm } }),
    made({ createdAt: day(4, 12), report: report(0.03), rec: { seed: 5, tutor: { ...llm, config: { ...llm.config, model: 'gpt-4o' } } } }),
    imported({ createdAt: day(5) }),
  ].map((r) => runFacts(r));
  const keys = (xs: readonly RunFacts[]) => xs.map((x) => x.seed);

  it('filters by facts and by words, all of which must match', () => {
    expect(keys(filterRuns(runs, { text: '', facets: { tutor: 'llm' } }))).toEqual([3, 4, 5]);
    expect(keys(filterRuns(runs, { text: '', facets: { tutor: 'llm', model: 'gpt-4.1-mini' } }))).toEqual([3, 4]);
    expect(keys(filterRuns(runs, { text: 'GPT-4O', facets: {} }))).toEqual([5]);
    expect(keys(filterRuns(runs, { text: 'llm failed', facets: {} }))).toEqual([3]);
    expect(keys(filterRuns(runs, { text: 'gamer', facets: { status: 'imported' } }))).toEqual([3]);
    expect(keys(filterRuns(runs, { text: '', facets: { tracer: 'akt', persona: 'help-seeker' } }))).toEqual([2]);
    expect(keys(filterRuns(runs, { text: '', facets: { date: '2026-05-04' } }))).toEqual([4, 5]);
    expect(filterRuns(runs, { text: 'nothing-like-this', facets: {} })).toEqual([]);
    expect(isFiltering({ text: ' ', facets: { tutor: '' } })).toBe(false);
    expect(isFiltering({ text: '', facets: { tutor: 'llm' } })).toBe(true);
  });

  it('lists the values of a fact with counts for the filter bar', () => {
    expect(factValues(runs, 'tutor')).toEqual([
      { value: 'llm', count: 3 },
      { value: 'planner', count: 2 },
      { value: 'withholder', count: 1 },
    ]);
    expect(factValues(runs, 'date').map((v) => v.value)).toEqual(['2026-05-05', '2026-05-04', '2026-05-03', '2026-05-02', '2026-05-01']);
  });

  it('sorts by date, tutor, seed, status and gain; partial runs come after results whatever their score', () => {
    expect(keys(sortRuns(runs, 'newest'))).toEqual([3, 5, 4, 3, 2, 1]);
    expect(keys(sortRuns(runs, 'oldest'))).toEqual([1, 2, 3, 4, 5, 3]);
    // Seed 3 (failed, +0.09) has the highest partial score but is not a result.
    expect(keys(sortRuns(runs, 'gain-desc'))).toEqual([2, 5, 1, 4, 3, 3]);
    const desc = sortRuns(runs, 'gain-desc');
    expect(desc.at(-1)!.status).toBe('failed');
    expect(desc.at(-2)!.status).toBe('imported');
    const asc = sortRuns(runs, 'gain-asc');
    expect(asc.map((x) => x.gain)).toEqual([0.003, 0.01, 0.02, 0.03, 0.05, 0.09]);
    expect(sortRuns(runs, 'tutor').map((x) => x.label)).toEqual(['llm/reactive/gpt-4.1-mini', 'llm/reactive/gpt-4.1-mini', 'llm/reactive/gpt-4o', 'planner', 'planner', 'withholder']);
    expect(keys(sortRuns(runs, 'seed'))).toEqual([1, 2, 3, 3, 4, 5]);
    expect(sortRuns(runs, 'status')[0]!.status).toBe('failed');
    // Sorting never changes its input.
    expect(keys(runs)).toEqual([1, 2, 3, 4, 5, 3]);
  });

  it('groups in sort order; each group names the facts that differ inside it and those it shares', () => {
    const groups = groupRuns(sortRuns(runs, 'oldest'), 'tutor');
    expect(groups.map((g) => [g.value, keys(g.runs)])).toEqual([
      ['planner', [1, 2]],
      ['llm', [3, 4, 5]],
      ['withholder', [3]],
    ]);
    expect(groups[0]!.differing).toEqual(['tracer', 'date']);
    expect(groups[0]!.shared).toContain('voice');
    expect(groups[1]!.differing).toEqual(['model', 'date']);
    expect(groups[2]!.differing).toEqual([]);
    expect(groupRuns(runs, 'none')).toHaveLength(1);
    expect(differingFacts(runs)).toEqual(expect.arrayContaining(['tracer', 'voice', 'harness', 'model', 'persona', 'date']));
  });

  it('arranges in one step and pages the first runs across groups', () => {
    const { groups, matched } = arrangeRuns(runs, { filter: { text: '', facets: { persona: 'help-seeker' } }, sort: 'newest', group: 'date' });
    expect(matched).toBe(5);
    expect(groups.map((g) => g.value)).toEqual(['2026-05-04', '2026-05-03', '2026-05-02', '2026-05-01']);
    const page = firstRuns(groups, 3);
    expect(page.map((p) => [p.group.value, keys(p.runs)])).toEqual([
      ['2026-05-04', [5, 4]],
      ['2026-05-03', [3]],
    ]);
  });
});

describe('export file names', () => {
  it('say the scenario, the tutor with its harness and model, and the seed, in characters every file system takes', () => {
    expect(exportFileName({ runId: 'x', scenarioId: 'default-prealgebra-after-school', tutor: 'llm/reactive/gpt-4.1-mini', seed: 42 })).toBe('default-prealgebra-after-school__llm-reactive-gpt-4.1-mini__s42.jsonl');
    expect(exportFileName({ runId: 'x', scenarioId: 'mini-3day', tutor: 'llm/notes/meta-llama/llama3.1:8b', seed: 1 })).toBe('mini-3day__llm-notes-meta-llama-llama3.1-8b__s1.jsonl');
    expect(exportFileName({ runId: 'x', scenarioId: 'gamer--homework-only', tutor: 'withholder', seed: 3 })).toBe('gamer--homework-only__withholder__s3.jsonl');
    expect(exportFileName({ runId: 'x', scenarioId: 'mini-3day', tutor: 'human/Ms Lee', seed: 5 })).toBe('mini-3day__human-Ms-Lee__s5.jsonl');
  });
});

describe('storage figures', () => {
  it('formats bytes in decimal units', () => {
    expect([0, 999, 1000, 740_000, 3_412_000, 123_456_789, 12e9, -1].map(formatBytes)).toEqual(['0 B', '999 B', '1.0 kB', '740 kB', '3.4 MB', '123 MB', '12.0 GB', 'unknown']);
  });
});

describe('export file stems', () => {
  it('one scheme for every benchmark and report file: lower case, one "-" between words, at most 80 characters', () => {
    expect(fileStem('Withholder_Answer-giver 3 seeds')).toBe('withholder-answer-giver-3-seeds');
    expect(fileStem('withholder + answer-giver', 'benchmark')).toBe('withholder-answer-giver');
    expect(fileStem('ß/…', 'benchmark')).toBe('benchmark');
    expect(fileStem('x'.repeat(200))).toHaveLength(80);
    expect(fileStem('a '.repeat(50))).not.toMatch(/-$/);
  });
});
