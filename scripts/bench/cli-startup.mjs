/**
 * `npm run bench:cli [-- --runs 10 --before HEAD]`: start-up of the CLI, median of --runs runs of
 * each command line, all interleaved in one loop so that load on the machine hits each alike:
 *
 * - `--help` and a short run (the 3-day fixture on BKT; the default scenario for one day on AKT,
 *   which includes loading onnxruntime-web and compiling the model);
 * - from the bundle (`node dist-cli/main.mjs`, built first by `npm run build:cli`), from the sources
 *   through tsx (`node --import tsx src/cli/main.ts`), through `npm run cli` (which picks the
 *   bundle), and, with --before <rev>, the sources of that revision through tsx (a copy made with
 *   `git archive` in a temporary directory, sharing node_modules and the model files).
 *
 * Figures: docs/sweeps.md, "CLI start-up".
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir, availableParallelism, cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' }, before: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);
execFileSync(process.execPath, [join(root, 'scripts/cli/build.mjs')], { stdio: 'inherit' });
const out = mkdtempSync(join(tmpdir(), 'educlaw-cli-bench-'));

const ways = [
  { name: 'bundle (node dist-cli/main.mjs)', cmd: [process.execPath, join(root, 'dist-cli/main.mjs')], cwd: root },
  { name: 'sources (node --import tsx src/cli/main.ts)', cmd: [process.execPath, '--import', 'tsx', join(root, 'src/cli/main.ts')], cwd: root },
  { name: 'npm run cli (picks the bundle)', cmd: ['npm', 'run', '-s', 'cli', '--'], cwd: root },
];
if (values.before) {
  const old = mkdtempSync(join(tmpdir(), 'educlaw-cli-before-'));
  execFileSync('sh', ['-c', `git archive ${values.before} src scenarios package.json tsconfig.json | tar -x -C ${old}`], { cwd: root });
  symlinkSync(join(root, 'node_modules'), join(old, 'node_modules'));
  symlinkSync(join(root, 'public'), join(old, 'public'));
  ways.push({ name: `${values.before}'s sources (node --import tsx src/cli/main.ts)`, cmd: [process.execPath, '--import', 'tsx', join(old, 'src/cli/main.ts')], cwd: old });
}
const tasks = [
  { name: '--help', args: ['--help'] },
  { name: 'run, 3-day fixture, BKT', args: ['run', '--scenario', 'scenarios/fixtures/mini-3day.yaml', '--tutor', 'planner', '--seed', '1', '--quiet', '--out'], out: true },
  { name: 'run, default scenario, 1 day, AKT', args: ['run', '--tutor', 'planner', '--seed', '1', '--horizon', '1', '--quiet', '--out'], out: true },
];
const ms = new Map();
let n = 0;
for (let i = 0; i < runs; i++)
  for (const t of tasks)
    for (const w of ways) {
      const args = [...w.cmd.slice(1), ...t.args, ...(t.out ? [join(out, `t${n++}.jsonl`)] : [])];
      const t0 = performance.now();
      const r = spawnSync(w.cmd[0], args, { cwd: w.cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
      const dt = performance.now() - t0;
      if (r.status !== 0) throw new Error(`${w.name} ${t.name}: exit ${r.status}: ${r.stderr}`);
      const k = `${t.name}\u0000${w.name}`;
      ms.set(k, [...(ms.get(k) ?? []), dt]);
    }
const med = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
console.log(`bench:cli: median of ${runs} runs each, interleaved; machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
console.log(`| command | ${ways.map((w) => w.name).join(' | ')} |`);
console.log(`|---|${ways.map(() => '---:').join('|')}|`);
for (const t of tasks) console.log(`| ${t.name} | ${ways.map((w) => { const xs = ms.get(`${t.name}\u0000${w.name}`); return `${(med(xs) / 1000).toFixed(2)} s (${(Math.min(...xs) / 1000).toFixed(2)}–${(Math.max(...xs) / 1000).toFixed(2)})`; }).join(' | ')} |`);
