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
  /** The plain forward graph, for evaluation; optional for simulation. */
  full?: Uint8Array;
}

interface OrtCache extends AktCache {
  tensor: OrtTypes.Tensor;
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
  const i32 = (a: Int32Array, dims: number[]) => new ort.Tensor('int32', a, dims);
  return {
    async encode(skills, questions, responses): Promise<OrtCache> {
      const L = skills.length;
      const out = await enc.run({ skills: i32(skills, [1, L]), questions: i32(questions, [1, L]), responses: i32(responses, [1, L]) });
      const tensor = out.cache;
      if (!tensor) throw new Error('AKT encode graph has no "cache" output');
      return { length: L, tensor };
    },
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
      await Promise.all([enc.release(), read.release(), full?.release()]);
    },
  };
}
