// What the AKT timing and comparison tools (profile_nodes.mjs, compare_encode.mjs) share: the two
// runtimes loaded and configured alike (one thread each), their session options, and the seeded
// generator of their synthetic histories. Not used by the app (src/adapters/node/akt.ts is its own).

/** onnxruntime-web (wasm, one thread, errors only) or onnxruntime-node; `who` names the caller in errors. */
export async function loadOrt(runtime, who) {
  if (runtime === 'web') {
    const ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    ort.env.logLevel = 'error';
    return ort;
  }
  if (runtime === 'node') return import('onnxruntime-node');
  throw new Error(`${who}: --runtime must be web, node or both, got ${runtime}`);
}

/**
 * Session options: every graph optimisation, sequential, one thread (the app's settings);
 * `profilePrefix` turns on onnxruntime's profiler, `flushDenormals` its flush-to-zero
 * (onnxruntime-node applies it once per process: the first session decides).
 */
export function sessionOptions(runtime, { profilePrefix = null, flushDenormals = false } = {}) {
  const o = { graphOptimizationLevel: 'all', executionMode: 'sequential' };
  if (runtime === 'web') o.executionProviders = ['wasm'];
  else Object.assign(o, { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1 });
  if (flushDenormals) o.extra = { session: { set_denormal_as_zero: '1' } };
  if (profilePrefix) Object.assign(o, { enableProfiling: true, profileFilePrefix: profilePrefix });
  return o;
}

/** xorshift32: a seeded synthetic history, the same in every process. */
export function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}
