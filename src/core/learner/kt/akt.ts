/**
 * The AKT tracer (Attentive Knowledge Tracing, Ghosh, Heffernan & Lan, KDD 2020) over a tensor
 * backend. The model runs as two ONNX graphs (training/akt/export_onnx.py): `encode` turns the
 * history into a per-layer cache once per new history, and `readout` computes only the last row
 * for any number of candidate next items. A belief over all skills is one readout with one
 * candidate per skill. The backend (onnxruntime-web in a worker or in Node) lives in the
 * adapters; this class owns windowing, caching and the query mapping, and is pure.
 */
import type { Interaction, KnowledgeTracer, Query, TracerInfo } from './types';
import { SimError } from '../../errors';

/** The parts of public/models/akt/meta.json the tracer needs. */
export interface AktMeta {
  format: string;
  n_skills: number;
  n_questions: number;
  hyperparameters: { d_model: number; n_blocks: number; [k: string]: unknown };
  context_window: { max_history: number };
  exported?: string;
  graphs?: Record<string, { sha256?: string }>;
}

/** A computed history cache: opaque to the tracer, passed back to readout. */
export interface AktCache {
  /** Number of real history rows it holds. */
  length: number;
}

export interface AktBackend {
  /** Encodes one history (rows oldest first). Must accept length 1 with a padding row for an empty history. */
  encode(skills: Int32Array, questions: Int32Array, responses: Int32Array): Promise<AktCache>;
  /** P(correct) for each candidate as the next row after the cached history. */
  readout(cache: AktCache, histLen: number, candSkills: Int32Array, candQuestions: Int32Array): Promise<Float32Array>;
}

export class AktTracer implements KnowledgeTracer {
  readonly info: TracerInfo;
  readonly meta: AktMeta;
  readonly #backend: AktBackend;
  #lastWindow: { skills: Int32Array; questions: Int32Array; responses: Int32Array } | null = null;
  #lastCache: Promise<AktCache> | null = null;
  /** Encodes and readouts done (for benchmarks and tests). */
  readonly counters = { encodes: 0, readouts: 0, cacheHits: 0 };

  constructor(backend: AktBackend, meta: AktMeta) {
    if (!meta.format?.startsWith('educlaw-akt-onnx/')) throw new SimError('TRACER_FAILED', `AKT meta.json has format "${meta.format}", expected educlaw-akt-onnx/*`);
    this.#backend = backend;
    this.meta = meta;
    this.info = { name: 'akt', version: `akt-d${meta.hyperparameters.d_model}-b${meta.hyperparameters.n_blocks}${meta.exported ? `-${meta.exported}` : ''}`, nSkills: meta.n_skills };
  }

  /** The most recent `max_history` rows as int32 columns (an empty history is one padding row of length 0). */
  window(history: readonly Interaction[]): { skills: Int32Array; questions: Int32Array; responses: Int32Array; length: number } {
    const max = this.meta.context_window.max_history;
    const rows = history.length > max ? history.slice(history.length - max) : history;
    const n = Math.max(rows.length, 1);
    const skills = new Int32Array(n);
    const questions = new Int32Array(n);
    const responses = new Int32Array(n);
    rows.forEach((r, i) => {
      if (r.skill < 1 || r.skill > this.meta.n_skills) throw new SimError('TRACER_FAILED', `history row ${i}: skill ${r.skill} is outside the model's 1..${this.meta.n_skills}`);
      skills[i] = r.skill;
      questions[i] = r.question >= 1 && r.question <= this.meta.n_questions ? r.question : 0;
      responses[i] = r.correct ? 1 : 0;
    });
    return { skills, questions, responses, length: rows.length };
  }

  #cacheFor(w: ReturnType<AktTracer['window']>): Promise<AktCache> {
    const last = this.#lastWindow;
    if (last && this.#lastCache && sameRows(last, w)) {
      this.counters.cacheHits++;
      return this.#lastCache;
    }
    this.counters.encodes++;
    const p = this.#backend.encode(w.skills, w.questions, w.responses);
    this.#lastWindow = { skills: w.skills, questions: w.questions, responses: w.responses };
    this.#lastCache = p;
    // A failed encode must not stay cached.
    p.catch(() => {
      if (this.#lastCache === p) {
        this.#lastCache = null;
        this.#lastWindow = null;
      }
    });
    return p;
  }

  async predict(history: readonly Interaction[], queries: readonly Query[]): Promise<number[]> {
    if (queries.length === 0) return [];
    const w = this.window(history);
    const cs = new Int32Array(queries.length);
    const cq = new Int32Array(queries.length);
    queries.forEach((q, i) => {
      if (q.skill < 1 || q.skill > this.meta.n_skills) throw new SimError('TRACER_FAILED', `query ${i}: skill ${q.skill} is outside the model's 1..${this.meta.n_skills}`);
      cs[i] = q.skill;
      // A linked real question carries its learned difficulty; 0 asks for the skill's average item.
      cq[i] = q.question >= 1 && q.question <= this.meta.n_questions ? q.question : 0;
    });
    const cache = await this.#cacheFor(w);
    this.counters.readouts++;
    const out = await this.#backend.readout(cache, w.length, cs, cq);
    if (out.length !== queries.length) throw new SimError('TRACER_FAILED', `AKT readout returned ${out.length} values for ${queries.length} queries`);
    return Array.from(out, (p, i) => {
      if (!Number.isFinite(p)) throw new SimError('TRACER_FAILED', `AKT readout gave ${p} for query ${i}`);
      return p;
    });
  }
}

function sameRows(a: { skills: Int32Array; questions: Int32Array; responses: Int32Array }, b: { skills: Int32Array; questions: Int32Array; responses: Int32Array }): boolean {
  if (a.skills.length !== b.skills.length) return false;
  for (let i = 0; i < a.skills.length; i++) {
    if (a.skills[i] !== b.skills[i] || a.questions[i] !== b.questions[i] || a.responses[i] !== b.responses[i]) return false;
  }
  return true;
}
