/**
 * Timing of one full-belief readout (P(correct) on an average item of every skill after a
 * history): incremental (encode the history once, read out all skills' last rows in one call)
 * against naive (one full forward per skill, history + that skill's candidate row); the FLOPs of
 * each path from the model's dimensions (aktFlops), and the matrix-product rate of a runtime
 * (gemmRate), for the floors FLOPs / rate. Shared by the Node benchmark and the in-page benchmark
 * worker; timings are medians over `reps`.
 */
import type { AktTracer, Interaction } from '../../core/learner/kt/index';
import type { OrtAktBackend } from './akt-backend';

export interface AktBenchResult {
  history: number;
  skills: number;
  reps: number;
  /** encode + readout of all skills (the simulator's path) */
  incrementalMs: number;
  encodeMs: number;
  readoutMs: number;
  /** one full forward (batch 1, length history+1) per skill */
  naiveMs: number;
  /** the same naive work as one batched forward (batch = skills) */
  naiveBatchedMs: number;
  /** max |incremental − naive| over skills */
  maxAbsDiff: number;
  /**
   * After one more graded answer while the whole history fits the window: append that row to
   * the cached encoding, then read out all skills (null when the model has no append graph).
   */
  appendIncrementalMs: number | null;
  appendMs: number | null;
  /** max |append path − encode path| over skills, for the same history */
  appendMaxAbsDiff: number | null;
  /**
   * The simulator's path through the tracer: starting from the given history, one more graded
   * answer at a time, each followed by a belief readout of all skills; the mean per answer over
   * `steadyAnswers` answers (the window slides by blocks, so this includes an encode every 16
   * answers and appends in between), and the encodes and appended rows it took.
   */
  steadyMs: number;
  steadyAnswers: number;
  steadyEncodes: number;
  steadyAppends: number;
  /** The model's FLOPs per answer on that path (mean over the answers; aktFlops), all skills. */
  steadyFlops: number;
  /** The same path reading out only `courseSkills` (what a run reads after each answer, engine 2), and its FLOPs. */
  steadyCourseMs: number;
  steadyCourseFlops: number;
  courseSkills: number;
  /** FLOPs of the fixed step "append one row to a window of `history` rows + readout of all skills". */
  appendStepFlops: number;
  /**
   * What a call costs when it has next to nothing to compute: a readout of one candidate after a
   * one-row history, and one row appended to it (null without an append graph); medians. The
   * graphs' nodes, the runtime's run call, inputs and outputs: a cost every call pays, which the
   * FLOP floor does not count.
   */
  callReadoutMs: number;
  callAppendMs: number | null;
}

/** The hyperparameters aktFlops reads (meta.json's). */
export interface AktDims {
  d_model: number;
  n_blocks: number;
  d_ff: number;
  final_fc: number;
  final_fc2: number;
}

/**
 * The query-key pairs an encoding of L rows computes in each attention layer: the whole L × L
 * square, or with row blocks (meta.json graphs.encode.row_blocks, training/akt/onnx_graphs.py
 * row_blocks) rows [s_b, s_{b+1}) against keys [0, s_{b+1}), each block after the first also
 * computing the row before it (the last block every key).
 */
export function encodePairs(L: number, rowBlocks: readonly number[] = []): number {
  rowBlocks.forEach((s, i) => {
    if (!Number.isInteger(s) || s < 1 || (i > 0 && s <= rowBlocks[i - 1]!)) throw new Error(`encodePairs: row_blocks must be increasing whole numbers ≥ 1, got [${rowBlocks.join(', ')}]`);
  });
  const bounds = [0, ...rowBlocks];
  let pairs = 0;
  bounds.forEach((lo, b) => {
    const keys = Math.min(bounds[b + 1] ?? L, L);
    pairs += Math.max(0, keys - Math.max(lo - 1, 0)) * keys;
  });
  return pairs;
}

/**
 * FLOPs (2 per multiply-add) of the matrix products in the AKT graphs, from the model's dimensions
 * (training/akt/akt_model.py: encode_with_ke, append, readout) and the encoding's row blocks
 * (encodePairs). Element-wise work (the monotonic attention's decay and softmax, LayerNorm,
 * residuals) is left out: it is under 2% of the products at d = 128. Queries and keys share one
 * projection (kq_same) but the graphs compute it for each use, so each is counted. `L` is the
 * window's rows before the step.
 */
