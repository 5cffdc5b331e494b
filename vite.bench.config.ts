/**
 * The benchmark page `npm run bench:kt` drives in Chromium (bench/kt.html: AKT readouts in a
 * worker on onnxruntime-web), built apart from the app into dist-bench/, so the shipped dist/
 * holds only the app. `scripts/bench-kt.ts` builds it with this config and serves it with Vite's
 * preview server. The page reads the models from public/ like the app (dist-bench/models/).
 */
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  optimizeDeps: { exclude: ['onnxruntime-web'] },
  worker: { format: 'es' },
  build: {
    outDir: 'dist-bench',
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
    rollupOptions: { input: { 'bench-kt': 'bench/kt.html' } },
  },
  preview: { port: 4179, strictPort: true, host: '127.0.0.1' },
});
