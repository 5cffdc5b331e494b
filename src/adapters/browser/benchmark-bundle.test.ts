import { describe, expect, it } from 'vitest';
import { readBundle, zipBenchmark } from './benchmark-bundle';
import { recordFromTrace, toJsonl } from '../../core/index';
import { miniScenario, runWith } from '../../testing/fixtures';
import type { StoredBenchmark } from './run-store';

describe('benchmark bundles', () => {
  it('zips a benchmark with its traces and reads it back; reads a CLI sweep folder (traces only); says what is wrong', async () => {
    const a = toJsonl((await runWith(miniScenario(), 'planner', { seed: 1 })).events);
    const events = (await runWith(miniScenario(), 'planner', { seed: 2 })).events;
    const b = toJsonl(events);
    const bench: StoredBenchmark = {
      id: 'bench-1',
      name: 'planner × mini',
      createdAt: 5,
      spec: null,
      status: 'running',
      parallel: 2,
      llmParallel: 8,
      error: null,
      jobs: [
        { index: 0, runId: 'mini-3day__planner__s1', tutor: 'planner', voice: 'templates', record: recordFromTrace(events), key: 'k0' },
        { index: 1, runId: 'mini-3day__planner__s2', tutor: 'planner', voice: 'templates', record: null, key: 'k1' },
        { index: 2, runId: 'mini-3day__planner__s3', tutor: 'planner', voice: 'templates', record: null, key: null },
      ],
    };
    const zip = zipBenchmark(bench, new Map([[0, a], [1, b]]));
    const back = readBundle({ zip, name: 'x.zip' });
    expect(back.manifest).toMatchObject({ id: 'bench-1', name: 'planner × mini', status: 'paused' });
    expect(back.manifest!.jobs.map((j) => j.trace)).toEqual(['traces/0000__mini-3day__planner__s1.jsonl', 'traces/0001__mini-3day__planner__s2.jsonl', null]);
    expect(back.traces.get('traces/0001__mini-3day__planner__s2.jsonl')).toBe(b);

    // A CLI sweep's output directory, picked as a folder: traces only, one level down is fine.
    const folder = readBundle({ name: 'runs', files: [{ path: 'planner/traces/a.jsonl', text: a }, { path: 'planner/summary.json', text: '{}' }, { path: 'planner/traces/b.jsonl', text: b }] });
    expect(folder.manifest).toBeNull();
    expect([...folder.traces.keys()].sort()).toEqual(['traces/a.jsonl', 'traces/b.jsonl']);

    expect(() => readBundle({ zip: new Uint8Array([1, 2, 3]), name: 'bad.zip' })).toThrow(/bad\.zip: not a zip/);
    expect(() => readBundle({ name: 'empty', files: [{ path: 'notes.txt', text: 'x' }] })).toThrow(/no benchmark\.json and no traces/);
  });
});
