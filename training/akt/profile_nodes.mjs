// Per-node and per-op-type time of the AKT graphs of one simulator step, from ONNX Runtime's own
// profiler, in onnxruntime-web (wasm, 1 thread, in Node) and onnxruntime-node (CPU, 1 thread).
//
//   node training/akt/profile_nodes.mjs [--models public/models/akt] [--compare /tmp/akt-old]
//        [--runtime web|node|both] [--runs 40] [--warmup 5] [--length 199] [--top 12] [--json out.json]
//        [--wall-only] [--denormals [--rounds 3]]
//
// The step: append one row to a cached history of `length - 1` rows, then read out the belief over
// C candidates at `length` rows: C = n_skills (the whole belief map) and C = 5 (a course's skills);
// and the encoding of `length - 15` rows (a window just after it slid: once every 16 answers).
// The cache fed to the graphs is encode's output for a seeded synthetic history (no learner data).
// For each graph the profile covers `runs` runs after `warmup` unprofiled-in-the-total runs; the
// table gives per op type the nodes per run, the sum of its nodes' median µs and the share of
// kernel time, then the `top` slowest nodes. onnxruntime-web's profiler adds about 10 µs to every
// node (a node that onnxruntime-node times at 1-3 µs shows 9-15 µs there), so its shares overstate
// cheap nodes; onnxruntime-node's are closer to the kernels' own cost. `--compare DIR` profiles a second model directory the same way
// (e.g. the graphs before a re-export) and prints both. Plain wall-clock medians per graph (no
// profiler; with two directories, runs alternate between them in one process, and the median of
// the per-pair time ratios is printed with the max |diff| between their outputs) close each
// runtime's section; --wall-only prints only those.
//
// --denormals (onnxruntime-node): the wall times of the same cases with and without onnxruntime's
// flush-to-zero / denormals-are-zero (session option `session.set_denormal_as_zero`), each in a
// child process of its own (onnxruntime applies that option once per process, with the first
// session's value, to the thread that creates it), `--rounds` pairs alternating; prints the median
// of each and their ratio, and the max |diff| of the outputs. A diagnostic: the app does not set
// the option (docs/measurements/akt-speed.md, "An Intel machine: denormals, and the encoding in row blocks").
//
// onnxruntime-web prints its profile to stdout from inside the wasm module (console.log cannot
// catch it), so each web profile runs in a child process of this script and is parsed from its
// output; onnxruntime-node writes a JSON file (profileFilePrefix), read and deleted here.
import { readFileSync, writeFileSync, readdirSync, unlinkSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadOrt as loadShared, rng, sessionOptions as sharedOptions } from './ort_session.mjs';

const here = fileURLToPath(import.meta.url);
const root = resolve(dirname(here), '..', '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  if (i + 1 >= args.length) throw new Error(`profile_nodes: ${name} needs a value`);
  return args[i + 1];
};
const num = (name, dflt) => {
  const v = Number(opt(name, String(dflt)));
  if (!Number.isInteger(v) || v < 1) throw new Error(`profile_nodes: ${name} must be a positive integer, got ${opt(name)}`);
  return v;
};

// ----------------------------------------------------------------------------- one measurement
/** Set in a --denormals child: its sessions flush denormals to zero (onnxruntime-node only). */
let flushDenormals = false;
const loadOrt = (runtime) => loadShared(runtime, 'profile_nodes');
const sessionOptions = (runtime, profilePrefix = null) => sharedOptions(runtime, { profilePrefix, flushDenormals });

/**
 * Inputs of the step's graphs for model dir `dir`: { append, readout_all, readout_5, readout_1, encode }
 * (encode: the window after a slide, `length` - 15 rows).
 */
