/**
 * The layer rules (see docs/architecture.md), checked on the source text:
 * - src/core imports nothing outside src/core and the allowed pure libraries, and never reads
 *   the wall clock or Math.random;
 * - src/adapters/browser and src/adapters/node never import each other, ui/ or cli/;
 * - src/ui does not import adapters/node or cli; src/cli does not import ui or adapters/browser;
 * - src/testing is imported only by tests.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const SRC = resolve(__dirname);
const CORE_LIBS = ['zod', 'yaml', 'pure-rand', 'simple-statistics'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|svelte)$/.test(n) ? [p] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

const area = (file: string) => relative(SRC, file).split('/').slice(0, 2).join('/');
const isTest = (f: string) => /\.test[^/]*\.ts$/.test(f) || f.includes('/testing/');

describe('architecture', () => {
  const all = files(SRC).filter((f) => !f.endsWith('architecture.test.ts'));

  it('core is pure: only core-relative imports and pure libraries; no wall clock, no Math.random, no DOM', () => {
    const bad: string[] = [];
    for (const f of all.filter((f) => relative(SRC, f).startsWith('core/') && !isTest(f))) {
      for (const spec of imports(f)) {
        if (spec.startsWith('.')) {
          const target = resolve(dirname(f), spec);
          if (!relative(SRC, target).startsWith('core')) bad.push(`${relative(SRC, f)} imports ${spec}`);
        } else if (!CORE_LIBS.some((l) => spec === l || spec.startsWith(`${l}/`))) bad.push(`${relative(SRC, f)} imports ${spec}`);
      }
      const text = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const banned = [/\bDate\.now\(/, /\bnew Date\(/, /\bMath\.random\(/, /\bperformance\.now\(/, /\bdocument\./, /\bwindow\./, /\blocalStorage\b/, /\bindexedDB\b/, /(?<![.\w])fetch\(/];
      for (const re of banned) if (re.test(text)) bad.push(`${relative(SRC, f)} uses ${re.source}`);
    }
    expect(bad).toEqual([]);
  });

  it('adapters, ui and cli respect their boundaries; testing/ is for tests only', () => {
    const rules: [string, string[]][] = [
      ['adapters/browser', ['adapters/node', 'ui/', 'cli/']],
      ['adapters/node', ['adapters/browser', 'ui/', 'cli/']],
      ['ui/', ['adapters/node', 'cli/']],
      ['cli/', ['ui/', 'adapters/browser']],
    ];
    const bad: string[] = [];
    for (const f of all) {
      const rel = relative(SRC, f);
      for (const spec of imports(f).filter((s) => s.startsWith('.'))) {
        const target = relative(SRC, resolve(dirname(f), spec));
        for (const [from, banned] of rules) if (rel.startsWith(from) && banned.some((b) => target.startsWith(b))) bad.push(`${rel} imports ${spec}`);
        if (target.startsWith('testing') && !isTest(f)) bad.push(`${rel} imports test helpers ${spec}`);
      }
    }
    expect(bad).toEqual([]);
    expect(area(join(SRC, 'core/x/y.ts'))).toBe('core/x');
  });
});
