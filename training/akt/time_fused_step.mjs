// One answer's step as the app makes it, two calls (the backend's append, which copies the new row
// into the cache per head, then its readout: src/adapters/ort/akt-backend.ts, loaded as the CLI
// loads it), against one call of akt_step.onnx (append and readout in one graph, written by
// `alternatives.py fused-step`): the outputs compared bit for bit and the wall time in alternating
// pairs, on onnxruntime-node and -web (one thread each, the app's session options), for 5 and all
// candidates after a seeded synthetic history of `--length - 1` rows. Prints figures; exits 1 if
// the outputs differ. Imports the app's TypeScript, so it runs under tsx:
//
//   npx tsx training/akt/time_fused_step.mjs --dir /tmp/akt-step [--runtime web|node|both] [--pairs 200] [--length 199]
//
// Figures: docs/measurements/akt-speed.md, "Two forms measured and not adopted".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { NATIVE_SESSION, importOrt, loadNodeAktBackend } from '../../src/adapters/node/akt.ts';
import { rng } from './ort_session.mjs';

const { values } = parseArgs({ options: { dir: { type: 'string' }, runtime: { type: 'string', default: 'both' }, pairs: { type: 'string', default: '200' }, length: { type: 'string', default: '199' } } });
if (!values.dir) throw new Error('time_fused_step: --dir DIR (written by alternatives.py fused-step) is required');
const pairs = Number(values.pairs);
const length = Number(values.length);
if (!Number.isInteger(pairs) || pairs < 1 || !Number.isInteger(length) || length < 2) throw new Error('time_fused_step: --pairs and --length must be whole numbers (length ≥ 2)');
const runtimes = { node: 'native', web: 'wasm' };
const chosen = values.runtime === 'both' ? ['node', 'web'] : [values.runtime];
if (chosen.some((r) => !runtimes[r])) throw new Error(`time_fused_step: --runtime must be web, node or both, got ${values.runtime}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
let differs = false;

async function measure(runtime, C) {
  const { backend, meta } = await loadNodeAktBackend(values.dir, false, runtimes[runtime]);
  const ort = await importOrt(runtimes[runtime]);
  const options = { ...(runtime === 'node' ? NATIVE_SESSION : { executionProviders: ['wasm'] }), graphOptimizationLevel: 'all' };
  const open = (file) => ort.InferenceSession.create(readFileSync(join(values.dir, file)), options);
  const [cand, step] = await Promise.all([open(meta.graphs.candidates.file), open('akt_step.onnx')]);
  const i32 = (a, d) => new ort.Tensor('int32', Int32Array.from(a), d);
  const f32 = (a, d) => new ort.Tensor('float32', Float32Array.from(a), d);
  const r = rng(7);
  const L = length - 1;
  const seq = (f) => Int32Array.from({ length: L }, f);
  const cache = await backend.encode(seq(() => 1 + Math.floor(r() * meta.n_skills)), seq(() => 1 + Math.floor(r() * meta.n_questions)), seq(() => (r() < 0.6 ? 1 : 0)));
  const candSkills = Int32Array.from({ length: C }, (_, k) => 1 + ((k * 7) % meta.n_skills));
  const candQuestions = new Int32Array(C);
  const [skill, question, response] = [5, 77, 1];
  // The fused graph's inputs besides the cache, made once as the backend makes its own (per length, per candidate set).
  const terms = await cand.run({ cand_skills: i32(candSkills, [1, C]), cand_questions: i32(candQuestions, [1, C]) });
  const roots = (n) => Array.from({ length: n }, (_, j) => Math.sqrt(length - j));
  const fixed = {
    distances: f32(Array.from({ length: L + 1 }, (_, j) => L - j), [1, 1, 1, L + 1]),
    skill: i32([skill], [1, 1]), question: i32([question], [1, 1]), response: i32([response], [1, 1]),
    root_self: f32(roots(length + 1), [1, 1, length + 1, 1]), root_hist: f32(roots(length), [1, 1, length, 1]),
    ...terms,
  };
  // The cache's tensors by name: the backend's own cache object (OrtCache.tensors in akt-backend.ts).
  const cacheFeeds = Object.fromEntries(step.inputNames.filter((n) => cache.tensors[n]).map((n) => [n, cache.tensors[n]]));
  const cacheNames = Object.keys(cache.tensors);
  const twoCalls = async () => {
    const next = await backend.append(cache, skill, question, response);
    const p = await backend.readout(next, next.length, candSkills, candQuestions);
    return { p, next };
  };
  const oneCall = async () => {
    const o = await step.run({ ...cacheFeeds, ...fixed });
    return { p: await o.p_correct.getData(), tensors: Object.fromEntries(cacheNames.map((n) => [n, o[`new_${n}`]])) };
  };
  const a = await twoCalls();
  const b = await oneCall();
  let maxDiff = 0;
  const cmp = (x, y) => { for (let i = 0; i < x.length; i++) maxDiff = Math.max(maxDiff, Math.abs(x[i] - y[i])); };
  cmp(a.p, b.p);
  for (const n of cacheNames) cmp(await a.next.tensors[n].getData(), await b.tensors[n].getData());
  backend.recycle(a.next);
  if (maxDiff !== 0) differs = true;
  const two = [], one = [], ratio = [];
  for (let k = 0; k < pairs + 20; k++) {
    let t = performance.now();
    const { next } = await twoCalls();
    const x = performance.now() - t;
    backend.recycle(next); // as the tracer hands back a cache nobody reads again
    t = performance.now();
    await oneCall();
    const y = performance.now() - t;
    if (k >= 20) { two.push(x); one.push(y); ratio.push(y / x); } // the first 20 pairs warm up
  }
  console.log(`| ${runtime === 'node' ? 'onnxruntime-node' : 'onnxruntime-web (wasm)'} | ${C} | ${median(two).toFixed(3)} | ${median(one).toFixed(3)} | ${median(ratio).toFixed(3)} | ${maxDiff} |`);
  await Promise.all([cand.release(), step.release(), backend.release()]);
}

console.log(`append to ${length - 1} rows + readout at ${length}; ${pairs} alternating pairs, medians\n`);
console.log('| runtime | candidates | two calls ms | one call ms | one / two (median of pairs) | max abs diff |');
console.log('|---|---:|---:|---:|---:|---:|');
const n = JSON.parse(readFileSync(join(values.dir, 'meta.json'), 'utf8')).n_skills;
for (const runtime of chosen) for (const C of [5, n]) await measure(runtime, C);
if (differs) {
  console.error('time_fused_step: the one call does not give the same outputs as the two');
  process.exit(1);
}
