/**
 * `npm run test:faults` (scripts/faults/run.ts): the long fault campaigns (docs/reliability.md),
 * kept out of `npm test`. The Svelte plugin as in vite.config.ts (the page's rune classes compile);
 * only scripts/faults/*.faults.ts, one file at a time.
 */
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export default defineConfig({
  plugins: [svelte()],
  test: {
    include: ['scripts/faults/**/*.faults.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
