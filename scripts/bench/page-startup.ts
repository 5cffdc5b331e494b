/**
 * npm run bench:page-startup [-- --rounds 3 --tracer akt]: how long a run in the page waits for
 * its learner model, for the first run in a page and for the next one. Builds the app (vite
 * build), serves it (vite preview), and in each round opens a fresh headless Chromium context at
 * the Lab, starts the planner on the default scenario, times the click to the learner-model line
 * (shown once the tracer is loaded and the run has started), cancels, and does the same again in
 * the same page (the tracer pool, adapters/browser/tracer-pool.ts, should hand the second run the
 * loaded worker: "already loaded in this page"). Prints figures; asserts nothing.
 */
import { build, preview } from 'vite';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, tracer: { type: 'string', default: 'akt' }, port: { type: 'string', default: '4179' } } });
const port = Number(values.port);
await build({ logLevel: 'warn' });
const server = await preview({ logLevel: 'silent', preview: { port, strictPort: true, host: '127.0.0.1' } });
const exe = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const b = await chromium.launch({ ...(exe ? { executablePath: exe } : {}), args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });

async function startUntilLoaded(page: Page): Promise<{ ms: number; status: string }> {
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Start run' }).click();
  const status = page.getByTestId('tracer-status');
  await status.waitFor({ timeout: 120_000 });
  const ms = Date.now() - t0;
  const text = (await status.textContent()) ?? '';
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Start run' }).and(page.locator(':enabled')).waitFor({ timeout: 60_000 });
  return { ms, status: text };
}

const rows: { first: number; second: number; firstStatus: string; secondStatus: string }[] = [];
try {
  for (let i = 0; i < Number(values.rounds); i++) {
    const ctx = await b.newContext();
    const page = await ctx.newPage();
    await page.goto(`http://127.0.0.1:${port}/#lab`);
    await page.getByRole('button', { name: 'Start run' }).waitFor();
    await page.getByLabel('Tutor', { exact: true }).selectOption('planner');
    await page.getByLabel('Learner model').selectOption(values.tracer!);
    const a = await startUntilLoaded(page);
    const c = await startUntilLoaded(page);
    rows.push({ first: a.ms, second: c.ms, firstStatus: a.status, secondStatus: c.status });
    console.log(`round ${i + 1}: first run ${a.ms} ms to the learner-model line (${a.status.trim()}); second run ${c.ms} ms (${c.status.trim()})`);
    await ctx.close();
  }
} finally {
  await b.close();
  await new Promise<void>((r) => server.httpServer.close(() => r()));
}
const med = (xs: number[]) => xs.slice().sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)]!;
console.log(`median over ${rows.length} rounds: first run ${med(rows.map((r) => r.first))} ms, second run in the same page ${med(rows.map((r) => r.second))} ms`);
