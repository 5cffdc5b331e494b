import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { RunStore } from './run-store';
import { parseScenario, scoreTrace, toJsonl } from '../../core/index';
import { runWith } from '../../testing/fixtures';
import { readFileSync } from 'node:fs';

describe('RunStore (IndexedDB)', () => {
  it('upgrades a version-1 library: each page sweep becomes a stored benchmark of its runs, and nothing is lost', async () => {
    const name = `v1-${Math.random()}`;
    const { openDB } = await import('idb');
    const v1 = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('runs', { keyPath: 'key' }).createIndex('createdAt', 'createdAt');
        db.createObjectStore('events', { keyPath: ['key', 'seq'] });
      },
    });
    const scenario = parseScenario(readFileSync('scenarios/fixtures/mini-3day.yaml', 'utf8'), 'mini-3day.yaml');
    const res = await runWith(scenario, 'withholder');
    const base = { scenarioId: scenario.id, scenarioTitle: scenario.title, tutor: 'withholder', tracer: 'bkt', status: 'done', endReason: 'horizon_reached', events: res.events.length, report: scoreTrace(res.events), error: null };
    await v1.put('runs', { ...base, key: 'a@1', runId: 'mini-3day__withholder__s2', seed: 2, createdAt: 20, sweep: { id: 'sweep-1', label: 'withholder × 1 scenario × seeds 1,2', run: null } });
    await v1.put('runs', { ...base, key: 'b@1', runId: 'mini-3day__withholder__s1', seed: 1, createdAt: 10, sweep: { id: 'sweep-1', label: 'withholder × 1 scenario × seeds 1,2', run: null } });
    await v1.put('runs', { ...base, key: 'lone@1', runId: res.runId, seed: scenario.seed, createdAt: 5 });
    for (const e of res.events) await v1.put('events', { key: 'lone@1', seq: e.seq, event: e });
    v1.close();
    const store = new RunStore(name);
    const [bench, ...more] = await store.listBenchmarks();
    expect(more).toEqual([]);
    expect(bench).toMatchObject({ id: 'sweep-1', name: 'withholder × 1 scenario × seeds 1,2', status: 'done', spec: null, createdAt: 10 });
    expect(bench!.jobs.map((j) => [j.index, j.key, j.runId])).toEqual([[0, 'b@1', 'mini-3day__withholder__s1'], [1, 'a@1', 'mini-3day__withholder__s2']]);
    const runs = await store.listRuns();
    expect(runs.map((r) => [r.key, r.benchmark?.index ?? null])).toEqual([['a@1', 1], ['b@1', 0], ['lone@1', null]]);
    expect(runs.every((r) => !('sweep' in r))).toBe(true);
    expect(await store.exportJsonl('lone@1')).toBe(toJsonl(res.events));
    await store.close();
  });

  it('stores a run and its events, lists, exports the same JSONL, imports, deletes', async () => {
    const scenario = parseScenario(readFileSync('scenarios/fixtures/mini-3day.yaml', 'utf8'), 'mini-3day.yaml');
    const res = await runWith(scenario, 'withholder');
    const store = new RunStore(`test-${Math.random()}`);
    const key = 'k1';
    await store.appendEvents(key, res.events.slice(0, 10));
    expect(await store.storedTail(key)).toEqual({ count: 10, last: res.events[9] });
    await store.appendEvents(key, res.events.slice(10));
    expect(await store.storedTail(key)).toEqual({ count: res.events.length, last: res.events.at(-1) });
    expect(await store.storedTail('no-such-run')).toEqual({ count: 0, last: null });
    const report = scoreTrace(res.events);
    await store.putRun({ key, runId: res.runId, scenarioId: scenario.id, scenarioTitle: scenario.title, tutor: 'withholder', seed: scenario.seed, tracer: 'bkt', status: 'done', endReason: res.reason, createdAt: 1, events: res.events.length, report, error: null });
    expect((await store.listRuns()).map((r) => r.key)).toEqual([key]);
    expect(await store.exportJsonl(key)).toBe(toJsonl(res.events));
    // The same trace again is recognised, not stored twice.
    const again = await store.importJsonl(toJsonl(res.events), 'x.jsonl', scoreTrace, 2);
    expect(again).toMatchObject({ key, duplicate: true });
    const other = (await runWith(scenario, 'withholder', { seed: 99 })).events;
    const imported = await store.importJsonl(toJsonl(other), 'y.jsonl', scoreTrace, 3);
    expect(imported.status).toBe('imported');
    expect(imported.duplicate).toBeUndefined();
    expect(await store.exportJsonl(imported.key)).toBe(toJsonl(other));
    expect((await store.listRuns()).map((r) => r.key)).toEqual([imported.key, key]);
    await expect(store.importJsonl('{"seq":0}\nnot json', 'bad.jsonl', scoreTrace, 4)).rejects.toThrow(/bad\.jsonl:1/);
    expect((await store.listRuns()).length).toBe(2);
    await store.deleteRun(key);
    expect(await store.getEvents(key)).toEqual([]);
    expect((await store.listRuns()).length).toBe(1);
    await store.close();
  });
});
