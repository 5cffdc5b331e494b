/**
 * `npm run bench:library [-- --runs 1000 --node-only]`: is the Lab's run library usable at 1,000 runs?
 *
 * 1. Node (fake-indexeddb, the page's own RunStore): storing N synthetic runs, listing them
 *    (`listRuns`, what the page does at start and on every change from another tab), and the
 *    pure part of the panel (src/ui/state/run-facts.ts): facts of every run, a search, a facet
 *    filter, each sort, grouping.
 * 2. Chromium (/usr/bin/chromium or Playwright's): the app built into a temporary folder and served
 *    by `vite preview`; N runs written into its IndexedDB; then the page is reloaded and timed until
 *    the list shows, and each interaction (search, filter, group, "Show all", back to one page) is
 *    timed from the event to the next painted frame.
 *
 * The synthetic runs are like real ones: a real run record (a library scenario, one of several
 * tutors, LLM tutors with models and harnesses, voices, both learner models) and a real score report
 * (of a 3-day BKT run), with failed, interrupted and imported runs among them. Their events are not
 * stored (the list never reads them). Figures are medians of a few repetitions.
 */
import 'fake-indexeddb/auto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir, availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { libraryEntries, parseScenario, runRecord, runIdOf, effectiveScenario, scoreTrace, tutorLabel, type RunRecord, type ScoreReport } from '../../src/core/index';
import { RunStore, type StoredRun } from '../../src/adapters/browser/run-store';
import { ROOT } from '../../src/adapters/node/files';
import { runWith, miniScenario } from '../../src/testing/fixtures';
import { arrangeRuns, filterRuns, groupRuns, runFacts, sortRuns, SORTS, type SortKey } from '../../src/ui/state/run-facts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1000' }, 'node-only': { type: 'boolean', default: false } } });
const N = Number(values.runs);
if (!Number.isInteger(N) || N < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;
function time<T>(fn: () => T, reps = 5): { ms: number; out: T } {
  let out!: T;
  const t: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    out = fn();
    t.push(performance.now() - t0);
  }
  return { ms: median(t), out };
}
async function timeAsync<T>(fn: () => Promise<T>, reps = 5): Promise<{ ms: number; out: T }> {
  let out!: T;
  const t: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    out = await fn();
    t.push(performance.now() - t0);
  }
  return { ms: median(t), out };
}

// ---- synthetic runs ----

const baseReport: ScoreReport = scoreTrace((await runWith(miniScenario(), 'planner', { seed: 1 })).events);
const scenarios = libraryEntries().map((e) => parseScenario(readFileSync(resolve(ROOT, 'scenarios', e.file), 'utf8'), e.file));
const tutors = [
  { name: 'planner', config: {} },
  { name: 'withholder', config: {} },
  { name: 'answer-giver', config: {} },
  { name: 'llm', config: { harness: 'reactive', model: 'gpt-4.1-mini', provider: 'openai' } },
  { name: 'llm', config: { harness: 'notes', model: 'gpt-4.1-mini', provider: 'openai' } },
  { name: 'llm', config: { harness: 'curriculum', model: 'llama3.1:8b', provider: 'ollama' } },
];
const DAY = 86_400_000;
const t0 = Date.UTC(2026, 4, 1, 9);

function syntheticRuns(n: number): StoredRun[] {
  const out: StoredRun[] = [];
  for (let i = 0; i < n; i++) {
    const tutor = tutors[i % tutors.length]!;
    const scenario = scenarios[(i * 7) % scenarios.length]!;
    const record: RunRecord = runRecord({
      scenario,
      source: `scenarios/${scenario.id}.yaml`,
      tutor,
      seed: 1 + (i % 30),
      ...(i % 3 === 0 ? { tracer: 'bkt' } : {}),
      voice: i % 5 === 0 ? { kind: 'llm', provider: 'openai', model: 'gpt-4.1-nano' } : { kind: 'templates' },
    });
    const s = effectiveScenario(record);
    const runId = runIdOf(record);
    const createdAt = t0 + Math.floor((i / n) * 30 * DAY) + (i % 17) * 60_000;
    const kind = i % 41 === 7 ? 'failed' : i % 53 === 11 ? 'interrupted' : i % 29 === 3 ? 'imported' : i % 97 === 5 ? 'imported-cut' : 'done';
    const gain = ((i * 37) % 100) / 10_000 - 0.002;
    const rec: StoredRun = {
      key: `${runId}@${createdAt}-${i}`,
      runId,
      scenarioId: s.id,
      scenarioTitle: s.title,
      tutor: kind.startsWith('imported') ? tutor.name : tutorLabel({ name: tutor.name, config: tutor.config }),
      seed: s.seed,
      tracer: s.learner.tracer,
      status: kind === 'imported-cut' ? 'imported' : (kind as StoredRun['status']),
      endReason: kind === 'done' || kind === 'imported' ? 'horizon_reached' : kind === 'failed' ? 'llm_error' : null,
      createdAt,
      events: 4000 + ((i * 131) % 3000),
      report: { ...baseReport, runId, scenarioId: s.id, seed: s.seed, learningGain: gain },
      error: kind === 'failed' ? 'llm_error: the provider answered 429 five times' : kind === 'interrupted' ? 'interrupted: the page was closed or reloaded during the run; the events recorded so far are kept, and Resume continues it' : null,
      ...(kind.startsWith('imported') ? {} : { record }),
    };
    out.push(rec);
  }
  return out;
}

