/**
 * The AKT tracer (Attentive Knowledge Tracing, Ghosh, Heffernan & Lan, KDD 2020) over a tensor
 * backend. The model runs as two ONNX graphs (training/akt/export_onnx.py): `encode` turns the
 * history into a per-layer cache once per new history, and `readout` computes only the last row
 * for any number of candidate next items. A belief over all skills is one readout with one
 * candidate per skill. The backend (onnxruntime-web in a worker or in Node) lives in the
 * adapters; this class owns windowing, caching and the query mapping, and is pure.
 */
import type { Interaction, KnowledgeTracer, PredictOptions, Query, TracerInfo } from './types';
import { SimError } from '../../errors';

/** The parts of public/models/akt/meta.json the tracer needs. */
export interface AktMeta {
  format: string;
  n_skills: number;
  n_questions: number;
  hyperparameters: { d_model: number; n_blocks: number; [k: string]: unknown };
  context_window: { max_history: number };
  exported?: string;
  /** Per graph; `row_blocks`: the encoding's row blocks (training/akt/onnx_graphs.py), absent for the whole square. */
  graphs?: Record<string, { sha256?: string; row_blocks?: number[] }>;
}

/** A computed history cache: opaque to the tracer, passed back to readout. */
export interface AktCache {
  /** Number of real history rows it holds. */
  length: number;
}

export interface AktBackend {
  /** Encodes one history (rows oldest first). Must accept length 1 with a padding row for an empty history. */
  encode(skills: Int32Array, questions: Int32Array, responses: Int32Array): Promise<AktCache>;
  /**
   * Optional: the cache of a history of `cache.length >= 1` real rows extended by one row, without
   * re-encoding it (the `append` graph). Equal to encoding the longer history up to float
   * rounding, because every layer is causal; the tracer only uses it while the window's first row
   * stays where it is.
   */
  append?(cache: AktCache, skill: number, question: number, response: number): Promise<AktCache>;
  /** P(correct) for each candidate as the next row after the cached history. */
  readout(cache: AktCache, histLen: number, candSkills: Int32Array, candQuestions: Int32Array): Promise<Float32Array>;
  /**
   * True when a candidate's P(correct) is the same bits whichever candidates are read with it
   * (onnxruntime-web's wasm kernels; not onnxruntime-node's, whose products of one row and of
   * several round differently). Then the tracer reads likely next queries with the ones asked
   * (PredictOptions.also) and answers them later from its memo.
   */
  readonly separable?: boolean;
  /**
   * Optional: the caller will never pass `cache` again, so its memory may serve a later cache.
   * Any later use of it must fail loudly. The tracer calls it only for caches nobody can reach.
   */
  recycle?(cache: AktCache): void;
}

/** The runtime a trace without run_start.tracer.runtime was computed on (TracerInfo.runtime). */
export const AKT_REFERENCE_RUNTIME = 'onnxruntime-web wasm';

export class AktTracer implements KnowledgeTracer {
  readonly info: TracerInfo;
  readonly meta: AktMeta;
  readonly #backend: AktBackend;
  #lastWindow: Window | null = null;
  #lastCache: Promise<AktCache> | null = null;
  /** Readouts waiting for or running on each cache; a superseded cache with readers is doomed until they end. */
  readonly #readers = new Map<Promise<AktCache>, number>();
  readonly #doomed = new Set<Promise<AktCache>>();
  /**
   * The latest readouts over the current cache (at most RECENT_READS): their candidates and what
   * they returned. The same candidates over the same cache give the same numbers (the backend is
   * a pure function of its inputs), so asking again answers from here. A run reads the day's probe
   * items and then all skills at each day's end; after a day without answers both are the previous
   * day's readouts over the same history, so the memo keeps more than the last one.
   */
  #recent: { pc: Promise<AktCache>; reads: Read[] } | null = null;
  /** Encodes, appended rows, readouts done and readouts answered from the memo of recent ones (for benchmarks and tests). */
  readonly counters = { encodes: 0, appends: 0, readouts: 0, cacheHits: 0, readoutHits: 0 };

