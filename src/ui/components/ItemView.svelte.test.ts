import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import ItemView from './ItemView.svelte';
import { allowlistSvg, mathHtml, sanitizeSvg } from './item-render';
import { GENERATORS, type ItemContent } from '../../core/course/index';
import { Rng } from '../../core/rng';

const gen = (skill: number, level: 1 | 2 | 3): ItemContent => GENERATORS.get(skill)!.generate(new Rng(5).fork(`view:${skill}`), level);

describe('item text rendering', () => {
  it('typesets $…$ math with KaTeX and escapes the rest', () => {
    const html = mathHtml('Find $\\frac{3}{4}$ of \\$12 <b>now</b>');
    expect(html).toContain('class="katex"');
    expect(html).toContain('<math');
    // the TeX source survives only inside the MathML annotation (for copy and assistive tech)
    expect(html.replace(/<annotation[\s\S]*?<\/annotation>/g, '')).not.toContain('\\frac');
    expect(html).toContain('$12');
    expect(html).toContain('&lt;b&gt;now&lt;/b&gt;');
  });
  it('never renders a malformed formula as a thrown error', () => {
    expect(() => mathHtml('bad $\\frac{1$ math')).not.toThrow();
  });
});

describe('SVG sanitising without a DOM', () => {
  it('passes our own figures and refuses anything else', () => {
    const item = gen(1, 1);
    if (item.figure?.kind !== 'svg') throw new Error('expected a figure');
    expect(sanitizeSvg(item.figure.svg)).toBe(item.figure.svg.trim());
    expect(allowlistSvg('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')).toBe('');
    expect(allowlistSvg('<svg xmlns="http://www.w3.org/2000/svg"><rect onclick="x()" width="1"/></svg>')).toBe('');
    expect(allowlistSvg('<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:x"><rect/></a></svg>')).toBe('');
    expect(allowlistSvg('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(javascript:x)"/></svg>')).toBe('');
    expect(allowlistSvg('<div>not svg</div>')).toBe('');
  });
  it('passes every generator\'s figures', () => {
    for (const g of GENERATORS.values()) {
      for (const level of [1, 2, 3] as const) {
        const it = g.generate(new Rng(9).fork(`svgcheck:${g.skillId}`), level);
        if (it.figure?.kind === 'svg') expect(allowlistSvg(it.figure.svg), `skill ${g.skillId} L${level}`).not.toBe('');
      }
    }
  });
});

describe('ItemView (server render)', () => {
  it('renders the stem with typeset math and no raw LaTeX', () => {
    const item = gen(42, 2); // fraction multiplication
    const { body } = render(ItemView, { props: { item, label: 'Question 1' } });
    expect(body).toContain('Question 1');
    expect(body).toContain('class="katex"');
    expect(body.replace(/<annotation[\s\S]*?<\/annotation>/g, '')).not.toMatch(/\\frac|\$/);
    expect(body).not.toContain('For teachers');
  });
  it('renders a table figure as an accessible table with a caption and header cells', () => {
    const item = gen(10, 3); // median from a frequency table
    const { body } = render(ItemView, { props: { item } });
    expect(body).toMatch(/<table[^>]*>[\s\S]*<caption[^>]*>Pets per student<\/caption>/);
    expect(body).toMatch(/<th scope="col"[^>]*>Number of pets<\/th>/);
    expect(body).toMatch(/<th scope="row"/);
  });
  it('renders an SVG figure with its alt text, and choices with letters', () => {
    const item = gen(3, 3); // histogram, choose the interval
    const { body } = render(ItemView, { props: { item } });
    expect(body).toContain('<svg');
    const fig = item.figure;
    expect(body).toContain(`aria-label="${fig?.kind === 'svg' ? fig.alt.replace(/&/g, '&amp;') : ''}"`);
    expect(body).toMatch(/<span class="letter[^"]*">A\.<\/span>/);
    expect(body).not.toMatch(/<script/);
  });
  it('renders choices as buttons when a choice handler is given', () => {
    const item = gen(89, 1);
    const { body } = render(ItemView, { props: { item, onchoose: () => {}, selected: 'b' } });
    expect(body.match(/<button/g)?.length).toBe(item.choices!.length);
    expect(body).toContain('aria-pressed="true"');
  });
  it('shows the answer, worked steps, hints and wrong answers to teachers', () => {
    const item = gen(87, 3);
    const { body } = render(ItemView, { props: { item, showSolution: true, solutionOpen: true } });
    expect(body).toContain('For teachers');
    expect(body).toContain('Worked solution');
    expect(body).toContain('Hint ladder');
    expect(body).toContain('Likely wrong answers');
    expect(body).toContain(item.misconceptions[0]!.why);
    expect(body).toMatch(/<details[^>]* open/);
  });
});
