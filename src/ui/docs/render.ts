/**
 * The project's docs in the page: docs/*.md bundled at build time (Vite `?raw`) and rendered with
 * marked. Raw HTML in the Markdown is shown as text (never passed through), link targets other
 * than http(s)/mailto and the bundled docs become plain text, and the result goes through
 * DOMPurify where the page has a DOM. Headings get ids (HEADING_ID_PREFIX + GitHub-style slug).
 * Only the Docs view imports this (it is heavy); other views link with links.ts.
 */
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import metrics from '../../../docs/metrics.md?raw';
import analyses from '../../../docs/analyses.md?raw';
import validity from '../../../docs/validity.md?raw';
import { HEADING_ID_PREFIX, linkTarget, slug, type DocId } from './links';

export interface DocEntry {
  id: DocId;
  title: string;
  md: string;
}

/** The bundled docs, in the order of DOC_IDS. */
export const DOCS: readonly DocEntry[] = [
  { id: 'metrics', title: 'Metrics: what each axis measures', md: metrics },
  { id: 'analyses', title: 'Analyses: the benchmark results report', md: analyses },
  { id: 'validity', title: 'Validity: what the numbers can and cannot say', md: validity },
];

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The HTML of one doc (sanitised), with the slugs of its headings in order. */
export function renderDoc(md: string, docId: string): { html: string; headings: { slug: string; text: string }[] } {
  const seen = new Map<string, number>();
  const headings: { slug: string; text: string }[] = [];
  const marked = new Marked({
    gfm: true,
    renderer: {
      // Raw HTML (block or inline) is shown as text.
      html: (t: Tokens.HTML | Tokens.Tag) => escapeHtml(t.text),
      heading(t: Tokens.Heading) {
        const base = slug(t.text);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        const s = n ? `${base}-${n}` : base;
        headings.push({ slug: s, text: t.text });
        // One level down: the page's own title is the h1.
        const level = Math.min(6, t.depth + 1);
        return `<h${level} id="${HEADING_ID_PREFIX}${escapeHtml(s)}" tabindex="-1">${this.parser.parseInline(t.tokens)}</h${level}>\n`;
      },
      link(t: Tokens.Link) {
        const inner = this.parser.parseInline(t.tokens);
        const target = linkTarget(t.href, docId);
        if (!target) return inner;
        const title = t.title ? ` title="${escapeHtml(t.title)}"` : '';
        return target.external
          ? `<a href="${escapeHtml(target.href)}"${title} rel="noopener noreferrer" target="_blank">${inner}</a>`
          : `<a href="${escapeHtml(target.href)}"${title}>${inner}</a>`;
      },
      // No images in the page's docs: their alt text instead.
      image: (t: Tokens.Image) => escapeHtml(t.text),
    },
  });
  const raw = marked.parse(md, { async: false });
  const html = DOMPurify.isSupported && typeof DOMPurify.sanitize === 'function' ? DOMPurify.sanitize(raw, { ADD_ATTR: ['target'] }) : raw;
  return { html, headings };
}