async function stepInputs(ort, runtime, dir, length) {
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
  const r = rng(12345);
  const n = length;
  const skills = Int32Array.from({ length: n }, () => 1 + Math.floor(r() * meta.n_skills));
  const questions = Int32Array.from({ length: n }, () => 1 + Math.floor(r() * meta.n_questions));
  const responses = Int32Array.from({ length: n }, () => (r() < 0.6 ? 1 : 0));
  const enc = await ort.InferenceSession.create(readFileSync(join(dir, meta.graphs.encode.file)), sessionOptions(runtime));
  const t = (a, m) => new ort.Tensor('int32', a.subarray(0, m), [1, m]);
  const prev = await enc.run({ skills: t(skills, n - 1), questions: t(questions, n - 1), responses: t(responses, n - 1) });
  const cur = await enc.run({ skills: t(skills, n), questions: t(questions, n), responses: t(responses, n) });
  await enc.release?.();
  const one = (v) => new ort.Tensor('int32', Int32Array.of(v), [1, 1]);
  // The cache as the graphs take it: format 2 names one tensor per slice and head (encode's
  // outputs cache_i / ke_i, fed to the graphs that name them); format 1 one stacked `cache` and
  // `ke_cache` (a model directory exported before 2026-12-01's second re-export, for --compare).
  const cacheOf = (out, graph) => (meta.format === 'educlaw-akt-onnx/1'
    ? (graph === 'append' ? { cache: out.cache, ke_cache: out.ke_cache } : { cache: out.cache })
    : Object.fromEntries(meta.graphs[graph].inputs.filter((x) => /^(cache|ke)_\d+$/.test(x.name)).map((x) => [x.name, out[x.name]])));
  // hist_len only where the readout still takes it (format 1, and format 2 before the readout dropped its masks).
  const histLen = meta.graphs.readout.inputs.some((x) => x.name === 'hist_len') ? { hist_len: new ort.Tensor('int32', Int32Array.of(n), [1]) } : {};
  // Format 3: the readout takes the candidates graph's outputs (made once per candidate set: not
  // part of a readout's time; the `candidates_*` cases time that graph) and the length's roots,
  // computed as akt-backend.ts does; append takes its distances.
  const f3 = Boolean(meta.graphs.candidates);
  const ids = (C) => ({
    cand_skills: new ort.Tensor('int32', Int32Array.from({ length: C }, (_, k) => 1 + (k * 7) % meta.n_skills), [1, C]),
    cand_questions: new ort.Tensor('int32', new Int32Array(C), [1, C]),
  });
  const candSession = f3 ? await ort.InferenceSession.create(readFileSync(join(dir, meta.graphs.candidates.file)), sessionOptions(runtime)) : null;
  const f32 = (a, dims) => new ort.Tensor('float32', a, dims);
  const roots = (L, m) => Float32Array.from({ length: m }, (_, j) => Math.sqrt(L - j));
  const cands = async (C) => ({
    ...cacheOf(cur, 'readout'),
    ...histLen,
    ...(f3 ? { root_self: f32(roots(n, n + 1), [1, 1, n + 1, 1]), root_hist: f32(roots(n, n), [1, 1, n, 1]), ...(await candSession.run(ids(C))) } : ids(C)),
  });
  const distances = f3 ? { distances: f32(Float32Array.from({ length: n }, (_, j) => n - 1 - j), [1, 1, 1, n]) } : {};
  const feeds = {
    append: { graph: 'append', feeds: { ...cacheOf(prev, 'append'), ...distances, skill: one(skills[n - 1]), question: one(questions[n - 1]), response: one(responses[n - 1]) } },
    readout_all: { graph: 'readout', feeds: await cands(meta.n_skills) },
    readout_5: { graph: 'readout', feeds: await cands(5) },
    readout_1: { graph: 'readout', feeds: await cands(1) }, // P(correct) of the item tried next: a run's most frequent call
    encode: { graph: 'encode', feeds: { skills: t(skills, n - 15), questions: t(questions, n - 15), responses: t(responses, n - 15) } },
    // What a readout of a candidate set not read before costs on top of the readout (format 3).
    ...(f3 ? { candidates_all: { graph: 'candidates', feeds: ids(meta.n_skills) }, candidates_5: { graph: 'candidates', feeds: ids(5) } } : {}),
  };
  await candSession?.release?.();
  return { meta, feeds };
}