export function aktFlops(h: AktDims, rowBlocks: readonly number[] = []) {
  const { d_model: d, n_blocks: N, d_ff: ff, final_fc: f1, final_fc2: f2 } = h;
  // One self-attention layer for one new row over `keys` keys: q, k, v projections, scores and
  // weighted values, output projection, and the feed-forward part when the layer has one.
  const selfRow = (keys: number, ffn: boolean) => 6 * d * d + 4 * keys * d + 2 * d * d + (ffn ? 4 * d * ff : 0);
  return {
    /** One new row appended to a window of L rows (append graph). */
    append: (L: number) => N * (selfRow(L + 1, true) + selfRow(L + 1, false) + 4 * d * d) + (N - 1) * (2 * d * d + 4 * L * d + 2 * d * d + 4 * d * ff),
    /**
     * A window of L rows encoded whole (encode graph): per row the projections and feed-forward
     * parts, and the scores and weighted values of each of its 3N - 1 attention layers (the last
     * block's retriever is not computed) over the pairs its row blocks compute.
     */
    encode: (L: number) => L * (N * (selfRow(0, true) + selfRow(0, false) + 4 * d * d) + (N - 1) * (2 * d * d + 2 * d * d + 4 * d * ff)) + (3 * N - 1) * 4 * d * encodePairs(L, rowBlocks),
    /**
     * C candidates read out after L rows (readout graph): per block the question layer's attention
     * (its projections of the candidate are table lookups in block 0) and the retriever with its
     * feed-forward part; then the output layer (its candidate half is a table lookup).
     */
    readout: (L: number, C: number) => C * (N * (4 * L * d + 2 * d * d + 2 * d * d + 4 * L * d + 2 * d * d + 4 * d * ff) + (N - 1) * 4 * d * d + 2 * d * f1 + 2 * f1 * f2 + 2 * f2),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

export async function benchAkt(backend: OrtAktBackend, tracer: AktTracer, history: readonly Interaction[], reps = 10, naiveReps = 2, now: () => number = () => performance.now(), steadyAnswers = 48, courseSkills: readonly number[] = []): Promise<AktBenchResult> {
  if (courseSkills.length === 0) throw new Error('benchAkt: give the course skills (a scenario\'s course.skills) for the per-answer course readout');
  const nSkills = tracer.meta.n_skills;
  const flops = aktFlops(tracer.meta.hyperparameters as unknown as AktDims, tracer.meta.graphs?.encode?.row_blocks);
  const skills = Array.from({ length: nSkills }, (_, i) => i + 1);
  // The fixed-size figures read the longest window the model takes (the most recent max_history rows).
  const w = tracer.window(history.slice(-tracer.meta.context_window.max_history));
  const L = w.length;
  const cs = Int32Array.from(skills);
  const cq = new Int32Array(nSkills);
  // Warm-up: V8 first runs WebAssembly on its baseline compiler and swaps in optimised code for
  // hot functions in the background, so the first calls are several times slower (in Chromium
  // more than in Node). A simulated run makes hundreds of these calls; time the steady state.
  let cache = await backend.encode(w.skills, w.questions, w.responses);
  let inc = await backend.readout(cache, L, cs, cq);
  const warmUntil = now() + 3000;
  for (let i = 0; i < 200 && (i < 20 || now() < warmUntil); i++) {
    cache = await backend.encode(w.skills, w.questions, w.responses);
    inc = await backend.readout(cache, L, cs, cq);
  }
  const tEnc: number[] = [];
  const tRead: number[] = [];
  const tInc: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = now();
    cache = await backend.encode(w.skills, w.questions, w.responses);
    const t1 = now();
    inc = await backend.readout(cache, L, cs, cq);
    const t2 = now();
    tEnc.push(t1 - t0);
    tRead.push(t2 - t1);
    tInc.push(t2 - t0);
  }
  const row = (k: number) => {
    const s = new Int32Array(L + 1), q = new Int32Array(L + 1), rr = new Int32Array(L + 1);
    s.set(w.skills.subarray(0, L));
    q.set(w.questions.subarray(0, L));
    rr.set(w.responses.subarray(0, L));
    s[L] = k;
    return { s, q, rr };
  };
  let maxAbsDiff = 0;
  const tNaive: number[] = [];
  for (let r = 0; r < naiveReps; r++) {
    const t0 = now();
    for (const k of skills) {
      const { s, q, rr } = row(k);
      const out = await backend.full(s, q, rr, 1, L + 1);
      if (r === 0) maxAbsDiff = Math.max(maxAbsDiff, Math.abs(out[L]! - inc[k - 1]!));
    }
    tNaive.push(now() - t0);
  }
  const S = new Int32Array(nSkills * (L + 1)), Q = new Int32Array(nSkills * (L + 1)), R = new Int32Array(nSkills * (L + 1));
  skills.forEach((k, i) => {
    const { s, q, rr } = row(k);
    S.set(s, i * (L + 1));
    Q.set(q, i * (L + 1));
    R.set(rr, i * (L + 1));
  });
  const tBatch: number[] = [];
  for (let r = 0; r < naiveReps; r++) {
    const t0 = now();
    await backend.full(S, Q, R, nSkills, L + 1);
    tBatch.push(now() - t0);
  }
  // Append path: the cache of the first L - 1 rows, extended by row L - 1.
  let appendIncrementalMs: number | null = null;
  let appendMs: number | null = null;
  let appendMaxAbsDiff: number | null = null;
  if (backend.append && L >= 2) {
    const prev = await backend.encode(w.skills.subarray(0, L - 1), w.questions.subarray(0, L - 1), w.responses.subarray(0, L - 1));
    const step = () => backend.append!(prev, w.skills[L - 1]!, w.questions[L - 1]!, w.responses[L - 1]!);
    const ext = await step();
    const viaAppend = await backend.readout(ext, L, cs, cq);
    // Warm-up, as above. Each appended cache is recycled after its readout, as the tracer does.
    for (let i = 0; i < 20; i++) {
      const c = await step();
      await backend.readout(c, L, cs, cq);
      backend.recycle?.(c);
    }
    appendMaxAbsDiff = 0;
    for (let i = 0; i < nSkills; i++) appendMaxAbsDiff = Math.max(appendMaxAbsDiff, Math.abs(viaAppend[i]! - inc[i]!));
    const tApp: number[] = [];
    const tAppInc: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t0 = now();
      const c = await step();
      const t1 = now();
      await backend.readout(c, L, cs, cq);
      backend.recycle?.(c);
      tApp.push(t1 - t0);
      tAppInc.push(now() - t0);
    }
    appendMs = median(tApp);
    appendIncrementalMs = median(tAppInc);
  }
  // Steady state: the history plus steadyAnswers more rows (its own rows again), one answer at a
  // time through tracer.predict, as the simulator does; a first pass warms up, the second is timed.
  const more = [...history, ...history.slice(0, steadyAnswers)];
  const steady = async (queries: { skill: number; question: number; level: number }[]) => {
    let ms = 0, encodes = 0, appends = 0, work = 0;
    for (let pass = 0; pass < 2; pass++) {
      const e0 = tracer.counters.encodes, a0 = tracer.counters.appends;
      const t0 = now();
      for (let i = history.length; i < more.length; i++) await tracer.predict(more.slice(0, i + 1), queries);
      ms = (now() - t0) / steadyAnswers;
      encodes = tracer.counters.encodes - e0;
      appends = tracer.counters.appends - a0;
    }
    // The FLOPs of that path, answer by answer, outside the timed passes: the window each answer
    // reads, encoded whole when its first row moved (or the cache is cold), else one row appended.
    let prev: { start: number; length: number } | null = null;
    let walked = 0;
    for (let i = history.length; i < more.length; i++) {
      const w = tracer.window(more.slice(0, i + 1));
      const appended = prev !== null && prev.start === w.start && prev.length === w.length - 1;
      if (!appended) walked++;
      work += (appended ? flops.append(w.length - 1) : flops.encode(w.length)) + flops.readout(w.length, queries.length);
      prev = w;
    }
    if (walked !== encodes) throw new Error(`benchAkt: the FLOP count assumed ${walked} encodes but the tracer did ${encodes}`);
    return { ms, encodes, appends, flops: work / steadyAnswers };
  };
  // The calls' fixed cost: the same graphs over a one-row history, one candidate (whose terms the
  // backend keeps after the first call, as in a run); warmed up as above, medians of 3 * reps.
  const tiny = await backend.encode(w.skills.subarray(0, 1), w.questions.subarray(0, 1), w.responses.subarray(0, 1));
  const one = [cs.subarray(0, 1), cq.subarray(0, 1)] as const;
  const tCallRead: number[] = [];
  const tCallApp: number[] = [];
  for (let r = 0; r < 3 * reps + 20; r++) {
    const t0 = now();
    await backend.readout(tiny, 1, ...one);
    const t1 = now();
    if (backend.append) {
      const c = await backend.append(tiny, w.skills[1] ?? 1, w.questions[1] ?? 0, w.responses[1] ?? 0);
      if (r >= 20) tCallApp.push(now() - t1);
      backend.recycle?.(c);
    }
    if (r >= 20) tCallRead.push(t1 - t0);
  }
  backend.recycle?.(tiny);
  const all = await steady(skills.map((skill) => ({ skill, question: 0, level: 0 })));
  const course = await steady(courseSkills.map((skill) => ({ skill, question: 0, level: 0 })));
  return {
    history: L,
    skills: nSkills,
    reps,
    steadyMs: all.ms,
    steadyAnswers,
    steadyEncodes: all.encodes,
    steadyAppends: all.appends,
    steadyFlops: all.flops,
    steadyCourseMs: course.ms,
    steadyCourseFlops: course.flops,
    courseSkills: courseSkills.length,
    appendStepFlops: flops.append(L - 1) + flops.readout(L, nSkills),
    incrementalMs: median(tInc),
    encodeMs: median(tEnc),
    readoutMs: median(tRead),
    naiveMs: median(tNaive),
    naiveBatchedMs: median(tBatch),
    maxAbsDiff,
    appendIncrementalMs,
    appendMs,
    appendMaxAbsDiff,
    callReadoutMs: median(tCallRead),
    callAppendMs: tCallApp.length ? median(tCallApp) : null,
  };
}

