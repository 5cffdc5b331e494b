/**
 * The report's building blocks: tables (display cells and raw CSV cells side by side), plots (a
 * Vega-Lite spec with its title, description and data table), sections; and number formatting.
 */
import type { AxisStat } from '../scoring/axes';
import type { VlSpec } from './plots';

export type CsvCell = string | number | boolean | null;

export interface ReportTable {
  /** File-name stem: csv/<id>.csv, and the anchor in HTML. */
  id: string;
  title: string;
  /** Display: header, which columns are numeric (right-aligned), cells as shown. */
  head: string[];
  numeric: boolean[];
  rows: string[][];
  /** The same numbers unrounded (shares as fractions, learning gain as a fraction per day), empty for null. */
  csv: { head: string[]; rows: CsvCell[][] };
  notes: string[];
  /** Run-level data: offered as CSV only, not printed. */
  csvOnly?: boolean;
  /** Long: printed folded (Markdown <details>, a closed disclosure in the page). */
  folded?: boolean;
}

export interface ReportPlot {
  id: string;
  title: string;
  /** What the plot shows, in words: the SVG's aria-label and <desc>. */
  description: string;
  spec: VlSpec;
  /** The table holding the plotted numbers (the plot's text alternative). */
  table: string;
}

export interface ReportSection {
  id: string;
  title: string;
  paragraphs: string[];
  plots: ReportPlot[];
  tables: ReportTable[];
}

/** A number with fixed decimals after scaling; "n/a" for null. */
export const num = (v: number | null | undefined, digits = 2, scale = 1): string => (v === null || v === undefined || !Number.isFinite(v) ? 'n/a' : (v * scale).toFixed(digits));
export const pct = (v: number | null | undefined, digits = 1): string => (v === null || v === undefined ? 'n/a' : `${(v * 100).toFixed(digits)}%`);

/** "mean [lo, hi] (n=…)" with scaling; the interval only for n ≥ 2, cut to `bounds` when given; "n/a" for n = 0. */
export function statText(s: AxisStat, opts: { digits?: number; scale?: number; bounds?: readonly [number, number]; suffix?: string; showN?: boolean } = {}): string {
  if (s.mean === null || s.n === 0) return 'n/a';
  const d = opts.digits ?? 2;
  const sc = opts.scale ?? 1;
  const cut = (v: number) => (opts.bounds ? Math.min(opts.bounds[1], Math.max(opts.bounds[0], v)) : v);
  const iv = s.lo !== null && s.hi !== null ? ` [${num(cut(s.lo), d, sc)}, ${num(cut(s.hi), d, sc)}]` : '';
  return `${num(s.mean, d, sc)}${opts.suffix ?? ''}${iv}${opts.showN === false ? '' : ` (n=${s.n})`}`;
}

export const statCsv = (s: AxisStat): CsvCell[] => [s.mean, s.lo, s.hi, s.n];

/** CSV text (RFC 4180: fields with a comma, quote or line break quoted, quotes doubled; null empty). */
export function toCsv(t: ReportTable): string {
  const cell = (c: CsvCell) => {
    if (c === null) return '';
    const s = typeof c === 'number' ? (Number.isFinite(c) ? String(c) : '') : String(c);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [t.csv.head, ...t.csv.rows].map((r) => r.map(cell).join(',')).join('\n') + '\n';
}
