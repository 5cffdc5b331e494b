/**
 * The report as files: Markdown (plots as images the caller places: svg/<id>.svg beside it, or data
 * URIs), one self-contained HTML page (plots as inline SVG), and one CSV per table. Pure string
 * building; the SVG comes from the caller (src/adapters/plot/vega.ts renders the specs).
 */
import type { BenchmarkReport } from './report';
import { toCsv, type ReportPlot, type ReportTable } from './table';

export interface RenderOptions {
  /** Markdown: the image URL of a plot (null: the plot is left out with a note). Default svg/<id>.svg. */
  image?: (plot: ReportPlot) => string | null;
  /** HTML: a plot's SVG markup (missing: the plot is left out with a note). */
  svg?: (plot: ReportPlot) => string | undefined;
  /** The link to a table's CSV (null: none). Default csv/<id>.csv. */
  csvHref?: (table: ReportTable) => string | null;
}

const defaultImage = (p: ReportPlot) => `svg/${p.id}.svg`;
const defaultCsv = (t: ReportTable) => `csv/${t.id}.csv`;

/** One CSV file per table: path (csv/<id>.csv) and text. */
export function reportCsvFiles(r: BenchmarkReport): { path: string; text: string }[] {
  return r.sections.flatMap((s) => s.tables.map((t) => ({ path: `csv/${t.id}.csv`, text: toCsv(t) })));
}

export function allTables(r: BenchmarkReport): ReportTable[] {
  return r.sections.flatMap((s) => s.tables);
}

export function allPlots(r: BenchmarkReport): ReportPlot[] {
  return r.sections.flatMap((s) => s.plots);
}

// ---------------------------------------------------------------- Markdown

