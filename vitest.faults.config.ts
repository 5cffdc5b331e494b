/**
 * `npm run test:faults` (scripts/faults/run.ts): the long fault campaigns (docs/reliability.md),
 * kept out of `npm test`. Same plugins as vite.config.ts (the page's rune classes compile).
 */
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vite.config.ts';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['scripts/faults/**/*.faults.ts'],
      testTimeout: 600_000,
      hookTimeout: 120_000,
      fileParallelism: false,
    },
  }),
);
