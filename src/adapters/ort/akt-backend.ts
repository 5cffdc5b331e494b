/**
 * AKT backend on ONNX Runtime, shared by the browser worker and Node. The caller passes the
 * `ort` module it imported (the page picks onnxruntime-web's wasm or WebGPU build; Node uses
 * onnxruntime-node's native CPU binary or onnxruntime-web's Node entry: adapters/node/akt.ts), so
 * this file bundles no runtime of its own.
 */
import type * as OrtTypes from 'onnxruntime-web';
import type { AktBackend, AktCache } from '../../core/learner/kt/index';
import { Lru } from '../../core/index';

type Ort = Pick<typeof OrtTypes, 'InferenceSession' | 'Tensor'>;

export interface AktGraphs {
  encode: Uint8Array;
  readout: Uint8Array;
  /** Extends an encoding by one row; without it every new history is encoded whole. */
  append?: Uint8Array;
  /** What a readout computes from its candidates alone (format educlaw-akt-onnx/3; the readout needs it). */
  candidates?: Uint8Array;
  /** The plain forward graph, for evaluation; optional for simulation. */
  full?: Uint8Array;
}

/**
 * A history's cache as the graphs of format educlaw-akt-onnx/2 and 3 keep it (training/akt/onnx_graphs.py):
 * encode's outputs by name, one tensor per slice and per head, cache_i and ke_i [1, H, length, d_k].
 * The readout and append take the ones they name as inputs as they are.
 */
interface OrtCache extends AktCache {
  tensors: Record<string, OrtTypes.Tensor>;
  /** Set by recycle(): the buffers may hold another cache now, so any further use is an error. */
  recycled?: boolean;
}

/** The cache tensors' names: encode's outputs, `cache_<i>` and `ke_<i>`. */
const CACHE_NAME = /^(cache|ke)_(\d+)$/;
/** The readout's inputs that depend on the history's length alone (format 3). */
const READ_ROOTS = ['root_self', 'root_hist'] as const;
/** The append's inputs besides the cache (format 3). */
const APPEND_ROW = ['distances', 'skill', 'question', 'response'] as const;
/**
 * Candidate sets whose terms the backend keeps (their readouts skip the candidates graph). A
 * sweep worker's backend serves run after run of one course: the 55-scenario library sweep with
 * the planner reads 183 distinct sets in all (180 single items of the bank, the course's skills,
 * the probe items, all skills), which 128 could not hold (2,335 runs of the candidates graph
 * instead of 183 in a one-thread sweep). A set is a few KB (one item) to 0.4 MB (all 110 skills).
 */
export const CANDIDATE_SETS = 512;

