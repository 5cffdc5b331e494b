/**
 * The layer rules (see docs/architecture.md), checked on the source text:
 * - src/core imports nothing outside src/core and the allowed pure libraries, and never reads
 *   the wall clock or Math.random;
 * - src/adapters/browser and src/adapters/node never import each other, ui/ or cli/;
 * - src/ui does not import adapters/node or cli; src/cli does not import ui or adapters/browser;
 * - src/adapters/classroom (the classroom service, for the server and the page) imports only core;
 * - src/server (the classroom server) imports core and adapters other than the browser's; nothing imports it;
 * - src/testing is imported only by tests;
 * - no import cycles among src/ files, and none between the folders of src/core (an area of the
 *   core is a folder under it, or one of its top-level files);
 * - outside the core, code imports the core through an index (`src/core/index.ts` or an area's
 *   `index.ts`), never a file deep inside an area (tests may, to reach what they test).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const SRC = resolve(__dirname);
const CORE_LIBS = ['zod', 'yaml', 'pure-rand', 'simple-statistics', 'to-words', '@stdlib/stats-wilcoxon', '@stdlib/stats-base-dists-t-quantile'];

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

/** The file a relative import names: as written, or with `.ts`, or its folder's `index.ts`; null for a package or a file we do not scan. */
function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const c of [base, `${base}.ts`, join(base, 'index.ts')]) if (/\.(ts|svelte)$/.test(c) && existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/**
 * Import cycles, each as the files around it starting from its first by name: a depth-first
 * search reports the path back to a file still on the stack. Empty exactly when there is no cycle
 * (every cycle has such a back edge; a file inside two cycles may show only one of them until the
 * other is fixed). Twenty lines over the imports this test already parses: not worth a dependency
 * (madge, dependency-cruiser) that would parse them again with its own resolution rules.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const seen = new Set<string>();
  const cycles: string[][] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === 'open') {
        const cycle = stack.slice(stack.indexOf(g));
        const i = cycle.indexOf([...cycle].sort()[0]!);
        const key = [...cycle.slice(i), ...cycle.slice(0, i)].join(' → ');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cycle.slice(i), ...cycle.slice(0, i)]);
        }
      } else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of [...graph.keys()].sort()) if (!state.has(f)) visit(f);
  return cycles.sort((a, b) => a.join().localeCompare(b.join()));
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
      // The classroom service runs in the classroom server and, on one device, in the page.
      ['adapters/classroom', ['adapters/node', 'adapters/browser', 'ui/', 'cli/', 'server/']],
      ['server/', ['ui/', 'adapters/browser', 'cli/']],
    ];
    const bad: string[] = [];
    for (const f of all) {
      const rel = relative(SRC, f);
      for (const spec of imports(f).filter((s) => s.startsWith('.'))) {
        const target = relative(SRC, resolve(dirname(f), spec));
        for (const [from, banned] of rules) if (rel.startsWith(from) && banned.some((b) => target.startsWith(b))) bad.push(`${rel} imports ${spec}`);
        if (target.startsWith('testing') && !isTest(f)) bad.push(`${rel} imports test helpers ${spec}`);
        if (target.startsWith('server/') && !rel.startsWith('server/') && !isTest(f)) bad.push(`${rel} imports the classroom server ${spec}`);
      }
    }
    expect(bad).toEqual([]);
    expect(area(join(SRC, 'core/x/y.ts'))).toBe('core/x');
  });

  it('has no import cycles among src/ files (type-only imports included)', () => {
    // Type-only imports are erased at run time, but a cycle through one still means neither module
    // can be read, tested or moved without the other; there are none, so none are allowed. A file
    // that imports itself (a recursive Svelte component) is recursion, not a cycle between modules.
    const graph = new Map(all.map((f) => [relative(SRC, f), imports(f).map((s) => resolveImport(f, s)).filter((t): t is string => t !== null && t !== f).map((t) => relative(SRC, t))]));
    expect(importCycles(graph).map((c) => [...c, c[0]].join(' → '))).toEqual([]);
  });

  it('has no import cycles between the areas of src/core (a folder under it, or a top-level file)', () => {
    // A folder-level cycle means two areas cannot be read, tested or moved apart even when no file
    // cycle exists: the shared type or constant belongs in the lower of the two (core/README.md).
    // Tests are left out: a test may exercise its area through the whole core.
    const coreArea = (f: string) => relative(join(SRC, 'core'), f).split('/')[0]!;
    const graph = new Map<string, Set<string>>();
    for (const f of all.filter((f) => relative(SRC, f).startsWith('core/') && !isTest(f))) {
      const from = coreArea(f);
      for (const t of imports(f).map((s) => resolveImport(f, s))) {
        if (t === null || !relative(SRC, t).startsWith('core/') || coreArea(t) === from) continue;
        graph.set(from, (graph.get(from) ?? new Set()).add(coreArea(t)));
      }
    }
    expect(importCycles(new Map([...graph].map(([a, bs]) => [a, [...bs].sort()]))).map((c) => [...c, c[0]].join(' → '))).toEqual([]);
  });

  it('imports the core from outside only through an index, never a file deep inside an area', () => {
    const bad: string[] = [];
    for (const f of all.filter((f) => !relative(SRC, f).startsWith('core/') && !isTest(f))) {
      for (const spec of imports(f)) {
        const t = resolveImport(f, spec);
        if (t !== null && relative(SRC, t).startsWith('core/') && !t.endsWith('/index.ts')) bad.push(`${relative(SRC, f)} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('finds cycles: each once, whatever file it is entered from', () => {
    const g = new Map([['a', ['b']], ['b', ['c', 'a']], ['c', ['b']], ['d', ['d']], ['e', ['a']]]);
    expect(importCycles(g)).toEqual([['a', 'b'], ['b', 'c'], ['d']]);
    expect(importCycles(new Map([['x', ['y']], ['y', []]]))).toEqual([]);
  });
});
