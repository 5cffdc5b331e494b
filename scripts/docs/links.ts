/**
 * Relative links in the repository's Markdown must resolve: `[text](path)` and `[text](path#anchor)`
 * to a file or folder that exists, and an anchor to a heading (GitHub's slugs) or an
 * `<a id="…">` in the file it names. External links (http:, https:, mailto:) are not checked.
 *
 * `npx tsx scripts/docs/links.ts` prints every broken link with its file and line and exits 1 when
 * there is one; `scripts/docs/links.test.ts` runs the same check in the unit tests.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders never walked: packages, build outputs, results, data kept out of git. */
const SKIP = new Set(['node_modules', '.git', 'dist', 'dist-cli', 'dist-bench', 'test-results', 'playwright-report', 'runs', 'classroom-data', '.cache', '.scratch', '__pycache__']);

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  why: string;
}

export function markdownFiles(root: string, dir = root, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue; // a dangling symlink
    if (st.isDirectory()) markdownFiles(root, p, out);
    else if (name.endsWith('.md')) out.push(p);
  }
  return out;
}

/** GitHub's heading slug: lower case, punctuation dropped (letters, digits, `-`, `_` and spaces kept), spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors a Markdown file defines: its headings' slugs (repeats numbered -1, -2, …) and explicit ids. */
export function anchorsOf(file: string): Set<string> {
  const cached = anchorCache.get(file);
  if (cached) return cached;
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

export function checkLinks(root: string): BrokenLink[] {
  anchorCache.clear();
  const broken: BrokenLink[] = [];
  for (const file of markdownFiles(root)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    let fence = false;
    lines.forEach((line, i) => {
      if (/^\s*(```|~~~)/.test(line)) fence = !fence;
      if (fence) return;
      const code = line.replace(/`[^`]*`/g, '');
      for (const m of code.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const dest = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        const where = { file: relative(root, file), line: i + 1, target };
        if (!existsSync(dest)) {
          broken.push({ ...where, why: `no file ${relative(root, dest)}` });
          continue;
        }
        if (anchor !== undefined && dest.endsWith('.md') && !anchorsOf(dest).has(anchor)) broken.push({ ...where, why: `no heading or id "${anchor}" in ${relative(root, dest)}` });
      }
    });
  }
  return broken;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const broken = checkLinks(root);
  for (const b of broken) console.error(`${b.file}:${b.line}: ${b.target}: ${b.why}`);
  console.log(`${broken.length} broken link${broken.length === 1 ? '' : 's'} in ${markdownFiles(root).length} Markdown files`);
  process.exit(broken.length ? 1 : 0);
}
