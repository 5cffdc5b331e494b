/**
 * Vega-Lite specs (plain JSON) for the report's plots. Rendering them (to SVG, in Node or the page)
 * is the adapters' job (src/adapters/plot/vega.ts): the core only describes them, so the same specs
 * serve the CLI and the page. Data are inline values; every plot has a title, a description (its
 * aria-label) and a table in the report with the same numbers.
 */

/** A Vega-Lite top-level spec as JSON. */
export type VlSpec = Record<string, unknown>;

/** Okabe–Ito: distinguishable with the common colour-vision deficiencies; more tutors than colours fall back to Vega's category20. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const WIDTH = 560;
const HEIGHT = 300;

/** Colours by tutor, fixed across every plot of a report. */
export function tutorColor(tutors: readonly string[], title = 'Tutor'): Record<string, unknown> {
  return { field: 'tutor', type: 'nominal', title, legend: { labelLimit: 260, symbolOpacity: 1 }, scale: tutors.length <= PALETTE.length ? { domain: [...tutors], range: PALETTE.slice(0, tutors.length) } : { domain: [...tutors], scheme: 'category20' } };
}

/** Pixels between tied series: lines and points with equal values are drawn this far apart so none hides another. */
export const DODGE_PX = 3;
/** Pixels of padding inside every continuous axis, so a point on the domain's edge is drawn whole. */
export const EDGE_PAD_PX = 8;

/**
 * A deterministic dodge: a calculate transform writing `as` = `field` + a small offset by the
 * series' position in `order` (centred on 0, `gapPx` apart once drawn on `px` pixels spanning
 * `span` data units). Tables keep the exact values; only the drawing moves.
 */
export function dodge(field: string, by: string, order: readonly string[], span: number, px: number, as: string, gapPx = DODGE_PX): Record<string, string> {
  const step = order.length > 1 && span > 0 && px > 0 ? (span / px) * gapPx : 0;
  const mid = (order.length - 1) / 2;
  return { calculate: `datum.${field} === null ? null : datum.${field} + (indexof(${JSON.stringify([...order])}, datum.${by}) - ${mid}) * ${step}`, as };
}

/** `dodge` where the span is only known from the data: `spanExpr` is a Vega expression over the datum (0 → no offset). */
export function dodgeBySpan(field: string, by: string, order: readonly string[], spanExpr: string, px: number, as: string, gapPx = DODGE_PX): Record<string, string> {
  const mid = (order.length - 1) / 2;
  const k = order.length > 1 && px > 0 ? gapPx / px : 0;
  return { calculate: `datum.${field} === null ? null : datum.${field} + (indexof(${JSON.stringify([...order])}, datum.${by}) - ${mid}) * (${spanExpr}) * ${k}`, as };
}

function base(title: string, description: string, values: readonly object[]): VlSpec {
  return { $schema: SCHEMA, title, description, background: 'white', data: { values: values.map((v) => ({ ...v })) }, config: { font: 'sans-serif', view: { stroke: '#ccc' } } };
}

export interface CurveRow {
  tutor: string;
  day: number;
  series: 'measured' | 'steady-learning reference';
  value: number;
  lo: number | null;
  hi: number | null;
}

/**
 * Solve rate by day per tutor (line with a marker per day, 95% band where n ≥ 2), with each
 * tutor's reference dashed. Tutors with equal rates are drawn DODGE_PX apart (see `dodge`).
 */
export function curvesSpec(rows: readonly CurveRow[], tutors: readonly string[], title: string, description: string): VlSpec {
  const x = { field: 'day', type: 'quantitative', title: 'Day (0 = before tutoring)', axis: { tickMinStep: 1 }, scale: { padding: EDGE_PAD_PX, nice: false } };
  const yScale = { domain: [0, 1], padding: EDGE_PAD_PX, nice: false };
  const y = { field: 'shown', type: 'quantitative', title: 'Probe solve rate', scale: yScale, axis: { format: '.0%' } };
  const strokeDash = { field: 'series', type: 'nominal', title: 'Line', legend: { labelLimit: 260 }, scale: { domain: ['measured', 'steady-learning reference'], range: [[1, 0], [6, 4]] } };
  return {
    ...base(title, description, rows),
    width: WIDTH,
    height: HEIGHT,
    transform: [dodge('value', 'tutor', tutors, 1, HEIGHT, 'shown')],
    layer: [
      {
        transform: [{ filter: "datum.series === 'measured' && datum.lo !== null && datum.hi !== null" }],
        mark: { type: 'area', opacity: 0.15, clip: true },
        encoding: { x, y: { field: 'lo', type: 'quantitative', scale: yScale }, y2: { field: 'hi' }, color: tutorColor(tutors) },
      },
      {
        mark: { type: 'line', strokeWidth: 2, clip: false },
        encoding: { x, y, color: tutorColor(tutors), strokeDash, detail: { field: 'series' } },
      },
      // A marker on every day of every line (its own layer, so the Line legend keeps dashed strokes).
      { mark: { type: 'point', filled: true, size: 36, opacity: 1, clip: false }, encoding: { x, y, color: tutorColor(tutors), detail: { field: 'series' } } },
    ],
  };
}

