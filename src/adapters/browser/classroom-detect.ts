/**
 * Whether the page is served by a classroom server. The server marks the page it serves with a
 * meta tag (src/server/app.ts); only then is its /api/info asked to confirm, so that a page on a
 * static host makes no request that fails (a 404 in the console). Apart from the classroom client
 * so that the landing page can ask without loading it.
 */
import { CLASSROOM_META } from '../classroom/page-mark';

/** `base`: another server's address (asked directly); '' (the default): this page's server. */
export async function detectClassroomServer(base = ''): Promise<boolean> {
  if (!base && typeof document !== 'undefined' && !document.querySelector(`meta[name="${CLASSROOM_META}"]`)) return false;
  try {
    const r = await fetch(`${base}/api/info`, { headers: { Accept: 'application/json' } });
    if (!r.ok || !(r.headers.get('content-type') ?? '').includes('json')) return false;
    const j = (await r.json()) as { app?: unknown; mode?: unknown };
    return j.app === 'educlaw-lab' && j.mode === 'classroom';
  } catch {
    return false;
  }
}
