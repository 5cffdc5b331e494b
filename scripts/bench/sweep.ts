/**
 * `npm run bench:sweep [-- --tutor planner --jobs 2 --seeds 42 --tracer akt|bkt]`: wall time of the
 * 55-scenario library sweep with a built-in tutor (target: under 2 minutes on 2 cores), and the time
 * per run. Without --tracer each scenario uses its own (AKT in the library).
 * Traces and summaries go to a temporary directory (printed), as a real sweep writes them.
 *
 * `--compare-order [--rounds n]`: the same sweep with jobs handed out in file order and longest
 * first (the default; core/sweep/cost.ts), alternating, n rounds (default 1) in this process; prints
 * each wall time, the ratio, how well the estimate ranks the runs' measured times (Spearman), and
 * checks that both orders wrote byte-identical traces and summaries.
 */
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { estimateRunCost, libraryEntries, parseSeedList } from '../../src/core/index';
import { ROOT } from '../../src/adapters/node/files';
import { runNodeSweep } from '../../src/adapters/node/sweep/run-sweep';

const { values } = parseArgs({ options: { tutor: { type: 'string', default: 'withholder' }, jobs: { type: 'string', default: '2' }, seeds: { type: 'string', default: '42' }, tracer: { type: 'string' }, 'compare-order': { type: 'boolean', default: false }, rounds: { type: 'string', default: '1' } } });
const threads = Number(values.jobs);
if (!Number.isInteger(threads) || threads < 1) throw new Error(`--jobs must be a positive integer, got ${values.jobs}`);
const files = libraryEntries().map((e) => resolve(ROOT, 'scenarios', e.file));
const seeds = parseSeedList(values.seeds!);
const out = mkdtempSync(join(tmpdir(), 'educlaw-bench-'));
console.log(`bench:sweep: ${files.length} library scenarios × ${seeds.length} seed(s), tutor ${values.tutor}, tracer ${values.tracer ?? "each scenario's (akt)"}, ${threads} worker thread(s); machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
const base = { tutor: { name: values.tutor!, config: {} }, ...(values.tracer ? { tracer: values.tracer } : {}) };
if (values['compare-order']) {
  await compareOrders();
  process.exit(process.exitCode ?? 0);
}
const res = await runNodeSweep({ files, base, seeds, threads, outDir: out });
const ms = res.results.map((r) => r.ms).sort((a, b) => a - b);
const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!;
const failed = res.summary.failed.length;
console.log(`wall time: ${(res.wallMs / 1000).toFixed(1)} s for ${ms.length} runs (${failed} failed) — target under 120 s on 2 cores: ${res.wallMs < 120_000 ? 'met' : 'NOT met'}`);
console.log(`per run (inside a worker): mean ${(ms.reduce((a, b) => a + b, 0) / ms.length / 1000).toFixed(2)} s, median ${(q(0.5) / 1000).toFixed(2)} s, p90 ${(q(0.9) / 1000).toFixed(2)} s, max ${(ms[ms.length - 1]! / 1000).toFixed(2)} s`);
console.log(`wall time per run: ${(res.wallMs / ms.length / 1000).toFixed(2)} s (includes worker start-up: each thread loads tsx, the core and the tracer once)`);
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
      const r = await runNodeSweep({ files, base, seeds, threads, outDir: dir, dispatch });
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
