// The encode graphs of two model directories, bit for bit, on every history length the model reads.
//
//   node training/akt/compare_encode.mjs --a DIR --b DIR [--runtime node|web|both] [--histories 4]
//
// For each of --histories seeded synthetic histories of 199 rows (no learner data; four kinds in
// turn: skills at random, five skills repeated as in a course, mostly right, mostly wrong), encodes
// every prefix of 1..199 rows with both directories' akt_encode.onnx on onnxruntime-node (CPU, one
// thread) and/or onnxruntime-web (wasm, one thread), and counts the output values whose float32
// bits differ, per length and output. Exits 1 when any differs. What a re-export that is meant to
// keep the numbers (docs/measurements/akt-speed.md, "An Intel machine: denormals, and the encoding in row blocks") is checked with.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadOrt, rng, sessionOptions } from './ort_session.mjs';

const { values } = parseArgs({ options: { a: { type: 'string' }, b: { type: 'string' }, runtime: { type: 'string', default: 'both' }, histories: { type: 'string', default: '4' } } });
if (!values.a || !values.b) throw new Error('compare_encode: --a DIR and --b DIR are required');
const histories = Number(values.histories);
if (!Number.isInteger(histories) || histories < 1) throw new Error(`compare_encode: --histories must be a positive integer, got ${values.histories}`);
const runtimes = values.runtime === 'both' ? ['node', 'web'] : [values.runtime];
for (const r of runtimes) if (r !== 'node' && r !== 'web') throw new Error(`compare_encode: --runtime must be node, web or both, got ${values.runtime}`);
const MAX = 199;

async function compare(runtime) {
  const ort = await loadOrt(runtime, 'compare_encode');
  const opt = sessionOptions(runtime);
  const open = async (dir) => {
    const meta = JSON.parse(readFileSync(resolve(dir, 'meta.json'), 'utf8'));
    return { meta, s: await ort.InferenceSession.create(readFileSync(resolve(dir, meta.graphs.encode.file)), opt) };
  };
  const [A, B] = [await open(values.a), await open(values.b)];
  const rnd = rng(99); // the same histories in every run
  const { n_skills: nS, n_questions: nQ } = A.meta;
  let checked = 0;
  const differ = new Map();
  for (let h = 0; h < histories; h++) {
    const kind = h % 4;
    const sk = Int32Array.from({ length: MAX }, () => (kind === 1 ? 1 + ((Math.floor(rnd() * 5) * 17) % nS) : 1 + Math.floor(rnd() * nS)));
    const qu = Int32Array.from({ length: MAX }, () => 1 + Math.floor(rnd() * nQ));
    const re = Int32Array.from({ length: MAX }, () => (rnd() < (kind === 2 ? 0.95 : kind === 3 ? 0.1 : 0.6) ? 1 : 0));
    for (let L = 1; L <= MAX; L++) {
      const t = (x) => new ort.Tensor('int32', x.slice(0, L), [1, L]);
      const feeds = { skills: t(sk), questions: t(qu), responses: t(re) };
      const [oa, ob] = [await A.s.run(feeds), await B.s.run(feeds)];
      for (const k of Object.keys(oa)) {
        const x = oa[k].data;
        const y = ob[k]?.data;
        if (!y || x.length !== y.length) throw new Error(`compare_encode: output ${k} at ${L} rows has another shape in ${values.b}`);
        const xb = new Uint32Array(x.buffer, x.byteOffset, x.length);
        const yb = new Uint32Array(y.buffer, y.byteOffset, y.length);
        for (let i = 0; i < x.length; i++) {
          checked++;
          if (xb[i] !== yb[i]) differ.set(`${L} rows ${k}`, (differ.get(`${L} rows ${k}`) ?? 0) + 1);
        }
      }
    }
  }
  const n = [...differ.values()].reduce((s, v) => s + v, 0);
  console.log(`${runtime}: ${checked} values (${histories} histories × lengths 1..${MAX}, every output): ${n === 0 ? 'all the same bits' : `${n} differ in bits`}`);
  for (const [k, v] of differ) console.log(`   ${k}: ${v}`);
  return n;
}

let bad = 0;
for (const r of runtimes) bad += await compare(r);
process.exit(bad ? 1 : 0);
