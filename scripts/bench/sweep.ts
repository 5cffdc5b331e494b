/**
 * `npm run bench:sweep [-- --tutor planner --jobs 2 --seeds 42 --tracer akt|bkt --workers bundle|sources]`:
 * wall time of the 55-scenario library sweep with a built-in tutor (target: under 2 minutes on 2
 * cores), and the time per run. Without --tracer each scenario uses its own (AKT in the library).
 * The worker threads run the bundled CLI's worker (dist-cli/boot.mjs, built first), as
 * `npm run cli -- sweep` does; `--workers sources` runs them from the sources through tsx.
 * Traces and summaries go to a temporary directory (printed), as a real sweep writes them.
 *
 * `--compare-order [--rounds n]`: the same sweep with jobs handed out in file order and longest
 * first (the default; core/sweep/cost.ts), alternating, n rounds (default 1) in this process; prints
 * each wall time, the ratio, how well the estimate ranks the runs' measured times (Spearman), and
 * checks that both orders wrote byte-identical traces and summaries.
 *
 * `--compare-engine [--baseline <git ref>] [--rounds n]`: the same sweep run by today's tree and by
 * the previous engine version's code, side by side, alternating, n rounds (default 1), each sweep in
 * a child process of its own (`tsx scripts/bench/sweep.ts` in either tree, the same options), so
 * both pay the same start-up. The baseline is a commit's files unpacked with `git archive` into a
 * temporary directory (the repository and its working tree are only read) with this tree's
 * node_modules linked in; by default it is the newest commit that still runs the previous engine
 * version (the parent of the commit that introduced ENGINE_VERSION, or HEAD while that change is
 * not committed). Prints both wall times and the ratio, and, where the engine change only changed
 * what a trace records (engine 1 → 2: run_start.engine and the belief after each answer, read over
 * the course's skills instead of all), checks that the two wrote the same traces and summaries;
 * across a change of what runs do (engine 2 → 3) it compares wall times only, and says so.
 */
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ENGINE_VERSION, estimateRunCost, libraryEntries, parseJsonl, parseSeedList, toJsonl, type TraceEvent } from '../../src/core/index';
import { ROOT } from '../../src/adapters/node/files';
import { runNodeSweep } from '../../src/adapters/node/sweep/run-sweep';

const { values } = parseArgs({ options: { workers: { type: 'string', default: 'bundle' }, tutor: { type: 'string', default: 'withholder' }, jobs: { type: 'string', default: '2' }, seeds: { type: 'string', default: '42' }, tracer: { type: 'string' }, 'compare-order': { type: 'boolean', default: false }, 'compare-engine': { type: 'boolean', default: false }, baseline: { type: 'string' }, 'compare-outputs': { type: 'string' }, rounds: { type: 'string', default: '1' } } });
/**
 * Numbers in two traces' events may differ by this much (--compare-engine): the AKT parity bound
 * (docs/kt/model-card.md), and one step of mastery's 4-decimal rounding, which a 1e-6 change can flip.
 */
const NUM_TOL = 1e-4;
/** Numbers in two sweeps' summary.json may differ by this much (--compare-engine): means of trace numbers within NUM_TOL. */
const SUMMARY_TOL = 1e-5;
if (values.workers !== 'bundle' && values.workers !== 'sources') throw new Error(`--workers takes bundle or sources, not "${values.workers}"`);
/**
 * The worker threads' code: the bundled CLI's worker (dist-cli/boot.mjs, built here first), as
 * `npm run cli -- sweep` runs it, or with `--workers sources` the TypeScript sources through tsx
 * (each thread transpiles the core before its first run, about a second).
 */
