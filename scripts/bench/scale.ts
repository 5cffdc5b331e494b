/**
 * `npm run bench:scale [-- --workers 1,2,4 --runs 24 --horizon 3 --delay 100 --worker-concurrency 2 --max-concurrency 8 --appendfsync always|everysec]`:
 * throughput of a queue-backed sweep (sweep --queue, BullMQ on Redis) with 1, 2 and 4 worker
 * processes on this machine, against the scripted chat server answering every call after a fixed
 * delay (scripts/bench/llm-server.ts, a process of its own). Starts its own redis-server
 * (src/testing/redis-server.ts). For each number of workers: the workers are started and ready,
 * then the runs (the first --runs library scenarios, seed 42, the BKT learner, the reactive LLM
 * tutor) are enqueued, and the clock runs until the last one is complete.
 *
 * Prints, per number of workers, runs per minute and the ratio of the wall time to the ideal: calls
 * × delay ÷ concurrency, where the concurrency is min(max-concurrency, workers × worker-concurrency):
 * the time the calls would take if the server always had as many in flight as the shared provider
 * limit and the workers allow, and nothing else cost anything.
 */
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { libraryEntries } from '../../src/core/index';
import { ROOT } from '../../src/adapters/node/files';
import { loadScenarios, planTutorSweep } from '../../src/adapters/node/sweep/run-sweep';
import { enqueueRuns, waitForRuns, collectQueuedSweep } from '../../src/adapters/node/queue/sweep';
import { startTestRedis } from '../../src/testing/redis-server';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '1,2,4' },
    runs: { type: 'string', default: '24' },
    horizon: { type: 'string', default: '3' },
    delay: { type: 'string', default: '100' },
    'worker-concurrency': { type: 'string', default: '2' },
    'max-concurrency': { type: 'string', default: '8' },
    appendfsync: { type: 'string', default: 'always' },
  },
});
const posInt = (name: string, v: string | undefined) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${v}`);
  return n;
};
const workerCounts = values.workers!.split(',').map((w) => posInt('workers', w));
const nRuns = posInt('runs', values.runs);
const horizon = posInt('horizon', values.horizon);
const delayMs = posInt('delay', values.delay);
const perWorker = posInt('worker-concurrency', values['worker-concurrency']);
const maxConcurrency = posInt('max-concurrency', values['max-concurrency']);
const files = libraryEntries()
  .slice(0, nRuns)
  .map((e) => resolve(ROOT, 'scenarios', e.file));

if (values.appendfsync !== 'always' && values.appendfsync !== 'everysec') throw new Error(`--appendfsync is always or everysec, got ${values.appendfsync}`);
const redis = await startTestRedis({ appendfsync: values.appendfsync });
const server = fork(resolve(ROOT, 'scripts/bench/llm-server.ts'), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, BENCH_DELAY_MS: String(delayMs) } });
const ask = <T>(): Promise<T> => new Promise((r) => server.once('message', (x) => r(x as T)));
const { url } = await ask<{ url: string }>();
const dir = mkdtempSync(join(tmpdir(), 'educlaw-bench-scale-'));
const cfg = join(dir, 'llm.yaml');
writeFileSync(cfg, `providers:\n  - name: bench\n    baseURL: ${url}\n    maxConcurrency: ${maxConcurrency}\n    timeoutMs: 600000\n`);
const tutors = [{ name: 'llm', config: { harness: 'reactive', model: 'bench-model', provider: 'bench' } }];
const jobs = planTutorSweep(loadScenarios(files), { tracer: 'bkt', horizonDays: horizon }, tutors, [42]);

console.log(`bench:scale: ${jobs.length} runs (library scenarios, seed 42, BKT learner, horizon ${horizon} days, tutor llm/reactive) on a BullMQ queue (redis-server ${redis.url}, appendonly yes, appendfsync ${values.appendfsync}); scripted server (own process) answering after ${delayMs} ms; provider maxConcurrency ${maxConcurrency} shared by all workers; ${perWorker} runs at a time per worker; machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
console.log('');
console.log('| workers | runs | calls | most in flight | wall time | ideal | wall / ideal | runs/min |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');

const rows: { workers: number; runsPerMin: number }[] = [];
for (const n of workerCounts) {
  const name = `bench-scale-${n}`;
  const out = join(dir, `out-${n}`);
  const procs: ChildProcess[] = [];
  const ready: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const p = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'src/cli/main.ts'), 'worker', '--queue', redis.url, '--queue-name', name, '--out', out, '--llm-config', cfg, '--concurrency', String(perWorker), '--quiet', '--name', `w${i + 1}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    procs.push(p);
    ready.push(
      new Promise((r, reject) => {
        let err = '';
        p.stderr!.on('data', (d: Buffer) => {
          err += d.toString();
          if (err.includes('taking runs')) r();
        });
        p.once('exit', (code) => reject(new Error(`worker exited (${code}):\n${err}`)));
      }),
    );
  }
  await Promise.all(ready);
  server.send('reset');
  const t0 = performance.now();
  await enqueueRuns({ url: redis.url, name }, jobs, { attempts: 1 });
  await waitForRuns({ url: redis.url, name }, jobs.map((j) => j.runId), { pollMs: 100 });
  const wallMs = performance.now() - t0;
  server.send('stats');
  const stats = await ask<{ requests: number; peak: number }>();
  const res = await collectQueuedSweep({ url: redis.url, name }, { outDir: out, jobs, tutors, seeds: [42], wallMs });
  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
  if (res.summary.failed.length) throw new Error(`${res.summary.failed.length} runs failed with ${n} workers: ${res.results.find((r) => r.error)?.error}`);
  const effective = Math.min(maxConcurrency, n * perWorker);
  const idealMs = (stats.requests * delayMs) / effective;
  const runsPerMin = jobs.length / (wallMs / 60_000);
  rows.push({ workers: n, runsPerMin });
  console.log(`| ${n} | ${jobs.length} | ${stats.requests} | ${stats.peak} (limit ${effective}) | ${(wallMs / 1000).toFixed(1)} s | ${(idealMs / 1000).toFixed(1)} s | ${(wallMs / idealMs).toFixed(2)} | ${runsPerMin.toFixed(1)} |`);
}
if (rows.length > 1) console.log(`\nspeed-up over ${rows[0]!.workers} worker${rows[0]!.workers === 1 ? '' : 's'}: ${rows.map((r) => `${r.workers}: ${(r.runsPerMin / rows[0]!.runsPerMin).toFixed(2)}×`).join(', ')}`);
server.send('close');
await redis.stop();
