/**
 * npm run bench:kt: AKT full-belief readout latency (all skills, history of --history rows),
 * incremental vs naive, in Node and in headless Chromium (wasm; WebGPU where an adapter exists),
 * next to PyTorch on the same machine, plus the time to precompute the initial mastery matrix of
 * every persona seed. Prints figures; asserts nothing (numbers on shared machines are noisy).
 *
 *   npm run bench:kt -- [--model public/models/akt] [--history 200] [--checkpoint <akt .pt>] [--no-browser]
 *                       [--runs N] [--no-webgpu]
 *
 * The Chromium part builds bench/kt.html with vite.bench.config.ts into dist-bench/ (not part of
 * the app's `npm run build`) and serves it on 127.0.0.1:4179.
 *
 * --runs N repeats the Node and Chromium (wasm) measurements N times, alternating, and prints the
 * median and range of the per-answer figure: timings on a shared machine move by a third from one
 * run to the next. WebGPU runs once (it is slow on a software adapter), or not with --no-webgpu.
 */
import { spawnSync } from 'node:child_process';
import { build, preview } from 'vite';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { loadNodeAkt, DEFAULT_AKT_DIR } from '../src/adapters/node/akt';
import { benchAkt, historyOfLength } from '../src/adapters/ort/akt-bench';
import { loadPersonaSeeds, unpackHistory } from '../src/core/index';
import { initialMastery } from './derive/akt-seeds';

const arg = (name: string, dflt: string | null) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const modelDir = resolve(arg('--model', DEFAULT_AKT_DIR)!);
const history = Number(arg('--history', '200'));
const checkpoint = arg('--checkpoint', null);
const browser = !process.argv.includes('--no-browser');
const runs = Number(arg('--runs', '1'));
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number of runs ≥ 1, not "${arg('--runs', '1')}"`);
const webgpu = !process.argv.includes('--no-webgpu');

type Row = { where: string; steadyMs?: number; steadyAnswers?: number; steadyEncodes?: number; steadyAppends?: number; incrementalMs?: number; encodeMs?: number; readoutMs?: number; naiveMs?: number; naiveBatchedMs?: number; maxAbsDiff?: number; appendIncrementalMs?: number | null; appendMs?: number | null; appendMaxAbsDiff?: number | null; note?: string };
const rows: Row[] = [];

console.log(`AKT model: ${modelDir}; history ${history} rows; all skills`);
const { tracer, backend, meta } = await loadNodeAkt(modelDir, true);
const seeds = await loadPersonaSeeds();
const longest = seeds.seeds.reduce((a, b) => (b.n > a.n ? b : a));
const h = historyOfLength(unpackHistory(longest.h), history);
const perAnswer: Record<string, number[]> = { node: [], chromium: [] };
const measureNode = async (r: number) => {
  const node = await benchAkt(backend, tracer, h, 10, 1);
  rows.push({ where: `Node, onnxruntime-web wasm (1 thread)${runs > 1 ? `, run ${r}` : ''}`, ...node });
  perAnswer.node!.push(node.steadyMs);
  return node;
};
const node = await measureNode(1);
if (checkpoint) {
  const py = spawnSync('/usr/bin/python3', [resolve('training/akt/bench_readout.py'), '--checkpoint', checkpoint, '--history', String(history), '--naive-reps', '1'], { encoding: 'utf8' });
  if (py.status === 0) {
    const r = JSON.parse(py.stdout.trim().split('\n').pop()!);
    rows.push({ where: `PyTorch ${r.runtime}`, incrementalMs: r.incrementalMs, naiveMs: r.naiveMs, naiveBatchedMs: r.naiveBatchedMs });
  } else rows.push({ where: 'PyTorch', note: `failed: ${py.stderr.trim().split('\n').pop()}` });
} else rows.push({ where: 'PyTorch', note: 'skipped: pass --checkpoint <trained .pt> (training/akt/runs/…/checkpoint.pt)' });

if (browser) {
  const exe = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  // The bench page's own build (vite.bench.config.ts → dist-bench/; the app's dist/ does not carry
  // it), made afresh so the page measures the code as it is; then Vite's own preview server, in
  // this process, so that nothing is left running afterwards.
  const configFile = resolve('vite.bench.config.ts');
  await build({ configFile, logLevel: 'warn' });
  const server = await preview({ configFile, logLevel: 'silent' });
  try {
    const b = await chromium.launch({ ...(exe ? { executablePath: exe } : {}), args: ['--headless', '--no-sandbox', '--enable-unsafe-webgpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    for (let r = 1; r <= runs; r++) {
      if (r > 1) await measureNode(r);
      const page = await b.newPage();
      await page.goto(`http://127.0.0.1:4179/bench/kt.html?history=${history}&reps=10&naive=1&webgpu=${webgpu && r === 1 ? 1 : 0}`);
      await page.waitForFunction(() => (window as unknown as { __bench?: unknown }).__bench !== undefined, undefined, { timeout: 600_000 });
      const res = (await page.evaluate(() => (window as unknown as { __bench: unknown }).__bench)) as (Row & { runtime: string; error?: string; sessionMs?: number })[];
      for (const x of res) {
        const where = `Chromium, ${x.runtime}${runs > 1 ? `, run ${r}` : ''}`;
        rows.push(x.error ? { where, note: x.error } : { ...x, where, note: `session creation ${x.sessionMs?.toFixed(0)} ms${x.runtime.includes('webgpu') ? '; SwiftShader (software) here: a correctness check, not a speed figure' : ''}` });
        if (!x.error && x.runtime.includes('wasm') && x.steadyMs !== undefined) perAnswer.chromium!.push(x.steadyMs);
      }
      await page.close();
    }
    await b.close();
  } finally {
    await server.close();
  }
} else for (let r = 2; r <= runs; r++) await measureNode(r);

