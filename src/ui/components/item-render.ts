/**
 * Rendering helpers for ItemView: item text with inline `$…$` math typeset by KaTeX (never shown
 * as raw LaTeX), and figure SVG sanitised before it reaches {@html}.
 *
 * - Text outside math is HTML-escaped; math goes through katex.renderToString with
 *   throwOnError: false (a malformed formula shows in red instead of breaking the page) and
 *   trust: false (no \href, \url or HTML extensions). Output carries MathML for screen readers.
 * - SVG: in the browser DOMPurify (SVG profile, no filters) cleans it. Where there is no DOM
 *   (server-side render, tests), a strict allowlist check is used instead: only the elements and
 *   attributes our generators emit pass, anything else drops the figure (its alt text still shows).
 */
import katex from 'katex';
import DOMPurify from 'dompurify';
import { splitMath } from '../../core/course/index';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Item text (stem, hint, step, choice) as safe HTML with typeset math. */
export function mathHtml(text: string, displayMode = false): string {
  return splitMath(text)
    .map((p) =>
      p.kind === 'text'
        ? escapeHtml(p.value)
        : katex.renderToString(p.value, { throwOnError: false, displayMode, output: 'htmlAndMathml', trust: false, strict: 'ignore' }),
    )
    .join('');
}

/** Caps on math in free text (messages a student, a tutor or a model wrote), which may be hostile. */
export const FREE_MATH_LIMITS = {
  /** A longer formula is shown as its text. */
  maxChars: 400,
  /** Every size (\rule, \kern, \hspace…) capped to this many em. */
  maxSize: 8,
  /** Macro expansions per formula (KaTeX's default, 1000, lets 122 characters of \def expand to 350 KB of HTML). */
  maxExpand: 60,
  /** A formula whose HTML is larger than this is shown as its text. */
  maxHtmlChars: 40_000,
} as const;

/**
 * Free text (a message, model output) as safe HTML with typeset math, within FREE_MATH_LIMITS: a
 * formula that is too long, expands too far or renders too large is shown as escaped text, so one
 * message can neither cover the page nor freeze it.
 */
export function freeMathHtml(text: string): string {
  const L = FREE_MATH_LIMITS;
  return splitMath(text)
    .map((p) => {
      if (p.kind === 'text') return escapeHtml(p.value);
      const raw = escapeHtml(`$${p.value}$`);
      if (p.value.length > L.maxChars) return raw;
      const html = katex.renderToString(p.value, { throwOnError: false, output: 'htmlAndMathml', trust: false, strict: 'ignore', maxSize: L.maxSize, maxExpand: L.maxExpand });
      return html.length > L.maxHtmlChars ? raw : html;
    })
    .join('');
}

const SVG_TAGS = new Set(['svg', 'g', 'title', 'line', 'rect', 'circle', 'ellipse', 'path', 'polygon', 'polyline', 'text']);
const SVG_ATTRS = new Set([
  'xmlns', 'viewBox', 'width', 'height', 'role', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'fill', 'stroke',
  'stroke-width', 'stroke-dasharray', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'd', 'points', 'transform',
]);

/** Strict allowlist check for environments without a DOM; returns the SVG unchanged or '' if anything is unexpected. */
export function allowlistSvg(svg: string): string {
  const trimmed = svg.trim();
  if (!/^<svg[\s>]/.test(trimmed) || !/<\/svg>$/.test(trimmed)) return '';
  for (const m of trimmed.matchAll(/<\/?([a-zA-Z][\w:-]*)([^>]*)>/g)) {
    if (!SVG_TAGS.has(m[1]!)) return '';
    for (const a of m[2]!.matchAll(/([\w:-]+)\s*=\s*"([^"]*)"/g)) {
      if (!SVG_ATTRS.has(a[1]!)) return '';
      if (/javascript:|url\(|expression\(/i.test(a[2]!)) return '';
    }
    // anything left over that is not a quoted attribute or a self-closing slash is suspicious
    if (m[2]!.replace(/([\w:-]+)\s*=\s*"[^"]*"/g, '').replace(/\//g, '').trim() !== '') return '';
  }
  return trimmed;
}

/** Sanitised SVG markup for {@html}: DOMPurify in the browser, the strict allowlist elsewhere. */
export function sanitizeSvg(svg: string): string {
  if (DOMPurify.isSupported && typeof DOMPurify.sanitize === 'function') {
    return DOMPurify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: false } });
  }
  return allowlistSvg(svg);
}

/** "A", "B", … for choice i. */
export const choiceLetter = (i: number): string => String.fromCharCode(65 + i);
