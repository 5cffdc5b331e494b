/**
 * AKT backend on ONNX Runtime, shared by the browser worker and Node. The caller passes the
 * `ort` module it imported (the page picks onnxruntime-web's wasm or WebGPU build; Node uses
 * onnxruntime-node's native CPU binary or onnxruntime-web's Node entry: adapters/node/akt.ts), so
 * this file bundles no runtime of its own.
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
  /** Set by recycle(): the buffers may hold another cache now, so any further use is an error. */
  recycled?: boolean;
  /** The knowledge encoder's keys and values (encode's second output), for append. */
  ke?: OrtTypes.Tensor;
}

export interface OrtAktBackend extends AktBackend {
  /** All rows' predictions for a batch of right-padded sequences [B, L] (evaluation). */
  full(skills: Int32Array, questions: Int32Array, responses: Int32Array, batch: number, length: number): Promise<Float32Array>;
  release(): Promise<void>;
}

/**
 * `ort` is onnxruntime-web (wasm or WebGPU build) or onnxruntime-node (the same API from
 * onnxruntime-common); `sessionOptions` adds runtime-specific options (native thread counts).
 */
export async function createOrtAktBackend(ort: Ort, graphs: AktGraphs, executionProviders: string[], sessionOptions: Record<string, unknown> = {}): Promise<OrtAktBackend> {
  const opts = { ...sessionOptions, executionProviders, graphOptimizationLevel: 'all' as const };
  // One at a time: the WebGPU execution provider refuses to create sessions concurrently.
  const enc = await ort.InferenceSession.create(graphs.encode, opts);
  const read = await ort.InferenceSession.create(graphs.readout, opts);
  const full = graphs.full ? await ort.InferenceSession.create(graphs.full, opts) : null;
  const app = graphs.append ? await ort.InferenceSession.create(graphs.append, opts) : null;
  const i32 = (a: Int32Array, dims: number[]) => new ort.Tensor('int32', a, dims);
  // onnxruntime-web's wasm backend cannot run sessions concurrently (overlapping runs fail with
  // "Reading data from non-tensor typed value"), so every run waits for the one before it.
  // A promise chain of three lines does this; a queue library would add nothing.
  let last: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const r = last.then(run, run);
    last = r.catch(() => undefined);
    return r;
  };
  const pool = new BufferPool();
  // The pool's buffers that each appended cache uses, until recycle() hands them back.
  const owned = new WeakMap<AktCache, ArrayBuffer[]>();
  const live = (c: AktCache, what: string): OrtCache => {
    if ((c as OrtCache).recycled) throw new Error(`AKT ${what}: this cache was recycled and can no longer be read`);
    return c as OrtCache;
  };
  // [1, S, L, d] and a row [1, S, 1, d] -> [1, S, L + 1, d]. A copy in JS: ONNX Runtime Web has
  // no in-place append, and at L = 199, d = 128 this is about 100k floats. Every element of the
  // new array is written here, so a recycled buffer's old contents never show through.
  const concatRow = async (t: OrtTypes.Tensor, row: OrtTypes.Tensor): Promise<{ tensor: OrtTypes.Tensor; buffer: ArrayBuffer }> => {
    const [b, S, L, d] = t.dims as [number, number, number, number];
    if (b !== 1 || row.dims[1] !== S || row.dims[2] !== 1 || row.dims[3] !== d) throw new Error(`AKT append: cannot append a [${row.dims}] row to a [${t.dims}] cache`);
    const a = (await t.getData()) as Float32Array;
    const r = (await row.getData()) as Float32Array;
    const n = S * (L + 1) * d;
    const buffer = pool.take(n);
    const out = new Float32Array(buffer, 0, n);
    for (let k = 0; k < S; k++) {
      out.set(a.subarray(k * L * d, (k + 1) * L * d), k * (L + 1) * d);
      out.set(r.subarray(k * d, (k + 1) * d), (k * (L + 1) + L) * d);
    }
    return { tensor: new ort.Tensor('float32', out, [1, S, L + 1, d]), buffer };
  };
  return {
    async encode(skills, questions, responses): Promise<OrtCache> {
      const L = skills.length;
      const out = await serial(() => enc.run({ skills: i32(skills, [1, L]), questions: i32(questions, [1, L]), responses: i32(responses, [1, L]) }));
      const tensor = out.cache;
      if (!tensor) throw new Error('AKT encode graph has no "cache" output');
      return { length: L, tensor, ...(out.ke_cache ? { ke: out.ke_cache } : {}) };
    },
    ...(app
      ? {
          async append(cache: AktCache, skill: number, question: number, response: number): Promise<OrtCache> {
            const c = live(cache, 'append');
            if (!c.ke) throw new Error('AKT append needs the encode graph\'s "ke_cache" output (re-export the model)');
            const one = (v: number) => i32(Int32Array.of(v), [1, 1]);
            const keIn = c.ke;
            const out = await serial(() => app.run({ cache: c.tensor, ke_cache: keIn, skill: one(skill), question: one(question), response: one(response) }));
            if (!out.cache_row || !out.ke_row) throw new Error('AKT append graph has no "cache_row" / "ke_row" output');
            const main = await concatRow(c.tensor, out.cache_row);
            const ke = await concatRow(keIn, out.ke_row);
            const next: OrtCache = { length: c.length + 1, tensor: main.tensor, ke: ke.tensor };
            owned.set(next, [main.buffer, ke.buffer]);
            return next;
          },
        }
      : {}),
    async readout(cache, histLen, candSkills, candQuestions) {
      const C = candSkills.length;
      const out = await serial(() => read.run({
        cache: live(cache, 'readout').tensor,
        hist_len: i32(Int32Array.of(histLen), [1]),
        cand_skills: i32(candSkills, [1, C]),
        cand_questions: i32(candQuestions, [1, C]),
      }));
      const p = out.p_correct;
      if (!p) throw new Error('AKT readout graph has no "p_correct" output');
      return (await p.getData()) as Float32Array;
    },
    recycle(cache) {
      const buffers = owned.get(cache);
      (cache as OrtCache).recycled = true;
      if (!buffers) return; // encode's outputs belong to onnxruntime's arrays, not to the pool
      owned.delete(cache);
      for (const b of buffers) pool.give(b);
    },
    async full(skills, questions, responses, batch, length) {
      if (!full) throw new Error('the AKT "full" graph was not loaded');
      const d = [batch, length];
      const out = await serial(() => full.run({ skills: i32(skills, d), questions: i32(questions, d), responses: i32(responses, d) }));
      const p = out.p_correct;
      if (!p) throw new Error('AKT full graph has no "p_correct" output');
      return (await p.getData()) as Float32Array;
    },
    async release() {
      await Promise.all([enc.release(), read.release(), full?.release(), app?.release()]);
    },
  };
}

/**
 * Float buffers for appended caches, handed out again once their cache is recycled. A fresh
 * typed array of a few hundred kilobytes costs about 1 ms in Chromium on its first write (its
 * pages are mapped lazily), more than the append graph itself. Sizes are rounded up to a
 * multiple of 128 KiB so that caches of neighbouring lengths share buffers.
 */
class BufferPool {
  static readonly MAX_PER_SIZE = 4;
  readonly #free = new Map<number, ArrayBuffer[]>();

  /** A buffer of at least `floats` float32 values. */
  take(floats: number): ArrayBuffer {
    const bytes = Math.ceil(floats / 32768) * 32768 * 4;
    return this.#free.get(bytes)?.pop() ?? new ArrayBuffer(bytes);
  }

  give(b: ArrayBuffer): void {
    const list = this.#free.get(b.byteLength) ?? [];
    if (list.length < BufferPool.MAX_PER_SIZE) list.push(b);
    this.#free.set(b.byteLength, list);
  }
}
