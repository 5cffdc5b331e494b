/** The in-page side of `npm run bench:kt`: times AKT belief readouts on wasm and, where offered, WebGPU. */
import * as Comlink from 'comlink';
import type { KtBenchApi, PageBenchResult } from '../../adapters/browser/kt-bench.worker';

const params = new URLSearchParams(location.search);
const history = Number(params.get('history') ?? 200);
const reps = Number(params.get('reps') ?? 10);
const naiveReps = Number(params.get('naive') ?? 1);
const withWebGpu = params.get('webgpu') !== '0';
const courseSkills = (params.get('course') ?? '').split(',').filter(Boolean).map(Number);
// gemm=<m>,<k>,<chain>: also time the MatMul graph at ../gemm.onnx (written by scripts/bench-kt.ts).
const gemm = params.get('gemm')?.split(',').map(Number);
const out = document.getElementById('out')!;
const results: (PageBenchResult | { runtime: string; error: string } | { runtime: string; gemm: { gflops: number; ms: number; flops: number } })[] = [];

async function main() {
  // This page lives at bench/kt.html; the app's root (with models/) is one level up.
  const base = new URL('../', location.href).href;
  for (const rt of withWebGpu ? (['wasm', 'webgpu'] as const) : (['wasm'] as const)) {
    const worker = new Worker(new URL('../../adapters/browser/kt-bench.worker.ts', import.meta.url), { type: 'module' });
    const api = Comlink.wrap<KtBenchApi>(worker);
    try {
      if (rt === 'webgpu') {
        const g = await api.hasWebGpu();
        if (!g.adapter) {
          results.push({ runtime: 'onnxruntime-web webgpu', error: 'no WebGPU adapter in this browser' });
          continue;
        }
      }
      if (rt === 'wasm' && gemm) results.push({ runtime: 'onnxruntime-web wasm (1 thread)', gemm: await api.gemm(new URL('../gemm.onnx', location.href).href, { m: gemm[0]!, k: gemm[1]!, chain: gemm[2]! }) });
      results.push(await api.run(base, rt, history, rt === 'webgpu' ? Math.min(reps, 3) : reps, naiveReps, rt === 'webgpu' ? 16 : 48, courseSkills));
    } catch (e) {
      results.push({ runtime: `onnxruntime-web ${rt}`, error: e instanceof Error ? e.message : String(e) });
    } finally {
      worker.terminate();
    }
    out.textContent = JSON.stringify(results, null, 2);
  }
  (window as unknown as { __bench: unknown }).__bench = results;
  out.textContent = JSON.stringify(results, null, 2);
}
void main();
