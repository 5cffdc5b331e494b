import { describe, expect, it } from 'vitest';
import { FREE_MATH_LIMITS, freeMathHtml, mathHtml } from './item-render';

/** Math in free text (chat, model output) can be hostile: it must neither cover the page nor freeze it (issue 34). */
describe('freeMathHtml', () => {
  it('typesets ordinary math as KaTeX does for items', () => {
    expect(freeMathHtml('so $\\frac{1}{2}$ of it')).toBe(mathHtml('so $\\frac{1}{2}$ of it'));
    expect(freeMathHtml('<b>x</b> $x$')).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('caps every size: a 3000px rule is at most a few em', () => {
    const html = freeMathHtml('$\\rule{3000px}{3000px}$');
    const ems = [...html.matchAll(/(?:width|height|border-right-width|border-top-width):\s*([\d.]+)em/g)].map((m) => Number(m[1]));
    expect(ems.length).toBeGreaterThan(0);
    expect(Math.max(...ems)).toBeLessThanOrEqual(FREE_MATH_LIMITS.maxSize);
    // The item text renderer (trusted, our generators) has no such cap.
    const item = mathHtml('$\\rule{3000px}{3000px}$');
    expect(Math.max(...[...item.matchAll(/(?:width|height|border-right-width|border-top-width):\s*([\d.]+)em/g)].map((m) => Number(m[1])))).toBeGreaterThan(100);
  });

  it('a macro bomb of ~120 characters renders small and fast (shown as text or an error, never tens of KB)', () => {
    const bomb = '$\\def\\a{xxxxxxxxxx}\\def\\b{\\a\\a\\a\\a\\a\\a\\a\\a\\a\\a}\\def\\c{\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b}\\c\\c\\c\\c\\c\\c\\c\\c$';
    expect(mathHtml(bomb).length).toBeGreaterThan(2 * FREE_MATH_LIMITS.maxHtmlChars);
    const t0 = performance.now();
    const html = freeMathHtml(bomb);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(html.length).toBeLessThan(FREE_MATH_LIMITS.maxHtmlChars);
  });

  it('a formula longer than the cap is shown as its text', () => {
    const long = `$${'x+'.repeat(300)}x$`;
    expect(freeMathHtml(long)).toBe(long);
  });
});
