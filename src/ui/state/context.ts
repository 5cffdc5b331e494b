/**
 * The context that hands the page's one AppState to its views. Kept apart from app.svelte.ts so
 * that the page's shell (App.svelte, WithApp.svelte) can provide it without loading the state's
 * modules (the engine, the run library) before a view needs them.
 */
import { getContext, setContext } from 'svelte';
import type { AppState } from './app.svelte';

const KEY = Symbol('educlaw-app');

export function provideApp(app: AppState): AppState {
  return setContext(KEY, app);
}

export function useApp(): AppState {
  const app = getContext<AppState | undefined>(KEY);
  if (!app) throw new Error('useApp() outside the app: App.svelte provides the state');
  return app;
}
