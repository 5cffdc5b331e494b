/**
 * Knowledge-tracer worker: the learner model runs here, off the page's main thread. The page
 * talks to it through Comlink (kt-client.ts). One tracer per worker, created by name.
 * AKT runs on onnxruntime-web: WebGPU when the browser offers a hardware adapter, wasm otherwise
 * (or as the page asks); the choice is reported back and shown to the user.
 */
import * as Comlink from 'comlink';
import { AktTracer, type AktMeta } from '../../core/learner/kt/index';
import { loadBktTracer, SimError, errorMessage, tracerDeclaration, type Interaction, type KnowledgeTracer, type LoadProgress, type Query, type TracerInfo, type TracerName } from '../../core/index';
import { createOrtAktBackend, type AktGraphs } from '../ort/akt-backend';
import { fetchModelFile } from './model-files';
import { HistoryReceiver } from './history-sync';

export type RuntimeChoice = 'auto' | 'wasm' | 'webgpu';

export interface LoadedTracer {
  info: TracerInfo;
  /** What runs the model, e.g. "onnxruntime-web wasm" or "pure TypeScript". */
  runtime: string;
  /** Why that runtime was chosen. */
  reason: string;
  fromCache: boolean;
}

interface GpuLike {
  requestAdapter(): Promise<{ info?: { isFallbackAdapter?: boolean; vendor?: string; architecture?: string }; isFallbackAdapter?: boolean } | null>;
}

async function pickRuntime(want: RuntimeChoice): Promise<{ rt: 'wasm' | 'webgpu'; reason: string }> {
  if (want === 'wasm') return { rt: 'wasm', reason: 'wasm was requested' };
  const gpu = (self.navigator as unknown as { gpu?: GpuLike }).gpu;
  const adapter = gpu ? await gpu.requestAdapter().catch(() => null) : null;
  if (!adapter) {
    if (want === 'webgpu') throw new SimError('TRACER_FAILED', 'WebGPU was requested but this browser offers no WebGPU adapter');
    return { rt: 'wasm', reason: gpu ? 'the browser offers no WebGPU adapter' : 'this browser has no WebGPU' };
  }
  const fallback = adapter.info?.isFallbackAdapter ?? adapter.isFallbackAdapter ?? false;
  if (fallback && want !== 'webgpu') return { rt: 'wasm', reason: 'the only WebGPU adapter is a software fallback, slower than wasm' };
  return { rt: 'webgpu', reason: `WebGPU adapter${adapter.info?.vendor ? ` (${adapter.info.vendor})` : ''}` };
}

async function loadAkt(baseUrl: string, want: RuntimeChoice, onProgress?: (p: LoadProgress) => void): Promise<{ tracer: KnowledgeTracer; loaded: Omit<LoadedTracer, 'info'> }> {
  const dir = `${baseUrl}models/akt/`;
  onProgress?.({ progress: 0, text: 'AKT: reading meta.json' });
  const metaRes = await fetch(`${dir}meta.json`);
  if (!metaRes.ok) throw new SimError('TRACER_FAILED', `cannot load the AKT model: ${dir}meta.json: HTTP ${metaRes.status}`);
  const meta = (await metaRes.json()) as AktMeta & { graphs: Record<string, { file: string; sha256: string }> };
  const { rt, reason } = await pickRuntime(want);
  // Exactly one onnxruntime build is loaded: the WebGPU one (which also has wasm) or the wasm-only one.
  const ort = rt === 'webgpu' ? await import('onnxruntime-web/webgpu') : await import('onnxruntime-web/wasm');
  ort.env.wasm.numThreads = 1;
  // Every graph meta.json lists for simulation must load (append is absent only in older exports).
  const names = (['encode', 'readout', 'append', 'candidates'] as const).filter((g) => g === 'encode' || g === 'readout' || meta.graphs[g]);
  const files = await Promise.all(
    names.map(async (g) => {
      const spec = meta.graphs[g];
      if (!spec) throw new SimError('TRACER_FAILED', `AKT meta.json lists no "${g}" graph`);
      return [g, await fetchModelFile(`${dir}${spec.file}`, spec.sha256, `AKT ${g}`, onProgress)] as const;
    }),
  );
  onProgress?.({ progress: 1, text: `AKT: starting onnxruntime-web (${rt})` });
  const graphs = Object.fromEntries(files.map(([g, f]) => [g, f.bytes])) as unknown as AktGraphs;
  const backend = await createOrtAktBackend(ort, graphs, [rt]);
  // The runtime goes into the trace (run_start.tracer.runtime), as the CLI's "onnxruntime-web wasm" does.
  return { tracer: new AktTracer(backend, meta, `onnxruntime-web ${rt}`), loaded: { runtime: `onnxruntime-web ${rt}`, reason, fromCache: files.every(([, f]) => f.fromCache) } };
}

type Loader = (baseUrl: string, want: RuntimeChoice, onProgress?: (p: LoadProgress) => void) => Promise<{ tracer: KnowledgeTracer; loaded: LoadedTracer }>;

/** One loader per declared tracer (core/tracers.ts), typed against the declaration: a tracer declared without a loader here does not compile. */
const LOADERS: Record<TracerName, Loader> = {
  bkt: async () => {
    const tracer = await loadBktTracer();
    return { tracer, loaded: { info: tracer.info, runtime: 'TypeScript (in this worker)', reason: 'BKT needs no model runtime', fromCache: true } };
  },
  akt: async (baseUrl, want, onProgress) => {
    const { tracer, loaded } = await loadAkt(baseUrl, want, onProgress);
    return { tracer, loaded: { info: tracer.info, ...loaded } };
  },
};

export class TracerService {
  #tracer: Promise<{ tracer: KnowledgeTracer; loaded: LoadedTracer }> | null = null;

  /** Creates the named tracer once; later calls return the same one. */
  async load(name: string, baseUrl: string, runtime: RuntimeChoice = 'auto', onProgress?: (p: LoadProgress) => void): Promise<LoadedTracer> {
    this.#tracer ??= (async () => {
      onProgress?.({ progress: 0, text: `loading ${name}` });
      try {
        return await LOADERS[tracerDeclaration(name).name](baseUrl, runtime, onProgress);
      } catch (e) {
        this.#tracer = null;
        throw e instanceof SimError ? e : new SimError('TRACER_FAILED', `could not load the ${name} tracer: ${errorMessage(e)}`);
      }
    })();
    return (await this.#tracer).loaded;
  }

  /** The history the page has sent, rebuilt from the rows it adds at each call (history-sync.ts). */
  readonly #history = new HistoryReceiver();

  /** predict() over the page's history: its first `base` rows are the ones this worker holds, then `rows`; `also` as PredictOptions.also. */
  async predictFrom(base: number, rows: Interaction[], queries: Query[], also: Query[] = []): Promise<number[]> {
    if (!this.#tracer) throw new SimError('TRACER_FAILED', 'tracer not loaded: call load() first');
    const history = this.#history.apply(base, rows);
    return (await this.#tracer).tracer.predict(history, queries, also.length > 0 ? { also } : undefined);
  }
}

Comlink.expose(new TracerService());
