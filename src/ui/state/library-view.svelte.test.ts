import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { RunLibrary } from './library.svelte';
import { LibraryView } from './library-view.svelte';
import { RunStore, type StoredRun } from '../../adapters/browser/run-store';
import { TracerPool } from '../../adapters/browser/tracer-pool';
import { heartbeatLeases } from '../../adapters/browser/run-lease';
import { scoreTrace, toJsonl } from '../../core/index';
import { miniScenario, runWith } from '../../testing/fixtures';

const mem = new Map<string, string>();
const storage = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v), removeItem: (k: string) => void mem.delete(k) };
(globalThis as { localStorage?: unknown }).localStorage ??= storage;

const noTracers = () => new TracerPool({ create: async () => Promise.reject(new Error('no tracer in this test')) });

/** A library over a fresh database with one imported run, and a Lab stand-in (remove clears the selection). */
async function setup() {
  const lib = new RunLibrary({ store: new RunStore(`view-${Math.random()}`), tracers: noTracers(), leases: heartbeatLeases({ storage, now: () => Date.now(), owner: 'tab', setInterval: () => 0, clearInterval: () => undefined }) });
  await lib.init();
  const events = (await runWith(miniScenario(), 'withholder', { seed: 2 })).events;
  const run = await lib.importTrace(toJsonl(events), 'w.jsonl');
  const lab = {
    selectedKey: run.key as string | null,
    selected: [] as string[],
    async remove(key: string) {
      await lib.remove(key);
      if (this.selectedKey === key) this.selectedKey = null;
    },
    async select(key: string) {
      this.selectedKey = key;
      this.selected.push(key);
    },
  };
  return { lib, lab, run, events, view: new LibraryView(lib, lab) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('deleting a run with Undo', () => {
  it('deletes at once; Undo puts back the same record and trace under the same key, and selects it again', async () => {
    const { lib, lab, run, events, view } = await setup();
    expect(await view.remove(run.key)).toBe(true);
    expect(lib.runs).toEqual([]);
    expect(await lib.store.getRun(run.key)).toBeUndefined();
    expect(lab.selectedKey).toBeNull();
    expect(view.deleted?.run.key).toBe(run.key);

    expect(await view.undo()).toBe(run.key);
    expect(view.deleted).toBeNull();
    expect(lib.runs.map((r) => r.key)).toEqual([run.key]);
    expect((await lib.store.getRun(run.key)) satisfies StoredRun | undefined).toEqual(run);
    expect(await lib.store.exportJsonl(run.key)).toBe(toJsonl(events));
    expect(scoreTrace(await lib.getEvents(run.key))).toEqual(run.report);
    expect(lab.selected).toEqual([run.key]);
  });

  it('the offer runs out after a few seconds, but not while the pointer or focus is on it', async () => {
    const { lib, lab, run } = await setup();
    const view = new LibraryView(lib, lab, { undoMs: 100 });
    await view.remove(run.key);
    view.hold('focus', true);
    await sleep(250);
    expect(view.deleted).not.toBeNull();
    view.hold('pointer', true);
    view.hold('focus', false);
    await sleep(250);
    expect(view.deleted).not.toBeNull();
    view.hold('pointer', false);
    await sleep(30);
    expect(view.deleted).not.toBeNull();
    await sleep(150);
    expect(view.deleted).toBeNull();
    expect(await view.undo()).toBeNull();
    expect(lib.runs).toEqual([]);
  });

  it('a refused delete (a run live in this tab) keeps the run and offers nothing to undo', async () => {
    const { lib, run, view } = await setup();
    const lab = { selectedKey: null, remove: async () => undefined, select: async () => undefined };
    const refusing = new LibraryView(lib, lab);
    expect(await refusing.remove(run.key)).toBe(false);
    expect(refusing.deleted).toBeNull();
    expect(lib.runs).toHaveLength(1);
    expect(await view.remove('no-such-run')).toBe(false);
  });
});

describe('the filter state', () => {
  it('a new search or filter starts again from the first page', async () => {
    const { view } = await setup();
    view.showMore();
    view.showMore();
    expect(view.limit).toBe(150);
    view.setFacet('tutor', 'withholder');
    expect([view.limit, view.facets]).toEqual([50, { tutor: 'withholder' }]);
    view.showAll(1000);
    view.setText('gamer');
    expect(view.limit).toBe(50);
    view.setFacet('tutor', '');
    expect(view.filter).toEqual({ text: 'gamer', facets: {} });
    view.clearFilter();
    expect(view.filter).toEqual({ text: '', facets: {} });
  });
});
