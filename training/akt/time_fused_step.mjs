// One answer's step as two calls (append, the new row copied into the cache per head as the app's
// akt-backend.ts does, readout) against one call of akt_step.onnx (append and readout in one graph,
// written by `alternatives.py fused-step`): the outputs compared bit for bit and the wall time in
// alternating pairs, on onnxruntime-node and -web (one thread each), for 5 and all candidates after
// a seeded synthetic history of `--length - 1` rows. Prints figures; exits 1 if the outputs differ.
//
//   node training/akt/time_fused_step.mjs --dir /tmp/akt-step [--runtime web|node|both] [--pairs 200] [--length 199]
//
// Figures: docs/kt/model-card.md, "Two forms measured and not adopted".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadOrt, rng, sessionOptions } from './ort_session.mjs';

const { values } = parseArgs({ options: { dir: { type: 'string' }, runtime: { type: 'string', default: 'both' }, pairs: { type: 'string', default: '200' }, length: { type: 'string', default: '199' } } });
if (!values.dir) throw new Error('time_fused_step: --dir DIR (written by alternatives.py fused-step) is required');
const pairs = Number(values.pairs);
const length = Number(values.length);
if (!Number.isInteger(pairs) || pairs < 1 || !Number.isInteger(length) || length < 2) throw new Error('time_fused_step: --pairs and --length must be whole numbers (length ≥ 2)');
const meta = JSON.parse(readFileSync(join(values.dir, 'meta.json'), 'utf8'));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
let differs = false;

async function measure(runtime, C) {
  const ort = await loadOrt(runtime, 'time_fused_step');
  const open = (file) => ort.InferenceSession.create(readFileSync(join(values.dir, file)), sessionOptions(runtime));
  const [enc, app, read, cand, step] = await Promise.all(['akt_encode.onnx', 'akt_append.onnx', 'akt_readout.onnx', 'akt_candidates.onnx', 'akt_step.onnx'].map(open));
  const i32 = (a, d) => new ort.Tensor('int32', Int32Array.from(a), d);
  const f32 = (a, d) => new ort.Tensor('float32', Float32Array.from(a), d);
  const r = rng(7);
  const L = length - 1;
  const seq = (f) => Array.from({ length: L }, f);
  const cache = await enc.run({ skills: i32(seq(() => 1 + Math.floor(r() * meta.n_skills)), [1, L]), questions: i32(seq(() => 1 + Math.floor(r() * meta.n_questions)), [1, L]), responses: i32(seq(() => (r() < 0.6 ? 1 : 0)), [1, L]) });
  const terms = await cand.run({ cand_skills: i32(Array.from({ length: C }, (_, k) => 1 + ((k * 7) % meta.n_skills)), [1, C]), cand_questions: i32(new Array(C).fill(0), [1, C]) });
  const roots = (n) => Array.from({ length: n }, (_, j) => Math.sqrt(length - j));
  const row = { distances: f32(Array.from({ length: L + 1 }, (_, j) => L - j), [1, 1, 1, L + 1]), skill: i32([5], [1, 1]), question: i32([77], [1, 1]), response: i32([1], [1, 1]) };
  const lengthTerms = { root_self: f32(roots(length + 1), [1, 1, length + 1, 1]), root_hist: f32(roots(length), [1, 1, length, 1]) };
  const cacheNames = enc.outputNames;
  const pick = (names) => Object.fromEntries(names.filter((n) => cache[n]).map((n) => [n, cache[n]]));
  const withRow = async (t, v) => {
    const [, H, n, dk] = t.dims;
    const a = await t.getData();
    const o = new Float32Array(H * (n + 1) * dk);
    for (let h = 0; h < H; h++) {
      o.set(a.subarray(h * n * dk, (h + 1) * n * dk), h * (n + 1) * dk);
      o.set(v.subarray(h * dk, (h + 1) * dk), (h * (n + 1) + n) * dk);
    }
    return new ort.Tensor('float32', o, [1, H, n + 1, dk]);
  };
  const twoCalls = async () => {
    const o = await app.run({ ...pick(app.inputNames), ...row });
    const rows = { cache: await o.cache_row.getData(), ke: await o.ke_row.getData() };
    const next = {};
    for (const n of cacheNames) {
      const [kind, i] = n.split('_');
      const d = cache[n].dims[1] * cache[n].dims[3];
      next[n] = await withRow(cache[n], rows[kind].subarray(i * d, (i + 1) * d));
    }
    const p = await read.run({ ...Object.fromEntries(read.inputNames.filter((n) => next[n]).map((n) => [n, next[n]])), ...lengthTerms, ...terms });
    return { p: await p.p_correct.getData(), next };
  };
  const oneCall = async () => {
    const o = await step.run({ ...pick(step.inputNames), ...row, ...lengthTerms, ...terms });
    return { p: await o.p_correct.getData(), next: Object.fromEntries(cacheNames.map((n) => [n, o[`new_${n}`]])) };
  };
  const a = await twoCalls();
  const b = await oneCall();
  let maxDiff = 0;
  const cmp = (x, y) => { for (let i = 0; i < x.length; i++) maxDiff = Math.max(maxDiff, Math.abs(x[i] - y[i])); };
  cmp(a.p, b.p);
  for (const n of cacheNames) cmp(await a.next[n].getData(), await b.next[n].getData());
  if (maxDiff !== 0) differs = true;
  for (let w = 0; w < 20; w++) {
    await twoCalls();
    await oneCall();
  }
  const two = [], one = [], ratio = [];
  for (let k = 0; k < pairs; k++) {
    let t = performance.now();
    await twoCalls();
    const x = performance.now() - t;
    t = performance.now();
    await oneCall();
    const y = performance.now() - t;
    two.push(x); one.push(y); ratio.push(y / x);
  }
  console.log(`| ${runtime === 'node' ? 'onnxruntime-node' : 'onnxruntime-web (wasm)'} | ${C} | ${median(two).toFixed(3)} | ${median(one).toFixed(3)} | ${median(ratio).toFixed(3)} | ${maxDiff} |`);
  await Promise.all([enc, app, read, cand, step].map((s) => s.release()));
}

console.log(`append to ${length - 1} rows + readout at ${length}; ${pairs} alternating pairs, medians\n`);
console.log('| runtime | candidates | two calls ms | one call ms | one / two (median of pairs) | max abs diff |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const runtime of values.runtime === 'both' ? ['node', 'web'] : [values.runtime]) {
  for (const C of [5, meta.n_skills]) await measure(runtime, C);
}
if (differs) {
  console.error('time_fused_step: the one call does not give the same outputs as the two');
  process.exit(1);
}