export interface OrtAktBackend extends AktBackend {
  /** Runs of the candidates graph: one per candidate set not among the CANDIDATE_SETS kept (for benchmarks and tests). */
  readonly counters: { candidateRuns: number };
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
  const cand = graphs.candidates ? await ort.InferenceSession.create(graphs.candidates, opts) : null;
  const releaseAll = () => Promise.all([enc.release(), read.release(), full?.release(), app?.release(), cand?.release()]);
  const i32 = (a: Int32Array, dims: number[]) => new ort.Tensor('int32', a, dims);
  // The cache layout: encode's outputs are the cache tensors; the readout and append read the ones
  // they name. A model of format 1 (one stacked `cache` tensor) is refused with what to do.
  const cacheNames = enc.outputNames.filter((n) => CACHE_NAME.test(n));
  const readNames = read.inputNames.filter((n) => CACHE_NAME.test(n));
  const appNames = app ? app.inputNames.filter((n) => CACHE_NAME.test(n)) : [];
  const reexport = 're-export the model (training/akt/export_onnx.py --update-graphs)';
  // Format 3: the readout takes the candidates graph's outputs and the length's roots; append its distances.
  const termNames = cand ? cand.outputNames : [];
  const known = (n: string, extra: readonly string[]) => CACHE_NAME.test(n) || extra.includes(n);
  const problem = (): string | undefined => {
    if (cacheNames.length !== enc.outputNames.length || cacheNames.length === 0) {
      return `the AKT encode graph's outputs (${enc.outputNames.join(', ')}) are not the per-head cache of format educlaw-akt-onnx/2 or 3 (cache_0.., ke_0..): ${reexport}`;
    }
    if (read.inputNames.includes('hist_len')) return `the AKT readout graph takes hist_len (a padded history, exported before the readout read every cached row): ${reexport}`;
    if (read.inputNames.includes('cand_skills')) return `the AKT readout graph takes cand_skills (format educlaw-akt-onnx/2, before the candidates graph): ${reexport}`;
    if (!cand) return "the AKT readout graph takes the candidates' terms, but no candidates graph (akt_candidates.onnx) was given";
    if (app && !app.inputNames.includes('distances')) return `the AKT append graph takes no "distances" (exported before format educlaw-akt-onnx/3): ${reexport}`;
    const unknownRead = read.inputNames.find((n) => !known(n, [...READ_ROOTS, ...termNames]));
    if (unknownRead) return `the AKT readout graph takes "${unknownRead}", which neither encode nor the candidates graph gives`;
    const unknownApp = app?.inputNames.find((n) => !known(n, APPEND_ROW));
    if (unknownApp) return `the AKT append graph takes "${unknownApp}", which this backend does not know`;
    const stray = [...readNames, ...appNames].find((n) => !cacheNames.includes(n));
    return stray ? `the AKT graphs disagree: "${stray}" is an input but not an output of encode` : undefined;
  };
  const wrong = problem();
  if (wrong) {
    await releaseAll();
    throw new Error(wrong);
  }
  // Where each cache tensor's new row sits in append's outputs: cache_i in cache_row[:, i], ke_i in ke_row[:, i].
  const rowSlots = cacheNames.map((n) => {
    const [, kind, i] = CACHE_NAME.exec(n)!;
    return { name: n, output: kind === 'cache' ? ('cache_row' as const) : ('ke_row' as const), index: Number(i) };
  });
  const feedsOf = (c: OrtCache, names: readonly string[]) => Object.fromEntries(names.map((n) => [n, c.tensors[n]!]));
  const f32 = (a: Float32Array, dims: number[]) => new ort.Tensor('float32', a, dims);
  // What depends on the history's length alone, made once per length (at most max_history + 2 of
  // them): sqrt(L - j) and L - j of integers, which a Float32Array rounds as a float32 Sqrt does
  // (an integer's square root in double, rounded once to float32, is the correctly rounded float32 root).
  const byLength = new Map<number, { root_self: OrtTypes.Tensor; root_hist: OrtTypes.Tensor; distances: OrtTypes.Tensor }>();
  const lengthTerms = (L: number) => {
    let t = byLength.get(L);
    if (!t) {
      const roots = (n: number) => Float32Array.from({ length: n }, (_, j) => Math.sqrt(L - j)); // j = L gives sqrt(0) = 0: the candidate itself
      t = {
        root_self: f32(roots(L + 1), [1, 1, L + 1, 1]),
        root_hist: f32(roots(L), [1, 1, L, 1]),
        distances: f32(Float32Array.from({ length: L + 1 }, (_, j) => L - j), [1, 1, 1, L + 1]),
      };
      byLength.set(L, t);
    }
    return t;
  };
  // A cache tensor of the same heads and width with no rows: the empty history as the readout takes it.
  const emptyLike = (t: OrtTypes.Tensor) => new ort.Tensor('float32', new Float32Array(0), [1, t.dims[1]!, 0, t.dims[3]!]);