export interface ScatterRow {
  tutor: string;
  runId: string;
  x: number;
  y: number;
}

export function scatterSpec(rows: readonly ScatterRow[], tutors: readonly string[], x: { title: string; percent: boolean; domain?: [number, number] }, y: { title: string; percent: boolean; domain?: [number, number] }, title: string, description: string): VlSpec {
  // Padding keeps a point on the domain's edge (0% or 100%, the extreme run) drawn whole, not cut by the frame.
  const axisEnc = (a: typeof x, field: string) => ({ field, type: 'quantitative', title: a.title, scale: a.domain ? { domain: a.domain, nice: false, padding: EDGE_PAD_PX } : { zero: false, nice: true, padding: EDGE_PAD_PX }, ...(a.percent ? { axis: { format: '.0%' } } : {}) });
  return {
    ...base(title, description, rows),
    width: WIDTH,
    height: HEIGHT,
    mark: { type: 'point', filled: true, opacity: 0.75, size: 50, clip: false },
    encoding: { x: axisEnc(x, 'x'), y: axisEnc(y, 'y'), color: tutorColor(tutors), shape: { field: 'tutor', type: 'nominal', title: 'Tutor', scale: { domain: [...tutors] } } },
  };
}

export interface RankRow {
  /** The column (x) and the ranked row (the line). */
  col: string;
  row: string;
  rank: number;
}

/**
 * A bump chart: each row's rank (1 on top) in every column; crossing lines are reorderings. Rows
 * tied at a rank are drawn a few pixels apart (see `dodge`) so every line and point shows.
 */
export function rankSpec(rows: readonly RankRow[], cols: readonly string[], colTitle: string, rowTitle: string, maxRank: number, title: string, description: string): VlSpec {
  const order = [...new Set(rows.map((r) => r.row))].sort();
  const height = Math.max(160, Math.min(HEIGHT, maxRank * 40));
  return {
    ...base(title, description, rows),
    width: Math.max(240, Math.min(WIDTH, cols.length * 120)),
    height,
    // Rows tied at a rank sit 7 px apart, at most a third of a rank between the outermost two.
    transform: [dodge('rank', 'row', order, maxRank, height, 'shown', Math.min(7, height / maxRank / 3 / Math.max(1, order.length - 1)))],
    encoding: {
      x: { field: 'col', type: 'ordinal', title: colTitle, sort: [...cols], axis: { labelAngle: 0 } },
      y: { field: 'shown', type: 'quantitative', title: 'Rank (1 = best)', scale: { domain: [maxRank + 0.5, 0.5], nice: false }, axis: { tickMinStep: 1, values: Array.from({ length: maxRank }, (_, i) => i + 1) } },
      color: { field: 'row', type: 'nominal', title: rowTitle, sort: order },
    },
    layer: [{ mark: { type: 'line', strokeWidth: 2 } }, { mark: { type: 'point', filled: true, size: 60, opacity: 1 } }],
  };
}

export interface BarRow {
  tutor: string;
  group: string;
  value: number;
}

/** Grouped bars: one group per `group` value, one bar per tutor. */
export function groupedBarSpec(rows: readonly BarRow[], tutors: readonly string[], groups: readonly string[], groupTitle: string, valueTitle: string, percent: boolean, title: string, description: string): VlSpec {
  return {
    ...base(title, description, rows),
    width: Math.max(240, Math.min(WIDTH + 160, groups.length * Math.max(60, tutors.length * 16))),
    height: HEIGHT - 60,
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'group', type: 'nominal', title: groupTitle, sort: [...groups], axis: { labelAngle: 0 } },
      xOffset: { field: 'tutor', type: 'nominal', scale: { domain: [...tutors] } },
      y: { field: 'value', type: 'quantitative', title: valueTitle, ...(percent ? { scale: { domain: [0, 1] }, axis: { format: '.0%' } } : {}) },
      color: tutorColor(tutors),
    },
  };
}

export interface LineRow {
  tutor: string;
  x: number;
  y: number;
  lo: number | null;
  hi: number | null;
}

/**
 * Lines per tutor over an integer x (k, or day), a marker on every point, with a 95% band where
 * n ≥ 2; `facet` splits by a field. Tutors with equal values are drawn about DODGE_PX apart (see
 * `dodge`) so no line hides under another.
 */
