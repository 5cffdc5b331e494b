/**
 * npm run bench:kt: AKT belief readout latency (history of --history rows), incremental vs naive,
 * per answer in Node (native onnxruntime-node and onnxruntime-web wasm) and in headless Chromium
 * (wasm; WebGPU where an adapter exists), next to PyTorch on the same machine; the model's FLOPs
 * per answer (from its dimensions: aktFlops in src/adapters/ort/akt-bench.ts), the matrix-product
 * rate each runtime reaches on this machine (a MatMul-only ONNX graph built here with onnx's Python
 * helper), the floor FLOPs / rate and each figure's ratio to it; what a call costs with next to
 * nothing to compute (a readout of 1 candidate and an append over a 1-row history), and the
 * per-answer course path against the floor plus that fixed cost; the start-up of a worker thread on
 * each runtime; and the time to precompute the initial mastery matrix of every persona seed.
 * Prints figures; asserts nothing (numbers on shared machines are noisy).
 *
 *   npm run bench:kt -- [--model public/models/akt] [--history 200] [--checkpoint <akt .pt>] [--no-browser]
 *                       [--runs N] [--no-webgpu] [--no-native] [--port 4179]
 *
 * The Chromium part builds bench/kt.html with vite.bench.config.ts into dist-bench/ (not part of
 * the app's `npm run build`) and serves it on 127.0.0.1:4179 (or --port).
 *
 * --runs N repeats the Node (native, wasm) and Chromium (wasm) measurements N times, alternating,
 * and prints the median and range of each per-answer figure and of each run's ratio to its own
 * floor (the MatMul rate is measured in every run, just before its figures): timings on a shared
 * machine move by a third from one run to the next. WebGPU runs once (it is slow on a software adapter), or not with
 * --no-webgpu.
 */
import { spawnSync } from 'node:child_process';
import { build, preview } from 'vite';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { chromium } from '@playwright/test';
import { DEFAULT_AKT_DIR, NATIVE_SESSION, importOrt, loadNodeAkt, type KtRuntime } from '../src/adapters/node/akt';
import { loadScenarioFile } from '../src/adapters/node/files';
import { benchAkt, gemmRate, historyOfLength, type AktBenchResult } from '../src/adapters/ort/akt-bench';
import { errorMessage, loadPersonaSeeds, unpackHistory } from '../src/core/index';
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
const wantNative = !process.argv.includes('--no-native');
const port = Number(arg('--port', '4179'));

type Row = Partial<AktBenchResult> & { where: string; note?: string };
const rows: Row[] = [];
/** Per-answer figures by where they were measured (a list over --runs). */
const perAnswer = new Map<string, { all: number[]; course: number[]; step: number[]; callRead: number[]; callApp: number[]; r: AktBenchResult }>();
const record = (where: string, r: AktBenchResult) => {
  const e = perAnswer.get(where) ?? { all: [], course: [], step: [], callRead: [], callApp: [], r };
  e.all.push(r.steadyMs);
  e.course.push(r.steadyCourseMs);
  e.callRead.push(r.callReadoutMs);
  if (r.callAppendMs != null) e.callApp.push(r.callAppendMs);
  if (r.appendIncrementalMs != null) e.step.push(r.appendIncrementalMs);
  perAnswer.set(where, e);
};

const course = loadScenarioFile(resolve('scenarios/default.yaml')).course.skills;
console.log(`AKT model: ${modelDir}; history ${history} rows; per answer: all skills, and the default scenario's ${course.length} course skills (${course.join(', ')})`);
const wasm = await loadNodeAkt(modelDir, true, 'wasm');
let native: Awaited<ReturnType<typeof loadNodeAkt>> | null = null;
let nativeNote = '';
if (wantNative) {
  try {
    native = await loadNodeAkt(modelDir, true, 'native');
  } catch (e) {
    nativeNote = `not measured: ${errorMessage(e)}`;
  }
} else nativeNote = 'not measured: --no-native';
const meta = wasm.meta;
const hp = meta.hyperparameters as unknown as { d_model: number; d_ff: number };
const seeds = await loadPersonaSeeds();
const longest = seeds.seeds.reduce((a, b) => (b.n > a.n ? b : a));
const h = historyOfLength(unpackHistory(longest.h), history);

