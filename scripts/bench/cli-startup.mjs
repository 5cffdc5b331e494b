/**
 * `npm run bench:cli [-- --runs 10 --before HEAD]`: start-up of the CLI, median of --runs runs of
 * each command line, all interleaved in one loop so that load on the machine hits each alike:
 *
 * - `--help` and a short run (the 3-day fixture on BKT; the default scenario for one day on AKT,
 *   which includes loading onnxruntime-web and compiling the model);
 * - from the bundle (`node dist-cli/main.mjs`, built first by `npm run build:cli`), from the sources
 *   through tsx (`node --import tsx src/cli/main.ts`), through `npm run cli` (which picks the
 *   bundle), and, with --before <rev>, the sources of that revision through tsx (a copy made with
 *   `git archive` in a temporary directory, sharing node_modules and the model files);
 * - for scale, in the same loop: `node -e 0`, `npm --version` and `npm run -s noop` (a script that
 *   runs `true`, in a temporary package of its own), what a command pays before any of the CLI's
 *   code runs: the last is what `npm run cli` costs before it starts node.
 *
 * Figures: docs/measurements/cli-startup.md.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
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
// What any command pays before the CLI's own code runs, timed in the same loop: node's start-up,
// npm's, and npm running a script that starts no node (what `npm run cli` adds before node starts).
const noop = mkdtempSync(join(tmpdir(), 'educlaw-npm-noop-'));
writeFileSync(join(noop, 'package.json'), JSON.stringify({ name: 'noop', version: '1.0.0', private: true, scripts: { noop: 'true' } }));
const bare = [
  { name: "node's own start-up (node -e 0)", cmd: [process.execPath, '-e', '0'], cwd: root },
  { name: "npm's own start-up (npm --version)", cmd: ['npm', '--version'], cwd: root },
  { name: 'npm running a script that does nothing (npm run -s noop)', cmd: ['npm', 'run', '-s', 'noop'], cwd: noop },
];
const ms = new Map();
let n = 0;
const timeIt = (key, cmd, args, cwd) => {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const dt = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${key.replace('\u0000', ' ')}: exit ${r.status}: ${r.stderr}`);
  ms.set(key, [...(ms.get(key) ?? []), dt]);
};
for (let i = 0; i < runs; i++) {
  for (const b of bare) timeIt(b.name, b.cmd[0], b.cmd.slice(1), b.cwd);
  for (const t of tasks)
    for (const w of ways) {
      const args = [...w.cmd.slice(1), ...t.args, ...(t.out ? [join(out, `t${n++}.jsonl`)] : [])];
      timeIt(`${t.name}\u0000${w.name}`, w.cmd[0], args, w.cwd);
    }
}
const med = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const fig = (xs) => `${(med(xs) / 1000).toFixed(2)} s (${(Math.min(...xs) / 1000).toFixed(2)}–${(Math.max(...xs) / 1000).toFixed(2)})`;
console.log(`bench:cli: median of ${runs} runs each, interleaved; machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
console.log(`| command | ${ways.map((w) => w.name).join(' | ')} |`);
console.log(`|---|${ways.map(() => '---:').join('|')}|`);
for (const t of tasks) console.log(`| ${t.name} | ${ways.map((w) => fig(ms.get(`${t.name}\u0000${w.name}`))).join(' | ')} |`);
console.log(`In the same loop, before any CLI code: ${bare.map((b) => `${b.name} ${fig(ms.get(b.name))}`).join('; ')}.`);
