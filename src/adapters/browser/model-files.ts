/**
 * Fetches model files with download progress and keeps them in the Cache Storage API, keyed by
 * URL and content hash, so a second visit does not download them again.
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
  let bytes: Uint8Array;
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
  if (cache) await cache.put(key, new Response(bytes.slice(), { headers: { 'content-type': 'application/octet-stream' } })).catch(() => undefined);
  onProgress?.({ progress: 1, text: `${label}: downloaded${cache ? ' and cached' : ' (this page cannot cache it)'}` });
  return { bytes, fromCache: false };
}
