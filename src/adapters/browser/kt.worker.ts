/**
 * Knowledge-tracer worker: the learner model runs here, off the page's main thread. The page
 * talks to it through Comlink (kt-client.ts). One tracer per worker, created by name.
 */
import * as Comlink from 'comlink';
import { loadBktTracer, SimError, type Interaction, type KnowledgeTracer, type LoadProgress, type Query, type TracerInfo } from '../../core/index';

export const WORKER_TRACERS = ['bkt'] as const;

export class TracerService {
  #tracer: Promise<KnowledgeTracer> | null = null;

  /** Creates the named tracer once; later calls return the same one. */
  async load(name: string, onProgress?: (p: LoadProgress) => void): Promise<TracerInfo> {
    this.#tracer ??= (async () => {
      onProgress?.({ progress: 0, text: `loading ${name}` });
      let t: KnowledgeTracer;
      switch (name) {
        case 'bkt':
          t = await loadBktTracer();
          break;
        default:
          throw new SimError('UNKNOWN_TRACER', `unknown tracer "${name}" (available here: ${WORKER_TRACERS.join(', ')})`);
      }
      onProgress?.({ progress: 1, text: `${name} ready` });
      return t;
    })();
    return (await this.#tracer).info;
  }

  async predict(history: Interaction[], queries: Query[]): Promise<number[]> {
    if (!this.#tracer) throw new SimError('TRACER_FAILED', 'tracer not loaded: call load() first');
    return (await this.#tracer).predict(history, queries);
  }
}

Comlink.expose(new TracerService());
