// ONNX Runtime (onnxruntime-web, wasm, 1 thread) vs PyTorch parity for the exported AKT graphs.
//
//   node training/akt/check_onnx.mjs [--models public/models/akt] [--fixture training/akt/fixtures/akt_parity.json]
//                                    [--bench 20] [--json out.json]
//
// Checks (tolerance from the fixture, 1e-4):
//   1. full(ORT) vs full(torch) on every full case                         max |diff|
//   2. readout(ORT, after encode(ORT)) vs readout(torch)                    max |diff|
//   3. readout(ORT) vs full(ORT) last row of history + candidate            max |diff|
//   4. readout(ORT) vs full(torch) last row of history + candidate          max |diff|
//   5. the fixture was made for these ONNX files (sha256)
//   6. append(ORT) row by row vs encode(ORT) of the longer history (every cache tensor), and
//      readout after the appends vs readout(torch)                         max |diff|
// Then times encode (L = max_history), append, and readout (C = n_skills) on the window case.
// Prints one line per check and a closing "N passed, N failed" line; exit code 1 on failure.
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-web';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const modelsDir = resolve(root, opt('--models', 'public/models/akt'));
const fixturePath = resolve(root, opt('--fixture', 'training/akt/fixtures/akt_parity.json'));
const benchRuns = Number(opt('--bench', '20'));
const jsonOut = opt('--json', null);

ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';

const meta = JSON.parse(readFileSync(join(modelsDir, 'meta.json'), 'utf8'));
const fx = JSON.parse(readFileSync(fixturePath, 'utf8'));
const tol = fx.tolerance ?? 1e-4;

const sessions = {};
for (const g of Object.keys(meta.graphs)) {
  const bytes = readFileSync(join(modelsDir, meta.graphs[g].file));
  sessions[g] = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
}

const flat = (a) => a.flat(Infinity);
const i32 = (nested) => {
  const rows = nested.length;
  const cols = nested[0].length;
  return new ort.Tensor('int32', Int32Array.from(flat(nested)), [rows, cols]);
};
const maxAbs = (a, b) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

