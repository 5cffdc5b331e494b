/**
 * The page's import under bad input and a full storage (issue 16): an impossible trace is refused
 * naming file, line and field, and nothing is stored; an import the storage cannot hold stores
 * nothing (never events without their run), with the real error's name.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { RunStore, storageErrorText } from './run-store';
import { TraceParseError, scoreTrace, toJsonl } from '../../core/index';
import { miniScenario, runWith } from '../../testing/fixtures';
import { withQuota } from '../../testing/quota-idb';

describe('page import', () => {
  it('refuses an impossible trace with file, line and field, storing nothing', async () => {
    const store = new RunStore(`imp-${Math.random()}`);
    const ls = toJsonl((await runWith(miniScenario(), 'planner')).events).trim().split('\n');
    const i = ls.findIndex((l) => l.includes('"type":"judge_verdict"') || l.includes('"type":"probe"'));
    const o = JSON.parse(ls[i]!) as { solveRate: number };
    o.solveRate = 5;
    ls[i] = JSON.stringify(o);
    const e = (await store.importJsonl(ls.join('\n'), 'shared.jsonl', scoreTrace, 1).catch((x: unknown) => x)) as TraceParseError;
    expect(e).toBeInstanceOf(TraceParseError);
    expect(e.message).toBe(`shared.jsonl:${i + 1}: invalid event at solveRate: a probability must be between 0 and 1`);
    expect([e.line, e.field]).toEqual([i + 1, 'solveRate']);
    expect(await store.listRuns()).toEqual([]);
  });

  it('an import the storage cannot hold stores nothing, and says why', async () => {
    const name = `imp-${Math.random()}`;
    const text = toJsonl((await runWith(miniScenario(), 'planner')).events);
    const quota = withQuota(name, Math.round(text.length / 2));
    const store = new RunStore(name);
    const e = await store.importJsonl(text, 'big.jsonl', scoreTrace, 1).catch((x: unknown) => x);
    expect(storageErrorText(e)).toBe('QuotaExceededError (the browser gave no message)');
    expect(await store.listRuns()).toEqual([]);
    expect(await store.getEvents(`${JSON.parse(text.slice(0, text.indexOf('\n'))).runId}@1`)).toEqual([]);
    expect(quota.used).toBe(0);
    quota.remove();
  });

  it('storage errors always have text: the name and the message', () => {
    expect(storageErrorText(new DOMException('', 'QuotaExceededError'))).toBe('QuotaExceededError (the browser gave no message)');
    expect(storageErrorText(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))).toBe('QuotaExceededError: The quota has been exceeded.');
    expect(storageErrorText(new Error('disk on fire'))).toBe('disk on fire');
    expect(storageErrorText(new Error(''))).toBe('an unnamed error with no message');
    expect(storageErrorText(undefined)).toBe('an error with no message');
  });
});
