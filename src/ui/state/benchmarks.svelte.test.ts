/**
 * The page's benchmarks (benchmarks.svelte.ts) over the run library: a benchmark paused while its
 * first run is live stops there, resumes to every run done with the traces of runs made alone, and
 * a "running" benchmark whose page went away opens paused.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { RunLibrary } from './library.svelte';
import { RunStore } from '../../adapters/browser/run-store';
import { benchmarkSpec, planBenchmark, toJsonl } from '../../core/index';
import { miniScenario, onBkt, runWith, MINI_PATH } from '../../testing/fixtures';
import { bktPool, leases } from '../../testing/page-library';

const spec = benchmarkSpec({ name: 'pause and resume', tutors: [{ name: 'planner' }], scenarios: ['mini'], seeds: [1, 2, 3] });
const jobs = () => planBenchmark(spec, new Map([['mini', { scenario: onBkt(miniScenario()), source: MINI_PATH }]]));

describe('the page benchmarks', () => {
  it('pause stops at the live run; resume finishes every job with the traces of runs made alone', async () => {
    const name = `bench-${Math.random()}`;
    const lib = new RunLibrary({ store: new RunStore(name), tracers: bktPool(), leases: leases('tab-1') });
    await lib.init();
    const lb = await lib.benchmarks.start(spec, jobs(), { cpu: 1, llm: 1 });
    await vi.waitFor(() => expect(lb.liveKeys.size).toBe(1));
    lib.benchmarks.pause();
    await vi.waitFor(() => expect(lb.state).toBe('paused'), { timeout: 20_000 });
    expect(lb.progressText).toMatch(/^Paused after [01] of 3 runs$/);
    expect((await lib.store.getBenchmark(lb.id))!.status).toBe('paused');
    expect(lib.benchmarks.stored.map((b) => [b.id, b.status])).toEqual([[lb.id, 'paused']]);

    const again = await lib.benchmarks.resume(lb.id);
    await vi.waitFor(() => expect(again.state).toBe('done'), { timeout: 30_000 });
    expect([again.error, again.progressText]).toEqual([null, 'Done: 3 runs']);
    const stored = (await lib.store.getBenchmark(lb.id))!;
    expect(stored.status).toBe('done');
    for (const j of stored.jobs) {
      const alone = toJsonl((await runWith(onBkt(miniScenario()), 'planner', { seed: j.record!.seed })).events);
      expect(await lib.store.exportJsonl(j.key!)).toBe(alone);
    }
  }, 60_000);

  it('a benchmark stored as running whose page went away opens paused, with why', async () => {
    const name = `bench-${Math.random()}`;
    const store = new RunStore(name);
    const js = jobs();
    await store.putBenchmark({ id: 'b1', name: 'gone', createdAt: 1, spec, jobs: js.map((j) => ({ index: j.index, runId: j.runId, tutor: j.tutor, voice: j.voice, record: j.record, key: null })), status: 'running', parallel: 1, llmParallel: 1, error: null });
    const lib = new RunLibrary({ store: new RunStore(name), tracers: bktPool(), leases: leases('tab-2') });
    await lib.init();
    expect(lib.benchmarks.stored).toMatchObject([{ id: 'b1', status: 'paused', error: expect.stringMatching(/^interrupted: the page was closed or reloaded while it ran/) }]);
  });
});