  /**
   * `runtime`: what runs the backend's graphs, recorded as info.runtime unless it is the reference
   * runtime (AKT_REFERENCE_RUNTIME), whose traces keep their bytes (TracerInfo.runtime).
   */
  constructor(backend: AktBackend, meta: AktMeta, runtime?: string) {
    if (!meta.format?.startsWith('educlaw-akt-onnx/')) throw new SimError('TRACER_FAILED', `AKT meta.json has format "${meta.format}", expected educlaw-akt-onnx/*`);
    this.#backend = backend;
    this.meta = meta;
    this.info = { name: 'akt', version: `akt-d${meta.hyperparameters.d_model}-b${meta.hyperparameters.n_blocks}${meta.exported ? `-${meta.exported}` : ''}`, nSkills: meta.n_skills, ...(runtime && runtime !== AKT_REFERENCE_RUNTIME ? { runtime } : {}) };
  }

  /**
   * The window the model reads, as int32 columns (an empty history is one padding row of length
   * 0); `start` is the index in the history of its first row. A history of at most `max_history`
   * rows is read whole. A longer one drops its oldest rows in blocks of SLIDE_BLOCK: `start` is
   * the smallest multiple of SLIDE_BLOCK that leaves at most `max_history` rows, so the window
   * holds the most recent max_history - SLIDE_BLOCK + 1 .. max_history rows (184..199 for the
   * shipped model). Sliding by blocks instead of by one row keeps a window's first rows fixed for
   * SLIDE_BLOCK answers, so each new answer is one append instead of a new encoding.
   */
  window(history: readonly Interaction[]): Window {
    const max = this.meta.context_window.max_history;
    const block = slideBlock(max);
    const start = history.length > max ? Math.ceil((history.length - max) / block) * block : 0;
    const rows = start > 0 ? history.slice(start) : history;
    const n = Math.max(rows.length, 1);
    const skills = new Int32Array(n);
    const questions = new Int32Array(n);
    const responses = new Int32Array(n);
    rows.forEach((r, i) => {
      if (r.skill < 1 || r.skill > this.meta.n_skills) throw new SimError('TRACER_FAILED', `history row ${start + i}: skill ${r.skill} is outside the model's 1..${this.meta.n_skills}`);
      skills[i] = r.skill;
      questions[i] = r.question >= 1 && r.question <= this.meta.n_questions ? r.question : 0;
      responses[i] = r.correct ? 1 : 0;
    });
    return { skills, questions, responses, length: rows.length, start };
  }

  /**
   * How the cache of a window is computed, as a function of the window alone, so that predict()
   * stays a pure function of the history whatever was asked before: the window's first `base`
   * rows are encoded and the rest are appended. A window at the start of its history (start = 0)
   * with n >= SLIDE_BLOCK rows has base = the last multiple of SLIDE_BLOCK <= n; a slid window
   * (start > 0) has base = the shortest such window's length, max_history - SLIDE_BLOCK + 1;
   * a short window, or any window without an append graph, is encoded whole (base = n).
   * Consecutive windows with the same start and base share the work: the newer one only appends
   * its new rows to the older one's cache, which is the same sequence of operations.
   */
  #baseOf(w: Window): number {
    const block = slideBlock(this.meta.context_window.max_history);
    if (!this.#backend.append || w.length < block) return w.length;
    if (w.start > 0) return this.meta.context_window.max_history - block + 1;
    return w.length - (w.length % block);
  }