export function lineSpec(rows: readonly (LineRow & { facet?: string })[], tutors: readonly string[], x: { title: string; domain?: [number, number] }, y: { title: string; domain?: [number, number]; percent?: boolean }, title: string, description: string, facet?: { title: string; order: readonly string[] }): VlSpec {
  const height = facet ? 160 : HEIGHT - 60;
  const xEnc = { field: 'x', type: 'quantitative', title: x.title, axis: { tickMinStep: 1 }, scale: { ...(x.domain ? { domain: x.domain } : {}), padding: EDGE_PAD_PX, nice: false } };
  const yScale = { ...(y.domain ? { domain: y.domain, nice: false } : {}), padding: EDGE_PAD_PX };
  const yEnc = { field: 'shown', type: 'quantitative', title: y.title, scale: yScale, ...(y.percent ? { axis: { format: '.0%' } } : {}) };
  const inner = {
    width: facet ? 250 : WIDTH,
    height,
    // Without a fixed domain the y scale (from 0, per facet) spans about max(|y|) of the facet's data.
    transform: y.domain
      ? [dodge('y', 'tutor', tutors, y.domain[1] - y.domain[0], height, 'shown')]
      : [{ joinaggregate: [{ op: 'max', field: 'y', as: 'yMax' }, { op: 'min', field: 'y', as: 'yMin' }], groupby: facet ? ['facet'] : [] }, dodgeBySpan('y', 'tutor', tutors, 'max(datum.yMax, 0) - min(datum.yMin, 0)', height, 'shown')],
    layer: [
      { transform: [{ filter: 'datum.lo !== null && datum.hi !== null' }], mark: { type: 'area', opacity: 0.15, clip: true }, encoding: { x: xEnc, y: { field: 'lo', type: 'quantitative', scale: yScale }, y2: { field: 'hi' }, color: tutorColor(tutors) } },
      { mark: { type: 'line', point: { filled: true, size: 36 }, strokeWidth: 2, clip: false }, encoding: { x: xEnc, y: yEnc, color: tutorColor(tutors) } },
    ],
  };
  const b = base(title, description, rows);
  if (!facet) return { ...b, ...inner };
  return { ...b, facet: { field: 'facet', type: 'nominal', title: facet.title, sort: [...facet.order] }, columns: 3, spec: inner, resolve: { scale: { y: 'independent' } } };
}

export interface CellRow {
  a: string;
  b: string;
  rho: number;
  label: string;
}

/** A correlation matrix as a heat map with the values written in. */
export function heatmapSpec(rows: readonly CellRow[], order: readonly string[], title: string, description: string): VlSpec {
  return {
    ...base(title, description, rows),
    width: Math.max(200, order.length * 48),
    height: Math.max(200, order.length * 48),
    encoding: { x: { field: 'a', type: 'nominal', title: null, sort: [...order], axis: { labelAngle: -40 } }, y: { field: 'b', type: 'nominal', title: null, sort: [...order] } },
    layer: [
      { mark: 'rect', encoding: { color: { field: 'rho', type: 'quantitative', title: 'Spearman ρ', scale: { domain: [-1, 1], scheme: 'blueorange' } } } },
      { mark: { type: 'text', fontSize: 11 }, encoding: { text: { field: 'label' }, color: { value: 'black' } } },
    ],
  };
}

export interface DistributionRow {
  axis: string;
  side: string;
  value: number;
}

/** Per axis (a facet each, its own scale), the values of two sides as box plots with every value as a dot. */
export function distributionSpec(rows: readonly DistributionRow[], axes: readonly string[], sides: readonly string[], title: string, description: string): VlSpec {
  const color = { field: 'side', type: 'nominal', title: 'Runs', scale: { domain: [...sides], range: PALETTE.slice(0, sides.length) } };
  return {
    ...base(title, description, rows),
    facet: { field: 'axis', type: 'nominal', title: null, sort: [...axes] },
    columns: 3,
    spec: {
      width: 200,
      height: 140,
      layer: [
        { mark: { type: 'boxplot', extent: 'min-max', opacity: 0.5 }, encoding: { x: { field: 'side', type: 'nominal', title: null, sort: [...sides] }, y: { field: 'value', type: 'quantitative', title: null, scale: { zero: false } }, color } },
        { mark: { type: 'point', filled: true, size: 28, opacity: 0.7 }, encoding: { x: { field: 'side', type: 'nominal', sort: [...sides] }, y: { field: 'value', type: 'quantitative' }, color } },
      ],
    },
    resolve: { scale: { y: 'independent' } },
  };
}
