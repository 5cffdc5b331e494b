/**
 * The curated models of the "In this browser" provider, and what the page knows about the browser
 * cache without loading transformers.js (this module is small and part of the main chunk; the
 * library itself is in the worker, loaded on first use).
 */

/** The provider name the page uses for the in-page model (reserved: a remote provider cannot take it). */
export const LOCAL_PROVIDER = 'in-browser';
/** transformers.js's Cache API bucket (its `env.cacheKey` default). */
export const LOCAL_CACHE_NAME = 'transformers-cache';
export const DEFAULT_HUB = 'https://huggingface.co/';

export interface LocalModelInfo {
  id: string;
  label: string;
  parameters: string;
  /** transformers.js dtype: which ONNX file is fetched. */
  dtype: string;
  /** Approximate download, bytes: the ONNX file(s) for this dtype plus tokenizer and configs. */
  downloadBytes: number;
  /** Where the size comes from. */
  sizeSource: string;
  /** Whether the model's chat template renders tools (tool calling through the template). */
  toolsInTemplate: boolean;
  /** Only on a hub that serves the project's test model (the tests' server); not on huggingface.co. */
  testOnly?: boolean;
  note?: string;
}

/**
 * The hub models' sizes are approximate figures for their q4f16 ONNX file plus tokenizer, not
 * measured: the project's machines have no hub access, so none of these was downloaded or run by
 * the project (docs/llm.md). The page reads the exact size from the hub's file list before asking.
 */
export const LOCAL_MODELS: readonly LocalModelInfo[] = [
  {
    id: 'HuggingFaceTB/SmolLM2-135M-Instruct',
    label: 'SmolLM2 135M Instruct',
    parameters: '135M',
    dtype: 'q4f16',
    downloadBytes: 118_000_000,
    sizeSource: 'approximate; the exact size is read from the hub before you agree',
    toolsInTemplate: false,
  },
  {
    id: 'HuggingFaceTB/SmolLM2-360M-Instruct',
    label: 'SmolLM2 360M Instruct',
    parameters: '360M',
    dtype: 'q4f16',
    downloadBytes: 260_000_000,
    sizeSource: 'approximate; the exact size is read from the hub before you agree',
    toolsInTemplate: false,
  },
  {
    id: 'onnx-community/Qwen2.5-0.5B-Instruct',
    label: 'Qwen2.5 0.5B Instruct',
    parameters: '0.5B',
    dtype: 'q4f16',
    downloadBytes: 470_000_000,
    sizeSource: 'approximate; the exact size is read from the hub before you agree',
    toolsInTemplate: true,
  },
  {
    id: 'onnx-community/Qwen2.5-1.5B-Instruct',
    label: 'Qwen2.5 1.5B Instruct',
    parameters: '1.5B',
    dtype: 'q4f16',
    downloadBytes: 1_300_000_000,
    sizeSource: 'approximate; the exact size is read from the hub before you agree',
    toolsInTemplate: true,
  },
  {
    id: 'educlaw/tiny-voice-lm',
    label: 'EduClaw test model (tiny, not a real LM)',
    parameters: '0.15M',
    dtype: 'fp32',
    downloadBytes: 700_000,
    sizeSource: 'measured: the files in e2e/fixtures/tiny-lm/',
    toolsInTemplate: false,
    testOnly: true,
    note: 'Made by training/tiny-lm/make_tiny_lm.py for the tests; served only by a test hub. It repeats memorised replies.',
  },
];

export function localModelInfo(id: string): LocalModelInfo | null {
  return LOCAL_MODELS.find((m) => m.id === id) ?? null;
}

/** "1.2 GB", "470 MB", "700 kB". */
export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  if (n >= 1e6) return `${Math.round(n / 1e6)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} kB`;
  return `${n} B`;
}

/** A hub base URL, checked and normalised to end with "/". */
export function normaliseHub(url: string): string {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw new Error(`the model hub address "${url}" is not a URL (e.g. https://huggingface.co/)`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`the model hub address must be http(s), not ${u.protocol}`);
  return u.href.endsWith('/') ? u.href : `${u.href}/`;
}

/** The URL prefix of a model's files on a hub (what the cache keys start with). */
export function modelPrefix(hub: string, id: string): string {
  return `${normaliseHub(hub)}${id}/resolve/`;
}

/** The cached files of a model: URL and size (bytes, from the stored response). */
export async function cachedFiles(hub: string, id: string): Promise<{ url: string; bytes: number }[]> {
  if (typeof caches === 'undefined') return [];
  const cache = await caches.open(LOCAL_CACHE_NAME);
  const prefix = modelPrefix(hub, id);
  const out: { url: string; bytes: number }[] = [];
  for (const req of await cache.keys()) {
    if (!req.url.startsWith(prefix)) continue;
    const res = await cache.match(req);
    const len = Number(res?.headers.get('content-length') ?? NaN);
    out.push({ url: req.url, bytes: Number.isFinite(len) ? len : ((await res?.clone().arrayBuffer())?.byteLength ?? 0) });
  }
  return out;
}

