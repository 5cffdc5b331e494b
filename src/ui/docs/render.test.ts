import { describe, expect, it } from 'vitest';
import { DOCS, renderDoc } from './render';
import { AXIS_SECTIONS, DOC_IDS, REPORT_SECTIONS, axisDocHref, docHref, linkTarget, parseDocsHash, reportSectionDocHref, slug } from './links';
import { AXES } from '../../core/index';

describe('doc addresses', () => {
  it('slugs headings as GitHub does', () => {
    expect(slug('Answer leakage')).toBe('answer-leakage');
    expect(slug('Reliability: pass^k')).toBe('reliability-passk');
    expect(slug('Base model × harness')).toBe('base-model--harness');
  });
  it('parses #docs addresses', () => {
    expect(parseDocsHash('#docs')).toEqual({ doc: 'metrics', anchor: null });
    expect(parseDocsHash('#docs/analyses')).toEqual({ doc: 'analyses', anchor: null });
    expect(parseDocsHash('#docs/metrics/answer-leakage')).toEqual({ doc: 'metrics', anchor: 'answer-leakage' });
    expect(parseDocsHash(docHref('analyses', 'Base model × harness'))).toEqual({ doc: 'analyses', anchor: 'base-model--harness' });
    expect(parseDocsHash('#lab')).toBeNull();
    expect(parseDocsHash('#docsx')).toBeNull();
  });
  it('turns relative doc links into page addresses and the rest into plain text', () => {
    expect(linkTarget('analyses.md#failure-modes', 'metrics')).toEqual({ href: '#docs/analyses/failure-modes', external: false });
    expect(linkTarget('#judged-axes', 'metrics')).toEqual({ href: '#docs/metrics/judged-axes', external: false });
    expect(linkTarget('./validity.md', 'metrics')).toEqual({ href: '#docs/validity', external: false });
    expect(linkTarget('https://example.org/x', 'metrics')).toEqual({ href: 'https://example.org/x', external: true });
    expect(linkTarget('../src/core/scoring/axes.ts', 'metrics')).toBeNull();
    expect(linkTarget('sweeps.md', 'metrics')).toBeNull(); // not bundled
    expect(linkTarget('javascript:alert(1)', 'metrics')).toBeNull();
  });
});

describe('renderDoc', () => {
  it('gives headings ids, one level down, unique', () => {
    const { html, headings } = renderDoc('# Title\n\n## Answer leakage\n\ntext\n\n## Answer leakage\n', 'metrics');
    expect(html).toContain('<h2 id="doc-title" tabindex="-1">Title</h2>');
    expect(html).toContain('<h3 id="doc-answer-leakage" tabindex="-1">Answer leakage</h3>');
    expect(html).toContain('id="doc-answer-leakage-1"');
    expect(headings.map((h) => h.slug)).toEqual(['title', 'answer-leakage', 'answer-leakage-1']);
  });
  it('shows raw HTML as text and never passes it through', () => {
    const { html } = renderDoc('<script>alert(1)</script>\n\nA <img src=x onerror=alert(1)> b <b>bold</b>\n\n[x](javascript:alert(1)) ![alt](http://x/y.png)', 'metrics');
    expect(html).not.toMatch(/<script|<img|<b>|href="javascript/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('alt');
  });
  it('links between bundled docs in the page, external links open apart, repository paths are text', () => {
    const { html } = renderDoc('See [analyses](analyses.md#failure-modes), [the code](../src/core/x.ts) and [site](https://example.org).', 'metrics');
    expect(html).toContain('<a href="#docs/analyses/failure-modes">analyses</a>');
    expect(html).toContain('the code');
    expect(html).not.toContain('../src/core/x.ts');
    expect(html).toContain('<a href="https://example.org" rel="noopener noreferrer" target="_blank">site</a>');
  });
});

describe('the bundled docs', () => {
  const slugsOf = (id: string) => renderDoc(DOCS.find((d) => d.id === id)!.md, id).headings.map((h) => h.slug);
  it('are the ones the addresses name', () => {
    expect(DOCS.map((d) => d.id)).toEqual([...DOC_IDS]);
    for (const d of DOCS) expect(d.md.length).toBeGreaterThan(1000);
  });
  it('have a section for every axis of the axis table', () => {
    const metrics = slugsOf('metrics');
    for (const a of AXES) {
      const at = parseDocsHash(axisDocHref(a.id, a.kind))!;
      expect(metrics, `axis ${a.id}`).toContain(at.anchor);
    }
    for (const h of Object.values(AXIS_SECTIONS)) expect(metrics).toContain(slug(h));
  });
  it('have a section for every mapped results section', () => {
    const analyses = slugsOf('analyses');
    for (const [id, h] of Object.entries(REPORT_SECTIONS)) {
      expect(analyses, id).toContain(slug(h));
      expect(parseDocsHash(reportSectionDocHref(id))!.anchor).toBe(slug(h));
    }
  });
  it('link to each other only at sections that exist', () => {
    for (const d of DOCS) {
      const { html } = renderDoc(d.md, d.id);
      for (const m of html.matchAll(/href="#docs\/([^/"]+)(?:\/([^"]+))?"/g)) {
        if (!m[2]) continue;
        expect(slugsOf(m[1]!), `${d.id} → ${m[1]}#${m[2]}`).toContain(decodeURIComponent(m[2]));
      }
    }
  });
});