/** Profiles one case (a graph and its feeds); returns the profiler's events. */
async function profileCase(runtime, dir, caseName, length, runs, warmup) {
  const ort = await loadOrt(runtime);
  const { meta, feeds } = await stepInputs(ort, runtime, dir, length);
  const c = feeds[caseName];
  if (!c) throw new Error(`profile_nodes: unknown case ${caseName}`);
  const bytes = readFileSync(join(dir, meta.graphs[c.graph].file));
  const tmp = mkdtempSync(join(tmpdir(), 'akt-prof-'));
  const s = await ort.InferenceSession.create(bytes, sessionOptions(runtime, join(tmp, 'p')));
  for (let i = 0; i < warmup + runs; i++) await s.run(c.feeds);
  s.endProfiling();
  if (runtime === 'web') { rmSync(tmp, { recursive: true, force: true }); return null; } // printed to stdout
  const files = readdirSync(tmp).filter((f) => f.endsWith('.json'));
  if (files.length !== 1) throw new Error(`profile_nodes: expected one profile file in ${tmp}, found ${files.length}`);
  const events = JSON.parse(readFileSync(join(tmp, files[0]), 'utf8'));
  for (const f of files) unlinkSync(join(tmp, f));
  rmSync(tmp, { recursive: true, force: true });
  return events;
}

/**
 * Wall time (ms) per graph run of each case, without the profiler, for one or two model
 * directories in one process. With two, runs alternate between them (A B, B A, ...), so that
 * both see the same load on a shared machine; `ratio` is the median over pairs of time(dirs[0]) /
 * time(dirs[1]). Also returns each case's outputs, to compare the directories.
 */
async function wallTimes(runtime, dirList, length, runs, warmup) {
  const ort = await loadOrt(runtime);
  const sets = [];
  for (const dir of dirList) {
    const { meta, feeds } = await stepInputs(ort, runtime, dir, length);
    const sessions = {};
    for (const g of ['append', 'readout', 'encode', 'candidates'].filter((x) => meta.graphs[x])) sessions[g] = await ort.InferenceSession.create(readFileSync(join(dir, meta.graphs[g].file)), sessionOptions(runtime));
    sets.push({ dir, feeds, sessions, heads: meta.hyperparameters.n_heads });
  }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const out = Object.fromEntries(dirList.map((d) => [d, {}]));
  const ratios = {};
  // Cases every directory has (format 3's `candidates_*` only where its graph is).
  for (const name of Object.keys(sets[0].feeds).filter((n) => sets.every((st) => st.feeds[n]))) {
    const once = async (st) => {
      const c = st.feeds[name];
      const t0 = performance.now();
      await st.sessions[c.graph].run(c.feeds);
      return performance.now() - t0;
    };
    for (let i = 0; i < warmup; i++) for (const st of sets) await once(st);
    const ts = sets.map(() => []);
    for (let i = 0; i < runs; i++) {
      const order = i % 2 ? [...sets.keys()].reverse() : [...sets.keys()];
      for (const k of order) ts[k].push(await once(sets[k]));
    }
    sets.forEach((st, k) => { out[st.dir][name] = { median_ms: median(ts[k]), min_ms: Math.min(...ts[k]), runs }; });
    if (sets.length === 2) ratios[name] = median(ts[0].map((t, i) => t / ts[1][i]));
    for (const st of sets) {
      const c = st.feeds[name];
      const res = await st.sessions[c.graph].run(c.feeds);
      out[st.dir][name].outputs = name === 'encode' ? perHead(res, st.heads) : Object.fromEntries(Object.entries(res).map(([k, v]) => [k, Array.from(v.data)]));
    }
  }
  return { byDir: out, ratios };
}

/**
 * encode's outputs as format 2 names them (cache_i, ke_i, per head [1, H, L, d_k]), from either
 * format (format 1: the stacked `cache` / `ke_cache` [1, S, L, d], split here), so that two model
 * directories of different formats can be compared value by value.
 */
