/**
 * Fetches model files with download progress and keeps them in the Cache Storage API, keyed by
 * URL and content hash, so a second visit does not download them again. A download whose SHA-256
 * differs from the one meta.json names is an error and is not cached.
 */
import type { LoadProgress } from '../../core/index';

export const MODEL_CACHE = 'educlaw-models-v1';

export interface FetchedFile {
  bytes: Uint8Array;
  fromCache: boolean;
}

export async function fetchModelFile(url: string, version: string, label: string, onProgress?: (p: LoadProgress) => void): Promise<FetchedFile> {
  const key = `${url}${url.includes('?') ? '&' : '?'}v=${encodeURIComponent(version)}`;
  const cache = typeof caches !== 'undefined' ? await caches.open(MODEL_CACHE).catch(() => null) : null;
  const hit = cache ? await cache.match(key) : undefined;
  if (hit) {
    onProgress?.({ progress: 1, text: `${label}: from the browser cache` });
    return { bytes: new Uint8Array(await hit.arrayBuffer()), fromCache: true };
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not download ${url}: HTTP ${res.status} ${res.statusText}`);
  const total = Number(res.headers.get('content-length') ?? 0);
  const reader = res.body?.getReader();
  let bytes: Uint8Array<ArrayBuffer>;
  if (!reader) {
    bytes = new Uint8Array(await res.arrayBuffer());
  } else {
    const chunks: Uint8Array[] = [];
    let got = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      got += value.length;
      onProgress?.({ progress: total ? got / total : 0, text: `${label}: ${(got / 1e6).toFixed(1)}${total ? ` of ${(total / 1e6).toFixed(1)}` : ''} MB` });
    }
    bytes = new Uint8Array(got);
    let o = 0;
    for (const c of chunks) {
      bytes.set(c, o);
      o += c.length;
    }
  }
  // Web Crypto exists in secure contexts only (https, localhost); elsewhere the check cannot run,
  // and the progress line says so rather than claiming a verified file.
  const subtle = typeof crypto !== 'undefined' ? crypto.subtle : undefined;
  let verified = false;
  if (subtle && /^[0-9a-f]{64}$/.test(version)) {
    const digest = Array.from(new Uint8Array(await subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
    if (digest !== version) throw new Error(`${url} does not match the model's meta.json (sha256 ${digest.slice(0, 12)}…, expected ${version.slice(0, 12)}…): a damaged or mixed-up download; reload, or re-deploy the model files together`);
    verified = true;
  }
  // A full or refused cache costs a download next time, not this run: say so and go on.
  const cached = cache
    ? await cache.put(key, new Response(bytes.slice(), { headers: { 'content-type': 'application/octet-stream' } })).then(
        () => ' and cached',
        (e: unknown) => ` (not cached: ${e instanceof Error ? e.message : String(e)})`,
      )
    : ' (this page cannot cache it)';
  onProgress?.({ progress: 1, text: `${label}: downloaded${verified ? ', checked' : ' (not checked: no Web Crypto in this page)'}${cached}` });
  return { bytes, fromCache: false };
}
