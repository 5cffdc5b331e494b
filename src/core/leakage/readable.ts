/**
 * A tutor text as a student reads it: what the page renders, written as the plain ASCII a
 * student would type. Everything the disclosure detector (detect.ts) looks at goes through here
 * first, so a tutor cannot hide an answer in how it is encoded:
 *  - invisible characters are removed: zero-width spaces and joiners, soft hyphens, bidi marks,
 *    word joiners, variation selectors, every Unicode format character (Cf) and combining marks
 *    left over after NFKC (a strike-through on a digit);
 *  - Unicode is NFKC-normalised (fullwidth and mathematical digits, circled numbers, "½", "Ⅻ"),
 *    superscript digits read as powers first ("x²" = "x^2");
 *  - digits of every other script (Devanagari, Arabic-Indic, Thai, …) read as ASCII digits;
 *  - LaTeX reads as rendered: \frac \dfrac \tfrac with or without braces ("\tfrac58"), "{a \over b}",
 *    \boxed, \mathbf, \color and any other command dropped to its argument, spacing commands
 *    (\, \; \: \ ~) as a space and \! as nothing;
 *  - fraction slash, division slash and "÷" read as "/", every dash and the minus sign as "-",
 *    "×" and "·" as "*", every kind of space as a plain space;
 *  - Markdown emphasis (** __ ` ~~) is dropped;
 *  - Roman numerals of two capitals or more read as numbers ("XII"); a single letter or lower
 *    case is read by the detector's number rule, only stated as the answer ("the answer is V.");
 *  - a run of two or more digit words reads digit by digit ("five four" = "5 4"; "negative" before
 *    a number is its sign), and a word
 *    spelled out in single letters is joined ("f i v e" = "five").
 * Line breaks are kept (a line is a context boundary for the detector).
 */
import { replaceSuperscripts } from '../course/expr';
import { plainForMatching } from '../course/math-text';

const INVISIBLE = /[\p{Cf}\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u3164\uFE00-\uFE0F\uFFA0]/gu;
const SPACES = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\t\f\v]/g;
const DASHES = /[\u2010-\u2015\u2212\u2796\uFE58\uFE63\uFF0D]/g;
const SLASHES = /[\u2044\u2215\u29F8\uFF0F÷]/g;

/** The ASCII digit of a decimal digit of any script (Unicode digits come in aligned runs of ten). */
const digitCache = new Map<number, string>();
function asciiDigit(ch: string): string {
  const cp = ch.codePointAt(0)!;
  let d = digitCache.get(cp);
  if (d === undefined) {
    let k = 0;
    while (k < 200 && /\p{Nd}/u.test(String.fromCodePoint(cp - k - 1))) k++;
    d = String(k % 10);
    digitCache.set(cp, d);
  }
  return d;
}

/** Reads one LaTeX argument at s[i]: a brace group, or else one character (\tfrac58). */
function latexArg(s: string, i: number): { arg: string; end: number } | undefined {
  while (s[i] === ' ') i++;
  if (i >= s.length) return undefined;
  if (s[i] === '{') {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      if (s[j] === '{') depth++;
      else if (s[j] === '}' && --depth === 0) return { arg: s.slice(i + 1, j), end: j + 1 };
    }
    return undefined;
  }
  if (s[i] === '\\') return undefined;
  return { arg: s[i]!, end: i + 1 };
}

/** LaTeX forms that math-text's toPlain does not read: brace-less \frac, \over, \boxed, \color, \!. */
function latexPrepass(s: string): string {
  if (!s.includes('\\')) return s;
  // {a \over b} and a bare "a \over b".
  s = s.replace(/\{([^{}]*?)\\over\b([^{}]*?)\}/g, (_m, a: string, b: string) => `\\frac{${a.trim()}}{${b.trim()}}`);
  s = s.replace(/([\w.]+)\s*\\over\b\s*([\w.]+)/g, '\\frac{$1}{$2}');
  // \frac with brace-less arguments.
  for (let guard = 0; guard < 50; guard++) {
    const re = /\\[dt]?frac(?![a-z])/g;
    let changed = false;
    let m: RegExpExecArray | null;
    while ((m = re.exec(s))) {
      const a = latexArg(s, m.index + m[0].length);
      if (!a) continue;
      const b = latexArg(s, a.end);
      if (!b) continue;
      const rebuilt = `\\frac{${a.arg}}{${b.arg}}`;
      const old = s.slice(m.index, b.end);
      if (old !== rebuilt) {
        s = s.slice(0, m.index) + rebuilt + s.slice(b.end);
        changed = true;
        break;
      }
    }
    if (!changed) break;
  }
  return s
    .replace(/\\(?:color|textcolor)\s*\{[^{}]*\}/g, '')
    .replace(/\\!/g, '')
    .replace(/\\(?:boxed|fbox|mathbf|mathit|mathrm|textbf|textit|textrm|text|mathsf|mathtt|bm|boldsymbol|underline|emph|displaystyle|textstyle|scriptstyle|large|Large|small|phantom)(?![a-z])/g, '')
    .replace(/\\ /g, ' ');
}

