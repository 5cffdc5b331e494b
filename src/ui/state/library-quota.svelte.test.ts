/**
 * A full IndexedDB quota (issue 16), emulated as Chromium enforces it (src/testing/quota-idb.ts:
 * the transaction that passes the budget is aborted with a QuotaExceededError with no message).
 * It used to lose the run (the record stuck at "running", or claiming every event with none
 * stored), end error messages in a colon with no text, keep an LLM run spending, and after a
 * reload refuse to open the library with nothing deletable.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunLibrary } from './library.svelte';
import { RunStore } from '../../adapters/browser/run-store';
import { saveSettings, emptySettings } from '../../adapters/browser/llm-settings';
import { ProviderSchema } from '../../adapters/llm/config';
import { llmTutorConfig, parseJsonl, runRecord, toJsonl } from '../../core/index';
import { miniScenario, onBkt, runWith } from '../../testing/fixtures';
import { withQuota } from '../../testing/quota-idb';
import { startMockOpenAi, type MockServer } from '../../testing/mock-openai-server';

import { bktPool, leases } from '../../testing/page-library';

let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

describe('a full storage quota in the page', () => {
  it('stops the run at the first failed write with reason storage_full and the real error text; the record says what is stored; after a reload the library opens and runs can be deleted', async () => {
    const full = toJsonl((await runWith(miniScenario(), 'planner', { seed: 4 })).events);
    const name = `quota-${Math.random()}`;
    // About 40% of what the run needs.
    const quota = withQuota(name, Math.round(full.length * 0.4));
    const lib = new RunLibrary({ store: new RunStore(name), tracers: bktPool(), leases: leases('tab-q1') });
    await lib.init();
    const live = lib.start(runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'planner', config: {} }, seed: 4 }));
    const done = await live.done;
    expect(quota.refused).toBeGreaterThan(0);
    expect(live.state).toBe('failed');
    expect(live.progressText).toBe('Stopped: storage_full');
    expect(live.error).toMatch(/QuotaExceededError/);
    // No message ends in a colon with nothing after it.
    for (const m of [live.error!, done.error ?? '']) expect(m).not.toMatch(/:\s*(\)|$|\.)/);
    const stored = await lib.store.getEvents(done.key);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBeLessThan(full.split('\n').length - 1);
    // What was stored is the run's own beginning, byte for byte, and reads as a trace cut short.
    expect(full.startsWith(toJsonl(stored))).toBe(true);
    expect(parseJsonl(toJsonl(stored)).complete).toBe(false);
    const rec = await lib.store.getRun(done.key);
    // The record either says how the run ended (and claims only what is stored) or, when the
    // storage refused even the smallest record, is marked interrupted at the next start.
    if (rec!.status === 'failed') {
      expect(rec).toMatchObject({ endReason: 'storage_full', events: stored.length });
      expect(rec!.error).toMatch(/^storage_full: this site's storage is full \(QuotaExceededError/);
    } else expect(rec!.status).toBe('running');

    // A reload with the storage still full: the library opens, lists the run, and deletes it.
    quota.setBytes(quota.used);
    const lib2 = new RunLibrary({ store: new RunStore(name), tracers: bktPool(), leases: leases('tab-q2') });
    await lib2.init();
    expect(lib2.ready).toBe(true);
    const again = lib2.runs.find((r) => r.key === done.key)!;
    expect(['failed', 'interrupted']).toContain(again.status);
    expect(lib2.canResume(again)).toBe(true);
    await lib2.remove(done.key);
    expect(lib2.runs.find((r) => r.key === done.key)).toBeUndefined();
    expect(await lib2.store.getEvents(done.key)).toEqual([]);
    expect(quota.used).toBe(0);
    quota.remove();
  });

  it('a record that cannot even be marked interrupted does not stop the library from opening: the run is listed as interrupted, with the reason', async () => {
    const name = `quota-${Math.random()}`;
    const store = new RunStore(name);
    const events = (await runWith(miniScenario(), 'planner', { seed: 4 })).events;
    const rec = { key: 'dead@1', runId: 'mini', scenarioId: 'mini-3day', scenarioTitle: 'Mini', tutor: 'planner', seed: 4, tracer: 'bkt', status: 'running' as const, endReason: null, createdAt: 1, events: 0, report: null, error: null };
    await store.putRun(rec);
    await store.appendEvents(rec.key, events.slice(0, 50));
    await store.close();
    const quota = withQuota(name, 0); // every write refused
    const lib = new RunLibrary({ store: new RunStore(name), tracers: bktPool(), leases: leases('tab-q3') });
    await lib.init();
    expect(lib.ready).toBe(true);
    expect(lib.error).toMatch(/could not be marked so in storage \(QuotaExceededError.*storage is full; delete runs to free space/);
    expect(lib.runs.find((r) => r.key === 'dead@1')!.status).toBe('interrupted');
    expect((await lib.getEvents('dead@1')).length).toBe(50);
    await lib.remove('dead@1');
    expect(lib.runs).toEqual([]);
    quota.remove();
  });

  it('an LLM run stops spending at the first failed write', async () => {
    saveSettings({ ...emptySettings(), providers: [ProviderSchema.parse({ name: 'mock', baseURL: srv.url, backoffMs: 1 })] });
    const record = runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'llm', config: llmTutorConfig({ harness: 'reactive', provider: 'mock', model: 'mock-tutor' }) }, seed: 4 });
    let refused = () => 0;
    const calls: number[] = [];
    srv.setHandler((_body, n) => {
      calls.push(refused());
      return { kind: 'chat', content: n % 2 ? null : 'Keep going.', ...(n % 2 ? { toolCalls: [{ name: 'get_assignments', arguments: '{"status":"open"}' }] } : {}) };
    });
    // The whole run's size, then a quota of half of it.
    const ref = new RunLibrary({ store: new RunStore(`quota-size-${Math.random()}`), tracers: bktPool(), leases: leases('tab-q4') });
    await ref.init();
    const whole = await ref.start(record).done;
    expect(whole.status).toBe('done');
    const bytes = toJsonl(await ref.store.getEvents(whole.key)).length;
    const total = calls.length;
    calls.length = 0;
    const name = `quota-${Math.random()}`;
    const quota = withQuota(name, Math.round(bytes / 2));
    refused = () => quota.refused;
    const lib = new RunLibrary({ store: new RunStore(name), tracers: bktPool(), leases: leases('tab-q5') });
    await lib.init();
    const live = lib.start(record);
    const done = await live.done;
    expect(calls.length).toBeLessThan(total);
    expect(done.endReason).toBe('storage_full');
    // After the failed batch of events, only the run's record (then, refused too, its smallest form) was tried.
    expect(quota.refused).toBeLessThanOrEqual(3);
    const before = calls.filter((r) => r === 0).length;
    const after = calls.length - before;
    expect(before).toBeGreaterThan(0);
    // At most the call in flight when the write failed.
    expect(after).toBeLessThanOrEqual(1);
    quota.remove();
  });
});