function perHead(res, H) {
  if (!res.cache) return Object.fromEntries(Object.entries(res).map(([k, v]) => [k, Array.from(v.data)]));
  const out = {};
  for (const [name, t] of [['cache', res.cache], ['ke', res.ke_cache]]) {
    const [, S, L, d] = t.dims;
    const dk = d / H;
    for (let i = 0; i < S; i++) {
      const a = new Array(H * L * dk);
      for (let l = 0; l < L; l++) for (let h = 0; h < H; h++) for (let k = 0; k < dk; k++) a[(h * L + l) * dk + k] = t.data[(i * L + l) * d + h * dk + k];
      out[`${name}_${i}`] = a;
    }
  }
  return out;
}

// ----------------------------------------------------------------------------- aggregation
/**
 * Kernel events of the measured runs (after `warmup` runs). Per node, the median of its per-run
 * durations: on a shared machine single runs are hit by preemption and, in onnxruntime-web, by
 * pauses of tens of ms that land in one node of a run; a mean would report those. Per op type,
 * the sum of its nodes' medians; the share is of the sum over all nodes.
 */
function aggregate(events, runs, warmup) {
  const runEvents = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').sort((a, b) => a.ts - b.ts);
  if (runEvents.length !== warmup + runs) throw new Error(`profile_nodes: the profile has ${runEvents.length} runs, expected ${warmup + runs}`);
  const measured = runEvents.slice(warmup);
  const runOf = (e) => measured.findIndex((r) => e.ts >= r.ts && e.ts <= r.ts + r.dur);
  const byNode = new Map();
  let kernelEvents = 0;
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || runOf(e) < 0) continue;
    kernelEvents++;
    const name = e.name.slice(0, -'_kernel_time'.length);
    const nd = byNode.get(name) ?? { op: e.args?.op_name ?? '?', durs: [], shape: JSON.stringify(e.args?.output_type_shape?.map((x) => Object.values(x)[0]) ?? []) };
    nd.durs.push(e.dur);
    byNode.set(name, nd);
  }
  const median = (a) => {
    const s = [...a].sort((x, y) => x - y);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const nodes = [...byNode.entries()].map(([name, v]) => ({ name, op: v.op, out_shape: v.shape, runs: v.durs.length, median_us: median(v.durs) }));
  const total = nodes.reduce((a, n) => a + n.median_us, 0);
  const byType = new Map();
  for (const n of nodes) {
    n.share = n.median_us / total;
    const t = byType.get(n.op) ?? { count: 0, us: 0 };
    t.count += n.runs / runs; t.us += n.median_us;
    byType.set(n.op, t);
  }
  nodes.sort((a, b) => b.median_us - a.median_us);
  const types = [...byType.entries()].map(([op, v]) => ({ op, nodes_per_run: v.count, median_us: v.us, share: v.us / total }))
    .sort((a, b) => b.median_us - a.median_us);
  return { kernel_us: total, model_run_median_us: median(measured.map((r) => r.dur)), nodes_per_run: kernelEvents / runs, types, nodes };
}

// ----------------------------------------------------------------------------- child mode
if (args[0] === '--child') {
  const [, runtime, dir, caseName, length, runs, warmup, mode] = args;
  flushDenormals = args[8] === 'ftz';
  if (mode.startsWith('wall:')) {
    // To a file, not stdout: onnxruntime-web writes to stdout from inside the wasm module, which can
    // land in the middle of a long line (the encode case's outputs are megabytes of JSON).
    writeFileSync(mode.slice(5), JSON.stringify(await wallTimes(runtime, dir.split('\n'), +length, +runs, +warmup)));
  } else {
    await profileCase(runtime, dir, caseName, +length, +runs, +warmup);
  }
  process.exit(0);
}

