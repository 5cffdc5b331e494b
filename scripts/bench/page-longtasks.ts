/**
 * npm run bench:page [-- --tracer akt|bkt --scenarios 4 --seeds 1 --parallel 2]: the page's main
 * thread while a benchmark runs. Builds the app (vite build), serves it (vite preview), starts a
 * benchmark in headless Chromium from the Benchmark view (the withholder on the first N library
 * scenarios), and records every long task (PerformanceObserver 'longtask': main-thread work of
 * 50 ms or more) until it is done. Prints the count, the longest, and how many exceeded 100 ms.
 * Prints figures; asserts nothing.
 */
import { build, preview } from 'vite';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';

const { values } = parseArgs({ options: { tracer: { type: 'string', default: 'bkt' }, scenarios: { type: 'string', default: '4' }, seeds: { type: 'string', default: '1' }, parallel: { type: 'string', default: '2' }, port: { type: 'string', default: '4178' } } });
const port = Number(values.port);
await build({ logLevel: 'warn' });
const server = await preview({ logLevel: 'silent', preview: { port, strictPort: true, host: '127.0.0.1' } });
const exe = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const b = await chromium.launch({ ...(exe ? { executablePath: exe } : {}), args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  const page = await b.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __long: number[] };
    w.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__long.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`http://127.0.0.1:${port}/#benchmark`);
  await page.getByRole('heading', { name: 'Run a benchmark' }).waitFor();
  const n = Number(values.scenarios);
  const boxes = page.locator('input[data-scenario]');
  for (let i = 0; i < n; i++) await boxes.nth(i).check();
  await page.getByLabel('Seeds', { exact: true }).fill(values.seeds!);
  await page.getByLabel('Learner model').selectOption(values.tracer!);
  await page.getByLabel('Runs at once (built-in tutors)').fill(values.parallel!);
  // Long tasks of loading the page are not the benchmark's: count from the start button on.
  const before = await page.evaluate(() => (window as unknown as { __long: number[] }).__long.length);
  const t0 = Date.now();
  await page.getByRole('button', { name: /Start benchmark/ }).click();
  await page.getByTestId('bench-progress').filter({ hasText: /^Done/ }).waitFor({ timeout: 600_000 });
  const wall = (Date.now() - t0) / 1000;
  const long = (await page.evaluate(() => (window as unknown as { __long: number[] }).__long)).slice(before);
  const sorted = [...long].sort((x, y) => y - x);
  console.log(`bench:page: withholder on ${n} library scenarios × seeds ${values.seeds}, learner model ${values.tracer}, ${values.parallel} runs at once: ${wall.toFixed(1)} s`);
  console.log(`main-thread long tasks (≥ 50 ms) while it ran: ${long.length}; longest ${sorted[0]?.toFixed(0) ?? '—'} ms; over 100 ms: ${long.filter((d) => d > 100).length}${sorted.length ? `; the five longest: ${sorted.slice(0, 5).map((d) => d.toFixed(0)).join(', ')} ms` : ''}`);
} finally {
  await b.close();
  await server.close();
}