async function full(skills, questions, responses) {
  const out = await sessions.full.run({ skills: i32(skills), questions: i32(questions), responses: i32(responses) });
  return out.p_correct;
}
// The cache as formats educlaw-akt-onnx/2 and 3 keep it: encode's outputs, one tensor per slice and per
// head (cache_i, ke_i [B, H, L, d_k]); the readout and append take the ones they name.
const isCache = (n) => /^(cache|ke)_\d+$/.test(n);
const pick = (enc, graph) => Object.fromEntries(sessions[graph].inputNames.filter(isCache).map((n) => [n, enc[n]]));
async function encode(skills, questions, responses) {
  return sessions.encode.run({ skills: i32(skills), questions: i32(questions), responses: i32(responses) });
}
// Appends a row (d = H * d_k floats, also [H, d_k]) to a cache tensor [1, H, L, d_k] along L.
function appendRow(t, row) {
  const [, H, L, dk] = t.dims;
  const out = new Float32Array(H * (L + 1) * dk);
  for (let h = 0; h < H; h++) {
    out.set(t.data.subarray(h * L * dk, (h + 1) * L * dk), h * (L + 1) * dk);
    out.set(row.subarray(h * dk, (h + 1) * dk), (h * (L + 1) + L) * dk);
  }
  return new ort.Tensor('float32', out, [1, H, L + 1, dk]);
}
async function append(enc, s, q, r) {
  const one = (v) => new ort.Tensor('int32', Int32Array.of(v), [1, 1]);
  const L = enc.cache_0.dims[2];
  const distances = new ort.Tensor('float32', Float32Array.from({ length: L + 1 }, (_, j) => L - j), [1, 1, 1, L + 1]); // format 3
  const out = await sessions.append.run({ ...pick(enc, 'append'), distances, skill: one(s), question: one(q), response: one(r) });
  const next = {};
  for (const n of Object.keys(enc).filter(isCache)) {
    const [kind, i] = n.split('_');
    const rows = (kind === 'cache' ? out.cache_row : out.ke_row).data;
    const d = enc[n].dims[1] * enc[n].dims[3];
    next[n] = appendRow(enc[n], rows.subarray(Number(i) * d, (Number(i) + 1) * d));
  }
  return next;
}
// The readout reads one history whose every cached row is real (no padding, no hist_len; an empty
// history is cache tensors of length 0): a padded batch of the fixture is read row by row, each
// row's history encoded alone. Returns { data, dims } like a tensor of the batch's predictions.
async function readout(skills, questions, responses, histLen, candSkills, candQuestions) {
  const C = candSkills[0].length;
  const data = new Float32Array(histLen.length * C);
  for (let b = 0; b < histLen.length; b++) {
    const n = histLen[b];
    const enc = n > 0 ? await encode([skills[b].slice(0, n)], [questions[b].slice(0, n)], [responses[b].slice(0, n)]) : null;
    const p = await readoutOf(enc, [candSkills[b]], [candQuestions[b]]);
    data.set(p.data, b * C);
  }
  return { data, dims: [histLen.length, C] };
}
// One readout over an encoding (null: the empty history).
async function readoutOf(enc, candSkills, candQuestions) {
  const cache = enc ? pick(enc, 'readout') : Object.fromEntries(sessions.readout.inputNames.filter(isCache).map((n) => [n, new ort.Tensor('float32', new Float32Array(0), [1, meta.hyperparameters.n_heads, 0, meta.hyperparameters.d_model / meta.hyperparameters.n_heads])]));
  // Format 3: the candidates' terms from the candidates graph, the length's roots sqrt(L - j) (0 for the candidate itself).
  const L = enc ? enc.cache_0.dims[2] : 0;
  const roots = (m) => Float32Array.from({ length: m }, (_, j) => Math.sqrt(L - j));
  const terms = await sessions.candidates.run({ cand_skills: i32(candSkills), cand_questions: i32(candQuestions) });
  const f32 = (a, dims) => new ort.Tensor('float32', a, dims);
  const out = await sessions.readout.run({ ...cache, root_self: f32(roots(L + 1), [1, 1, L + 1, 1]), root_hist: f32(roots(L), [1, 1, L, 1]), ...terms });
  return out.p_correct;
}
const cacheDiff = (a, b) => Math.max(...Object.keys(a).filter(isCache).map((n) => maxAbs(a[n].data, b[n].data)));

