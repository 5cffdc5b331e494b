/**
 * Whether the page is served by a classroom server (its /api/info says so). Apart from the
 * classroom client so that the landing page can ask without loading it.
 */
export async function detectClassroomServer(base = ''): Promise<boolean> {
  try {
    const r = await fetch(`${base}/api/info`, { headers: { Accept: 'application/json' } });
    if (!r.ok || !(r.headers.get('content-type') ?? '').includes('json')) return false;
    const j = (await r.json()) as { app?: unknown; mode?: unknown };
    return j.app === 'educlaw-lab' && j.mode === 'classroom';
  } catch {
    return false;
  }
}
