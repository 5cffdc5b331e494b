/**
 * Item text conventions.
 *
 * Stems, hints, steps and choices are plain text with inline math between `$…$` (a small LaTeX
 * subset: \frac{a}{b}, \sqrt{n}, ^{n}, \times, \div, \cdot, \le, \ge, \ne, \pi, ^\circ, \angle,
 * \triangle, \overline{AB}, \text{…}, \%, \{ \}). A literal dollar sign (money) is written `\$`
 * and is never a math delimiter. The page typesets the math with KaTeX; everything that reads
 * items as text (CLI, template voice, LLM prompts, the leakage matcher) uses `toPlain`, which
 * turns the math into the readable ASCII-and-symbols form a student would type.
 */

const SYMBOLS: [RegExp, string][] = [
  [/\\times/g, '×'],
  [/\\div/g, '÷'],
  [/\\cdot/g, '·'],
  [/\\(?:le|leq)(?![a-z])/g, '≤'],
  [/\\(?:ge|geq)(?![a-z])/g, '≥'],
  [/\\(?:ne|neq)(?![a-z])/g, '≠'],
  [/\\pm/g, '±'],
  [/\\pi/g, 'π'],
  [/\^\s*\{?\\circ\}?/g, '°'],
  [/\\circ/g, '°'],
  [/\\angle\s*/g, '∠'],
  [/\\triangle\s*/g, '△'],
  [/\\cong/g, '≅'],
  [/\\sim(?![a-z])/g, '∼'],
  [/\\approx/g, '≈'],
  [/\\parallel/g, '∥'],
  [/\\perp/g, '⊥'],
  [/\\rightarrow|\\to(?![a-z])/g, '→'],
  [/\\%/g, '%'],
  [/\\\{/g, '{'],
  [/\\\}/g, '}'],
  [/\\left|\\right/g, ''],
  [/\\[,;:!]|~/g, ' '],
  [/\\quad|\\qquad/g, ' '],
  [/\\ldots|\\dots|\\cdots/g, '…'],
];

/** Finds the index just after the brace group that opens at s[i] === '{'. */
function groupEnd(s: string, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    if (s[j] === '{') depth++;
    else if (s[j] === '}') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return s.length;
}

const needsParens = (s: string) => !/^[\w.π√?]+$/.test(s);

/** Converts one LaTeX math fragment (without the $ delimiters) to plain text. */
export function texToPlain(tex: string): string {
  // A mixed number 1\frac{3}{4} reads "1 3/4", not "13/4".
  let s = tex.replace(/(\d)\s*(\\[dt]?frac)/g, '$1 $2');
  // \frac{a}{b} and \dfrac / \tfrac, innermost first.
  for (let guard = 0; guard < 50; guard++) {
    const m = /\\[dt]?frac\s*\{/.exec(s);
    if (!m) break;
    const aStart = m.index + m[0].length - 1;
    const aEnd = groupEnd(s, aStart);
    if (s[aEnd] !== '{') break;
    const bEnd = groupEnd(s, aEnd);
    const a = texToPlain(s.slice(aStart + 1, aEnd - 1));
    const b = texToPlain(s.slice(aEnd + 1, bEnd - 1));
    // A mixed number (whole part right before the fraction) is one unit.
    const whole = /(\d+)\s*$/.exec(s.slice(0, m.index));
    const unitStart = whole ? m.index - whole[0].length : m.index;
    // Next to × or ÷ a fraction or mixed number keeps its grouping in plain text: (1/4) ÷ (3/2).
    const before = s.slice(0, unitStart).replace(/[-\s]+$/, '');
    const after = s.slice(bEnd).trimStart();
    const grouped = /(?:\\times|\\div|\\cdot)$/.test(before) || /^(?:\\times|\\div|\\cdot)/.test(after);
    // A denominator that is a product ("5xy", "2π") keeps parentheses: 1/(2x) is not (1/2)x.
    const denParens = !/^(?:\d+(?:\.\d+)?|[A-Za-zπ?])$/.test(b);
    const f = `${whole ? `${whole[1]} ` : ''}${needsParens(a) ? `(${a})` : a}/${denParens ? `(${b})` : b}`;
    s = s.slice(0, unitStart) + (grouped ? `(${f})` : f) + s.slice(bEnd);
  }
  for (let guard = 0; guard < 50; guard++) {
    const m = /\\sqrt\s*\{/.exec(s);
    if (!m) break;
    const start = m.index + m[0].length - 1;
    const end = groupEnd(s, start);
    const inner = texToPlain(s.slice(start + 1, end - 1));
    s = s.slice(0, m.index) + (needsParens(inner) ? `√(${inner})` : `√${inner}`) + s.slice(end);
  }
  s = s.replace(/\\(?:text|mathrm|textbf|mathbf|operatorname)\s*\{([^{}]*)\}/g, '$1');
  s = s.replace(/\\overline\s*\{([^{}]*)\}/g, '$1');
  s = s.replace(/\\overleftrightarrow\s*\{([^{}]*)\}/g, '$1');
  for (const [re, rep] of SYMBOLS) s = s.replace(re, rep);
  s = s.replace(/\^\{([^{}]*)\}/g, (_m, e: string) => (/^[-\w.]+$/.test(e) && e.length <= 1 ? `^${e}` : /^-?\w+$/.test(e) ? `^${e}` : `^(${e})`));
  s = s.replace(/_\{([^{}]*)\}/g, '$1').replace(/_(\w)/g, '$1');
  s = s.replace(/[{}]/g, '');
  return s.replace(/\s+/g, ' ').trim();
}

export interface TextPart {
  kind: 'text' | 'math';
  value: string;
}

/** Splits item text into plain-text and math parts (`\$` is a literal dollar sign). */
export function splitMath(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let buf = '';
  let inMath = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && text[i + 1] === '$') {
      buf += inMath ? '\\$' : '$';
      i++;
      continue;
    }
    if (ch === '$') {
      if (buf) parts.push({ kind: inMath ? 'math' : 'text', value: buf });
      buf = '';
      inMath = !inMath;
      continue;
    }
    buf += ch;
  }
  // An unclosed $ is shown as text, never dropped.
  if (buf) parts.push(inMath ? { kind: 'text', value: `$${buf}` } : { kind: 'text', value: buf });
  return parts;
}

/** Item text with its math converted to plain text (for the CLI, voices, prompts and leak matching). */
export function toPlain(text: string): string {
  if (!text.includes('$') && !text.includes('\\')) return text;
  return splitMath(text)
    .map((p) => (p.kind === 'math' ? texToPlain(p.value) : p.value.replace(/\\([%&#_{}])/g, '$1')))
    .join('');
}

/** The text as the matcher reads it: LaTeX math turned into plain text, Unicode signs unified. */
export function plainForMatching(text: string): string {
  let t = text;
  if (/\\[a-z]/i.test(t) && !t.includes('$')) t = `$${t}$`; // bare LaTeX without delimiters
  return toPlain(t)
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013\u2014]/g, '-')
    .replace(/[×·]/g, '*');
}