// The MatMul graph for the rates: `chain` products [M, K] x [K, K] at the model's shapes (M = skills
// read out at once, K = the feed-forward width), weights scaled by 1/sqrt(K) so values stay O(1).
const GEMM = { m: meta.n_skills, k: hp.d_ff, chain: 8 };
const gemmModel = ((): Uint8Array | string => {
  const py = `
import sys, numpy as np, onnx
from onnx import helper, numpy_helper, TensorProto
m, k, n = ${GEMM.m}, ${GEMM.k}, ${GEMM.chain}
rng = np.random.default_rng(0)
inits, nodes, prev = [], [], 'a'
for i in range(n):
    inits.append(numpy_helper.from_array((rng.standard_normal((k, k)) / np.sqrt(k)).astype(np.float32), f'w{i}'))
    out = 'y' if i == n - 1 else f'h{i}'
    nodes.append(helper.make_node('MatMul', [prev, f'w{i}'], [out]))
    prev = out
g = helper.make_graph(nodes, 'gemm_chain', [helper.make_tensor_value_info('a', TensorProto.FLOAT, [m, k])], [helper.make_tensor_value_info('y', TensorProto.FLOAT, [m, k])], inits)
model = helper.make_model(g, opset_imports=[helper.make_opsetid('', 17)])
model.ir_version = 8
onnx.checker.check_model(model)
sys.stdout.buffer.write(model.SerializeToString())
`;
  const r = spawnSync('/usr/bin/python3', ['-c', py], { maxBuffer: 64 << 20 });
  if (r.status !== 0) return `not measured: /usr/bin/python3 with onnx and numpy could not build the MatMul graph (${(r.stderr?.toString() || r.error?.message || '').trim().split('\n').pop()})`;
  return new Uint8Array(r.stdout);
})();
/**
 * The MatMul rate of each runtime, one per run, measured in the same run as that run's figures
 * (just before them), so that each ratio sets a figure against the rate of the same moment: on a
 * shared machine both move together with the load, and a best rate set against median figures
 * would overstate the ratio.
 */
const rates: Record<string, { gflops: number; ms: number; flops: number }[] | string> = {};
const addRate = (key: string, res: { gflops: number; ms: number; flops: number }) => {
  const list = rates[key];
  rates[key] = [...(typeof list === 'object' ? list : []), res];
};
const gemmIn = async (key: string, rt: KtRuntime) => {
  if (typeof gemmModel === 'string') return void (rates[key] = gemmModel);
  try {
    addRate(key, await gemmRate(await importOrt(rt), gemmModel, GEMM, rt === 'native' ? ['cpu'] : ['wasm'], rt === 'native' ? { ...NATIVE_SESSION } : {}));
  } catch (e) {
    rates[key] = `failed: ${errorMessage(e)}`;
  }
};

