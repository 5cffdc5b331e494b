/**
 * Where onnxruntime-node does not load (here: mocked to throw as a missing binary does), "auto"
 * runs AKT on onnxruntime-web wasm and says so on stderr, "native" is an error naming the cause,
 * and a bad choice is an error naming where it came from.
 */
import { describe, expect, it, vi } from 'vitest';

// The module's binding fails as a missing binary does (a factory that throws would be reported
// by vitest in its own words, hiding this message).
vi.mock('onnxruntime-node', () => ({
  get InferenceSession(): never {
    throw new Error("Cannot find module '../bin/napi-v6/linux/x64/onnxruntime_binding.node'");
  },
}));

const { loadNodeAkt, parseKtRuntime, resumeKtRuntime, sharedNodeAktTracer } = await import('./akt');

describe('AKT runtime choice when native ONNX Runtime does not load', () => {
  it('auto falls back to wasm, announced once on stderr, and the trace-facing info says wasm', async () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
      writes.push(String(s));
      return true;
    });
    try {
      const a = await loadNodeAkt(undefined, false, 'auto');
      expect(a.runtime).toBe('wasm');
      expect(a.reason).toMatch(/onnxruntime-node \(native CPU\) does not load on .*onnxruntime_binding\.node.*; using onnxruntime-web wasm instead/);
      // wasm is the reference runtime: its traces carry no runtime field.
      expect(a.tracer.info.runtime).toBeUndefined();
      await a.backend.release();
      const t = await sharedNodeAktTracer('auto');
      expect(t.info.runtime).toBeUndefined();
    } finally {
      spy.mockRestore();
    }
    const lines = writes.filter((w) => w.includes('AKT runs on onnxruntime-web wasm, not native'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('onnxruntime_binding.node');
  }, 60_000);

  it('native, asked for, is an error that says why, with no fallback', async () => {
    await expect(loadNodeAkt(undefined, false, 'native')).rejects.toThrow(/onnxruntime-node \(native CPU\) does not load on .*onnxruntime_binding\.node/);
  });

  it('a runtime name it does not know is an error naming its source', () => {
    expect(() => parseKtRuntime('gpu', '--kt-runtime')).toThrow('--kt-runtime: unknown AKT runtime "gpu" (native, wasm or auto)');
    expect(parseKtRuntime(undefined, 'EDUCLAW_KT_RUNTIME')).toBe('auto');
    expect(parseKtRuntime('wasm', 'EDUCLAW_KT_RUNTIME')).toBe('wasm');
  });

  it('a resumed AKT trace picks the runtime it was computed on, and refuses another one by name', () => {
    const start = (runtime?: string) => ({ type: 'run_start', tracer: { name: 'akt', ...(runtime ? { runtime } : {}) } });
    expect(resumeKtRuntime(start('onnxruntime-node cpu'), 'auto')).toBe('native');
    expect(resumeKtRuntime(start(), 'auto')).toBe('wasm');
    expect(resumeKtRuntime(start(), 'wasm')).toBe('wasm');
    expect(() => resumeKtRuntime(start('onnxruntime-node cpu'), 'wasm')).toThrow(/ran on onnxruntime-node cpu .* asks for onnxruntime-web wasm.*resume with --kt-runtime native/);
    expect(() => resumeKtRuntime(start(), 'native')).toThrow(/ran on onnxruntime-web wasm .*resume with --kt-runtime wasm/);
    expect(() => resumeKtRuntime(start('onnxruntime-web webgpu'), 'auto')).toThrow(/onnxruntime-web webgpu .*which Node does not have/);
    // BKT has no runtime: the choice stands.
    expect(resumeKtRuntime({ type: 'run_start', tracer: { name: 'bkt' } }, 'native')).toBe('native');
  });
});
