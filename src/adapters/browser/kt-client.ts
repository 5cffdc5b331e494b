import * as Comlink from 'comlink';
import type { Interaction, KnowledgeTracer, LoadProgress, PredictOptions, Query } from '../../core/index';
import type { LoadedTracer, RuntimeChoice, TracerService } from './kt.worker';
import { HistorySender } from './history-sync';

/** A KnowledgeTracer whose model runs in a Web Worker. Call dispose() when done. */
export interface WorkerTracer extends KnowledgeTracer {
  readonly loaded: LoadedTracer;
  dispose(): void;
}

export async function createWorkerTracer(name: string, onProgress?: (p: LoadProgress) => void, runtime: RuntimeChoice = 'auto'): Promise<WorkerTracer> {
  const worker = new Worker(new URL('./kt.worker.ts', import.meta.url), { type: 'module' });
  const remote = Comlink.wrap<TracerService>(worker);
  let loaded: LoadedTracer;
  try {
    const base = new URL(import.meta.env.BASE_URL, location.href).href;
    loaded = await remote.load(name, base, runtime, onProgress ? Comlink.proxy(onProgress) : undefined);
  } catch (e) {
    worker.terminate();
    throw e;
  }
  // Only the rows added since the last call cross to the worker (history-sync.ts).
  const sender = new HistorySender();
  return {
    info: loaded.info,
    loaded,
    predict: (history: readonly Interaction[], queries: readonly Query[], opts?: PredictOptions) => {
      const { base, rows } = sender.delta(history);
      return remote.predictFrom(base, rows, queries as Query[], opts?.also ? [...opts.also] : []).catch((e: unknown) => {
        sender.reset();
        throw e;
      });
    },
    dispose: () => {
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
