import * as Comlink from 'comlink';
import type { Interaction, KnowledgeTracer, LoadProgress, Query, TracerInfo } from '../../core/index';
import type { TracerService } from './kt.worker';

/** A KnowledgeTracer whose model runs in a Web Worker. Call dispose() when done. */
export interface WorkerTracer extends KnowledgeTracer {
  dispose(): void;
}

export async function createWorkerTracer(name: string, onProgress?: (p: LoadProgress) => void): Promise<WorkerTracer> {
  const worker = new Worker(new URL('./kt.worker.ts', import.meta.url), { type: 'module' });
  const remote = Comlink.wrap<TracerService>(worker);
  let info: TracerInfo;
  try {
    info = await remote.load(name, onProgress ? Comlink.proxy(onProgress) : undefined);
  } catch (e) {
    worker.terminate();
    throw e;
  }
  return {
    info,
    predict: (history: readonly Interaction[], queries: readonly Query[]) => remote.predict(history as Interaction[], queries as Query[]),
    dispose: () => {
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
