/**
 * AKT backend on onnxruntime-web, shared by the browser worker and Node. The caller passes the
 * `ort` module it imported (the page picks the wasm or the WebGPU build; Node uses the package's
 * Node entry), so this file bundles no runtime of its own.
 */
import type * as OrtTypes from 'onnxruntime-web';
import type { AktBackend, AktCache } from '../../core/learner/kt/akt';

type Ort = Pick<typeof OrtTypes, 'InferenceSession' | 'Tensor'>;

export interface AktGraphs {
  encode: Uint8Array;
  readout: Uint8Array;
  /** Extends an encoding by one row; without it every new history is encoded whole. */
  append?: Uint8Array;
  /** The plain forward graph, for evaluation; optional for simulation. */
  full?: Uint8Array;
}

interface OrtCache extends AktCache {
  tensor: OrtTypes.Tensor;
  /** The knowledge encoder's keys and values (encode's second output), for append. */
  ke?: OrtTypes.Tensor;
}

export interface OrtAktBackend extends AktBackend {
  /** All rows' predictions for a batch of right-padded sequences [B, L] (evaluation). */
  full(skills: Int32Array, questions: Int32Array, responses: Int32Array, batch: number, length: number): Promise<Float32Array>;
  release(): Promise<void>;
}

export async function createOrtAktBackend(ort: Ort, graphs: AktGraphs, executionProviders: string[]): Promise<OrtAktBackend> {
  const opts = { executionProviders, graphOptimizationLevel: 'all' as const };
  // One at a time: the WebGPU execution provider refuses to create sessions concurrently.
  const enc = await ort.InferenceSession.create(graphs.encode, opts);
  const read = await ort.InferenceSession.create(graphs.readout, opts);
  const full = graphs.full ? await ort.InferenceSession.create(graphs.full, opts) : null;
  const app = graphs.append ? await ort.InferenceSession.create(graphs.append, opts) : null;
  const i32 = (a: Int32Array, dims: number[]) => new ort.Tensor('int32', a, dims);
  // [1, S, L, d] and a row [1, S, 1, d] -> [1, S, L + 1, d]. A copy in JS: ONNX Runtime Web has
  // no in-place append, and at L = 199, d = 128 this is about 100k floats, well under a millisecond.
  const concatRow = async (t: OrtTypes.Tensor, row: OrtTypes.Tensor): Promise<OrtTypes.Tensor> => {
    const [b, S, L, d] = t.dims as [number, number, number, number];
    if (b !== 1 || row.dims[1] !== S || row.dims[2] !== 1 || row.dims[3] !== d) throw new Error(`AKT append: cannot append a [${row.dims}] row to a [${t.dims}] cache`);
    const a = (await t.getData()) as Float32Array;
    const r = (await row.getData()) as Float32Array;
    const out = new Float32Array(S * (L + 1) * d);
    for (let k = 0; k < S; k++) {
      out.set(a.subarray(k * L * d, (k + 1) * L * d), k * (L + 1) * d);
      out.set(r.subarray(k * d, (k + 1) * d), (k * (L + 1) + L) * d);
    }
    return new ort.Tensor('float32', out, [1, S, L + 1, d]);
  };
  return {
    async encode(skills, questions, responses): Promise<OrtCache> {
      const L = skills.length;
      const out = await enc.run({ skills: i32(skills, [1, L]), questions: i32(questions, [1, L]), responses: i32(responses, [1, L]) });
      const tensor = out.cache;
      if (!tensor) throw new Error('AKT encode graph has no "cache" output');
      return { length: L, tensor, ...(out.ke_cache ? { ke: out.ke_cache } : {}) };
    },
    ...(app
      ? {
          async append(cache: AktCache, skill: number, question: number, response: number): Promise<OrtCache> {
            const c = cache as OrtCache;
            if (!c.ke) throw new Error('AKT append needs the encode graph\'s "ke_cache" output (re-export the model)');
            const one = (v: number) => i32(Int32Array.of(v), [1, 1]);
            const out = await app.run({ cache: c.tensor, ke_cache: c.ke, skill: one(skill), question: one(question), response: one(response) });
            if (!out.cache_row || !out.ke_row) throw new Error('AKT append graph has no "cache_row" / "ke_row" output');
            return { length: c.length + 1, tensor: await concatRow(c.tensor, out.cache_row), ke: await concatRow(c.ke, out.ke_row) };
          },
        }
      : {}),
    async readout(cache, histLen, candSkills, candQuestions) {
      const C = candSkills.length;
      const out = await read.run({
        cache: (cache as OrtCache).tensor,
        hist_len: i32(Int32Array.of(histLen), [1]),
        cand_skills: i32(candSkills, [1, C]),
        cand_questions: i32(candQuestions, [1, C]),
      });
      const p = out.p_correct;
      if (!p) throw new Error('AKT readout graph has no "p_correct" output');
      return (await p.getData()) as Float32Array;
    },
    async full(skills, questions, responses, batch, length) {
      if (!full) throw new Error('the AKT "full" graph was not loaded');
      const d = [batch, length];
      const out = await full.run({ skills: i32(skills, d), questions: i32(questions, d), responses: i32(responses, d) });
      const p = out.p_correct;
      if (!p) throw new Error('AKT full graph has no "p_correct" output');
      return (await p.getData()) as Float32Array;
    },
    async release() {
      await Promise.all([enc.release(), read.release(), full?.release(), app?.release()]);
    },
  };
}
