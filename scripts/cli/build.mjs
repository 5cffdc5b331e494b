/**
 * `npm run build:cli`: the CLI bundled with esbuild into dist-cli/, so that `npm run cli` starts
 * without transpiling TypeScript (tsx) at every start (docs/sweeps.md, "CLI start-up").
 *
 * - dist-cli/main.mjs: src/cli/main.ts; each command (src/cli/command-table.ts) and each module
 *   loaded with import() is a chunk of its own, loaded only when used.
 * - dist-cli/boot.mjs: the sweep's worker thread (src/adapters/node/sweep/worker.ts). The pool
 *   starts `./boot.mjs` next to itself (pool.ts): in the sources that file registers tsx and
 *   loads worker.ts; in the bundle it is the bundled worker.
 * - Packages (node_modules) stay imports: the bundle holds only this repository's code, and the
 *   same package files run either way.
 * - dist-cli/inputs.json: every source file in the bundle; scripts/cli/run.mjs runs the bundle only
 *   while none of them is newer than it.
 */
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'dist-cli');
const t0 = performance.now();
// Sources are compared with the time the build started: a file edited while it ran counts as newer.
const startedMs = Date.now();
// Built beside and renamed into place, so a CLI starting meanwhile never sees half a bundle.
const tmp = `${out}.tmp-${process.pid}`;
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
const res = await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/main.ts', boot: 'src/adapters/node/sweep/worker.ts' },
  outdir: tmp,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  // Chunks stay beside main.mjs and boot.mjs: pool.ts finds ./boot.mjs next to its own chunk.
});
const inputs = Object.keys(res.metafile.inputs).filter((f) => !f.includes('node_modules/')).sort();
writeFileSync(join(tmp, 'inputs.json'), JSON.stringify({ built: new Date(startedMs).toISOString(), startedMs, inputs }, null, 1) + '\n');
rmSync(out, { recursive: true, force: true });
const { renameSync } = await import('node:fs');
renameSync(tmp, out);
console.log(`build:cli: ${inputs.length} source files -> ${relative(root, out)}/ in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