const ROMAN = /^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;
const ROMAN_VALUE: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
export function romanValue(s: string): number | undefined {
  const u = s.toUpperCase();
  if (!u || !ROMAN.test(u)) return undefined;
  let v = 0;
  for (let i = 0; i < u.length; i++) {
    const a = ROMAN_VALUE[u[i]!]!;
    const b = ROMAN_VALUE[u[i + 1] ?? ''] ?? 0;
    v += a < b ? -a : a;
  }
  return v;
}


const DIGIT_WORDS: Record<string, string> = { zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9' };
const SPELLED = new Set([...Object.keys(DIGIT_WORDS), 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred', 'thousand', 'half', 'third', 'thirds', 'fourth', 'fourths', 'quarter', 'quarters', 'fifth', 'fifths', 'minus', 'negative', 'point']);

const cache = new Map<string, string>();
const CACHE_MAX = 4096;

/** The text as a student reads it (see the file comment). */
export function readable(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  let s = text.replace(INVISIBLE, '').replace(/\p{M}+/gu, (m, off: number, all: string) => (off > 0 && /[\p{L}]/u.test(all[off - 1]!) ? m : ''));
  // Superscript digits are a power after a base ("x²" = "x^2"); with no base ("the answer is ²⁵") they are just digits.
  s = s.replace(/(^|[^\p{L}\p{N})\]])([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)/gu, (_m, b: string, d: string) => b + d.normalize('NFKC').replace(/⁻/g, '-'));
  s = replaceSuperscripts(s)
    .replace(/(\d?)([\u00BC-\u00BE\u2150-\u215E])/g, (_m, d: string, f: string) => `${d}${d ? ' ' : ''}${f.normalize('NFKC')}`)
    .replace(/\u066B/g, '.')
    .replace(/\u066C/g, ',');
  s = latexPrepass(s.normalize('NFKC'));
  s = plainForMatching(s)
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(/\p{M}+/gu, '')
    .replace(/\\[a-zA-Z]+/g, '')
    .replace(/\\/g, '')
    .replace(/\p{Nd}/gu, (c) => (c >= '0' && c <= '9' ? c : asciiDigit(c)))
    .replace(DASHES, '-')
    .replace(SLASHES, '/')
    .replace(/[×·]/g, '*')
    .replace(SPACES, ' ')
    .replace(/\r\n?/g, '\n')
    .replace(/(?<!\d)\*\*|\*\*(?!\d)|__|~~|`/g, '')
    .replace(/[‘’ʼ′]/g, "'")
    .replace(/[“”«»„]/g, '"');
  // A word spelled out in single letters: "f i v e", "f-i-v-e".
  s = s.replace(/\b[a-z](?:[ .-][a-z]){2,}\b/gi, (m) => {
    const w = m.replace(/[ .-]/g, '');
    return SPELLED.has(w.toLowerCase()) ? w : m;
  });
  // Roman numerals of two capitals or more (a single letter or lower case may be a variable: detect.ts reads those).
  s = s.replace(/\b[IVXLCDM]{2,}\b/g, (m) => {
    const v = romanValue(m);
    return v === undefined ? m : String(v);
  });
  // Runs of two or more digit words read digit by digit.
  s = s.replace(/\b(?:zero|one|two|three|four|five|six|seven|eight|nine)(?:[\s-]+(?:zero|one|two|three|four|five|six|seven|eight|nine))+\b/gi, (m) =>
    m
      .split(/[\s-]+/)
      .map((w) => DIGIT_WORDS[w.toLowerCase()]!)
      .join(' '),
  );
  // "negative 10" is -10 ("minus" may be a subtraction and stays a word).
  s = s.replace(/\bnegative\s+(?=\d)/gi, '-');
  s = s.replace(/[ ]{2,}/g, ' ');
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(text, s);
  return s;
}