const workerFile = values.workers === 'bundle' && !values['compare-outputs'] && !values['compare-engine'] ? bundledWorker() : undefined;
function bundledWorker(): string {
  execFileSync(process.execPath, [join(ROOT, 'scripts/cli/build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  return join(ROOT, 'dist-cli', 'boot.mjs');
}
const threads = Number(values.jobs);
if (!Number.isInteger(threads) || threads < 1) throw new Error(`--jobs must be a positive integer, got ${values.jobs}`);
const files = libraryEntries().map((e) => resolve(ROOT, 'scenarios', e.file));
const seeds = parseSeedList(values.seeds!);
const out = mkdtempSync(join(tmpdir(), 'educlaw-bench-'));
if (!values['compare-outputs']) console.log(`bench:sweep: ${files.length} library scenarios × ${seeds.length} seed(s), tutor ${values.tutor}, tracer ${values.tracer ?? "each scenario's (akt)"}, ${threads} worker thread(s) (${workerFile ? 'the bundled CLI\'s worker, dist-cli/boot.mjs' : 'workers from the sources through tsx'}); machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
const base = { tutor: { name: values.tutor!, config: {} }, ...(values.tracer ? { tracer: values.tracer } : {}) };
if (values['compare-order']) {
  await compareOrders();
  process.exit(process.exitCode ?? 0);
}
if (values['compare-outputs']) {
  const [a, b] = values['compare-outputs'].split(',');
  if (!a || !b) throw new Error(`--compare-outputs takes two sweep output directories, baseline first: a,b (got "${values['compare-outputs']}")`);
  compareOutputs(a, b);
  process.exit(process.exitCode ?? 0);
}
if (values['compare-engine']) {
  await compareEngines();
  process.exit(process.exitCode ?? 0);
}
const res = await runNodeSweep({ files, base, seeds, threads, outDir: out, ...(workerFile ? { workerFile } : {}) });
const ms = res.results.map((r) => r.ms).sort((a, b) => a - b);
const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!;
const failed = res.summary.failed.length;
console.log(`wall time: ${(res.wallMs / 1000).toFixed(1)} s for ${ms.length} runs (${failed} failed) — target under 120 s on 2 cores: ${res.wallMs < 120_000 ? 'met' : 'NOT met'}`);
console.log(`per run (inside a worker): mean ${(ms.reduce((a, b) => a + b, 0) / ms.length / 1000).toFixed(2)} s, median ${(q(0.5) / 1000).toFixed(2)} s, p90 ${(q(0.9) / 1000).toFixed(2)} s, max ${(ms[ms.length - 1]! / 1000).toFixed(2)} s`);
console.log(`wall time per run: ${(res.wallMs / ms.length / 1000).toFixed(2)} s (includes worker start-up: each thread loads ${workerFile ? 'the bundle' : 'tsx, the core'} and the tracer once)`);
console.log(`traces and summaries: ${out}`);
if (failed) process.exitCode = 1;

/** Ranks (1-based, ties averaged) of xs. */
function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

function spearman(a: readonly number[], b: readonly number[]): number {
  const ra = ranks(a);
  const rb = ranks(b);
  const m = (ra.length + 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < ra.length; i++) {
    num += (ra[i]! - m) * (rb[i]! - m);
    da += (ra[i]! - m) ** 2;
    db += (rb[i]! - m) ** 2;
  }
  return num / Math.sqrt(da * db);
}

/** Every file under dir (relative path → bytes), timing.json left out (wall times). */
function filesOf(dir: string, rel = ''): Map<string, Buffer> {
  const m = new Map<string, Buffer>();
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const p = join(rel, e.name);
    if (e.isDirectory()) for (const [k, v] of filesOf(dir, p)) m.set(k, v);
    else if (p !== 'timing.json') m.set(p, readFileSync(join(dir, p)));
  }
  return m;
}

async function compareOrders(): Promise<void> {
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, got ${values.rounds}`);
  const wall: Record<'file' | 'longest-first', number[]> = { file: [], 'longest-first': [] };
  const busy: Record<'file' | 'longest-first', number[]> = { file: [], 'longest-first': [] };
  const dirs: Record<string, string> = {};
  let perRun: { est: number; ms: number; attempts: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const dispatch of ['file', 'longest-first'] as const) {
      const dir = join(out, `${dispatch}-${round + 1}`);
      const r = await runNodeSweep({ files, base, seeds, threads, outDir: dir, dispatch, ...(workerFile ? { workerFile } : {}) });
      if (r.summary.failed.length) process.exitCode = 1;
      wall[dispatch].push(r.wallMs);
      dirs[dispatch] ??= dir;
      if (dispatch === 'longest-first') perRun = r.results.map((x) => ({ est: estimateRunCost(x.job.record), ms: x.ms, attempts: x.summary?.activity.attempts ?? 0 }));
      const last = r.results.slice().sort((a, b) => b.ms - a.ms)[0]!;
      const sum = r.results.reduce((a, x) => a + x.ms, 0);
      busy[dispatch].push(sum / (threads * r.wallMs));
      // Busy share: the runs' own time over threads × wall time; what is left is start-up and threads idle at the end.
      console.log(`round ${round + 1}, ${dispatch.padEnd(13)}: wall ${(r.wallMs / 1000).toFixed(1)} s; sum of run times ${(sum / 1000).toFixed(1)} s, threads busy ${((100 * sum) / (threads * r.wallMs)).toFixed(0)}% of the wall time; slowest run ${last.job.runId} ${(last.ms / 1000).toFixed(2)} s`);
    }
  }
  const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const f = med(wall.file);
  const l = med(wall['longest-first']);
  console.log(`median wall time over ${rounds} round(s): file order ${(f / 1000).toFixed(1)} s, longest first ${(l / 1000).toFixed(1)} s (${(l / f).toFixed(2)}× the file order's); threads busy (median): file order ${(100 * med(busy.file)).toFixed(0)}%, longest first ${(100 * med(busy['longest-first'])).toFixed(0)}%`);
  const est = perRun.map((x) => x.est);
  console.log(`cost estimate (core/sweep/cost.ts) against each run's graded answers: Spearman ${spearman(est, perRun.map((x) => x.attempts)).toFixed(2)}; against its measured time (longest-first round ${rounds}): ${spearman(est, perRun.map((x) => x.ms)).toFixed(2)}; answers against time: ${spearman(perRun.map((x) => x.attempts), perRun.map((x) => x.ms)).toFixed(2)} (${perRun.length} runs)`);
  const a = filesOf(dirs.file!);
  const b = filesOf(dirs['longest-first']!);
  const same = a.size === b.size && [...a].every(([k, v]) => b.get(k)?.equals(v));
  console.log(`traces and summaries of the two orders: ${same ? `byte-identical (${a.size} files)` : 'DIFFER'}`);
  if (!same) process.exitCode = 1;
  console.log(`traces and summaries: ${out}`);
}

/** The git ref of the previous engine version's code: see the header. */
function defaultBaseline(): string {
  const git = (...a: string[]) => execFileSync('git', ['-C', ROOT, ...a], { encoding: 'utf8' }).trim();
  const intro = git('log', '--format=%H', '-G', `ENGINE_VERSION = '${ENGINE_VERSION}'`, '--', 'src/core/engine/version.ts').split('\n').filter(Boolean).at(-1);
  return intro ? `${intro}^` : 'HEAD';
}

/** The files of `ref` in a new temporary directory, with this tree's node_modules linked in. */
function unpack(ref: string): { dir: string; commit: string; engine: string } {
  const git = (...a: string[]) => execFileSync('git', ['-C', ROOT, ...a], { encoding: 'utf8', maxBuffer: 1 << 26 }).trim();
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const engine = /ENGINE_VERSION = '([^']+)'/.exec(git('show', `${commit}:src/core/engine/version.ts`))?.[1];
  if (!engine) throw new Error(`--baseline ${ref}: ${commit.slice(0, 10)} has no ENGINE_VERSION in src/core/engine/version.ts`);
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-baseline-'));
  execFileSync('sh', ['-c', `git -C "$0" archive "$1" | tar -x -C "$2"`, ROOT, commit, dir]);
  if (!existsSync(join(dir, 'scripts/bench/sweep.ts'))) throw new Error(`--baseline ${ref}: ${commit.slice(0, 10)} has no scripts/bench/sweep.ts`);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, commit, engine };
}