  // onnxruntime-web's wasm backend cannot run sessions concurrently (overlapping runs fail with
  // "Reading data from non-tensor typed value"), so every run waits for the one before it.
  // A promise chain of three lines does this; a queue library would add nothing.
  let last: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const r = last.then(run, run);
    last = r.catch(() => undefined);
    return r;
  };
  // The candidates graph's outputs per candidate set. A run reads few sets (the course's skills, all
  // skills, the items it asks about: 122 sets in 1044 readouts of a 30-day run of
  // fast-careless--after-school, npm run bench:tracer-calls), so most readouts skip that graph. A
  // promise per set, so concurrent readouts of a new set run the graph once; a failed one is forgotten.
  const counters = { candidateRuns: 0 };
  const terms = new Lru<string, Promise<Record<string, OrtTypes.Tensor>>>(CANDIDATE_SETS);
  const termsOf = (candSkills: Int32Array, candQuestions: Int32Array): Promise<Record<string, OrtTypes.Tensor>> => {
    const key = `${candSkills.join(',')}|${candQuestions.join(',')}`;
    const hit = terms.get(key);
    if (hit) return hit;
    const C = candSkills.length;
    counters.candidateRuns++;
    const t = serial(() => cand!.run({ cand_skills: i32(candSkills, [1, C]), cand_questions: i32(candQuestions, [1, C]) })) as Promise<Record<string, OrtTypes.Tensor>>;
    t.catch(() => terms.deleteIf(key, t));
    terms.set(key, t);
    return t;
  };
  const pool = new BufferPool();
  // The pool's buffers that each appended cache uses, until recycle() hands them back.
  const owned = new WeakMap<AktCache, ArrayBuffer[]>();
  const live = (c: AktCache, what: string): OrtCache => {
    if ((c as OrtCache).recycled) throw new Error(`AKT ${what}: this cache was recycled and can no longer be read`);
    return c as OrtCache;
  };
  // A cache tensor [1, H, L, dk] and its new row (d = H * dk floats, which are also [H, dk]) ->
  // [1, H, L + 1, dk]: per head, its L rows and then the row's dk values. A copy in JS: ONNX
  // Runtime has no in-place append, and at L = 199 this is about 25k floats a tensor. Every
  // element of the new array is written here, so a recycled buffer's old contents never show through.
  const appendRow = async (t: OrtTypes.Tensor, row: Float32Array, name: string): Promise<{ tensor: OrtTypes.Tensor; buffer: ArrayBuffer }> => {
    const [b, H, L, dk] = t.dims as [number, number, number, number];
    if (b !== 1 || t.dims.length !== 4 || row.length !== H * dk) throw new Error(`AKT append: cannot append a row of ${row.length} values to ${name} of shape [${t.dims}]`);
    const a = (await t.getData()) as Float32Array;
    const n = H * (L + 1) * dk;
    const buffer = pool.take(n);
    const out = new Float32Array(buffer, 0, n);
    for (let h = 0; h < H; h++) {
      out.set(a.subarray(h * L * dk, (h + 1) * L * dk), h * (L + 1) * dk);
      out.set(row.subarray(h * dk, (h + 1) * dk), (h * (L + 1) + L) * dk);
    }
    return { tensor: new ort.Tensor('float32', out, [1, H, L + 1, dk]), buffer };
  };
  return {
    counters,
    // onnxruntime-web's wasm kernels give a candidate the same bits alone or with others (checked
    // for sets of 2 to 111 candidates over histories of 0 to 199 rows in src/adapters/node/akt.test.ts);
    // onnxruntime-node's do not (a product of one row rounds differently from one of several).
    separable: executionProviders.length === 1 && executionProviders[0] === 'wasm',
    async encode(skills, questions, responses): Promise<OrtCache> {
      const L = skills.length;
      const out = await serial(() => enc.run({ skills: i32(skills, [1, L]), questions: i32(questions, [1, L]), responses: i32(responses, [1, L]) }));
      const tensors: Record<string, OrtTypes.Tensor> = {};
      for (const n of cacheNames) {
        const t = out[n];
        if (!t) throw new Error(`AKT encode graph gave no "${n}" output`);
        tensors[n] = t;
      }
      return { length: L, tensors };
    },
    ...(app
      ? {
          async append(cache: AktCache, skill: number, question: number, response: number): Promise<OrtCache> {
            const c = live(cache, 'append');
            const one = (v: number) => i32(Int32Array.of(v), [1, 1]);
            const out = await serial(() => app.run({ ...feedsOf(c, appNames), distances: lengthTerms(c.length).distances, skill: one(skill), question: one(question), response: one(response) }));
            if (!out.cache_row || !out.ke_row) throw new Error('AKT append graph has no "cache_row" / "ke_row" output');
            const rows = { cache_row: (await out.cache_row.getData()) as Float32Array, ke_row: (await out.ke_row.getData()) as Float32Array };
            const tensors: Record<string, OrtTypes.Tensor> = {};
            const buffers: ArrayBuffer[] = [];
            for (const { name, output, index } of rowSlots) {
              const t = c.tensors[name]!;
              const d = (t.dims[1] as number) * (t.dims[3] as number);
              const r = await appendRow(t, rows[output].subarray(index * d, (index + 1) * d), name);
              tensors[name] = r.tensor;
              buffers.push(r.buffer);
            }
            const next: OrtCache = { length: c.length + 1, tensors };
            owned.set(next, buffers);
            return next;
          },
        }
      : {}),
    async readout(cache, histLen, candSkills, candQuestions) {
      const C = candSkills.length;
      const c = live(cache, 'readout');
      // The readout reads every cached row (no padding, no mask): histLen is the cache's length, or
      // 0 for the empty history (encoded as one padding row), which it reads as tensors of length 0.
      if (histLen !== c.length && histLen !== 0) throw new Error(`AKT readout: a history of ${histLen} rows over a cache of ${c.length}; the readout reads every cached row`);
      if (candQuestions.length !== C) throw new Error(`AKT readout: ${C} candidate skills but ${candQuestions.length} questions`);
      const feeds = histLen === 0 ? Object.fromEntries(readNames.map((n) => [n, emptyLike(c.tensors[n]!)])) : feedsOf(c, readNames);
      const { root_self, root_hist } = lengthTerms(histLen);
      const cands = await termsOf(candSkills, candQuestions);
      const out = await serial(() => read.run({ ...feeds, root_self, root_hist, ...cands }));
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
      await releaseAll();
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
  /** Two caches' tensors (six each for the shipped model): the newest cache and the one it was appended to. */
  static readonly MAX_PER_SIZE = 16;
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

/** One piece of a student's sequence as AKT's own evaluation cuts it (`seqlen` rows at most). */
export interface AktPiece {
  /** Index of the student in the list given. */
  student: number;
  skills: number[];
  /** Question ids, 0 where the id is outside the model's 1..nQuestions. */
  questions: number[];
  responses: number[];
}

/**
 * Teacher-forced predictions as AKT's evaluation makes them: each sequence cut into pieces of
 * `seqlen` rows, pieces run `batch` at a time through `full`, every row predicted from the rows
 * before it in its piece. `visit` sees each row once, in order within a piece.
 */
export async function teacherForcedAkt(
  backend: Pick<OrtAktBackend, 'full'>,
  students: readonly { skills: readonly number[]; questions: readonly number[]; responses: readonly number[] }[],
  opts: { seqlen: number; nQuestions: number; batch: number },
  visit: (piece: AktPiece, t: number, pred: number) => void,
): Promise<void> {
  const pieces: AktPiece[] = [];
  students.forEach((st, student) => {
    for (let i = 0; i < st.skills.length; i += opts.seqlen) {
      const questions = st.questions.slice(i, i + opts.seqlen).map((q) => (q >= 1 && q <= opts.nQuestions ? q : 0));
      pieces.push({ student, skills: st.skills.slice(i, i + opts.seqlen), questions, responses: st.responses.slice(i, i + opts.seqlen) });
    }
  });
  for (let b = 0; b < pieces.length; b += opts.batch) {
    const part = pieces.slice(b, b + opts.batch);
    const L = Math.max(...part.map((p) => p.skills.length));
    const S = new Int32Array(part.length * L);
    const Q = new Int32Array(part.length * L);
    const R = new Int32Array(part.length * L);
    part.forEach((p, i) => {
      S.set(p.skills, i * L);
      Q.set(p.questions, i * L);
      R.set(p.responses, i * L);
    });
    const out = await backend.full(S, Q, R, part.length, L);
    part.forEach((p, i) => {
      for (let t = 0; t < p.skills.length; t++) visit(p, t, out[i * L + t]!);
    });
  }
}
