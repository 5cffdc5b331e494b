/**
 * Knowledge-tracer workers shared by the page's runs. Loading the AKT model in a worker costs
 * seconds (wasm compile, sessions), so a finished run hands its worker back and the next run of
 * the same tracer takes it; each run holds its own worker while it runs (runs never share one).
 * An idle worker is terminated after `idleMs`.
 */
import type { LoadProgress } from '../../core/index';
import { createWorkerTracer, type WorkerTracer } from './kt-client';

export interface PooledTracer extends WorkerTracer {
  /** True when this run got a worker that an earlier run had already loaded. */
  readonly reused: boolean;
  /** The pooled worker itself (what release() takes back). */
  readonly worker: WorkerTracer;
}

export class TracerPool {
  readonly #idle = new Map<string, { t: WorkerTracer; timer: ReturnType<typeof setTimeout> }[]>();
  readonly #idleMs: number;
  readonly #create: typeof createWorkerTracer;

  constructor(opts: { idleMs?: number; create?: typeof createWorkerTracer } = {}) {
    this.#idleMs = opts.idleMs ?? 60_000;
    this.#create = opts.create ?? createWorkerTracer;
  }

  async acquire(name: string, onProgress?: (p: LoadProgress) => void): Promise<PooledTracer> {
    const free = this.#idle.get(name)?.pop();
    if (free) clearTimeout(free.timer);
    const t = free?.t ?? (await this.#create(name, onProgress));
    return { info: t.info, loaded: t.loaded, predict: (h, q, o) => t.predict(h, q, o), dispose: () => t.dispose(), reused: free !== undefined, worker: t };
  }

  release(p: PooledTracer): void {
    const t = p.worker;
    const list = this.#idle.get(t.info.name) ?? [];
    const entry = {
      t,
      timer: setTimeout(() => {
        const l = this.#idle.get(t.info.name) ?? [];
        const i = l.indexOf(entry);
        if (i >= 0) l.splice(i, 1);
        t.dispose();
      }, this.#idleMs),
    };
    list.push(entry);
    this.#idle.set(t.info.name, list);
  }

  /** A worker that failed is not handed out again. */
  discard(p: PooledTracer): void {
    p.worker.dispose();
  }

  disposeAll(): void {
    for (const l of this.#idle.values()) for (const e of l) {
      clearTimeout(e.timer);
      e.t.dispose();
    }
    this.#idle.clear();
  }
}