/** Runs `tsx scripts/bench/sweep.ts` of the tree at `cwd` with this run's options; its wall time and output directory. */
function sweepIn(cwd: string, label: string): Promise<{ wallS: number; out: string; text: string }> {
  // Both trees' workers run from their sources through tsx (a baseline commit may have no bundle).
  const args = ['scripts/bench/sweep.ts', ...(label === 'current' ? ['--workers', 'sources'] : []), '--tutor', values.tutor!, '--jobs', String(threads), '--seeds', values.seeds!, ...(values.tracer ? ['--tracer', values.tracer] : [])];
  return new Promise((done, fail) => {
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (b: Buffer) => (text += b.toString()));
    child.stderr.on('data', (b: Buffer) => (text += b.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const wall = /^wall time: ([\d.]+) s for (\d+) runs \((\d+) failed\)/m.exec(text);
      const out = /^traces and summaries: (.+)$/m.exec(text);
      if (code !== 0 || !wall || !out) return fail(new Error(`the ${label} sweep (${cwd}) ended with code ${code}:\n${text.slice(-2000)}`));
      done({ wallS: Number(wall[1]), out: out[1]!.trim(), text });
    });
  });
}

/**
 * A baseline trace as engine 2 would write it, when the baseline ran engine 1: run_start.engine,
 * and each belief after an answer (every mastery event but the one just before end_of_day) cut to
 * the course's skills. Any other engine pair: unchanged (compared as it is).
 */