const runs = syntheticRuns(N);
const bytes = JSON.stringify(runs).length;
console.log(`bench:library: ${N} synthetic runs (${(bytes / 1e6).toFixed(1)} MB of run records as JSON, ${Math.round(bytes / N / 1000)} kB each); machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);

// ---- 1. Node: store, list, facts, filter, sort, group ----

const store = new RunStore(`bench-${Date.now()}`);
const put = await timeAsync(async () => {
  for (const r of runs) await store.putRun(r);
}, 1);
const listed = await timeAsync(() => store.listRuns());
if (listed.out.length !== N) throw new Error(`listed ${listed.out.length} runs, stored ${N}`);
const facts = time(() => listed.out.map((r) => runFacts(r)));
const f = facts.out;
const search = time(() => filterRuns(f, { text: 'llm gpt-4.1', facets: {} }));
const facet = time(() => filterRuns(f, { text: '', facets: { tutor: 'llm', tracer: 'bkt' } }));
const sorts = Object.keys(SORTS).map((k) => ({ k, ...time(() => sortRuns(f, k as SortKey)) }));
const group = time(() => groupRuns(sortRuns(f, 'newest'), 'scenario'));
const arrange = time(() => arrangeRuns(f, { filter: { text: 'gamer', facets: { status: 'done' } }, sort: 'gain-desc', group: 'tutor' }));
console.log('\nNode (fake-indexeddb, the page RunStore; run-facts.ts):');
console.log(`  store ${N} runs (putRun one by one):  ${ms(put.ms)}`);
console.log(`  list them (listRuns, median of 5):  ${ms(listed.ms)}`);
console.log(`  facts of every run:                 ${ms(facts.ms)}`);
console.log(`  search "llm gpt-4.1":               ${ms(search.ms)} (${search.out.length} match)`);
console.log(`  filter tutor=llm, learner=bkt:      ${ms(facet.ms)} (${facet.out.length} match)`);
console.log(`  sort (each of ${sorts.length}):                  ${sorts.map((s) => `${s.k} ${ms(s.ms)}`).join(', ')}`);
console.log(`  group by scenario:                  ${ms(group.ms)} (${group.out.length} groups)`);
console.log(`  search + filter + sort + group:     ${ms(arrange.ms)}`);
await store.close();

// ---- 2. Chromium: the built app, N runs in its IndexedDB ----

if (!values['node-only']) await browserBench();

async function browserBench() {
  const { build, preview } = await import('vite');
  const { chromium } = await import('@playwright/test');
  const outDir = mkdtempSync(join(tmpdir(), 'educlaw-bench-library-'));
  const tb = performance.now();
  await build({ root: ROOT, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  console.log(`\nChromium (the app built into ${outDir} in ${((performance.now() - tb) / 1000).toFixed(0)} s, served by vite preview):`);
  const server = await preview({ root: ROOT, logLevel: 'error', build: { outDir }, preview: { port: 4190, strictPort: false, host: '127.0.0.1' } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview gave no URL');
  const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // tsx keeps function names with a helper the page does not have; functions sent to the page may call it.
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    await page.goto(`${url}#lab`);
    await page.getByRole('heading', { name: 'Run library' }).waitFor();
    // The app has opened (and upgraded) its database: write the runs into it as the RunStore does.
    const tw = performance.now();
    await page.evaluate(async (all) => {
      const db = await new Promise<IDBDatabase>((res, rej) => {
        const r = indexedDB.open('educlaw-lab');
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      const tx = db.transaction('runs', 'readwrite');
      for (const r of all) tx.objectStore('runs').put(r);
      await new Promise((res, rej) => {
        tx.oncomplete = res;
        tx.onerror = () => rej(tx.error);
      });
      db.close();
    }, runs);
    console.log(`  write ${N} runs into IndexedDB (one transaction, from the page): ${ms(performance.now() - tw)}`);

    /** Milliseconds from navigation start until `n` rows are in the list and a frame has been painted. */
    const loads: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.reload();
      loads.push(
        await page.evaluate(async (want) => {
          while (document.querySelectorAll('tr[data-run-key]').length < want) await new Promise((r) => requestAnimationFrame(r));
          await new Promise((r) => requestAnimationFrame(r));
          return performance.now();
        }, Math.min(N, 50)),
      );
    }
    console.log(`  reload until the list shows its first page (50 rows of ${N}; includes loading the app): ${ms(median(loads))} (median of 3)`);

    /**
     * Times an interaction: from the event until the page has updated the list and laid it out
     * ("update"), and until the next frame has been drawn ("frame"; up to one frame, ~16 ms, later).
     * `reset` (not timed) puts the page back before each repetition.
     */
    type Act = [kind: 'input' | 'select' | 'click', target: string, value?: string];
    const interact = async (what: string, act: Act, reset: Act | null, reps = 3) => {
      const upd: number[] = [];
      const frame: number[] = [];
      let rows = 0;
      for (let i = 0; i < reps; i++) {
        const r = await page.evaluate(
          async ({ act, reset }) => {
            const tick = () => new Promise((r) => setTimeout(r, 0));
            const run = ([kind, target, value]: Act) => {
              if (kind === 'click') {
                [...document.querySelectorAll<HTMLButtonElement>('button')].find((x) => x.textContent?.trim().startsWith(target))!.click();
                return;
              }
              const el = document.querySelector<HTMLInputElement | HTMLSelectElement>(target)!;
              el.value = value ?? '';
              el.dispatchEvent(new Event(kind === 'input' ? 'input' : 'change', { bubbles: true }));
            };
            if (reset) {
              run(reset);
              await tick();
              await new Promise((r) => requestAnimationFrame(r));
            }
            const t0 = performance.now();
            run(act);
            await tick();
            void document.body.offsetHeight; // style and layout now
            const t1 = performance.now();
            await new Promise((r) => requestAnimationFrame(r));
            await tick();
            return { update: t1 - t0, frame: performance.now() - t0, rows: document.querySelectorAll('tr[data-run-key]').length };
          },
          { act, reset },
        );
        upd.push(r.update);
        frame.push(r.frame);
        rows = r.rows;
      }
      // Back to the start (first page, no search, filter or grouping, newest first) for the next interaction.
      await page.evaluate(() => {
        const set = (sel: string, v: string, ev: string) => {
          const el = document.querySelector<HTMLInputElement | HTMLSelectElement>(sel);
          if (el && el.value !== v) {
            el.value = v;
            el.dispatchEvent(new Event(ev, { bubbles: true }));
          }
        };
        set('[data-testid="facet-tutor"]', '', 'change');
        set('[data-testid="run-group"]', 'none', 'change');
        set('[data-testid="run-sort"]', 'newest', 'change');
        const s = document.querySelector<HTMLInputElement>('[data-testid="run-search"]')!;
        s.value = '';
        s.dispatchEvent(new Event('input', { bubbles: true }));
      });
      await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
      console.log(`  ${what.padEnd(44)} update ${ms(median(upd)).padStart(7)}, frame ${ms(median(frame)).padStart(7)}  (${rows} rows shown)`);
    };
    const search: string = '[data-testid="run-search"]';
    const clear: Act = ['input', search, ''];
    await page.locator('details.facets > summary').click();
    console.log(`  interactions (median of 3${N > 50 ? '; 1 for the "all rows" ones' : ''}):`);
    await interact('search "gpt-4.1"', ['input', search, 'gpt-4.1'], clear);
    await interact('clear the search', clear, ['input', search, 'gpt-4.1']);
    await interact('filter tutor = llm', ['select', '[data-testid="facet-tutor"]', 'llm'], ['select', '[data-testid="facet-tutor"]', '']);
    await interact('group by scenario', ['select', '[data-testid="run-group"]', 'scenario'], ['select', '[data-testid="run-group"]', 'none']);
    await interact('sort by learning gain', ['select', '[data-testid="run-sort"]', 'gain-desc'], ['select', '[data-testid="run-sort"]', 'newest']);
    if (N > 50) {
      await interact('"Show 50 more"', ['click', 'Show 50 more'], clear);
      await interact(`"Show all" (${N} rows, no pager)`, ['click', 'Show all'], clear);
      await interact(`group by scenario, all ${N} rows shown`, ['select', '[data-testid="run-group"]', 'scenario'], ['click', 'Show all'], 1);
      await interact(`sort by gain, all ${N} rows shown`, ['select', '[data-testid="run-sort"]', 'gain-desc'], ['click', 'Show all'], 1);
      const heap = await page.evaluate(() => (performance as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null);
      if (heap) console.log(`  JS heap with all rows shown: ${(heap / 1e6).toFixed(0)} MB`);
    }
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
    rmSync(outDir, { recursive: true, force: true });
  }
}
