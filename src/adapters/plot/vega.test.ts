/** The report's plot specs render to accessible SVG with vega, in Node as in the page. */
import { describe, expect, it } from 'vitest';
import { accessibleSvg, plotSvg } from './vega';
import { curvesSpec } from '../../core/analysis/plots';

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
});