function asCurrent(events: TraceEvent[]): TraceEvent[] {
  const start = events[0];
  if (start?.type !== 'run_start' || !(start.engine === 'educlaw-lab-engine-1' && (ENGINE_VERSION as string) === 'educlaw-lab-engine-2')) return events;
  const course = start.scenario.course.skills;
  return events.map((e, i): TraceEvent => {
    if (e.type === 'run_start') return { ...e, engine: ENGINE_VERSION };
    const next = events[i + 1];
    if (e.type !== 'mastery' || (next?.type === 'lms_event' && next.kind === 'end_of_day')) return e;
    return { ...e, scope: 'course', skills: [...course], values: course.map((sk) => e.values[e.skills.indexOf(sk)]!) };
  });
}

async function compareEngines(): Promise<void> {
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, got ${values.rounds}`);
  const ref = values.baseline ?? defaultBaseline();
  const base = unpack(ref);
  const subject = execFileSync('git', ['-C', ROOT, 'log', '-1', '--format=%s', base.commit], { encoding: 'utf8' }).trim();
  console.log(`baseline: ${ref} = ${base.commit.slice(0, 10)} (${base.engine}; "${subject.slice(0, 80)}"), unpacked in ${base.dir}; current: this working tree (${ENGINE_VERSION})`);
  const wall = { baseline: [] as number[], current: [] as number[] };
  const outs = { baseline: '', current: '' };
  for (let round = 0; round < rounds; round++) {
    for (const which of ['baseline', 'current'] as const) {
      const r = await sweepIn(which === 'baseline' ? base.dir : ROOT, which);
      wall[which].push(r.wallS);
      outs[which] ||= r.out;
      const per = /^per run \(inside a worker\): (.+)$/m.exec(r.text)?.[1] ?? '';
      console.log(`round ${round + 1}, ${which.padEnd(8)}: wall ${r.wallS.toFixed(1)} s; per run ${per}`);
    }
  }
  const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const b = med(wall.baseline);
  const c = med(wall.current);
  console.log(`median wall time over ${rounds} round(s): baseline ${b.toFixed(1)} s, current ${c.toFixed(1)} s: ${(b / c).toFixed(2)}× faster (current/baseline ${(c / b).toFixed(2)})`);
  // Engine 1 → 2 changed only what a trace records (asCurrent maps it); later engine changes change
  // what runs do (engine 3: the learning model), so their traces are other runs: wall times only.
  const mapped = base.engine === ENGINE_VERSION || (base.engine === 'educlaw-lab-engine-1' && (ENGINE_VERSION as string) === 'educlaw-lab-engine-2');
  if (mapped) compareOutputs(outs.baseline, outs.current);
  else console.log(`traces: not compared: ${base.engine} → ${ENGINE_VERSION} changes what runs do (docs/trace-format.md), so the two sweeps ran other runs; the wall times above are the comparison`);
  console.log(`baseline sweep: ${outs.baseline}; current sweep: ${outs.current}`);
}


/** Where two JSON values differ beyond `tol` for numbers (null: they do not). */
function firstDifference(a: unknown, b: unknown, path: string, tol = NUM_TOL): string | null {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= tol + 1e-12 ? null : `${path}: ${a} against ${b}`;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return `${path}: an array against an object`;
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      const d = firstDifference(x[k], y[k], `${path}.${k}`, tol);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${path}: ${JSON.stringify(a)?.slice(0, 60)} against ${JSON.stringify(b)?.slice(0, 60)}`;
}

