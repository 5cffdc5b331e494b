/**
 * Issue 36: a trace edited to move a score is refused with file, line and field (or, read, moves
 * no score): verdicts cross-checked against the judge's reply and each other, probe rates against
 * their items, the item bank against its hash, attempts against the bank, run_end against the
 * days its events reach.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { baseTrace } from '../../testing/fuzz';
import { FORGERIES, tryForgery } from '../../testing/forgery';
import type { TraceEvent } from './types';
import { parseJsonl, toJsonl } from './jsonl';

let base: TraceEvent[];
beforeAll(async () => {
  base = await baseTrace();
}, 60_000);

describe('forged traces', () => {
  it('the unedited judged run reads back', () => {
    expect(parseJsonl(toJsonl(base)).events.length).toBe(base.length);
  });
  it.each(FORGERIES.map((f) => [f.name, f] as const))('%s: refused naming file:line and field', (_, f) => {
    const r = tryForgery(base, f);
    expect(r.kind, JSON.stringify(r)).toBe('clearError');
  });
  it('the messages name the field', () => {
    const msg = (name: string) => {
      const r = tryForgery(base, FORGERIES.find((f) => f.name === name)!);
      return r.kind === 'clearError' ? r.message : JSON.stringify(r);
    };
    expect(msg('two copies of one judge verdict')).toMatch(/forged\.jsonl:\d+: invalid event at type: a second verdict of judge/);
    expect(msg("the last probe's solveRate set to 1")).toMatch(/at solveRate: solveRate 1 is not what its items give/);
    expect(msg("every item's answer forms emptied")).toMatch(/at itemBank\.hash: the item bank's content does not match its hash/);
    expect(msg('a run that ends on day 1 but holds events to day 3')).toMatch(/at days: the run ended on day 1 but holds events of day 3/);
    expect(msg('rubric id "constructor" in the panel')).toMatch(/at rubrics\[0\]\.id: unknown rubric "constructor"/);
    expect(msg("a verdict's score raised without its reply")).toMatch(/is not what the judge's recorded reply says/);
  });
});
