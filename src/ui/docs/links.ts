/**
 * Addresses of the bundled docs (see render.ts), light enough for any view to import: no Markdown,
 * no renderer. `#docs/<doc>/<slug>` opens a doc at the heading with that GitHub-style slug.
 */

/** The ids of the bundled docs (docs/<id>.md), in the order of the Docs view's list. */
export const DOC_IDS = ['metrics', 'analyses', 'validity'] as const;
export type DocId = (typeof DOC_IDS)[number];
export const isDocId = (s: string): s is DocId => (DOC_IDS as readonly string[]).includes(s);

/** Element ids of headings carry this prefix, so they cannot clash with the page's own ids. */
export const HEADING_ID_PREFIX = 'doc-';

/** GitHub-style heading slug: lower case, punctuation dropped, spaces to hyphens. */
export function slug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The page address of a bundled doc, optionally at the section with this heading text. */
export function docHref(doc: DocId, heading?: string): string {
  return heading === undefined ? `#docs/${doc}` : `#docs/${doc}/${encodeURIComponent(slug(heading))}`;
}

/** `#docs/metrics/answer-leakage` → { doc: 'metrics', anchor: 'answer-leakage' }; null when not a docs address. */
export function parseDocsHash(hash: string): { doc: string; anchor: string | null } | null {
  const m = /^#docs(?:\/([^/]*)(?:\/(.*))?)?$/.exec(hash);
  if (!m) return null;
  const anchor = m[2] ? safeDecode(m[2]) : null;
  return { doc: m[1] || DOC_IDS[0], anchor: anchor || null };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A Markdown link target in the page: an external address, another bundled doc (at a section), or null (shown as plain text). */
export function linkTarget(href: string, fromDoc: string): { href: string; external: boolean } | null {
  if (/^(https?:|mailto:)/i.test(href)) return { href, external: true };
  const m = /^(?:(?:\.\/)?([\w-]+)\.md)?(?:#(.*))?$/.exec(href);
  if (!m || (!m[1] && m[2] === undefined)) return null;
  const doc = m[1] ?? fromDoc;
  if (!isDocId(doc)) return null;
  return { href: m[2] ? `#docs/${doc}/${encodeURIComponent(m[2])}` : `#docs/${doc}`, external: false };
}

/** The metrics.md section of each axis of the axis table (src/core/scoring/axes.ts); judged axes share one. */
export const AXIS_SECTIONS: Record<string, string> = {
  learningGain: 'I. Learning gain (Δ solve rate)',
  valueAdded: 'Value added over no tutor',
  responsiveness: 'II. Responsiveness',
  leakage: 'Answer leakage',
  independence: 'Next-turn independence',
  extraction: 'Answer extraction yielded',
};
export function axisDocHref(axisId: string, kind: 'deterministic' | 'judged'): string {
  const h = AXIS_SECTIONS[axisId] ?? (kind === 'judged' ? 'Judged axes' : undefined);
  return h === undefined ? docHref('metrics', 'The axes') : docHref('metrics', h);
}

/** The analyses.md section of each section of the benchmark results report (src/core/analysis/report.ts). */
export const REPORT_SECTIONS: Record<string, string> = {
  overview: 'What each run is reduced to',
  axes: 'Axes per tutor',
  'by-voice': 'Axes per student model',
  'value-added': 'Value added over no tutor',
  'head-to-head': 'Head to head',
  field: 'Field against simulation',
  curves: 'Learning curves and the steady-learning reference',
  tradeoff: 'Responsiveness against helpfulness',
  'model-harness': 'Base model × harness',
  'failure-modes': 'Failure modes',
  'pass-k': 'Reliability: pass^k',
  actions: 'Action kinds',
  correlations: 'How the axes relate',
};
export function reportSectionDocHref(sectionId: string): string {
  const h = REPORT_SECTIONS[sectionId];
  return h === undefined ? docHref('analyses') : docHref('analyses', h);
}



