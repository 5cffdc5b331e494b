/**
 * A benchmark as files: `benchmark.json` (what it ran: spec and jobs) and `traces/*.jsonl` (one
 * trace per run), zipped (fflate) for download. The same layout as a CLI sweep's output directory
 * (traces/*.jsonl), which the page imports too (as a zip, or the directory itself): without a
 * benchmark.json, the benchmark is rebuilt from the traces' run_start records. The CLI's `report`
 * reads either.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { z } from 'zod';
import { BenchmarkSpecSchema, RunRecordSchema } from '../../core/index';
import type { StoredBenchmark } from './run-store';

export const BUNDLE_FORMAT = 'educlaw-benchmark';
export const BUNDLE_VERSION = 1;

const ManifestSchema = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    version: z.literal(BUNDLE_VERSION),
    id: z.string().min(1).max(200),
    name: z.string().min(1).max(200),
    createdAt: z.number(),
    spec: BenchmarkSpecSchema.nullable(),
    status: z.enum(['running', 'paused', 'done', 'cancelled']),
    jobs: z.array(z.object({ index: z.number().int().min(0), runId: z.string(), tutor: z.string(), voice: z.string(), record: RunRecordSchema.nullable(), trace: z.string().nullable() }).strict()),
  })
  .strict();
export type BundleManifest = z.infer<typeof ManifestSchema>;

export interface Bundle {
  manifest: BundleManifest | null;
  /** Trace files by path inside the bundle ("traces/…jsonl"). */
  traces: Map<string, string>;
}

const tracePath = (index: number, runId: string) => `traces/${String(index).padStart(4, '0')}__${runId.replace(/[^\w.-]+/g, '_').slice(0, 150)}.jsonl`;

/** Zips a stored benchmark with the traces of its runs (by job index; a job never started has none). */
export function zipBenchmark(b: StoredBenchmark, traces: ReadonlyMap<number, string>): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const jobs = b.jobs.map((j) => {
    const text = traces.get(j.index);
    const path = text === undefined ? null : tracePath(j.index, j.runId);
    if (path && text !== undefined) files[path] = strToU8(text);
    return { index: j.index, runId: j.runId, tutor: j.tutor, voice: j.voice, record: j.record, trace: path };
  });
  const manifest: BundleManifest = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, id: b.id, name: b.name, createdAt: b.createdAt, spec: b.spec, status: b.status === 'running' ? 'paused' : b.status, jobs };
  files['benchmark.json'] = strToU8(JSON.stringify(manifest, null, 1) + '\n');
  return zipSync(files, { level: 6 });
}

/**
 * Reads a bundle: a zip, or files picked as a directory (their paths relative to it). Errors name
 * the file and what is wrong; nothing is stored from a bundle that does not read.
 */
export function readBundle(input: { zip: Uint8Array; name: string } | { files: { path: string; text: string }[]; name: string }): Bundle {
  let entries: [string, string][];
  if ('zip' in input) {
    let raw: Record<string, Uint8Array>;
    try {
      raw = unzipSync(input.zip);
    } catch (e) {
      throw new Error(`${input.name}: not a zip file (${e instanceof Error ? e.message : String(e)})`);
    }
    entries = Object.entries(raw).map(([p, bytes]) => [p, strFromU8(bytes)]);
  } else entries = input.files.map((f) => [f.path, f.text]);
  // A zipped or picked directory may sit one folder down ("runs/planner/traces/…").
  const manifestEntry = entries.find(([p]) => p === 'benchmark.json' || p.endsWith('/benchmark.json'));
  const root = manifestEntry ? manifestEntry[0].slice(0, -'benchmark.json'.length) : (entries.find(([p]) => /(^|\/)traces\/[^/]+\.jsonl$/.test(p))?.[0].replace(/traces\/[^/]+$/, '') ?? '');
  const traces = new Map<string, string>();
  for (const [p, text] of entries) if (p.startsWith(root) && /^traces\/[^/]+\.jsonl$/.test(p.slice(root.length))) traces.set(p.slice(root.length), text);
  let manifest: BundleManifest | null = null;
  if (manifestEntry) {
    let json: unknown;
    try {
      json = JSON.parse(manifestEntry[1]);
    } catch (e) {
      throw new Error(`${input.name}: benchmark.json is not JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    const r = ManifestSchema.safeParse(json);
    if (!r.success) throw new Error(`${input.name}: benchmark.json: ${r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    manifest = r.data;
    for (const j of manifest.jobs) if (j.trace !== null && !traces.has(j.trace)) throw new Error(`${input.name}: benchmark.json names ${j.trace}, which is not in the bundle`);
  }
  if (traces.size === 0 && !manifest) throw new Error(`${input.name}: no benchmark.json and no traces/*.jsonl in it`);
  return { manifest, traces };
}
