import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { RunLibrary } from './library.svelte';
import { RunStore } from '../../adapters/browser/run-store';
import { resumePoint, runRecord, toJsonl } from '../../core/index';
import { miniScenario, onBkt, runWith } from '../../testing/fixtures';

import { bktPool, leases, storage } from '../../testing/page-library';
const record = () => runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'planner', config: {} }, seed: 4 });

describe('the page run library', () => {
  it('runs a record and stores its trace as it goes; a run whose page went away is marked interrupted and resumes to the same trace; a run live in another tab is left alone', async () => {
    const name = `lib-${Math.random()}`;
    const full = toJsonl((await runWith(miniScenario(), 'planner', { seed: 4 })).events);

    const lib = new RunLibrary({ store: new RunStore(name), tracers: bktPool(), leases: leases('tab-1') });
    await lib.init();
    const live = lib.start(record());
    expect(lib.isLiveHere(live.key)).toBe(true);
    const done = await live.done;
    expect([done.status, done.error, live.error]).toEqual(['done', null, null]);
    expect(live.progressText).toBe('Done');
    expect(await lib.store.exportJsonl(done.key)).toBe(full);

    // A page that died mid-run left a "running" record and part of its events.
    const events = await lib.store.getEvents(done.key);
    const dead = { ...done, key: 'dead@1', status: 'running' as const, events: 300, report: null, endReason: null };
    await lib.store.putRun(dead);
    await lib.store.appendEvents(dead.key, events.slice(0, 300));
    // Another tab's live run (its heartbeat is fresh) must not be touched.
    const other = { ...dead, key: 'other@1' };
    await lib.store.putRun(other);
    await lib.store.appendEvents(other.key, events.slice(0, 300));
    storage.setItem('educlaw-lab.run:other@1', JSON.stringify({ owner: 'tab-2', at: Date.now() }));

    const lib2 = new RunLibrary({ store: new RunStore(name), tracers: bktPool(), leases: leases('tab-3') });
    await lib2.init();
    const byKey = (k: string) => lib2.runs.find((r) => r.key === k)!;
    expect(byKey('dead@1').status).toBe('interrupted');
    expect(byKey('other@1').status).toBe('running');
    expect(lib2.canResume(byKey('dead@1'))).toBe(true);
    expect(lib2.canResume(byKey('other@1'))).toBe(false);
    await expect(lib2.resume('other@1')).rejects.toMatchObject({ code: 'LEASE_TAKEN' });
    expect((await lib2.store.getRun('other@1'))!.status).toBe('running');

    const resumed = await (await lib2.resume('dead@1')).done;
    expect(resumed.status).toBe('done');
    // Everything stored is replayed, except half a tool call at the cut (resumePoint).
    expect(lib2.live.get('dead@1')!.replayed).toBe(resumePoint(events.slice(0, 300)).length);
    expect(await lib2.store.exportJsonl('dead@1')).toBe(full);
    // A complete run is not resumed.
    await expect(lib2.resume('dead@1')).rejects.toThrow(/complete/);

    // A run whose every event was stored but whose record still said "running" (the page went
    // away between the two writes) is finished from what was stored, not resumed.
    await lib2.store.putRun({ ...dead, key: 'ended@1', status: 'interrupted', events: full.split('\n').length - 1 });
    await lib2.store.appendEvents('ended@1', events);
    await lib2.refresh();
    const finished = await (await lib2.resume('ended@1')).done;
    expect(finished).toMatchObject({ status: 'done', endReason: 'horizon_reached' });
    expect(finished.report?.learningGain).toBe(done.report?.learningGain);

    // A page that went away before any event was stored: the run starts again under its key.
    await lib2.store.putRun({ ...dead, key: 'empty@1', status: 'interrupted', events: 0 });
    await lib2.refresh();
    const again = await (await lib2.resume('empty@1')).done;
    expect(again.status).toBe('done');
    expect(await lib2.store.exportJsonl('empty@1')).toBe(full);
  });
});