  #cacheFor(w: Window): Promise<AktCache> {
    const last = this.#lastWindow;
    const base = this.#baseOf(w);
    const lastBase = last ? this.#baseOf(last) : -1;
    if (last && this.#lastCache && lastBase === base && sameRows(last, w)) {
      this.counters.cacheHits++;
      return this.#lastCache;
    }
    const old = this.#lastCache;
    // Rows i0.. of the window onto a cache (none when i0 = w.length; base < length implies append
    // exists). Each cache made here is read by the next append and reaches nobody else, so it is
    // recycled at once; a shared starting cache (the superseded one) is released below instead.
    const appendRows = async (from: Promise<AktCache>, i0: number, fromShared: boolean): Promise<AktCache> => {
      let c = await from;
      for (let i = i0; i < w.length; i++) {
        const next = await this.#backend.append!(c, w.skills[i]!, w.questions[i]!, w.responses[i]!);
        if (i > i0 || !fromShared) this.#backend.recycle?.(c);
        c = next;
      }
      return c;
    };
    let p: Promise<AktCache>;
    if (last && old && base < w.length && lastBase === base && extends_(last, w)) {
      // The history grew within the same block and the window's first row did not move: extend
      // the cached encoding by the new rows instead of encoding the history again.
      this.counters.appends += w.length - last.length;
      p = appendRows(old, last.length, true);
    } else {
      this.counters.encodes++;
      const n = Math.max(base, 1); // an empty history is its one padding row
      this.counters.appends += w.length - base;
      p = appendRows(this.#backend.encode(w.skills.slice(0, n), w.questions.slice(0, n), w.responses.slice(0, n)), base, false);
    }
    this.#lastWindow = w;
    this.#lastCache = p;
    // The superseded cache can be recycled once the new one no longer needs it (p settled) and
    // no readout is still using it.
    const releaseOld = () => this.#release(old);
    p.then(releaseOld, () => {
      releaseOld();
      // A failed encode must not stay cached.
      if (this.#lastCache === p) {
        this.#lastCache = null;
        this.#lastWindow = null;
      }
    });
    return p;
  }