/** The largest difference between numbers at the same place in two JSON values. */
function numDiff(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return 0;
  let m = 0;
  const y = b as Record<string, unknown>;
  for (const [k, v] of Object.entries(a as Record<string, unknown>)) m = Math.max(m, numDiff(v, y[k]));
  return m;
}

/**
 * Whether two sweep outputs (baseline first) ran the same runs: every trace of the baseline, as
 * the current engine would write it, against the current one's (every event, outcome and text
 * equal, numbers within NUM_TOL: the learner model's runtime or graphs may differ in the last
 * digits, which are other changes than the engine's; run_start.tracer reported apart); summaries
 * byte for byte. Sets a failing exit code when they did not.
 */
function compareOutputs(baselineOut: string, currentOut: string): void {
  const bf = filesOf(baselineOut);
  const cf = filesOf(currentOut);
  const names = [...new Set([...bf.keys(), ...cf.keys()])].sort();
  const differ: string[] = [];
  const tracers = new Set<string>();
  let maxDiff = 0;
  let traces = 0;
  let cut = false;
  let summaryDiff = 0;
  for (const name of names) {
    const x = bf.get(name);
    const y = cf.get(name);
    if (!x || !y) differ.push(`${name} (only in the ${x ? 'baseline' : 'current'} sweep)`);
    else if (name.endsWith('.jsonl')) {
      traces++;
      const first = parseJsonl(x.toString('utf8'), name).events;
      if (first[0]?.type === 'run_start' && first[0].engine === 'educlaw-lab-engine-1') cut = true;
      const a = asCurrent(first);
      const b = parseJsonl(y.toString('utf8'), name).events;
      const ta = JSON.stringify(a[0]?.type === 'run_start' ? a[0].tracer : null);
      const tb = JSON.stringify(b[0]?.type === 'run_start' ? b[0].tracer : null);
      if (ta !== tb) tracers.add(`${ta} → ${tb}`);
      const strip = (e: TraceEvent) => (e.type === 'run_start' ? { ...e, tracer: null } : e);
      const why = a.length !== b.length ? `${a.length} events against ${b.length}` : a.map((e, i) => firstDifference(strip(e), strip(b[i]!), `line ${i + 1}`)).find((d) => d !== null);
      if (typeof why === 'string') differ.push(`${name}: ${why}`);
      for (let i = 0; i < a.length && i < b.length; i++) maxDiff = Math.max(maxDiff, numDiff(a[i], b[i]));
    } else if (name.endsWith('.json') && !x.equals(y)) {
      // Summaries are means of the traces' numbers: a 1e-6 change of a probe moves them in the 7th decimal.
      const [p, q] = [JSON.parse(x.toString('utf8')) as unknown, JSON.parse(y.toString('utf8')) as unknown];
      const d = firstDifference(p, q, name, SUMMARY_TOL);
      if (d) differ.push(d);
      summaryDiff = Math.max(summaryDiff, numDiff(p, q));
    } else if (!x.equals(y)) differ.push(`${name} (not byte-identical)`);
  }
  for (const t of tracers) console.log(`run_start.tracer: ${t}`);
  if (differ.length) {
    console.log(`traces and summaries: ${differ.length} of ${names.length} files DIFFER beyond the engine change: the two sweeps did not run the same runs. First: ${differ.slice(0, 3).join('; ')}`);
    process.exitCode = 1;
  } else console.log(`traces and summaries: the same runs (${traces} traces: every event, outcome and text as the engine change says${cut ? " (engine 1's belief after each answer cut to the course's skills, run_start.engine)" : ''}, numbers within ${NUM_TOL}: largest difference ${maxDiff.toExponential(1)}; summaries ${names.length - traces === 0 ? 'none' : summaryDiff === 0 ? 'byte-identical' : `the same, numbers within ${SUMMARY_TOL}: largest difference ${summaryDiff.toExponential(1)}`})`);
}
