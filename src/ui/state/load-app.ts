/**
 * The page's state, loaded on demand: the landing page shows before the engine, the run library
 * and the item generators are fetched, and every view that needs them waits for this one promise.
 * One instance for the page (made on the first call), so runs and benchmarks keep going while the
 * user switches views, the landing included.
 */
import type { AppState } from './app.svelte';

let loading: Promise<AppState> | null = null;

export function loadApp(): Promise<AppState> {
  loading ??= import('./app.svelte').then((m) => {
    const app = new m.AppState();
    void app.init();
    return app;
  });
  return loading;
}