const NODE_NATIVE = 'Node, onnxruntime-node cpu (1 thread)';
const NODE_WASM = 'Node, onnxruntime-web wasm (1 thread)';
const CHROMIUM_WASM = 'Chromium, onnxruntime-web wasm (1 thread)';
const measureNode = async (r: number) => {
  if (native) {
    await gemmIn(NODE_NATIVE, 'native');
    const res = await benchAkt(native.backend, native.tracer, h, 10, 1, undefined, 48, course);
    rows.push({ where: `${NODE_NATIVE}${runs > 1 ? `, run ${r}` : ''}`, ...res });
    record(NODE_NATIVE, res);
  } else if (r === 1) rows.push({ where: NODE_NATIVE, note: nativeNote });
  await gemmIn(NODE_WASM, 'wasm');
  const res = await benchAkt(wasm.backend, wasm.tracer, h, 10, 1, undefined, 48, course);
  rows.push({ where: `${NODE_WASM}${runs > 1 ? `, run ${r}` : ''}`, ...res });
  record(NODE_WASM, res);
};
await measureNode(1);
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
  if (typeof gemmModel !== 'string') writeFileSync(resolve('dist-bench/gemm.onnx'), gemmModel);
  const server = await preview({ configFile, logLevel: 'silent', preview: { port, strictPort: true, host: '127.0.0.1' } });
  try {
    const b = await chromium.launch({ ...(exe ? { executablePath: exe } : {}), args: ['--headless', '--no-sandbox', '--enable-unsafe-webgpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    for (let r = 1; r <= runs; r++) {
      if (r > 1) await measureNode(r);
      const page = await b.newPage();
      const gemmParam = typeof gemmModel === 'string' ? '' : `&gemm=${GEMM.m},${GEMM.k},${GEMM.chain}`;
      await page.goto(`http://127.0.0.1:${port}/bench/kt.html?history=${history}&reps=10&naive=1&webgpu=${webgpu && r === 1 ? 1 : 0}&course=${course.join(',')}${gemmParam}`);
      await page.waitForFunction(() => (window as unknown as { __bench?: unknown }).__bench !== undefined, undefined, { timeout: 600_000 });
      const res = (await page.evaluate(() => (window as unknown as { __bench: unknown }).__bench)) as (AktBenchResult & { runtime: string; error?: string; sessionMs?: number; gemm?: { gflops: number; ms: number; flops: number } })[];
      for (const x of res) {
        if (x.gemm) {
          addRate(CHROMIUM_WASM, x.gemm);
          continue;
        }
        const where = `Chromium, ${x.runtime}${runs > 1 ? `, run ${r}` : ''}`;
        if (x.error) {
          rows.push({ where, note: x.error });
          continue;
        }
        rows.push({ ...x, where, note: `session creation ${x.sessionMs?.toFixed(0)} ms${x.runtime.includes('webgpu') ? '; SwiftShader (software) here: a correctness check, not a speed figure' : ''}` });
        if (x.runtime.includes('wasm')) record(CHROMIUM_WASM, x);
      }
      await page.close();
    }
    await b.close();
  } finally {
    await server.close();
  }
  if (typeof gemmModel === 'string') rates[CHROMIUM_WASM] = gemmModel;
} else for (let r = 2; r <= runs; r++) await measureNode(r);

const f = (x: number | undefined | null) => (x == null ? '—' : x >= 100 ? x.toFixed(0) : x.toFixed(2));
console.log(`\nFixed-size columns: a window of ${Math.min(history, meta.context_window.max_history)} rows (the longest the model reads). Per answer: ${history} rows, then one more answer at a time, each followed by a readout of all skills (the simulator's path; the window slides by 16 rows, so one encode every 16 answers and appends in between).`);
console.log('\n| where | per answer ms (encodes, appends) | incremental ms | (encode + readout) | after one more answer, append + readout ms | naive ms (1 forward per skill) | naive, batched ms | speed-up vs naive | max abs diff (naive; append) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  if (r.incrementalMs === undefined) {
    console.log(`| ${r.where} | ${r.note} | | | | | | | |`);
    continue;
  }
  const sp = r.naiveMs ? `${(r.naiveMs / r.incrementalMs).toFixed(0)}×` : '—';
  const app = r.appendIncrementalMs != null ? `${f(r.appendIncrementalMs)} (${f(r.appendMs)} + readout)` : '—';
  const diffs = `${r.maxAbsDiff !== undefined ? r.maxAbsDiff.toExponential(1) : '—'}; ${r.appendMaxAbsDiff != null ? r.appendMaxAbsDiff.toExponential(1) : '—'}`;
  console.log(`| ${r.where} | ${r.steadyMs !== undefined ? `${f(r.steadyMs)} (${r.steadyEncodes}, ${r.steadyAppends} over ${r.steadyAnswers})` : '—'} | ${f(r.incrementalMs)} | ${r.encodeMs !== undefined ? `${f(r.encodeMs)} + ${f(r.readoutMs)}` : '—'} | ${app} | ${f(r.naiveMs)} | ${f(r.naiveBatchedMs)} | ${sp} | ${diffs} |${r.note ? ` ${r.note}` : ''}`);
}
const torch = rows.find((r) => r.where.startsWith('PyTorch') && r.incrementalMs !== undefined);
const nodeWasm = perAnswer.get(NODE_WASM)?.r;
if (torch && nodeWasm) console.log(`\nNode wasm / PyTorch (incremental): ${(nodeWasm.incrementalMs / torch.incrementalMs!).toFixed(2)}×`);

