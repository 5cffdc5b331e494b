/**
 * The AKT tracer in Node, over the shipped model files, on one of two ONNX Runtimes:
 *
 * - native: onnxruntime-node's CPU binary (the package ships it; its install script, which
 *   downloads GPU libraries, stays denied in package.json). One intra-op thread.
 * - wasm: onnxruntime-web's Node build (wasm, one thread), the runtime the page uses.
 *
 * The choice (`--kt-runtime` on the commands that run AKT, or EDUCLAW_KT_RUNTIME): "native" or
 * "wasm" is that runtime or an error; unset ("auto") is native when its binary loads, and otherwise
 * wasm with a line on stderr that says why (never silently). The runtime that computed a run is in
 * its trace (run_start.tracer.runtime "onnxruntime-node cpu"; absent: wasm, the reference runtime):
 * native and wasm agree to about 1e-6, not bit for bit, so a run reproduces on the same runtime
 * (src/adapters/node/README.md).
 *
 * Compile once per process: the sessions of a runtime (and, for wasm, its 14 MB module) are
 * created once per process (or worker thread) and shared by every AKT tracer made from them
 * (sharedNodeAktBackend); each tracer keeps only its own run's cached encoding.
 *
 * Runtimes are imported when a model is loaded, not with this module, so commands that never run
 * AKT (help, score, validate, a BKT run) do not pay for loading them.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { AKT_REFERENCE_RUNTIME, AktTracer, type AktMeta } from '../../core/learner/kt/index';
import { SimError, errorMessage } from '../../core/index';
import { createOrtAktBackend, type OrtAktBackend } from '../ort/akt-backend';
import { ROOT } from './files';

export const DEFAULT_AKT_DIR = resolve(ROOT, 'public/models/akt');

/** The ONNX Runtimes AKT can run on in Node. */
export const KT_RUNTIMES = ['native', 'wasm'] as const;
export type KtRuntime = (typeof KT_RUNTIMES)[number];
/** "auto": native when it loads, wasm (announced) otherwise. */
export type KtRuntimeChoice = KtRuntime | 'auto';
export const KT_RUNTIME_ENV = 'EDUCLAW_KT_RUNTIME';

/** Each runtime by name, as TracerInfo.runtime gives it (wasm, the reference runtime, is left out of traces). */
export const KT_RUNTIME_LABEL: Record<KtRuntime, string> = { native: 'onnxruntime-node cpu', wasm: AKT_REFERENCE_RUNTIME };

/** Reads a runtime choice; `where` names its source for the error ("--kt-runtime", "EDUCLAW_KT_RUNTIME"). */
export function parseKtRuntime(v: string | undefined, where: string): KtRuntimeChoice {
  if (v === undefined || v === '' || v === 'auto') return 'auto';
  if ((KT_RUNTIMES as readonly string[]).includes(v)) return v as KtRuntime;
  throw new SimError('TRACER_FAILED', `${where}: unknown AKT runtime "${v}" (native, wasm or auto)`);
}

/** The process's choice: EDUCLAW_KT_RUNTIME (which --kt-runtime sets, so worker threads inherit it). */
export function ktRuntimeChoice(): KtRuntimeChoice {
  return parseKtRuntime(process.env[KT_RUNTIME_ENV], KT_RUNTIME_ENV);
}

type Graphs = Parameters<typeof createOrtAktBackend>[1];
type Ort = Parameters<typeof createOrtAktBackend>[0];

export interface NodeAktBackend {
  backend: OrtAktBackend;
  meta: AktMeta;
  runtime: KtRuntime;
  /** Why this runtime: "requested", or why auto fell back to wasm. */
  reason: string;
  /** Wall time to import the runtime and create the sessions (ms). */
  loadMs: number;
}

function readModel(dir: string, withFull: boolean): { meta: AktMeta; graphs: Graphs } {
  const read = (f: string) => {
    try {
      return readFileSync(resolve(dir, f));
    } catch (e) {
      throw new SimError('TRACER_FAILED', `cannot load the AKT model: ${resolve(dir, f)}: ${(e as Error).message}`);
    }
  };
  let meta: AktMeta & { graphs: Record<string, { file: string }> };
  try {
    meta = JSON.parse(read('meta.json').toString('utf8'));
  } catch (e) {
    if (e instanceof SimError) throw e;
    throw new SimError('TRACER_FAILED', `cannot load the AKT model: ${resolve(dir, 'meta.json')} is not valid JSON`);
  }
  const g = meta.graphs;
  for (const k of ['encode', 'readout', ...(withFull ? ['full'] : [])]) {
    if (!g?.[k]) throw new SimError('TRACER_FAILED', `cannot load the AKT model: ${resolve(dir, 'meta.json')} lists no "${k}" graph`);
  }
  // A graph meta.json lists must load: no silent fallback to re-encoding when append is missing.
  return {
    meta,
    graphs: {
      encode: read(g.encode!.file),
      readout: read(g.readout!.file),
      ...(g.append ? { append: read(g.append.file) } : {}),
      ...(g.candidates ? { candidates: read(g.candidates.file) } : {}),
      ...(withFull ? { full: read(g.full!.file) } : {}),
    },
  };
}

/** onnxruntime-node, or an error that says what failed (a missing binary, another platform). */
async function importNative(): Promise<Ort> {
  try {
    const m = (await import('onnxruntime-node')) as unknown as Ort & { default?: Ort };
    const ort = m.InferenceSession ? m : m.default!;
    if (!ort?.InferenceSession) throw new Error('the module has no InferenceSession');
    return ort;
  } catch (e) {
    throw new SimError('TRACER_FAILED', `onnxruntime-node (native CPU) does not load on ${process.platform}-${process.arch}: ${errorMessage(e).split('\n')[0]}`);
  }
}