// ----------------------------------------------------------------------------- main
const runtimeArg = opt('--runtime', 'both');
const runtimes = runtimeArg === 'both' ? ['web', 'node'] : [runtimeArg];
for (const r of runtimes) if (r !== 'web' && r !== 'node') throw new Error(`profile_nodes: --runtime must be web, node or both, got ${runtimeArg}`);
const dirs = [resolve(root, opt('--models', 'public/models/akt'))];
if (opt('--compare', null)) dirs.push(resolve(root, opt('--compare', null)));
for (const d of dirs) {
  try { JSON.parse(readFileSync(join(d, 'meta.json'), 'utf8')); } catch (e) { throw new Error(`profile_nodes: ${d}/meta.json cannot be read: ${e.message}`); }
}
const runs = num('--runs', 40);
const warmup = num('--warmup', 5);
const length = num('--length', 199);
if (length < 2) throw new Error('profile_nodes: --length must be at least 2');
const top = num('--top', 12);
const jsonOut = opt('--json', null);

function child(runtime, dir, caseName, mode, ftz = false) {
  const r = spawnSync(process.execPath, [here, '--child', runtime, dir, caseName, String(length), String(runs), String(warmup), mode, ...(ftz ? ['ftz'] : [])], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`profile_nodes: child ${runtime} ${caseName} ${mode} failed (exit ${r.status}):\n${r.stderr}`);
  return r.stdout;
}