// Floors: FLOPs / the runtime's measured MatMul rate on this machine.
const anyR = [...perAnswer.values()][0]!.r;
const M = (x: number) => `${(x / 1e6).toFixed(1)} MFLOP`;
console.log(`\nWork per answer (matrix products of the graphs, from meta.json's dimensions: aktFlops in src/adapters/ort/akt-bench.ts): append one row to a ${anyR.history}-row window + read out all ${anyR.skills} skills = ${M(anyR.appendStepFlops)}; the per-answer path, mean over ${anyR.steadyAnswers} answers (encodes included) = ${M(anyR.steadyFlops)} with all skills, ${M(anyR.steadyCourseFlops)} with the ${anyR.courseSkills} course skills.`);
const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b), k = s.length >> 1;
  return s.length % 2 ? s[k]! : (s[k - 1]! + s[k]!) / 2;
};
const span = (xs: number[], g: (x: number) => string = (x) => f(x)) => (xs.length > 1 ? ` (${g(Math.min(...xs))}–${g(Math.max(...xs))})` : '');
console.log(`MatMul rate (a chain of ${GEMM.chain} MatMuls [${GEMM.m}, ${GEMM.k}] × [${GEMM.k}, ${GEMM.k}], ${M(2 * GEMM.m * GEMM.k * GEMM.k * GEMM.chain)} a run, built with onnx's Python helper; measured in each run just before its figures, each the median of 15; median over runs (range)):`);
for (const [where, r] of Object.entries(rates)) {
  const gs = typeof r === 'string' ? [] : r.map((x) => x.gflops);
  console.log(`  ${where}: ${typeof r === 'string' ? r : `${med(gs).toFixed(1)} GFLOP/s${span(gs, (x) => x.toFixed(1))} (${med(r.map((x) => x.ms)).toFixed(2)} ms a run)`}`);
}
const x1 = (x: number) => `${x.toFixed(1)}×`;
console.log(`\nPer answer against the floor (FLOPs / that runtime's MatMul rate in the same run); medians over ${runs} run${runs > 1 ? 's (range)' : ''}: the time, the floor, and the ratio of each run's time to its own floor. Goals (issue 19): ≤ 2× the native floor in the CLI, ≤ 1.2× the wasm floor in the page.`);
console.log('\n| where | MatMul GFLOP/s | append + readout, all skills: ms / floor ms = ratio | per answer, all skills: ms / floor = ratio | per answer, course skills: ms / floor = ratio |');
console.log('|---|---|---|---|---|');
/** The MatMul rates of `where`, one per run (empty when they were not measured). */
const ratesOf = (where: string) => {
  const rate = rates[where];
  return typeof rate === 'object' ? rate.map((x) => x.gflops) : [];
};
/**
 * Run-by-run figures `xs` against each run's floor (`flops` / that run's rate) plus `extra[i]` ms:
 * the median time (range) / the median reference = the median ratio (range).
 */
