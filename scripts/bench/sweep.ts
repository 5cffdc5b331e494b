/**
 * `npm run bench:sweep [-- --tutor planner --jobs 2 --seeds 42 --tracer akt|bkt]`: wall time of the
 * 55-scenario library sweep with a built-in tutor (target: under 2 minutes on 2 cores), and the time
 * per run. Without --tracer each scenario uses its own (AKT in the library).
 * Traces and summaries go to a temporary directory (printed), as a real sweep writes them.
 */
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { libraryEntries, parseSeedList } from '../../src/core/index';
import { ROOT } from '../../src/adapters/node/files';
import { runNodeSweep } from '../../src/adapters/node/sweep/run-sweep';

const { values } = parseArgs({ options: { tutor: { type: 'string', default: 'withholder' }, jobs: { type: 'string', default: '2' }, seeds: { type: 'string', default: '42' }, tracer: { type: 'string' } } });
const threads = Number(values.jobs);
if (!Number.isInteger(threads) || threads < 1) throw new Error(`--jobs must be a positive integer, got ${values.jobs}`);
const files = libraryEntries().map((e) => resolve(ROOT, 'scenarios', e.file));
const seeds = parseSeedList(values.seeds!);
const out = mkdtempSync(join(tmpdir(), 'educlaw-bench-'));
console.log(`bench:sweep: ${files.length} library scenarios × ${seeds.length} seed(s), tutor ${values.tutor}, tracer ${values.tracer ?? "each scenario's (akt)"}, ${threads} worker thread(s); machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
const res = await runNodeSweep({ files, base: { tutor: { name: values.tutor!, config: {} }, ...(values.tracer ? { tracer: values.tracer } : {}) }, seeds, threads, outDir: out });
const ms = res.results.map((r) => r.ms).sort((a, b) => a - b);
const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!;
const failed = res.summary.failed.length;
console.log(`wall time: ${(res.wallMs / 1000).toFixed(1)} s for ${ms.length} runs (${failed} failed) — target under 120 s on 2 cores: ${res.wallMs < 120_000 ? 'met' : 'NOT met'}`);
console.log(`per run (inside a worker): mean ${(ms.reduce((a, b) => a + b, 0) / ms.length / 1000).toFixed(2)} s, median ${(q(0.5) / 1000).toFixed(2)} s, p90 ${(q(0.9) / 1000).toFixed(2)} s, max ${(ms[ms.length - 1]! / 1000).toFixed(2)} s`);
console.log(`wall time per run: ${(res.wallMs / ms.length / 1000).toFixed(2)} s (includes worker start-up: each thread loads tsx, the core and the tracer once)`);
console.log(`traces and summaries: ${out}`);
if (failed) process.exitCode = 1;
