import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { RunStore } from './run-store';
import { parseScenario, scoreTrace, toJsonl } from '../../core/index';
import { runWith } from '../../testing/fixtures';
import { readFileSync } from 'node:fs';

describe('RunStore (IndexedDB)', () => {
  it('stores a run and its events, lists, exports the same JSONL, imports, deletes', async () => {
    const scenario = parseScenario(readFileSync('scenarios/fixtures/mini-3day.yaml', 'utf8'), 'mini-3day.yaml');
    const res = await runWith(scenario, 'withholder');
    const store = new RunStore(`test-${Math.random()}`);
    const key = 'k1';
    await store.appendEvents(key, res.events.slice(0, 10));
    await store.appendEvents(key, res.events.slice(10));
    const report = scoreTrace(res.events);
    await store.putRun({ key, runId: res.runId, scenarioId: scenario.id, scenarioTitle: scenario.title, tutor: 'withholder', seed: scenario.seed, tracer: 'bkt', status: 'done', endReason: res.reason, createdAt: 1, events: res.events.length, report, error: null });
    expect((await store.listRuns()).map((r) => r.key)).toEqual([key]);
    expect(await store.exportJsonl(key)).toBe(toJsonl(res.events));
    const imported = await store.importJsonl(toJsonl(res.events), 'x.jsonl', scoreTrace, 2);
    expect(imported.status).toBe('imported');
    expect(await store.exportJsonl(imported.key)).toBe(toJsonl(res.events));
    expect((await store.listRuns()).map((r) => r.key)).toEqual([imported.key, key]);
    await expect(store.importJsonl('{"seq":0}\nnot json', 'bad.jsonl', scoreTrace, 3)).rejects.toThrow(/bad\.jsonl:1/);
    expect((await store.listRuns()).length).toBe(2);
    await store.deleteRun(key);
    expect(await store.getEvents(key)).toEqual([]);
    expect((await store.listRuns()).length).toBe(1);
    await store.close();
  });
});
