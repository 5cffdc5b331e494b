/**
 * Plot specs (Vega-Lite JSON from src/core/analysis/plots.ts) to SVG markup with vega and
 * vega-lite, the one plotting library of the project. Runs unchanged in Node (the CLI's report) and
 * in the page (loaded lazily with a dynamic import, so the main bundle does not carry vega). No
 * DOM: the view renders headless (renderer "none") and serialises to an SVG string.
 *
 * The SVG gets role="img", an aria-label and <title>/<desc> from the plot, so it is accessible
 * inline in HTML and as a file.
 */
import { View, parse } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { ReportPlot } from '../../core/analysis/index';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Adds role, aria-label, <title> and <desc> to the root <svg> element, and prefixes the SVG's own
 * ids (vega's clip paths and gradients: clip1, gradient_0, …) with `idPrefix`, so that several plots
 * inline in one page never point at each other's definitions.
 */
export function accessibleSvg(svg: string, title: string, description: string, idPrefix = ''): string {
  const at = svg.indexOf('<svg');
  const open = at < 0 ? -1 : svg.indexOf('>', at);
  if (open < 0) throw new Error('not an SVG document');
  const head = svg.slice(0, open).replace(/\s(role|aria-label)="[^"]*"/g, '');
  // The root is one image with its title and description: the marks' own ARIA attributes (vega
  // writes role/aria-roledescription on every mark) would make a screen reader walk hundreds of
  // points, and inside role="img" they are not allowed.
  let body = svg.slice(open + 1).replace(/\s(role|aria-roledescription|aria-label|aria-hidden)="[^"]*"/g, '');
  if (idPrefix) body = body.replace(/\bid="([^"]+)"/g, `id="${idPrefix}$1"`).replace(/url\(#([^)]+)\)/g, `url(#${idPrefix}$1)`).replace(/href="#([^"]+)"/g, `href="#${idPrefix}$1"`);
  return `${head} role="img" aria-label="${esc(description)}"><title>${esc(title)}</title><desc>${esc(description)}</desc>${body}`;
}

/** One plot's SVG. */
export async function plotSvg(plot: Pick<ReportPlot, 'id' | 'spec' | 'title' | 'description'>): Promise<string> {
  const vg = compile(plot.spec as unknown as TopLevelSpec).spec;
  const view = new View(parse(vg), { renderer: 'none' });
  try {
    return accessibleSvg(await view.toSVG(), plot.title, plot.description, `${plot.id.replace(/[^\w-]/g, '')}-`);
  } finally {
    view.finalize();
  }
}

/** Every plot's SVG, by plot id (one at a time: views are light, and order keeps output stable). */
export async function plotSvgs(plots: readonly ReportPlot[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of plots) out.set(p.id, await plotSvg(p));
  return out;
}