/** Removes a model's files from the browser cache; returns how many entries were deleted. */
export async function removeCachedModel(hub: string, id: string): Promise<number> {
  if (typeof caches === 'undefined') return 0;
  const cache = await caches.open(LOCAL_CACHE_NAME);
  const prefix = modelPrefix(hub, id);
  let n = 0;
  for (const req of await cache.keys()) if (req.url.startsWith(prefix) && (await cache.delete(req))) n++;
  return n;
}

/** A file as the hub's tree API lists it (`api/models/<id>/tree/<revision>?recursive=true`). */
export interface HubFile {
  path: string;
  size: number;
  /** sha256 of the content, for files the hub stores in LFS (the large ones). */
  sha256: string | null;
}

const HubTreeSchema = (x: unknown): HubFile[] => {
  if (!Array.isArray(x)) throw new Error('the hub file list is not a JSON array');
  return x
    .filter((f): f is { type: string; path: string; size: number; lfs?: { oid?: string } } => !!f && typeof f === 'object' && (f as { type?: unknown }).type === 'file' && typeof (f as { path?: unknown }).path === 'string' && typeof (f as { size?: unknown }).size === 'number')
    .map((f) => ({ path: f.path, size: f.size, sha256: typeof f.lfs?.oid === 'string' && /^[0-9a-f]{64}$/.test(f.lfs.oid) ? f.lfs.oid : null }));
};

/** The files a load of `id` with this ONNX file fetches: the JSON configs and tokenizer, and the ONNX file with its external data. */
export function neededFiles(all: HubFile[], onnxFile: string): HubFile[] {
  return all.filter((f) => (!f.path.includes('/') && f.path.endsWith('.json')) || f.path === onnxFile || f.path.startsWith(`${onnxFile}_data`));
}

/** The hub's list of a model's files, or null with the reason when the hub does not give one. */
export async function hubFiles(hub: string, id: string, fetchImpl: typeof fetch = fetch): Promise<{ files: HubFile[] } | { files: null; reason: string }> {
  const url = `${normaliseHub(hub)}api/models/${id}/tree/main?recursive=true`;
  let res: Response;
  try {
    res = await fetchImpl(url);
  } catch (e) {
    return { files: null, reason: `the hub's file list could not be fetched (${(e as Error).message})` };
  }
  if (!res.ok) return { files: null, reason: `the hub's file list answered HTTP ${res.status}` };
  try {
    return { files: HubTreeSchema(await res.json()) };
  } catch (e) {
    return { files: null, reason: `the hub's file list is unreadable (${(e as Error).message})` };
  }
}

async function sha256Hex(buf: ArrayBuffer): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', buf);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Checks the cached files of a model against the hub's list: every listed file is present with
 * its size, and files with a sha256 hash it. Returns the problems (empty: all checked files match).
 */
export async function verifyCachedModel(hub: string, id: string, listed: HubFile[]): Promise<{ problems: string[]; checked: number; hashed: number }> {
  const cache = await caches.open(LOCAL_CACHE_NAME);
  const prefix = modelPrefix(hub, id);
  const problems: string[] = [];
  let checked = 0;
  let hashed = 0;
  for (const f of listed) {
    const res = await cache.match(`${prefix}main/${f.path}`);
    if (!res) continue; // not every listed file is fetched (e.g. other dtypes' JSON); sizes of fetched ones are checked
    const buf = await res.arrayBuffer();
    checked++;
    if (buf.byteLength !== f.size) {
      problems.push(`${f.path}: ${buf.byteLength} bytes in the cache, the hub lists ${f.size}`);
      continue;
    }
    if (f.sha256) {
      hashed++;
      const h = await sha256Hex(buf);
      if (h !== f.sha256) problems.push(`${f.path}: sha256 ${h.slice(0, 12)}… does not match the hub's ${f.sha256.slice(0, 12)}…`);
    }
  }
  return { problems, checked, hashed };
}

/** The ONNX file a model id and dtype load (transformers.js's naming). */
export function onnxFileOf(dtype: string): string {
  const suffix: Record<string, string> = { fp32: '', fp16: '_fp16', q8: '_quantized', int8: '_int8', uint8: '_uint8', q4: '_q4', q4f16: '_q4f16', bnb4: '_bnb4' };
  return `onnx/model${suffix[dtype] ?? `_${dtype}`}.onnx`;
}