const f = (x: number | undefined) => (x === undefined ? '—' : x >= 100 ? x.toFixed(0) : x.toFixed(2));
console.log(`\nFixed-size columns: a window of ${Math.min(history, meta.context_window.max_history)} rows (the longest the model reads). Per answer: ${history} rows, then one more answer at a time, each followed by a readout of all skills (the simulator's path; the window slides by 16 rows, so one encode every 16 answers and appends in between).`);
console.log('\n| where | per answer ms (encodes, appends) | incremental ms | (encode + readout) | after one more answer, append + readout ms | naive ms (1 forward per skill) | naive, batched ms | speed-up vs naive | max abs diff (naive; append) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  if (r.incrementalMs === undefined) {
    console.log(`| ${r.where} | ${r.note} | | | | | | | |`);
    continue;
  }
  const sp = r.naiveMs ? `${(r.naiveMs / r.incrementalMs).toFixed(0)}×` : '—';
  const app = r.appendIncrementalMs != null ? `${f(r.appendIncrementalMs)} (${f(r.appendMs ?? undefined)} + readout)` : '—';
  const diffs = `${r.maxAbsDiff !== undefined ? r.maxAbsDiff.toExponential(1) : '—'}; ${r.appendMaxAbsDiff != null ? r.appendMaxAbsDiff.toExponential(1) : '—'}`;
  console.log(`| ${r.where} | ${r.steadyMs !== undefined ? `${f(r.steadyMs)} (${r.steadyEncodes}, ${r.steadyAppends} over ${r.steadyAnswers})` : '—'} | ${f(r.incrementalMs)} | ${r.encodeMs !== undefined ? `${f(r.encodeMs)} + ${f(r.readoutMs)}` : '—'} | ${app} | ${f(r.naiveMs)} | ${f(r.naiveBatchedMs)} | ${sp} | ${diffs} |${r.note && r.incrementalMs !== undefined ? ` ${r.note}` : ''}`);
}
const torch = rows.find((r) => r.where.startsWith('PyTorch') && r.incrementalMs !== undefined);
if (torch) console.log(`\nNode wasm / PyTorch (incremental): ${(node.incrementalMs / torch.incrementalMs!).toFixed(2)}×`);
for (const [where, xs] of Object.entries(perAnswer)) {
  if (xs.length < 2) continue;
  const sorted = [...xs].sort((a, b) => a - b);
  console.log(`Per answer, ${where} (wasm, 1 thread), ${xs.length} runs: median ${f(sorted[Math.floor(sorted.length / 2)])} ms, range ${f(sorted[0])}–${f(sorted[sorted.length - 1])} ms`);
}

const t0 = performance.now();
const m = await initialMastery(tracer, seeds);
const secs = (performance.now() - t0) / 1000;
console.log(`\nInitial mastery matrix, ${m.rows} seeds × ${m.cols} skills: ${secs.toFixed(1)} s in Node (wasm, 1 thread)`);
await backend.release();
