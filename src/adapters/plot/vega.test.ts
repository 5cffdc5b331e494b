/** The report's plot specs render to accessible SVG with vega, in Node as in the page. */
import { describe, expect, it } from 'vitest';
import { accessibleSvg, plotSvg } from './vega';
import { EDGE_PAD_PX, curvesSpec, dodge, lineSpec, rankSpec } from '../../core/analysis/plots';

describe('plots to SVG', () => {
  it('renders a spec with role, aria-label, title and desc; data text is escaped; ids are the plot\'s own', async () => {
    const tutors = ['planner', 'x<script>alert(1)</script>'];
    const rows = tutors.flatMap((tutor) => [0, 1, 2].flatMap((day) => [
      { tutor, day, series: 'measured' as const, value: 0.4 + day * 0.1, lo: 0.3 + day * 0.1, hi: 0.5 + day * 0.1 },
      { tutor, day, series: 'steady-learning reference' as const, value: 0.4 + day * 0.3, lo: null, hi: null },
    ]));
    const svg = await plotSvg({ id: 'curves', title: 'Solve rate <by day>', description: 'Two "tutors"', spec: curvesSpec(rows, tutors, 'Solve rate', 'd') });
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-label="Two &quot;tutors&quot;"><title>Solve rate &lt;by day&gt;<\/title><desc>Two &quot;tutors&quot;<\/desc>/);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('x&lt;script&gt;');
    const ids = [...svg.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id.startsWith('curves-')).toBe(true);
    for (const m of svg.matchAll(/url\(#([^)]+)\)/g)) expect(ids).toContain(m[1]);
  });
  it('refuses what is not SVG', () => {
    expect(() => accessibleSvg('<div></div>', 't', 'd')).toThrow(/not an SVG/);
  });

  // Line paths of one line mark group, by stroke colour.
  const linePaths = (svg: string) => [...svg.matchAll(/<path[^>]*\sd="([^"]+)"[^>]*stroke="(#[0-9A-Fa-f]{6})"/g)].filter((m) => !m[0].includes('fill-opacity="0.15"')).map((m) => ({ d: m[1]!, stroke: m[2]! }));

  it('draws tied series apart: pass^k lines with equal values do not coincide, and every point has a marker inside the frame', async () => {
    const tutors = ['withholder', 'planner'];
    const rows = tutors.flatMap((tutor) => [1, 2, 3].map((x) => ({ tutor, x, y: [1, 0.5, 0][x - 1]!, lo: null, hi: null })));
    const svg = await plotSvg({ id: 'pk', title: 'pass^k', description: 'd', spec: lineSpec(rows, tutors, { title: 'k', domain: [1, 3] }, { title: 'pass^k', domain: [0, 1] }, 't', 't') });
    const lines = linePaths(svg).filter((l) => l.d.startsWith('M') && l.d.split('L').length === 3);
    const byTutor = new Map(lines.map((l) => [l.stroke, l.d]));
    expect(byTutor.size).toBe(2);
    const [a, b] = [...byTutor.values()];
    expect(a).not.toBe(b);
    // Markers: 3 per tutor, none on or past the frame (y = 1 and y = 0 are the domain's edges).
    const marks = [...svg.matchAll(/<g class="mark-symbol role-mark[^"]*">(.*?)<\/g>/g)].flatMap((g) => [...g[1]!.matchAll(/translate\(([-\d.]+),([-\d.]+)\)/g)].map((m) => [Number(m[1]), Number(m[2])]));
    expect(marks.length).toBe(6);
    for (const [x, y] of marks) {
      expect(x).toBeGreaterThanOrEqual(EDGE_PAD_PX - 1);
      expect(y).toBeGreaterThanOrEqual(EDGE_PAD_PX - 1 - 3);
      expect(y).toBeLessThanOrEqual(240 - EDGE_PAD_PX + 1 + 3);
    }
  });

  it('draws tied series apart in small multiples with free y scales too', async () => {
    const tutors = ['withholder', 'planner'];
    const rows = tutors.flatMap((tutor) => ['assign', 'message'].flatMap((facet) => [1, 2, 3].map((x) => ({ tutor, x, y: facet === 'assign' ? x : 4 - x, lo: null, hi: null, facet }))));
    const svg = await plotSvg({ id: 'ap', title: 't', description: 'd', spec: lineSpec(rows, tutors, { title: 'Day' }, { title: 'Mean count' }, 't', 't', { title: 'Action kind', order: ['assign', 'message'] }) });
    const lines = linePaths(svg).filter((l) => l.d.startsWith('M') && l.d.split('L').length === 3);
    expect(lines).toHaveLength(4);
    expect(new Set(lines.map((l) => l.d)).size).toBe(2 * 2);
  });

  it('draws ranks tied in every column apart', async () => {
    const rows = ['m1', 'm2'].flatMap((col) => ['h1', 'h2'].map((row) => ({ col, row, rank: 1 })));
    const svg = await plotSvg({ id: 'rk', title: 'r', description: 'd', spec: rankSpec(rows, ['m1', 'm2'], 'Model', 'Harness', 2, 't', 't') });
    const ys = new Set([...svg.matchAll(/<g class="mark-symbol role-mark[^"]*">(.*?)<\/g>/g)].flatMap((g) => [...g[1]!.matchAll(/translate\([-\d.]+,([-\d.]+)\)/g)].map((m) => m[1])));
    expect(ys.size).toBe(2);
  });

  it('dodge is centred, deterministic and zero for one series', () => {
    expect(dodge('y', 'tutor', ['a', 'b', 'c'], 1, 300, 's').calculate).toBe('datum.y === null ? null : datum.y + (indexof(["a","b","c"], datum.tutor) - 1) * 0.01');
    expect(dodge('y', 'tutor', ['a'], 1, 300, 's').calculate).toContain('* 0');
  });
});
