/**
 * The AKT tracer in Node: onnxruntime-web's Node build (wasm, one thread) over the shipped model
 * files. onnxruntime-web is imported when a model is loaded, not with this module, so commands that
 * never run AKT (help, score, validate, a BKT run) do not pay for loading it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AktTracer, type AktMeta } from '../../core/learner/kt/akt';
import { SimError } from '../../core/index';
import { createOrtAktBackend, type OrtAktBackend } from '../ort/akt-backend';
import { ROOT } from './files';

export const DEFAULT_AKT_DIR = resolve(ROOT, 'public/models/akt');

export async function loadNodeAkt(dir = DEFAULT_AKT_DIR, withFull = false): Promise<{ tracer: AktTracer; backend: OrtAktBackend; meta: AktMeta }> {
  let meta: AktMeta & { graphs: Record<string, { file: string }> };
  const read = (f: string) => {
    try {
      return readFileSync(resolve(dir, f));
    } catch (e) {
      throw new SimError('TRACER_FAILED', `cannot load the AKT model: ${resolve(dir, f)}: ${(e as Error).message}`);
    }
  };
  try {
    meta = JSON.parse(read('meta.json').toString('utf8'));
  } catch (e) {
    if (e instanceof SimError) throw e;
    throw new SimError('TRACER_FAILED', `cannot load the AKT model: ${resolve(dir, 'meta.json')} is not valid JSON`);
  }
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  const g = meta.graphs;
  const backend = await createOrtAktBackend(
    ort,
    // A graph meta.json lists must load: no silent fallback to re-encoding when append is missing.
    { encode: read(g.encode!.file), readout: read(g.readout!.file), ...(g.append ? { append: read(g.append.file) } : {}), ...(withFull ? { full: read(g.full!.file) } : {}) },
    ['wasm'],
  );
  return { tracer: new AktTracer(backend, meta), backend, meta };
}
