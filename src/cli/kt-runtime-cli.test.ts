/**
 * --kt-runtime as a user meets it: the runtime that computed AKT is in the trace (native named,
 * wasm the reference and left out), the sweep's worker threads get the choice too, a resumed run
 * keeps its trace's runtime, and a bad value is an error before anything runs. The native cases
 * are skipped, saying why, where onnxruntime-node does not load.
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NODE_ARGS = ['--import', 'tsx', 'src/cli/main.ts'];
const MINI = ['--scenario', 'scenarios/fixtures/mini-3day.yaml', '--tracer', 'akt', '--tutor', 'planner'];

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...NODE_ARGS, ...args], { env: { ...process.env, EDUCLAW_KT_RUNTIME: '', ...env } }, (e, stdout, stderr) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}
const tracerOf = (file: string) => JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!).tracer as { name: string; runtime?: string };

let nativeError: string | null = null;
try {
  await import('onnxruntime-node');
} catch (e) {
  nativeError = (e as Error).message.split('\n')[0]!;
}
if (nativeError) console.warn(`kt-runtime-cli.test.ts: native cases skipped: onnxruntime-node does not load here: ${nativeError}`);

describe('--kt-runtime', () => {
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-ktrt-'));

  it('wasm: the trace has no runtime field (the reference runtime)', async () => {
    const out = join(dir, 'wasm.jsonl');
    const r = await cli(['run', ...MINI, '--seed', '1', '--horizon', '1', '--kt-runtime', 'wasm', '--out', out, '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(tracerOf(out)).toEqual({ name: 'akt', version: expect.any(String), nSkills: 110 });
  }, 60_000);

  it.skipIf(nativeError !== null)('native (and the default): the trace names onnxruntime-node; a resume keeps it, and refuses wasm by name', async () => {
    const out = join(dir, 'native.jsonl');
    const r = await cli(['run', ...MINI, '--seed', '1', '--out', out, '--quiet']);
    expect(r.stderr).toBe('');
    expect(tracerOf(out).runtime).toBe('onnxruntime-node cpu');
    const whole = readFileSync(out, 'utf8');
    const cut = join(dir, 'native-cut.jsonl');
    writeFileSync(cut, whole.split('\n').slice(0, 40).join('\n') + '\n');
    const refused = await cli(['run', '--resume', cut, '--kt-runtime', 'wasm', '--quiet']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/this trace's AKT ran on onnxruntime-node cpu .*resume with --kt-runtime native/);
    const resumed = await cli(['run', '--resume', cut, '--quiet']);
    expect(resumed.code).toBe(0);
    expect(readFileSync(cut, 'utf8') === whole).toBe(true);
  }, 120_000);

  it.skipIf(nativeError !== null)("reaches the sweep's worker threads", async () => {
    const out = join(dir, 'sweep');
    const r = await cli(['sweep', '--scenarios', 'scenarios/fixtures/mini-3day.yaml', '--tracer', 'akt', '--tutor', 'withholder', '--seeds', '1-2', '--horizon', '1', '--jobs', '2', '--out', out, '--quiet'], { EDUCLAW_KT_RUNTIME: 'native' });
    expect(r.code).toBe(0);
    const files = readdirSync(join(out, 'traces'));
    expect(files).toHaveLength(2);
    for (const f of files) expect(tracerOf(join(out, 'traces', f)).runtime, f).toBe('onnxruntime-node cpu');
  }, 120_000);

  it('a runtime it does not know is an error naming where it came from', async () => {
    const a = await cli(['run', ...MINI, '--kt-runtime', 'gpu', '--out', join(dir, 'x.jsonl')]);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('--kt-runtime: unknown AKT runtime "gpu" (native, wasm or auto)');
    const b = await cli(['run', ...MINI, '--out', join(dir, 'y.jsonl')], { EDUCLAW_KT_RUNTIME: 'fast' });
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('EDUCLAW_KT_RUNTIME: unknown AKT runtime "fast"');
  }, 60_000);
});
