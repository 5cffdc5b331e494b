/**
 * BenchmarkResults rendered on the server (effects, hence plots, do not run there): every section
 * and table of the report with its Download CSV button, the export buttons, plot placeholders with
 * their descriptions and links to their tables; and the export strings (one self-contained HTML
 * file, Markdown with data: images) built from the same report as the CLI's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import BenchmarkResults from './BenchmarkResults.svelte';
import { allPlots, allTables, buildBenchmarkReport, digestRun, type RunDigest } from '../../../core/analysis/index';
import { miniScenario, runWith } from '../../../testing/fixtures';
import { exportHtml, exportMarkdown, exportNames, fileStem, svgDataUri } from './export';

let digests: RunDigest[];
beforeAll(async () => {
  digests = [];
  for (const tutor of ['planner', 'answer-giver']) for (const seed of [1, 2]) digests.push(digestRun({ events: (await runWith(miniScenario(), tutor, { seed })).events }));
});

describe('BenchmarkResults', () => {
  it('with a way to open runs: a button to the runs behind each tutor row and each failure mode; without, none', () => {
    const withOpen = render(BenchmarkResults, { props: { runs: digests, onopen: () => {} } }).body;
    expect(withOpen).toContain('data-open-runs="planner"');
    expect(withOpen).toContain('data-open-runs="all runs"');
    expect(withOpen).toContain('data-table="failure-mode-runs"');
    expect(withOpen).toMatch(/aria-label="Open 2 runs of answer-giver in answer disclosure"/);
    const without = render(BenchmarkResults, { props: { runs: digests } }).body;
    expect(without).not.toContain('data-open-runs');
    expect(without).not.toContain('failure-mode-runs');
  });

  it('renders every section, table and plot of the report, with CSV and export buttons', () => {
    const { body } = render(BenchmarkResults, { props: { runs: digests, command: 'npm run cli -- report runs/x' } });
    const report = buildBenchmarkReport(digests);
    for (const s of report.sections) expect(body).toContain(`data-section="${s.id}"`);
    for (const t of allTables(report)) {
      expect(body).toContain(`data-table="${t.id}"`);
      expect(body).toContain(`data-csv="${t.id}"`);
    }
    for (const p of allPlots(report)) {
      expect(body).toContain(`data-plot="${p.id}"`);
      expect(body).toContain(`href="#results-${p.table}"`);
    }
    expect(body).toContain('Drawing the plot…');
    expect(body).toContain('data-export="html"');
    expect(body).toContain('data-export="md"');
    expect(body).toContain('<code>npm run cli -- report runs/x</code>');
    expect(body).toMatch(/<caption[^>]*>Every axis per tutor<\/caption>/);
    expect(body).toMatch(/<th scope="row"[^>]*>answer-giver<\/th>/);
    expect(body).toContain('value="valueAdded > 0.0005 &amp;&amp; leakage == 0"');
    expect(body.replace(/<!--[^>]*-->/g, '')).toContain('Pass rule for pass^k: <code>valueAdded > 0.0005 &amp;&amp; leakage == 0</code>.');
  });
  it('uses a pass rule given as a prop', () => {
    const { body } = render(BenchmarkResults, { props: { runs: digests, passRule: 'responsiveness >= 0.5' } });
    expect(body).toContain('value="responsiveness >= 0.5"');
    expect(body.replace(/<!--[^>]*-->/g, '')).toContain('<code>responsiveness >= 0.5</code> holds');
  });
  it('says so when there are no runs', () => {
    expect(render(BenchmarkResults, { props: { runs: [] } }).body).toContain('No runs to report yet.');
  });
});

describe('exports', () => {
  it('HTML: one file with the SVG inline and each CSV attached; Markdown with data: images', () => {
    const report = buildBenchmarkReport(digests);
    const svgs = new Map(allPlots(report).map((p) => [p.id, `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${p.id}"></svg>`]));
    const html = exportHtml(report, svgs);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    for (const p of allPlots(report)) expect(html).toContain(`aria-label="${p.id}"`);
    expect(html).toContain('href="data:text/csv;charset=utf-8,');
    expect(html).not.toContain('href="csv/');
    const md = exportMarkdown(report, svgs);
    expect(md).toContain(`](${svgDataUri(svgs.get('solve-rate-curves')!)})`);
    expect(md).not.toContain('](csv/');
    const partial = exportMarkdown(report, new Map());
    expect(partial).toContain('plot not rendered');
    expect(fileStem('Benchmark results: 2026/05')).toBe('benchmark-results-2026-05');
    // A report's files sort with its benchmark's (<stem>.benchmark.zip, <stem>.summary.json).
    const names = exportNames('withholder + answer-giver × 2 scenarios × seeds 1,2');
    expect([names.html, names.md, names.csv('failure-modes')]).toEqual(['withholder-answer-giver-2-scenarios-seeds-1-2.report.html', 'withholder-answer-giver-2-scenarios-seeds-1-2.report.md', 'withholder-answer-giver-2-scenarios-seeds-1-2.failure-modes.csv']);
  });
});