/**
 * The matrix-product rate a runtime reaches on this machine at the model's shapes: a graph of
 * `chain` MatMuls [M, K] x [K, K] in a row (built by scripts/bench-kt.ts with onnx's Python helper,
 * K = the model's d_ff, M = its skill count), timed over `reps` runs after a warm-up; GFLOP/s of the
 * median run. The chain makes ONNX Runtime's per-call cost small next to the products.
 */
export async function gemmRate(ort: Pick<typeof import('onnxruntime-web'), 'InferenceSession' | 'Tensor'>, model: Uint8Array, dims: { m: number; k: number; chain: number }, executionProviders: string[], sessionOptions: Record<string, unknown> = {}, reps = 15, now: () => number = () => performance.now()): Promise<{ gflops: number; ms: number; flops: number }> {
  const session = await ort.InferenceSession.create(model, { ...sessionOptions, executionProviders, graphOptimizationLevel: 'all' });
  try {
    const a = new Float32Array(dims.m * dims.k);
    for (let i = 0; i < a.length; i++) a[i] = ((i * 7919) % 1000) / 1000 - 0.5;
    const feeds = { a: new ort.Tensor('float32', a, [dims.m, dims.k]) };
    const warmUntil = now() + 1500;
    for (let i = 0; i < 100 && (i < 5 || now() < warmUntil); i++) await session.run(feeds);
    const t: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t0 = now();
      await session.run(feeds);
      t.push(now() - t0);
    }
    const ms = median(t);
    const flops = 2 * dims.m * dims.k * dims.k * dims.chain;
    return { gflops: flops / ms / 1e6, ms, flops };
  } finally {
    await session.release();
  }
}

/** A synthetic but realistic history: a real warm-up history extended to `length` rows by cycling it. */
export function historyOfLength(seed: readonly Interaction[], length: number): Interaction[] {
  if (seed.length === 0) throw new Error('historyOfLength: empty seed history');
  return Array.from({ length }, (_, i) => seed[i % seed.length]!);
}