const mdText = (s: string) => s.replace(/</g, '&lt;');
const mdCell = (s: string) => mdText(s).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function mdTable(t: ReportTable): string {
  const head = `| ${t.head.map(mdCell).join(' | ')} |`;
  const rule = `|${t.numeric.map((n) => (n ? '---:' : '---')).join('|')}|`;
  const rows = t.rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`);
  return [head, rule, ...rows].join('\n');
}

export function reportMarkdown(r: BenchmarkReport, o: RenderOptions = {}): string {
  const image = o.image ?? defaultImage;
  const csvHref = o.csvHref ?? defaultCsv;
  const out: string[] = [`# ${mdText(r.title)}`, '', `${mdText(r.summary)}.${r.command ? ` Reproduce with \`${r.command}\`.` : ''}`, ''];
  out.push('Contents: ' + r.sections.map((s) => `[${mdText(s.title)}](#${s.id})`).join(' · '), '');
  for (const s of r.sections) {
    out.push(`<a id="${s.id}"></a>`, '', `## ${mdText(s.title)}`, '');
    for (const p of s.paragraphs) out.push(mdText(p), '');
    for (const p of s.plots) {
      const src = image(p);
      if (src) out.push(`![${mdCell(p.description)}](${src})`, '', `*${mdText(p.title)}* (numbers: ${mdText(tableTitle(r, p.table))})`, '');
      else out.push(`*${mdText(p.title)}*: plot not rendered (numbers: ${mdText(tableTitle(r, p.table))}).`, '');
    }
    for (const t of s.tables) {
      const href = csvHref(t);
      const csv = href ? `CSV: [${t.id}.csv](${href})` : 'CSV: not attached to this file (Download CSV in the page, or `npm run cli -- report`).';
      if (t.csvOnly) {
        out.push(`**${mdText(t.title)}**: ${t.csv.rows.length} rows. ${csv}`, '');
        continue;
      }
      const body = [mdTable(t), '', ...t.notes.map((n) => `- ${mdText(n)}`), ...(t.notes.length ? [''] : []), csv];
      if (t.folded) out.push(`<details><summary>${mdText(t.title)}</summary>`, '', ...body, '', '</details>', '');
      else out.push(`### ${mdText(t.title)}`, '', ...body, '');
    }
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

function tableTitle(r: BenchmarkReport, id: string): string {
  return allTables(r).find((t) => t.id === id)?.title ?? id;
}

// ---------------------------------------------------------------- HTML

export const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Escaped text with `code` spans. */
const htmlText = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>');

const CSS = `body{font:15px/1.5 system-ui,sans-serif;color:#1d2733;background:#f7f7f5;margin:0}main{max-width:1100px;margin:0 auto;padding:1rem 1.25rem 3rem}
section{background:#fff;border:1px solid #d5d9de;border-radius:10px;padding:0.5rem 1rem 1rem;margin:1rem 0;overflow-x:auto}
table{border-collapse:collapse;margin:0.5rem 0;font-size:0.9rem}caption{text-align:left;font-weight:600;padding:0.25rem 0}
th,td{text-align:left;padding:0.3rem 0.5rem;border-bottom:1px solid #d5d9de;vertical-align:top}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}td.num{white-space:nowrap}
figure{margin:0.75rem 0}figcaption{font-size:0.9rem;color:#4f5b67}figure svg{max-width:100%;height:auto}.note{color:#4f5b67;font-size:0.85rem;margin:0.2rem 0}code{font-size:0.9em}`;

function htmlTable(t: ReportTable, href: string | null): string {
  const csv = href ? `<a href="${escapeHtml(href)}" download="${escapeHtml(t.id)}.csv">CSV</a>` : '';
  if (t.csvOnly) return `<p id="${escapeHtml(t.id)}"><strong>${htmlText(t.title)}</strong>: ${t.csv.rows.length} rows. ${csv || 'CSV not attached.'}</p>`;
  const cls = (i: number) => (t.numeric[i] ? ' class="num"' : '');
  const head = t.head.map((h, i) => `<th scope="col"${cls(i)}>${htmlText(h)}</th>`).join('');
  const rows = t.rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${htmlText(c)}</th>` : `<td${cls(i)}>${htmlText(c)}</td>`)).join('')}</tr>`).join('\n');
  const body = `<table id="${escapeHtml(t.id)}"><caption>${htmlText(t.title)}</caption><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table>${t.notes.map((n) => `<p class="note">${htmlText(n)}</p>`).join('')}${csv ? `<p class="note">${csv}</p>` : ''}`;
  return t.folded ? `<details><summary>${htmlText(t.title)}</summary>${body}</details>` : body;
}

export function reportHtml(r: BenchmarkReport, o: RenderOptions = {}): string {
  const csvHref = o.csvHref ?? defaultCsv;
  const parts: string[] = [];
  for (const s of r.sections) {
    parts.push(`<section id="${escapeHtml(s.id)}" aria-labelledby="h-${escapeHtml(s.id)}"><h2 id="h-${escapeHtml(s.id)}">${htmlText(s.title)}</h2>`);
    for (const p of s.paragraphs) parts.push(`<p>${htmlText(p)}</p>`);
    for (const p of s.plots) {
      const svg = o.svg?.(p);
      const cap = `${htmlText(p.title)}. Numbers: <a href="#${escapeHtml(p.table)}">${htmlText(tableTitle(r, p.table))}</a>.`;
      parts.push(svg ? `<figure id="plot-${escapeHtml(p.id)}">${svg}<figcaption>${cap}</figcaption></figure>` : `<p class="note">Plot not rendered: ${cap}</p>`);
    }
    for (const t of s.tables) parts.push(htmlTable(t, csvHref(t)));
    parts.push('</section>');
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(r.title)}</title><style>${CSS}</style></head>
<body><main><h1>${escapeHtml(r.title)}</h1><p>${htmlText(r.summary)}.${r.command ? ` Reproduce with <code>${escapeHtml(r.command)}</code>.` : ''}</p>
<nav aria-label="Contents"><p>${r.sections.map((s) => `<a href="#${escapeHtml(s.id)}">${htmlText(s.title)}</a>`).join(' · ')}</p></nav>
${parts.join('\n')}
</main></body></html>
`;
}
