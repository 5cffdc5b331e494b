/**
 * What a test of the page's run library needs in Node: localStorage (the library reads LLM
 * settings and leases from it; Node has none), a BKT tracer pool instead of the ONNX worker, and
 * run leases on a hand-driven clock.
 */
import { TracerPool } from '../adapters/browser/tracer-pool';
import { heartbeatLeases } from '../adapters/browser/run-lease';
import { loadBktTracer } from '../core/index';

const mem = new Map<string, string>();
export const storage = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v), removeItem: (k: string) => void mem.delete(k) };
(globalThis as { localStorage?: unknown }).localStorage ??= storage;

export const bktPool = () =>
  new TracerPool({
    create: async () => {
      const t = await loadBktTracer();
      return { info: t.info, predict: (h, q) => t.predict(h, q), loaded: { info: t.info, runtime: 'pure TypeScript', reason: 'test', fromCache: true }, dispose: () => undefined };
    },
  });

export const leases = (owner: string) => heartbeatLeases({ storage, now: () => Date.now(), owner, setInterval: () => 0, clearInterval: () => undefined });
