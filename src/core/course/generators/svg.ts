/**
 * Small SVG figures built by the generators: plain shapes and text only (no scripts, no event
 * handlers, no external references), so the page can show them after sanitising. Every figure
 * carries alt text that states what the picture shows (the data a sighted student reads off it).
 */
import type { Figure } from '../types';
import { fmt } from './util';

export const INK = '#1f2937';
export const MUTED = '#6b7280';
export const ACCENT = '#1d4ed8';
export const FILL = '#dbeafe';
export const PALETTE = ['#1d4ed8', '#d97706', '#059669', '#be123c', '#7c3aed', '#0e7490'];

export function esc(s: string | number): string {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const n2 = (v: number) => fmt(Math.round(v * 100) / 100);

type Attrs = Record<string, string | number | undefined>;
function attrs(a: Attrs): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${esc(typeof v === 'number' ? n2(v) : v!)}"`)
    .join('');
}

export const line = (x1: number, y1: number, x2: number, y2: number, a: Attrs = {}) =>
  `<line${attrs({ x1, y1, x2, y2, stroke: INK, 'stroke-width': 1.5, ...a })}/>`;
export const rect = (x: number, y: number, width: number, height: number, a: Attrs = {}) =>
  `<rect${attrs({ x, y, width, height, fill: 'none', stroke: INK, 'stroke-width': 1.5, ...a })}/>`;
export const circle = (cx: number, cy: number, r: number, a: Attrs = {}) =>
  `<circle${attrs({ cx, cy, r, fill: 'none', stroke: INK, 'stroke-width': 1.5, ...a })}/>`;
export const path = (d: string, a: Attrs = {}) => `<path${attrs({ d, fill: 'none', stroke: INK, 'stroke-width': 1.5, ...a })}/>`;
export const polygon = (pts: readonly (readonly [number, number])[], a: Attrs = {}) =>
  `<polygon${attrs({ points: pts.map(([x, y]) => `${n2(x)},${n2(y)}`).join(' '), fill: FILL, stroke: INK, 'stroke-width': 1.5, ...a })}/>`;
export const polyline = (pts: readonly (readonly [number, number])[], a: Attrs = {}) =>
  `<polyline${attrs({ points: pts.map(([x, y]) => `${n2(x)},${n2(y)}`).join(' '), fill: 'none', stroke: ACCENT, 'stroke-width': 2, ...a })}/>`;
export const text = (x: number, y: number, s: string | number, a: Attrs = {}) =>
  `<text${attrs({ x, y, 'font-size': 13, 'text-anchor': 'middle', fill: INK, ...a })}>${esc(s)}</text>`;
export const dot = (x: number, y: number, r = 4, fill = ACCENT) => circle(x, y, r, { fill, stroke: fill });

/** Wraps a body into a figure with a title (read by screen readers) and alt text. */
export function svgFigure(width: number, height: number, body: string, alt: string): Figure {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" font-family="sans-serif">` +
    `<title>${esc(alt)}</title>${body}</svg>`;
  return { kind: 'svg', svg, alt };
}

/** A linear scale from [d0, d1] to [r0, r1]. */
export const scale = (d0: number, d1: number, r0: number, r1: number) => (v: number) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0);

// ---------- number line ----------

export interface NumberLineSpec {
  min: number;
  max: number;
  /** Distance between ticks. */
  step: number;
  /** Label every k-th tick (default 1); labels are given by `labelOf`. */
  labelEvery?: number;
  labelOf?: (v: number) => string;
  points?: { value: number; label: string }[];
  width?: number;
}

export function numberLineBody(s: NumberLineSpec, y = 40, x0 = 30, width = 440): string {
  const x = scale(s.min, s.max, x0, x0 + width);
  const parts = [line(x0 - 15, y, x0 + width + 15, y), path(`M${x0 + width + 15},${y} l-8,-5 v10 z`, { fill: INK }), path(`M${x0 - 15},${y} l8,-5 v10 z`, { fill: INK })];
  const ticks = Math.round((s.max - s.min) / s.step);
  const every = s.labelEvery ?? 1;
  for (let i = 0; i <= ticks; i++) {
    const v = s.min + i * s.step;
    const major = i % every === 0;
    parts.push(line(x(v), y - (major ? 8 : 5), x(v), y + (major ? 8 : 5)));
    if (major) parts.push(text(x(v), y + 24, s.labelOf ? s.labelOf(v) : fmt(v)));
  }
  for (const p of s.points ?? []) {
    parts.push(dot(x(p.value), y, 6));
    parts.push(text(x(p.value), y - 14, p.label, { 'font-weight': 'bold', fill: ACCENT }));
  }
  return parts.join('');
}

// ---------- coordinate plane ----------

export interface PlaneSpec {
  xmin: number;
  xmax: number;
  ymin: number;
  ymax: number;
  /** Pixels per unit. */
  unit?: number;
  xLabel?: string;
  yLabel?: string;
  /** Label every k-th grid line (default 1, or 2 when the range is wide). */
  labelEvery?: number;
  /** Scale per grid line in data units (default 1). */
  stepX?: number;
  stepY?: number;
  /** Draw the axes through 0 (default) or at the bottom-left edge (first-quadrant graphs). */
  axesAtEdge?: boolean;
}