  /** Hands a cache nobody will read again back to the backend, or once its last readout ends. */
  #release(pc: Promise<AktCache> | null): void {
    if (!pc || !this.#backend.recycle || pc === this.#lastCache) return;
    if ((this.#readers.get(pc) ?? 0) > 0) {
      this.#doomed.add(pc);
      return;
    }
    // A cache that failed to compute has nothing to recycle; its error went to the predict() that awaited it.
    pc.then((c) => this.#backend.recycle!(c), () => undefined);
  }

  async predict(history: readonly Interaction[], queries: readonly Query[], opts?: PredictOptions): Promise<number[]> {
    if (queries.length === 0) return [];
    const w = this.window(history);
    const { cs, cq } = this.#candidates(queries, 'query');
    // Count this readout as a reader of its cache from the moment the cache is chosen, so that
    // the cache cannot be recycled while the readout waits for it or runs.
    const pc = this.#cacheFor(w);
    const recent = this.#recent?.pc === pc ? this.#recent.reads : null;
    const hit = recent?.find((r) => sameInts(r.cs, cs) && sameInts(r.cq, cq));
    if (hit) {
      this.counters.readoutHits++;
      return Array.from(hit.out);
    }
    // A separable backend's readouts are the same bits in any company: a read that had these
    // candidates among others answers them too, and likely next queries are read along now.
    const separable = this.#backend.separable === true;
    const within = separable && recent ? recent.map((r) => pick(r, cs, cq)).find((v) => v !== null) : undefined;
    if (within) {
      this.counters.readoutHits++;
      return within;
    }
    const asked = cs.length;
    let all = { cs, cq };
    if (separable && opts?.also?.length) {
      // The asked candidates first (their values are returned), then each new one of `also` once.
      const more = this.#candidates(opts.also, 'also');
      const have = new Set(Array.from(cs, (s, i) => pairKey(s, cq[i]!)));
      const xs: number[] = [];
      const xq: number[] = [];
      more.cs.forEach((s, i) => {
        const k = pairKey(s, more.cq[i]!);
        if (have.has(k)) return;
        have.add(k);
        xs.push(s);
        xq.push(more.cq[i]!);
      });
      if (xs.length > 0) all = { cs: Int32Array.from([...cs, ...xs]), cq: Int32Array.from([...cq, ...xq]) };
    }
    this.#readers.set(pc, (this.#readers.get(pc) ?? 0) + 1);
    let out: Float32Array;
    try {
      const cache = await pc;
      this.counters.readouts++;
      out = await this.#backend.readout(cache, w.length, all.cs, all.cq);
    } finally {
      const n = this.#readers.get(pc)! - 1;
      if (n > 0) this.#readers.set(pc, n);
      else {
        this.#readers.delete(pc);
        if (this.#doomed.delete(pc)) this.#release(pc);
      }
    }
    if (out.length !== all.cs.length) throw new SimError('TRACER_FAILED', `AKT readout returned ${out.length} values for ${all.cs.length} queries`);
    const values = Array.from(out.subarray(0, asked), (p, i) => {
      if (!Number.isFinite(p)) throw new SimError('TRACER_FAILED', `AKT readout gave ${p} for query ${i}`);
      return p;
    });
    // Kept only while its cache is the current one (a superseded cache's readout is never asked again).
    if (pc === this.#lastCache) {
      if (this.#recent?.pc !== pc) this.#recent = { pc, reads: [] };
      const reads = this.#recent.reads;
      if (reads.length >= RECENT_READS) reads.shift();
      reads.push({ cs: all.cs, cq: all.cq, out: Float32Array.from(out) });
    }
    return values;
  }

  /** The readout's candidate ids of `queries` (`what` names them in errors). */
  #candidates(queries: readonly Query[], what: string): { cs: Int32Array; cq: Int32Array } {
    const cs = new Int32Array(queries.length);
    const cq = new Int32Array(queries.length);
    queries.forEach((q, i) => {
      if (q.skill < 1 || q.skill > this.meta.n_skills) throw new SimError('TRACER_FAILED', `${what} ${i}: skill ${q.skill} is outside the model's 1..${this.meta.n_skills}`);
      cs[i] = q.skill;
      // A linked real question carries its learned difficulty; 0 asks for the skill's average item.
      cq[i] = q.question >= 1 && q.question <= this.meta.n_questions ? q.question : 0;
    });
    return { cs, cq };
  }
}

interface Window {
  skills: Int32Array;
  questions: Int32Array;
  responses: Int32Array;
  /** Real rows (0 for an empty history, which is one padding row). */
  length: number;
  /** Index in the history of the window's first row. */
  start: number;
}

/**
 * Block length of the window's slide and of the append path (see AktTracer#window and #baseOf):
 * at most SLIDE_BLOCK - 1 appends per encoding.
 */
const SLIDE_BLOCK = 16;
/** Readouts over the current cache that the tracer remembers (AktTracer#recent): a day's probe items, all skills, and room to spare. */
const RECENT_READS = 4;
const slideBlock = (maxHistory: number) => Math.max(1, Math.min(SLIDE_BLOCK, maxHistory));

/**
 * Whether `b` is `a` with rows added at the end: both windows start at the same history row,
 * `a` has at least one real row, and `a`'s rows are `b`'s first rows.
 */
function extends_(a: Window, b: Window): boolean {
  return a.start === b.start && a.length >= 1 && b.length > a.length && samePrefix(a, b, a.length);
}

type Rows = { skills: Int32Array; questions: Int32Array; responses: Int32Array };

function sameRows(a: Rows, b: Rows): boolean {
  return a.skills.length === b.skills.length && samePrefix(a, b, a.skills.length);
}

function samePrefix(a: Rows, b: Rows, n: number): boolean {
  for (let i = 0; i < n; i++) {
    if (a.skills[i] !== b.skills[i] || a.questions[i] !== b.questions[i] || a.responses[i] !== b.responses[i]) return false;
  }
  return true;
}

/** A candidate (skill, question) as one key. */
const pairKey = (skill: number, question: number) => `${skill},${question}`;

/** A remembered readout: its candidates, what it returned, and (made at its first pick) where each candidate is. */
interface Read {
  cs: Int32Array;
  cq: Int32Array;
  out: Float32Array;
  at?: Map<string, number>;
}

/** The values of candidates (cs, cq) from a read that had every one of them, or null. */
function pick(r: Read, cs: Int32Array, cq: Int32Array): number[] | null {
  const at = (r.at ??= new Map(Array.from(r.cs, (s, i) => [pairKey(s, r.cq[i]!), i])));
  const out: number[] = [];
  for (let i = 0; i < cs.length; i++) {
    const j = at.get(pairKey(cs[i]!, cq[i]!));
    if (j === undefined) return null;
    out.push(r.out[j]!);
  }
  return out;
}

function sameInts(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