function profileEvents(runtime, dir, caseName) {
  const out = child(runtime, dir, caseName, 'profile');
  if (runtime === 'node') throw new Error('unreachable');
  const a = out.indexOf('[\n');
  const b = out.lastIndexOf(']');
  if (a < 0 || b < a) throw new Error(`profile_nodes: no profile in the output of the ${runtime} child for ${caseName}`);
  return JSON.parse(out.slice(a, b + 1));
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

/** Wall times of one child process (every case, the first model directory), with or without flush-to-zero. */
function wallChild(ftz) {
  const tmp = mkdtempSync(join(tmpdir(), 'akt-wall-'));
  try {
    child('node', dirs[0], '-', `wall:${join(tmp, 'wall.json')}`, ftz);
    return JSON.parse(readFileSync(join(tmp, 'wall.json'), 'utf8')).byDir[dirs[0]];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (args.includes('--denormals')) {
  const rounds = num('--rounds', 3);
  const got = { off: [], on: [] };
  for (let i = 0; i < rounds; i++) for (const k of i % 2 ? ['on', 'off'] : ['off', 'on']) got[k].push(wallChild(k === 'on'));
  const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  console.log(`onnxruntime-node (1 thread), ${dirs[0]}: wall time per graph run, the median over ${rounds} child processes each way (each process: the median of ${runs} runs), flush-to-zero off and on alternating`);
  console.log(`   ${pad('case', 16)}${lpad('off ms', 9)}${lpad('on ms', 9)}${lpad('on/off', 8)}  max |diff|`);
  for (const name of Object.keys(got.off[0])) {
    const off = med(got.off.map((w) => w[name].median_ms));
    const on = med(got.on.map((w) => w[name].median_ms));
    let d = 0;
    for (const o of Object.keys(got.off[0][name].outputs)) {
      const x = got.off[0][name].outputs[o];
      const y = got.on[0][name].outputs[o];
      for (let j = 0; j < x.length; j++) d = Math.max(d, Math.abs(x[j] - y[j]));
    }
    console.log(`   ${pad(name, 16)}${lpad(off.toFixed(3), 9)}${lpad(on.toFixed(3), 9)}${lpad((on / off).toFixed(2), 8)}  ${d === 0 ? '0 (the same bits)' : d.toExponential(2)}`);
  }
  process.exit(0);
}
const report = { length, runs, warmup, dirs, results: {} };
const wallOnly = args.includes('--wall-only');
for (const runtime of runtimes) {
  report.results[runtime] = {};
  for (const caseName of wallOnly ? [] : ['append', 'readout_all', 'readout_5', 'encode']) {
    const per = dirs.map((dir) => {
      const events = runtime === 'web' ? profileEvents(runtime, dir, caseName) : null;
      return events;
    });
    for (let i = 0; i < dirs.length; i++) {
      let events = per[i];
      if (runtime === 'node') events = await profileCase('node', dirs[i], caseName, length, runs, warmup);
      const agg = aggregate(events, runs, warmup);
      (report.results[runtime] ??= {})[caseName] ??= {};
      report.results[runtime][caseName][dirs[i]] = agg;
      const label = caseName === 'append' ? `append 1 row to ${length - 1}` : caseName === 'encode' ? `encode ${length - 15} rows` : `readout C=${caseName === 'readout_5' ? 5 : 'n_skills'} at L=${length}`;
      console.log(`\n== ${runtime} (1 thread) · ${label} · ${dirs[i]}`);
      console.log(`   kernel time ${agg.kernel_us.toFixed(1)} µs (sum of per-node medians), model_run median ${agg.model_run_median_us.toFixed(1)} µs, ${agg.nodes_per_run} nodes/run (${runs} runs after ${warmup})`);
      console.log(`   ${pad('op type', 22)}${lpad('nodes', 6)}${lpad('µs', 10)}${lpad('share', 8)}`);
      for (const t of agg.types) console.log(`   ${pad(t.op, 22)}${lpad(t.nodes_per_run, 6)}${lpad(t.median_us.toFixed(1), 10)}${lpad((100 * t.share).toFixed(1) + '%', 8)}`);
      console.log(`   top ${top} nodes:`);
      for (const nd of agg.nodes.slice(0, top)) console.log(`   ${pad(nd.name.slice(0, 44), 46)}${pad(nd.op, 14)}${lpad(nd.median_us.toFixed(1), 8)} µs ${lpad((100 * nd.share).toFixed(1) + '%', 6)}  ${nd.out_shape}`);
    }
  }
  const wall = runtime === 'web'
    ? (() => {
        const tmp = mkdtempSync(join(tmpdir(), 'akt-wall-'));
        try {
          child('web', dirs.join('\n'), '-', `wall:${join(tmp, 'wall.json')}`);
          return JSON.parse(readFileSync(join(tmp, 'wall.json'), 'utf8'));
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      })()
    : await wallTimes('node', dirs, length, runs, warmup);
  report.results[runtime].wall = wall.byDir;
  for (const dir of dirs) {
    const w = wall.byDir[dir];
    console.log(`\n== ${runtime} wall time per graph run, no profiler (median of ${runs}${dirs.length === 2 ? ', runs alternating between the two directories' : ''}) · ${dir}`);
    for (const [k, v] of Object.entries(w)) console.log(`   ${pad(k, 14)}${lpad(v.median_ms.toFixed(3), 9)} ms (min ${v.min_ms.toFixed(3)})`);
    console.log(`   step (append + readout all) ${(w.append.median_ms + w.readout_all.median_ms).toFixed(3)} ms; (append + readout 5) ${(w.append.median_ms + w.readout_5.median_ms).toFixed(3)} ms`);
  }
  if (dirs.length === 2) {
    report.results[runtime].time_ratio = wall.ratios;
    console.log(`\n== ${runtime}: median over alternating pairs of time(${dirs[0]}) / time(${dirs[1]})`);
    for (const [k, v] of Object.entries(wall.ratios)) console.log(`   ${pad(k, 14)}${lpad(v.toFixed(3), 7)}`);
    // The same inputs through both model directories: how far apart their outputs are.
    const [a, b] = dirs.map((d) => wall.byDir[d]);
    const diffs = {};
    for (const k of Object.keys(a)) {
      for (const o of Object.keys(a[k].outputs)) {
        const x = a[k].outputs[o];
        const y = b[k].outputs[o];
        if (!y || y.length !== x.length) throw new Error(`profile_nodes: output ${o} of ${k} differs in shape between ${dirs[0]} and ${dirs[1]}`);
        let m = 0;
        for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i] - y[i]));
        diffs[`${k}.${o}`] = m;
      }
    }
    report.results[runtime].max_abs_diff_between_dirs = diffs;
    console.log(`\n== ${runtime}: max |diff| of the outputs, ${dirs[0]} vs ${dirs[1]} (same inputs)`);
    for (const [k, v] of Object.entries(diffs)) console.log(`   ${pad(k, 24)}${v.toExponential(2)}`);
  }
  for (const d of dirs) for (const v of Object.values(report.results[runtime].wall[d])) delete v.outputs;
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(report, null, 1));
