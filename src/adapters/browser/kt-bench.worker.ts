/** In-page AKT benchmark (npm run bench:kt): loads the model on the asked runtime and times belief readouts. */
import * as Comlink from 'comlink';
import { AktTracer, type AktMeta } from '../../core/learner/kt/index';
import { loadPersonaSeeds, unpackHistory } from '../../core/index';
import { createOrtAktBackend } from '../ort/akt-backend';
import { benchAkt, gemmRate, historyOfLength, type AktBenchResult } from '../ort/akt-bench';

export interface PageBenchResult extends AktBenchResult {
  runtime: string;
  sessionMs: number;
}

const api = {
  async hasWebGpu(): Promise<{ adapter: boolean; fallback: boolean }> {
    const gpu = (self.navigator as unknown as { gpu?: { requestAdapter(): Promise<{ info?: { isFallbackAdapter?: boolean } } | null> } }).gpu;
    const a = gpu ? await gpu.requestAdapter().catch(() => null) : null;
    return { adapter: !!a, fallback: !!a?.info?.isFallbackAdapter };
  },
  /** The MatMul rate of onnxruntime-web wasm here (akt-bench.ts gemmRate), on the graph the Node side built. */
  async gemm(url: string, dims: { m: number; k: number; chain: number }): Promise<{ gflops: number; ms: number; flops: number }> {
    const ort = await import('onnxruntime-web/wasm');
    ort.env.wasm.numThreads = 1;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`cannot fetch the MatMul graph ${url}: HTTP ${res.status}`);
    return gemmRate(ort, new Uint8Array(await res.arrayBuffer()), dims, ['wasm']);
  },
  async run(baseUrl: string, rt: 'wasm' | 'webgpu', history: number, reps: number, naiveReps: number, steadyAnswers: number, courseSkills: number[]): Promise<PageBenchResult> {
    const dir = `${baseUrl}models/akt/`;
    const meta = (await (await fetch(`${dir}meta.json`)).json()) as AktMeta & { graphs: Record<string, { file: string }> };
    const ort = rt === 'webgpu' ? await import('onnxruntime-web/webgpu') : await import('onnxruntime-web/wasm');
    ort.env.wasm.numThreads = 1;
    const get = async (g: string) => new Uint8Array(await (await fetch(`${dir}${meta.graphs[g]!.file}`)).arrayBuffer());
    const t0 = performance.now();
    const optional = async (g: 'append' | 'candidates') => (meta.graphs[g] ? { [g]: await get(g) } : {});
    const backend = await createOrtAktBackend(ort, { encode: await get('encode'), readout: await get('readout'), full: await get('full'), ...(await optional('append')), ...(await optional('candidates')) }, [rt]);
    const sessionMs = performance.now() - t0;
    const tracer = new AktTracer(backend, meta);
    const seeds = await loadPersonaSeeds();
    const longest = seeds.seeds.reduce((a, b) => (b.n > a.n ? b : a));
    const res = await benchAkt(backend, tracer, historyOfLength(unpackHistory(longest.h), history), reps, naiveReps, undefined, steadyAnswers, courseSkills);
    await backend.release();
    return { ...res, runtime: `onnxruntime-web ${rt} (1 thread)`, sessionMs };
  },
};
export type KtBenchApi = typeof api;
Comlink.expose(api);
