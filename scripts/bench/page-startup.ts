/**
 * npm run bench:page-startup [-- --rounds 3 --tracer akt --baseline <git ref> --cpu 4 --no-runs]
 *
 * Two measurements of the page's start, each in a fresh headless Chromium context per round:
 *
 * 1. Time to interactive of a first visit (`/`) and of the Lab (`/#lab`): from navigation to the
 *    view's main heading on screen with the main thread then quiet (no long task for 500 ms), the
 *    JavaScript fetched by then, and the size of the entry chunk. With `--baseline <ref>` the same
 *    is measured on the app as built from that git ref (extracted with `git archive` into a
 *    temporary folder, built with this checkout's node_modules), side by side with this checkout.
 *    `--cpu N` slows the CPU N times (Chrome's throttling) to approach a slower device.
 * 2. (unless --no-runs) How long a run in the page waits for its learner model, for the first run
 *    in a page and for the next one: starts the planner on the default scenario, times the click to
 *    the learner-model line, cancels, and does the same again in the same page (the tracer pool
 *    should hand the second run the loaded worker: "already loaded in this page").
 *
 * Builds with vite, serves with vite preview. Prints figures; asserts nothing.
 */
import { build, preview, type PreviewServer } from 'vite';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    tracer: { type: 'string', default: 'akt' },
    port: { type: 'string', default: '4179' },
    baseline: { type: 'string' },
    cpu: { type: 'string', default: '1' },
    'no-runs': { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const cpu = Number(values.cpu);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a whole number ≥ 1, got "${values.rounds}"`);
if (!(cpu >= 1)) throw new Error(`--cpu must be a number ≥ 1 (1 = no throttling), got "${values.cpu}"`);
const ROOT = resolve(import.meta.dirname, '../..');

/** A built app served on a port. */
interface Served {
  name: string;
  root: string;
  server: PreviewServer;
  url: string;
  entryBytes: number;
}

async function serve(name: string, root: string, port: number): Promise<Served> {
  const outDir = join(root, 'dist');
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'silent', build: { outDir }, preview: { port, strictPort: true, host: '127.0.0.1' } });
  const entry = readdirSync(join(outDir, 'assets')).find((f) => /^main-.*\.js$/.test(f));
  return { name, root, server, url: `http://127.0.0.1:${port}/`, entryBytes: entry ? statSync(join(outDir, 'assets', entry)).size : NaN };
}

/** The app as built from a git ref: its files extracted into a temporary folder, with this checkout's node_modules. */
function checkout(ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-baseline-'));
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive "${ref}" | tar -x -C "${dir}"`], { stdio: 'inherit' });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

const LONG_TASKS = `window.__longTasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push(e.startTime + e.duration); }).observe({ type: 'longtask', buffered: true });`;

/** Navigation to the view's main heading, then until the main thread has had no long task for 500 ms. */
async function timeToInteractive(b: Browser, url: string): Promise<{ ms: number; heading: string; jsBytes: number }> {
  const ctx = await b.newContext();
  const page = await ctx.newPage();
  if (cpu > 1) await (await ctx.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpu });
  await page.addInitScript({ content: LONG_TASKS });
  let jsBytes = 0;
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') void r.body().then((x) => (jsBytes += x.length), () => undefined);
  });
  await page.goto(url, { waitUntil: 'commit' });
  const h = page.locator('main h2').first();
  await h.waitFor({ timeout: 120_000 });
  const shownAt = await page.evaluate(() => performance.now());
  // Quiet: 500 ms after the last long task (or after the heading, if none came later).
  for (;;) {
    const last = await page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));
    const now = await page.evaluate(() => performance.now());
    if (now - Math.max(last, shownAt) >= 500) {
      const ms = Math.round(Math.max(last, shownAt));
      const heading = ((await h.textContent()) ?? '').trim();
      await ctx.close();
      return { ms, heading, jsBytes };
    }
    await page.waitForTimeout(100);
  }
}

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

const med = (xs: number[]) => xs.slice().sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)]!;
const kb = (n: number) => `${(n / 1000).toFixed(0)} kB`;

const port = Number(values.port);
const builds: Served[] = [];
const exe = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
let baselineDir: string | null = null;
const b = await chromium.launch({ ...(exe ? { executablePath: exe } : {}), args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  if (values.baseline) {
    baselineDir = checkout(values.baseline);
    builds.push(await serve(`baseline (${values.baseline})`, baselineDir, port + 1));
  }
  builds.push(await serve('this checkout', ROOT, port));

  console.log(`Time to interactive (median of ${rounds} fresh contexts${cpu > 1 ? `, CPU slowed ${cpu}×` : ''}): navigation to the view's heading with the main thread then quiet for 500 ms.`);
  console.log('| build | entry chunk | first visit (/) | JS fetched | Lab (/#lab) | JS fetched |');
  console.log('|---|---|---|---|---|---|');
  for (const s of builds) {
    const home: Awaited<ReturnType<typeof timeToInteractive>>[] = [];
    const lab: Awaited<ReturnType<typeof timeToInteractive>>[] = [];
    for (let i = 0; i < rounds; i++) {
      home.push(await timeToInteractive(b, s.url));
      lab.push(await timeToInteractive(b, `${s.url}#lab`));
    }
    console.log(`| ${s.name} | ${kb(s.entryBytes)} | ${med(home.map((x) => x.ms))} ms ("${home[0]!.heading}") | ${kb(med(home.map((x) => x.jsBytes)))} | ${med(lab.map((x) => x.ms))} ms | ${kb(med(lab.map((x) => x.jsBytes)))} |`);
  }

  if (!values['no-runs']) {
    const s = builds[builds.length - 1]!;
    const rows: { first: number; second: number }[] = [];
    for (let i = 0; i < rounds; i++) {
      const ctx = await b.newContext();
      const page = await ctx.newPage();
      await page.goto(`${s.url}#lab`);
      await page.getByRole('button', { name: 'Start run' }).waitFor();
      await page.getByLabel('Tutor', { exact: true }).selectOption('planner');
      await page.getByLabel('Learner model').selectOption(values.tracer!);
      const a = await startUntilLoaded(page);
      const c = await startUntilLoaded(page);
      rows.push({ first: a.ms, second: c.ms });
      console.log(`round ${i + 1}: first run ${a.ms} ms to the learner-model line (${a.status.trim()}); second run ${c.ms} ms (${c.status.trim()})`);
      await ctx.close();
    }
    console.log(`median over ${rows.length} rounds: first run ${med(rows.map((r) => r.first))} ms, second run in the same page ${med(rows.map((r) => r.second))} ms`);
  }
} finally {
  await b.close();
  for (const s of builds) await new Promise<void>((r) => s.server.httpServer.close(() => r()));
  if (baselineDir) rmSync(baselineDir, { recursive: true, force: true });
}