async function importWasm(): Promise<Ort> {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  return ort;
}

/** The ONNX Runtime module of a runtime (for benchmarks that build their own sessions). */
export function importOrt(runtime: KtRuntime): Promise<Ort> {
  return runtime === 'native' ? importNative() : importWasm();
}

// One intra-op thread: a step is ~100 MFLOP of small matrices (threads cost more than they save
// at that size), sweeps run one run per core, and one thread keeps the float results independent
// of the machine's core count.
export const NATIVE_SESSION = { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' } as const;

/** A fresh backend (its own sessions) on the given runtime; the caller releases it. */
export async function loadNodeAktBackend(dir = DEFAULT_AKT_DIR, withFull = false, choice: KtRuntimeChoice = ktRuntimeChoice()): Promise<NodeAktBackend> {
  const { meta, graphs } = readModel(dir, withFull);
  const t0 = performance.now();
  if (choice !== 'wasm') {
    let ort: Ort | null = null;
    try {
      ort = await importNative();
    } catch (e) {
      if (choice === 'native') throw e;
      const reason = `${errorMessage(e)}; using onnxruntime-web wasm instead`;
      announceFallback(reason);
      const backend = await createOrtAktBackend(await importWasm(), graphs, ['wasm']);
      return { backend, meta, runtime: 'wasm', reason, loadMs: performance.now() - t0 };
    }
    // Sessions that fail to build on a binary that loaded are an error, not a reason to fall back.
    const backend = await createOrtAktBackend(ort, graphs, [...NATIVE_SESSION.executionProviders], NATIVE_SESSION);
    return { backend, meta, runtime: 'native', reason: choice === 'native' ? 'requested' : 'onnxruntime-node loaded', loadMs: performance.now() - t0 };
  }
  const backend = await createOrtAktBackend(await importWasm(), graphs, ['wasm']);
  return { backend, meta, runtime: 'wasm', reason: 'requested', loadMs: performance.now() - t0 };
}

let announced = false;
function announceFallback(reason: string): void {
  if (announced) return;
  announced = true;
  process.stderr.write(`educlaw: AKT runs on onnxruntime-web wasm, not native: ${reason}${threadId ? ` (worker thread ${threadId})` : ''}\n`);
}

/** A tracer over a fresh backend (bench, kt eval, tests): the caller releases `backend`. */
export async function loadNodeAkt(dir = DEFAULT_AKT_DIR, withFull = false, choice: KtRuntimeChoice = ktRuntimeChoice()): Promise<{ tracer: AktTracer; backend: OrtAktBackend; meta: AktMeta; runtime: KtRuntime; reason: string; loadMs: number }> {
  const b = await loadNodeAktBackend(dir, withFull, choice);
  return { ...b, tracer: new AktTracer(b.backend, b.meta, KT_RUNTIME_LABEL[b.runtime]) };
}

const shared = new Map<string, Promise<NodeAktBackend>>();

/**
 * The process's (or worker thread's) backend for the shipped model on the chosen runtime, created
 * on first use and never released: every tracer of the process computes on these sessions.
 */
export function sharedNodeAktBackend(choice: KtRuntimeChoice = ktRuntimeChoice()): Promise<NodeAktBackend> {
  let b = shared.get(choice);
  if (!b) {
    b = loadNodeAktBackend(DEFAULT_AKT_DIR, false, choice);
    shared.set(choice, b);
    b.catch(() => shared.delete(choice));
  }
  return b;
}

/** A new AKT tracer (its own cached encoding) on the process's shared sessions. */
export async function sharedNodeAktTracer(choice: KtRuntimeChoice = ktRuntimeChoice()): Promise<AktTracer> {
  const b = await sharedNodeAktBackend(choice);
  return new AktTracer(b.backend, b.meta, KT_RUNTIME_LABEL[b.runtime]);
}

/**
 * The runtime to resume a stored AKT trace on: the one its run_start names (absent: wasm). With
 * `choice` "auto" that runtime is used; another explicit choice is an error saying what to give,
 * since a replay on another runtime would diverge in the last float bits. Non-AKT traces keep
 * `choice`.
 */
export function resumeKtRuntime(start: { type?: string; tracer?: { name?: string; runtime?: string } } | undefined, choice: KtRuntimeChoice): KtRuntimeChoice {
  if (start?.type !== 'run_start' || start.tracer?.name !== 'akt') return choice;
  const label = start.tracer.runtime ?? AKT_REFERENCE_RUNTIME;
  const want = KT_RUNTIMES.find((r) => KT_RUNTIME_LABEL[r] === label);
  if (!want) throw new SimError('RESUME_DIVERGED', `this trace's AKT ran on ${label} (run_start.tracer.runtime), which Node does not have: it reads and scores as it is, but resumes only where it was made`);
  if (choice !== 'auto' && choice !== want) throw new SimError('RESUME_DIVERGED', `this trace's AKT ran on ${label} and --kt-runtime / ${KT_RUNTIME_ENV} asks for ${KT_RUNTIME_LABEL[choice]}: runtimes differ in the last float bits, so the replay would not match; resume with --kt-runtime ${want}`);
  return want;
}

/** resumeKtRuntime for a process whose AKT runtime is already fixed (sweeps): an error unless the trace's is that one. */
export async function checkResumeKtRuntime(start: Parameters<typeof resumeKtRuntime>[0], choice: KtRuntimeChoice = ktRuntimeChoice()): Promise<void> {
  if (start?.type !== 'run_start' || start.tracer?.name !== 'akt') return;
  const have = choice === 'auto' ? (await sharedNodeAktBackend(choice)).runtime : choice;
  resumeKtRuntime(start, have);
}
