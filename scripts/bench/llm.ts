/**
 * `npm run bench:llm [-- --concurrency 8 --max-concurrency 8 --delay 50 --horizon 30 --seeds 42 --harness reactive]`:
 * an LLM benchmark of the 55 library scenarios (the BKT learner) with the LLM tutor against the
 * scripted test server (src/testing/mock-openai-server.ts, policyReply), which answers every call
 * after a fixed delay, in a process of its own. The runs go as a sweep does them: async runs in
 * this process, --concurrency at once, under the provider's maxConcurrency (--max-concurrency).
 *
 * Prints the calls, the wall time and the ideal time: calls × delay ÷ effective concurrency, where
 * the effective concurrency is min(concurrency, maxConcurrency): the time the calls would take if
 * the server were always busy with as many calls as allowed and the simulation cost nothing. The
 * ratio wall / ideal is what the simulator, the HTTP client and the scheduling add.
 */
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { libraryEntries, parseSeedList } from '../../src/core/index';
import { ROOT } from '../../src/adapters/node/files';
import { runNodeSweep } from '../../src/adapters/node/sweep/run-sweep';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '8' },
    'max-concurrency': { type: 'string', default: '8' },
    delay: { type: 'string', default: '50' },
    horizon: { type: 'string', default: '30' },
    seeds: { type: 'string', default: '42' },
    harness: { type: 'string', default: 'reactive' },
  },
});
const posInt = (name: string, v: string | undefined) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${v}`);
  return n;
};
const concurrency = posInt('concurrency', values.concurrency);
const maxConcurrency = posInt('max-concurrency', values['max-concurrency']);
const delayMs = posInt('delay', values.delay);
const horizon = posInt('horizon', values.horizon);
const seeds = parseSeedList(values.seeds!);
const files = libraryEntries().map((e) => resolve(ROOT, 'scenarios', e.file));

const server = fork(resolve(ROOT, 'scripts/bench/llm-server.ts'), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, BENCH_DELAY_MS: String(delayMs) } });
const ask = <T>(m: string): Promise<T> => new Promise((r) => server.once('message', (x) => r(x as T)));
const { url } = await ask<{ url: string }>('');
const dir = mkdtempSync(join(tmpdir(), 'educlaw-bench-llm-'));
const cfg = join(dir, 'llm.yaml');
writeFileSync(cfg, `providers:\n  - name: bench\n    baseURL: ${url}\n    maxConcurrency: ${maxConcurrency}\n    timeoutMs: 600000\n`);
const out = join(dir, 'out');
const effective = Math.min(concurrency, maxConcurrency);
console.log(`bench:llm: ${files.length} library scenarios × ${seeds.length} seed(s), tutor llm/${values.harness}/bench-model, BKT learner, horizon ${horizon} days; scripted server (own process) answering after ${delayMs} ms; concurrency ${concurrency}, provider maxConcurrency ${maxConcurrency} (effective ${effective}); machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
const elu0 = performance.eventLoopUtilization();
const res = await runNodeSweep({
  files,
  base: { tracer: 'bkt', horizonDays: horizon },
  tutors: [{ name: 'llm', config: { harness: values.harness, model: 'bench-model', provider: 'bench' } }],
  seeds,
  threads: 1,
  concurrency,
  outDir: out,
  llmConfig: [cfg],
});
const busy = performance.eventLoopUtilization(elu0).utilization;
server.send('stats');
const stats = await ask<{ requests: number; peak: number; meanInFlight: number; busy: number }>('stats');
server.send('close');
let traced = 0;
for (const f of readdirSync(join(out, 'traces'))) for (const line of readFileSync(join(out, 'traces', f), 'utf8').split('\n')) if (line.includes('"type":"model_call"')) traced++;
const idealMs = (stats.requests * delayMs) / effective;
const ms = res.results.map((r) => r.ms);
console.log(`runs: ${res.results.length} (${res.summary.failed.length} failed); model calls: ${stats.requests} at the server (${traced} in the traces), ${(stats.requests / res.results.length).toFixed(0)} per run; most in flight at once: ${stats.peak}, ${stats.meanInFlight.toFixed(2)} on average`);
console.log(`wall time: ${(res.wallMs / 1000).toFixed(1)} s; ideal (calls × ${delayMs} ms ÷ ${effective}): ${(idealMs / 1000).toFixed(1)} s; wall / ideal = ${(res.wallMs / idealMs).toFixed(2)}`);
console.log(`event loop busy: ${(busy * 100).toFixed(0)}% of the wall time in the sweep's process (simulation, HTTP client, traces), ${(stats.busy * 100).toFixed(0)}% in the server's`);
console.log(`per run: mean ${(ms.reduce((a, b) => a + b, 0) / ms.length / 1000).toFixed(2)} s; traces and summaries: ${out}`);
if (res.summary.failed.length) process.exitCode = 1;
