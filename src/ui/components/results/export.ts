/**
 * What BenchmarkResults exports, as strings (testable without a DOM), and the one DOM helper that
 * hands a string to the browser as a download. The HTML export is one self-contained file: plots
 * inline as SVG, each table's CSV attached as a data: link; the Markdown export embeds the plots
 * as data: images (the CLI's report.md links svg/ files instead).
 */
import { reportHtml, reportMarkdown, toCsv, type BenchmarkReport, type ReportPlot, type ReportTable } from '../../../core/analysis/index';

export const svgDataUri = (svg: string): string => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
export const csvDataUri = (t: ReportTable): string => `data:text/csv;charset=utf-8,${encodeURIComponent(toCsv(t))}`;

/** The report as one HTML file; plots without SVG (not rendered yet, or failed) are left out with a note. */
export function exportHtml(report: BenchmarkReport, svgs: ReadonlyMap<string, string>): string {
  return reportHtml(report, { svg: (p: ReportPlot) => svgs.get(p.id), csvHref: csvDataUri });
}

/** The report as one Markdown file, plots as data: images. */
export function exportMarkdown(report: BenchmarkReport, svgs: ReadonlyMap<string, string>): string {
  return reportMarkdown(report, { image: (p: ReportPlot) => (svgs.has(p.id) ? svgDataUri(svgs.get(p.id)!) : null), csvHref: () => null });
}

/** A file name from a title: "Benchmark results" → "benchmark-results". */
export { fileStem } from '../../state/run-facts';
import { fileStem } from '../../state/run-facts';

/**
 * The names of what a report exports, beside its benchmark's own files (`<stem>.benchmark.zip`,
 * `<stem>.summary.json`): `<stem>.report.html`, `<stem>.report.md`, and `<stem>.<table id>.csv` per
 * table (the CLI writes the same table as csv/<table id>.csv inside the report's folder).
 */
export function exportNames(title: string): { html: string; md: string; csv: (tableId: string) => string } {
  const stem = fileStem(title);
  return { html: `${stem}.report.html`, md: `${stem}.report.md`, csv: (id) => `${stem}.${id}.csv` };
}

/** Hands `text` to the browser as a file download. */
export function download(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