const results = [];
const report = {};
const check = (name, value, ok) => {
  results.push(ok);
  report[name] = value;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name} ${typeof value === 'number' ? `max|diff|=${value.toExponential(3)}` : JSON.stringify(value)}`);
};

// 5. fixture made for these files
const sha = (f) => createHash('sha256').update(readFileSync(join(modelsDir, f))).digest('hex');
const shaOk = Object.keys(meta.graphs).every((g) => fx.onnx_sha256[g] === sha(meta.graphs[g].file)) && Object.keys(fx.onnx_sha256).length === Object.keys(meta.graphs).length;
check('fixture matches the ONNX files (sha256)', shaOk, shaOk);

// 1. full vs torch
for (const c of fx.full) {
  const p = await full(c.skills, c.questions, c.responses);
  check(`full/${c.name} ORT vs torch [${p.dims}]`, maxAbs(p.data, flat(c.p_correct)), maxAbs(p.data, flat(c.p_correct)) <= tol);
}

// 2-4. encode + readout
for (const c of fx.readout) {
  const p = await readout(c.skills, c.questions, c.responses, c.hist_len, c.cand_skills, c.cand_questions);
  const d2 = maxAbs(p.data, flat(c.p_readout));
  check(`readout/${c.name} ORT vs torch [${p.dims}]`, d2, d2 <= tol);
  const C = c.cand_skills[0].length;
  let d3 = 0;
  for (let b = 0; b < c.hist_len.length; b++) {
    const n = c.hist_len[b];
    for (let k = 0; k < C; k++) {
      const s = [[...c.skills[b].slice(0, n), c.cand_skills[b][k]]];
      const q = [[...c.questions[b].slice(0, n), c.cand_questions[b][k]]];
      const r = [[...c.responses[b].slice(0, n), 0]];
      const pf = await full(s, q, r);
      d3 = Math.max(d3, Math.abs(pf.data[n] - p.data[b * C + k]));
    }
  }
  check(`readout/${c.name} encode+readout vs full last row (both ORT)`, d3, d3 <= tol);
  const d4 = maxAbs(p.data, flat(c.p_full_last_row));
  check(`readout/${c.name} encode+readout (ORT) vs full last row (torch)`, d4, d4 <= tol);
}

// 6. append row by row (window case: one learner, no padding)
{
  const c = fx.readout.find((x) => x.name === 'window');
  const L = c.skills[0].length;
  const n0 = Math.floor(L / 2);
  const cut = (a, n) => [a[0].slice(0, n)];
  let enc = await encode(cut(c.skills, n0), cut(c.questions, n0), cut(c.responses, n0));
  for (let n = n0; n < L; n++) enc = await append(enc, c.skills[0][n], c.questions[0][n], c.responses[0][n]);
  const ref = await encode(c.skills, c.questions, c.responses);
  const dc = cacheDiff(enc, ref);
  check(`append/window ${L - n0} appends vs encode of ${L} rows (every cache tensor; both ORT)`, dc, dc <= tol);
  const p = await readoutOf(enc, c.cand_skills, c.cand_questions);
  const dp = maxAbs(p.data, flat(c.p_readout));
  check(`append/window readout after appends (ORT) vs readout (torch) [${p.dims}]`, dp, dp <= tol);
}

// timing on the window case (one learner, L = max_history, C = all skills + 2)
if (benchRuns > 0) {
  const c = fx.readout.find((x) => x.name === 'window');
  const time = async (fn) => {
    await fn();
    const ts = [];
    for (let i = 0; i < benchRuns; i++) {
      const t = performance.now();
      await fn();
      ts.push(performance.now() - t);
    }
    ts.sort((a, b) => a - b);
    return { median_ms: ts[Math.floor(ts.length / 2)], min_ms: ts[0], max_ms: ts[ts.length - 1], runs: benchRuns };
  };
  const cache = await encode(c.skills, c.questions, c.responses);
  const L = c.skills[0].length;
  const C = c.cand_skills[0].length;
  const tEnc = await time(() => encode(c.skills, c.questions, c.responses));
  const tRead = await time(() => readoutOf(cache, c.cand_skills, c.cand_questions));
  const one = [[c.cand_skills[0][0]]];
  const oneQ = [[c.cand_questions[0][0]]];
  const tRead1 = await time(() => readoutOf(cache, one, oneQ));
  const encPrev = await encode(c.skills.map((a) => a.slice(0, L - 1)), c.questions.map((a) => a.slice(0, L - 1)), c.responses.map((a) => a.slice(0, L - 1)));
  const tAppend = await time(() => append(encPrev, c.skills[0][L - 1], c.questions[0][L - 1], c.responses[0][L - 1]));
  const s = [[...c.skills[0], 1]];
  const q = [[...c.questions[0], 0]];
  const r = [[...c.responses[0], 0]];
  const tFull = await time(() => full(s, q, r));
  report.timing = { L, C, encode: tEnc, readout_all_candidates: tRead, readout_one_candidate: tRead1, append_one_row_incl_copy: tAppend, full_one_sequence_L_plus_1: tFull, ort: ort.env.versions?.web ?? 'onnxruntime-web', threads: 1 };
  console.log(`timing (wasm, 1 thread, median of ${benchRuns}): encode L=${L}: ${tEnc.median_ms.toFixed(2)} ms; readout C=${C}: ${tRead.median_ms.toFixed(2)} ms; readout C=1: ${tRead1.median_ms.toFixed(2)} ms; append 1 row at L=${L - 1}: ${tAppend.median_ms.toFixed(2)} ms; full L=${L + 1}: ${tFull.median_ms.toFixed(2)} ms`);
}

const nPass = results.filter(Boolean).length;
const nFail = results.length - nPass;
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ ...report, passed: nPass, failed: nFail }, null, 1));
console.log(`${nPass} passed, ${nFail} failed`);
process.exit(nFail === 0 ? 0 : 1);