export interface Plane {
  X: (v: number) => number;
  Y: (v: number) => number;
  width: number;
  height: number;
  body: string;
  /** Clips a line y = m x + b to the plane and draws it. */
  lineThrough(m: number, b: number, a?: Attrs): string;
  segment(x1: number, y1: number, x2: number, y2: number, a?: Attrs): string;
}

export function plane(s: PlaneSpec): Plane {
  const stepX = s.stepX ?? 1;
  const stepY = s.stepY ?? 1;
  const nx = Math.round((s.xmax - s.xmin) / stepX);
  const ny = Math.round((s.ymax - s.ymin) / stepY);
  const unit = s.unit ?? Math.max(14, Math.min(30, Math.floor(320 / Math.max(nx, ny))));
  const left = s.yLabel ? 56 : 36;
  const top = 16;
  const bottom = s.xLabel ? 48 : 30;
  const width = left + nx * unit + 20;
  const height = top + ny * unit + bottom;
  const X = (v: number) => left + ((v - s.xmin) / stepX) * unit;
  const Y = (v: number) => top + ((s.ymax - v) / stepY) * unit;
  const every = s.labelEvery ?? (Math.max(nx, ny) > 12 ? 2 : 1);
  const parts: string[] = [];
  for (let i = 0; i <= nx; i++) parts.push(line(X(s.xmin + i * stepX), Y(s.ymin), X(s.xmin + i * stepX), Y(s.ymax), { stroke: '#d1d5db', 'stroke-width': 1 }));
  for (let j = 0; j <= ny; j++) parts.push(line(X(s.xmin), Y(s.ymin + j * stepY), X(s.xmax), Y(s.ymin + j * stepY), { stroke: '#d1d5db', 'stroke-width': 1 }));
  const ax = s.axesAtEdge || s.xmin > 0 || s.xmax < 0 ? s.xmin : 0;
  const ay = s.axesAtEdge || s.ymin > 0 || s.ymax < 0 ? s.ymin : 0;
  parts.push(line(X(s.xmin), Y(ay), X(s.xmax), Y(ay), { 'stroke-width': 2 }));
  parts.push(line(X(ax), Y(s.ymin), X(ax), Y(s.ymax), { 'stroke-width': 2 }));
  for (let i = 0; i <= nx; i++) {
    const v = s.xmin + i * stepX;
    if (i % every !== 0 || (v === ax && ay !== s.ymin && v !== s.xmin)) continue;
    parts.push(text(X(v), Y(ay) + 15, fmt(v), { 'font-size': 11 }));
  }
  for (let j = 0; j <= ny; j++) {
    const v = s.ymin + j * stepY;
    if (j % every !== 0 || (v === ay && ax !== s.xmin)) continue;
    if (v === ay && v === 0 && ax === 0 && s.xmin < 0) continue;
    parts.push(text(X(ax) - 6, Y(v) + 4, fmt(v), { 'font-size': 11, 'text-anchor': 'end' }));
  }
  if (s.xLabel) parts.push(text(X((s.xmin + s.xmax) / 2), height - 8, s.xLabel));
  if (s.yLabel) parts.push(text(14, Y((s.ymin + s.ymax) / 2), s.yLabel, { transform: `rotate(-90 14 ${n2(Y((s.ymin + s.ymax) / 2))})` }));
  const clipLine = (m: number, b: number): [number, number, number, number] | undefined => {
    const pts: [number, number][] = [];
    const add = (x: number, y: number) => {
      if (x >= s.xmin - 1e-9 && x <= s.xmax + 1e-9 && y >= s.ymin - 1e-9 && y <= s.ymax + 1e-9) pts.push([x, y]);
    };
    add(s.xmin, m * s.xmin + b);
    add(s.xmax, m * s.xmax + b);
    if (m !== 0) {
      add((s.ymin - b) / m, s.ymin);
      add((s.ymax - b) / m, s.ymax);
    }
    if (pts.length < 2) return undefined;
    pts.sort((p, q) => p[0] - q[0]);
    const a = pts[0]!;
    const z = pts[pts.length - 1]!;
    return [a[0], a[1], z[0], z[1]];
  };
  return {
    X,
    Y,
    width,
    height,
    body: parts.join(''),
    lineThrough(m, b, a = {}) {
      const c = clipLine(m, b);
      return c ? line(X(c[0]), Y(c[1]), X(c[2]), Y(c[3]), { stroke: ACCENT, 'stroke-width': 2.5, ...a }) : '';
    },
    segment(x1, y1, x2, y2, a = {}) {
      return line(X(x1), Y(y1), X(x2), Y(y2), { stroke: ACCENT, 'stroke-width': 2.5, ...a });
    },
  };
}

/** Dimension label placed at the middle of a segment, offset perpendicular to it. */
export function sideLabel(x1: number, y1: number, x2: number, y2: number, label: string, offset = 14): string {
  const mx = (x1 + x2) / 2;
  const my = (y1 + y2) / 2;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len = Math.hypot(dx, dy) || 1;
  // Perpendicular pointing to the left of the direction of travel (outside for clockwise shapes).
  const px = (dy / len) * offset;
  const py = (-dx / len) * offset;
  return text(mx + px, my + py + 4, label);
}