const cell = (where: string, xs: number[], flops: number, extra: number[] = []) => {
  if (xs.length === 0) return '—';
  const gs = ratesOf(where);
  const rate = rates[where];
  if (gs.length !== xs.length) return `${f(med(xs))}${span(xs)} / no floor (${typeof rate === 'string' ? rate : `${gs.length} rates for ${xs.length} runs`})`;
  const refs = gs.map((g, i) => flops / g / 1e6 + (extra[i] ?? 0));
  const ratios = xs.map((x, i) => x / refs[i]!);
  return `${f(med(xs))}${span(xs)} / ${f(med(refs))} = ${x1(med(ratios))}${span(ratios, x1)}`;
};
for (const [where, e] of perAnswer) {
  const gs = ratesOf(where);
  console.log(`| ${where} | ${gs.length ? `${med(gs).toFixed(1)}${span(gs, (x) => x.toFixed(1))}` : '—'} | ${cell(where, e.step, e.r.appendStepFlops)} | ${cell(where, e.all, e.r.steadyFlops)} | ${cell(where, e.course, e.r.steadyCourseFlops)} |`);
}

// The same per-answer path against the floor plus what its calls cost with nothing to compute
// (one readout and, between encodings, one append per answer), run by run.
console.log(`\nPer answer, course skills, against the floor plus the calls' fixed cost: a readout of 1 candidate after a 1-row history and 1 row appended to it, as measured in the same run (medians of ${anyR.reps * 3}); per answer the path makes 1 readout and ${anyR.steadyAppends} appends over ${anyR.steadyAnswers} answers (its encodings are counted as work only).`);
console.log('\n| where | fixed cost: readout ms | append ms | per answer, course skills: ms / (floor + fixed) ms = ratio |');
console.log('|---|---|---|---|');
for (const [where, e] of perAnswer) {
  const perAnswerAppends = e.r.steadyAppends / e.r.steadyAnswers;
  const fixed = e.callRead.map((rd, i) => rd + perAnswerAppends * (e.callApp[i] ?? 0));
  console.log(`| ${where} | ${f(med(e.callRead))}${span(e.callRead)} | ${e.callApp.length ? `${f(med(e.callApp))}${span(e.callApp)}` : '—'} | ${cell(where, e.course, e.r.steadyCourseFlops, fixed)} |`);
}

// Start-up of one sweep worker thread on each runtime: register tsx, import the runtime, create the
// simulation sessions (what every worker thread pays once, before its first run).
const workerStart = (rt: KtRuntime) =>
  new Promise<string>((done) => {
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      (async () => {
        const t0 = performance.now(), c0 = process.cpuUsage();
        const { register } = await import('tsx/esm/api');
        register();
        const { sharedNodeAktBackend } = await import(workerData.akt);
        const b = await sharedNodeAktBackend(workerData.rt);
        parentPort.postMessage({ runtime: b.runtime, loadMs: b.loadMs, totalMs: performance.now() - t0 });
      })().catch((e) => parentPort.postMessage({ error: String(e && e.message || e) }));`;
    const w = new Worker(code, { eval: true, workerData: { rt, akt: new URL('../src/adapters/node/akt.ts', import.meta.url).href } });
    w.once('message', (m: { runtime?: string; loadMs?: number; totalMs?: number; error?: string }) => {
      void w.terminate();
      done(m.error ? `${rt}: failed: ${m.error}` : `${rt}: runtime + sessions ${m.loadMs!.toFixed(0)} ms (${m.totalMs!.toFixed(0)} ms with tsx and the imports)`);
    });
    w.once('error', (e) => done(`${rt}: failed: ${e.message}`));
  });
console.log(`\nStart-up of a worker thread (as each sweep worker pays it once): ${await workerStart('wasm')}; ${native ? await workerStart('native') : `native ${nativeNote}`}`);

const t0 = performance.now();
const m = await initialMastery(wasm.tracer, seeds);
const secs = (performance.now() - t0) / 1000;
console.log(`\nInitial mastery matrix, ${m.rows} seeds × ${m.cols} skills: ${secs.toFixed(1)} s in Node (wasm, 1 thread: derived data comes from the reference runtime)`);
await wasm.backend.release();
await native?.backend.release();
