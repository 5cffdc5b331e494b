import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AXES, SWEEP_AXES, axesMarkdown, reportJson, withAxesSection, AXES_DOC_BEGIN, AXES_DOC_END } from './axes';
import { JUDGED_AXES, scoreTrace } from './report';
import { formatAxisTable } from './table';
import { withControl } from './value-added';
import { formatSweepSummary, summarizeRun, summarizeSweep } from '../sweep/summary';
import { miniScenario, runWith } from '../../testing/fixtures';

const METRICS_MD = resolve(__dirname, '../../../docs/metrics.md');

describe('the axis table', () => {
  it('score --json carries every axis of the table, under its id (deterministic) or in judged, with value added\'s control in details', async () => {
    const r = scoreTrace((await runWith(miniScenario(), 'silent', { seed: 3 })).events);
    const j = reportJson(r);
    for (const a of AXES.filter((x) => x.kind === 'deterministic')) expect(j, a.id).toHaveProperty([a.id], a.value(r));
    expect(Object.keys(j.judged as object).sort()).toEqual(AXES.filter((x) => x.kind === 'judged').map((x) => x.id).sort());
    expect(j).toHaveProperty('extraction');
    expect(j.valueAdded).toBe(0); // the silent tutor is its own control
    expect((j.details as { valueAdded: { controlRunId: string } }).valueAdded.controlRunId).toBe(r.runId);
    expect(JSON.parse(JSON.stringify(j))).toEqual(j);
  });

  it('docs/metrics.md lists every axis as AXES declares it (run `npm run docs:axes` when this fails)', () => {
    const doc = readFileSync(METRICS_MD, 'utf8');
    expect(doc).toContain(AXES_DOC_BEGIN);
    expect(withAxesSection(doc)).toBe(doc);
    for (const a of AXES) expect(axesMarkdown()).toContain(`| \`${a.id}\` | ${a.label} | ${a.short} | ${a.unit} |`);
  });

  it('notices a stale section and refuses a document without the markers', () => {
    const stale = `x\n${AXES_DOC_BEGIN}\n| old |\n${AXES_DOC_END}\ny`;
    expect(withAxesSection(stale)).not.toBe(stale);
    expect(withAxesSection(withAxesSection(stale))).toBe(withAxesSection(stale));
    expect(() => withAxesSection('no markers')).toThrow(/axes:table/);
  });

  it('has unique ids and labels; the judged ones are the judged axes of the report; sweeps aggregate deterministic axes only', () => {
    for (const k of ['id', 'label', 'short'] as const) expect(new Set(AXES.map((a) => a[k])).size).toBe(AXES.length);
    expect(AXES.filter((a) => a.kind === 'judged').map((a) => a.id)).toEqual([...JUDGED_AXES]);
    expect(SWEEP_AXES.every((a) => a.kind === 'deterministic')).toBe(true);
    expect(SWEEP_AXES.map((a) => a.id)).toEqual(['learningGain', 'valueAdded', 'responsiveness', 'leakage', 'independence', 'extraction']);
  });

  it('formats by unit and kind: signs for changes, "n/a" or "unscored" for null, intervals of shares cut to 0–100', () => {
    const [lg, resp] = [AXES.find((a) => a.id === 'learningGain')!, AXES.find((a) => a.id === 'responsiveness')!];
    const help = AXES.find((a) => a.id === 'helpfulness')!;
    const holding = AXES.find((a) => a.id === 'answerHolding')!;
    expect(lg.format(0.0031)).toBe('+0.31 pp/day');
    expect(lg.format(-0.0031)).toBe('-0.31 pp/day');
    expect(resp.format(0.5)).toBe('50.0%');
    expect(resp.format(null)).toBe('n/a');
    expect(help.format(null)).toBe('unscored');
    expect(help.format(3)).toBe('3.00');
    expect(holding.format(1)).toBe('100.0% of days');
    expect(resp.formatStat({ mean: 0.9, lo: 0.7, hi: 1.1, n: 3 })).toBe('90.0 [70.0, 100.0]');
    expect(lg.formatStat({ mean: 0.001, lo: -0.002, hi: 0.004, n: 3 })).toBe('0.10 [-0.20, 0.40]');
    expect(lg.formatStat({ mean: 0.001, lo: null, hi: null, n: 1 })).toBe('0.10');
    expect(resp.formatStat({ mean: null, lo: null, hi: null, n: 0 })).toBe('n/a');
  });

  it('reads every axis from a real report; the CLI table, the sweep run summary and the sweep table show them all', async () => {
    const res = await runWith(miniScenario(), 'answer-giver');
    const r = scoreTrace(res.events);
    for (const a of AXES) {
      const v = a.value(r);
      expect(v === null || Number.isFinite(v), a.id).toBe(true);
      if (a.kind === 'deterministic' && a.id !== 'valueAdded') expect(v, a.id).toBe((r as unknown as Record<string, number | null>)[a.id]);
      expect(a.how(r).length, a.id).toBeGreaterThan(0);
    }
    const table = formatAxisTable([r]);
    for (const a of AXES) expect(table).toContain(a.short);
    expect(table).toMatch(/II responsiveness\s+(n\/a|\d+\.\d%) \(\d+\/\d+\)/);
    const run = summarizeRun(res.events, 'mini.yaml');
    expect(Object.keys(run.axes)).toEqual(SWEEP_AXES.map((a) => a.id));
    for (const a of SWEEP_AXES) expect(run.axes[a.id]).toBe(a.value(r));
    const head = formatSweepSummary(summarizeSweep([run])).split('\n')[0]!;
    for (const a of SWEEP_AXES) expect(head).toContain(`${a.short} (${a.unit})`);
  });

  it('value added: null with the reason without a control; a silent run is its own control (0)', async () => {
    const played = scoreTrace((await runWith(miniScenario(), 'planner')).events);
    const va = AXES.find((a) => a.id === 'valueAdded')!;
    expect(va.value(played)).toBeNull();
    expect(va.how(played)).toMatch(/no no-tutor control/);
    const silent = scoreTrace((await runWith(miniScenario(), 'silent')).events);
    expect(va.value(silent)).toBe(0);
    expect(va.how(silent)).toMatch(/is the no-tutor control/);
    const withC = withControl(played, silent);
    expect(va.value(withC)).toBeCloseTo(played.learningGain! - silent.learningGain!, 12);
    expect(va.how(withC)).toContain(silent.runId);
  });

  it('reads a report stored before an axis existed as unscored, with a reason', () => {
    const r = { ...scoreTraceStub(), extraction: undefined, details: { ...scoreTraceStub().details, extraction: undefined } };
    const ext = AXES.find((a) => a.id === 'extraction')!;
    expect(ext.value(r)).toBeNull();
    expect(ext.format(ext.value(r))).toBe('n/a');
    expect(ext.how(r)).toMatch(/stored report/);
  });
});

function scoreTraceStub() {
  return {
    runId: 'r', scenarioId: 's', tutor: 't', seed: 1, complete: true, endReason: 'horizon_reached' as const,
    learningGain: null, responsiveness: null, leakage: null, independence: null,
    actions: { send_message: 0, stay_silent: 0, assign_items: 0, adjust_level: 0, provide_content: 0 },
    dailySolveRate: [], curve: [],
    judged: { helpfulness: null, gagne: null, rosenshine: null, answerHolding: null, pedagogy: null },
    details: {
      learningGain: {}, responsiveness: {}, leakage: {}, independence: {}, implicitSilences: 0, toolErrors: 0, turns: 0,
      judged: { values: { helpfulness: null, gagne: null, rosenshine: null, answerHolding: null, pedagogy: null }, detail: {}, panel: null, usage: null, cost: null },
      llm: null, voice: null,
    },
  };
}
