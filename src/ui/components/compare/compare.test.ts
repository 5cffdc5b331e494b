/** The run table (sort, filter on any axis) and the day-by-day comparison, on real runs. */
import { describe, expect, it } from 'vitest';
import { miniScenario, runWith } from '../../../testing/fixtures';
import { scoreTrace, type TraceEvent } from '../../../core/index';
import { attachControls, digestRun } from '../../../core/analysis/index';
import type { StoredRun } from '../../../adapters/browser/run-store';
import { filterRows, sortRows, tableAxes, tableRows } from './run-table';
import { busyDays, comparedDays, dayEntries, runFlags } from './compare';

function stored(events: TraceEvent[], tutor: string, seed: number, status: StoredRun['status'] = 'done'): StoredRun {
  const report = scoreTrace(events);
  return { key: `${tutor}-${seed}`, runId: report.runId, scenarioId: report.scenarioId, scenarioTitle: 'mini', tutor, seed, tracer: 'bkt', status, endReason: 'horizon_reached', createdAt: seed, events: events.length, report, error: null };
}

describe('run table and comparison', () => {
  it('a column per axis, sorted on any of them with partial and unscored runs last, filtered by a range in the shown unit', async () => {
    const ag = (await runWith(miniScenario(), 'answer-giver', { seed: 1 })).events;
    const wh = (await runWith(miniScenario(), 'withholder', { seed: 1 })).events;
    const pl = (await runWith(miniScenario(), 'planner', { seed: 2 })).events;
    const rows = tableRows([stored(ag, 'answer-giver', 1), stored(wh, 'withholder', 1), stored(pl, 'planner', 2, 'interrupted')]);
    expect(tableAxes(rows).map((a) => a.id)).toContain('leakage');
    // No run is judged: no judged column.
    expect(tableAxes(rows).some((a) => a.kind === 'judged')).toBe(false);
    const byLeak = sortRows(rows, { column: 'leakage', dir: 'desc' });
    expect(byLeak.map((r) => r.tutor)).toEqual(['answer-giver', 'withholder', 'planner']); // the interrupted run last whatever its score
    expect(sortRows(rows, { column: 'leakage', dir: 'asc' }).map((r) => r.tutor)).toEqual(['withholder', 'answer-giver', 'planner']);
    // Leakage is shown in %: a range 50–100 keeps the answer-giver only.
    expect(filterRows(rows, { text: '', ranges: { leakage: { min: 50, max: null } } }).map((r) => r.tutor)).toEqual(['answer-giver']);
    expect(filterRows(rows, { text: 'withholder seed 1', ranges: {} }).map((r) => r.tutor)).toEqual(['withholder']);
    // A range on an axis a run has no value for leaves it out.
    expect(filterRows(rows, { text: '', ranges: { helpfulness: { min: 0, max: null } } })).toEqual([]);
    // The runs behind a result (from the Benchmark): exactly those keys, with the other filters on top.
    expect(filterRows(rows, { text: '', ranges: {}, keys: { keys: ['withholder-1', 'planner-2'], what: 'x' } }).map((r) => r.tutor)).toEqual(['withholder', 'planner']);
    expect(filterRows(rows, { text: 'planner', ranges: {}, keys: { keys: ['withholder-1', 'planner-2'], what: 'x' } }).map((r) => r.tutor)).toEqual(['planner']);
  });

  it('value added: a run without it in its own report is paired with its stored no-tutor control (the same student)', async () => {
    const wh = (await runWith(miniScenario(), 'withholder', { seed: 4 })).events;
    const ctl = (await runWith(miniScenario(), 'silent', { seed: 4 })).events;
    const other = (await runWith(miniScenario(), 'withholder', { seed: 5 })).events;
    const withDigest = (events: TraceEvent[], tutor: string, seed: number): StoredRun => ({ ...stored(events, tutor, seed), digest: digestRun({ events }) });
    const runs = [withDigest(wh, 'withholder', 4), withDigest(ctl, 'silent', 4), withDigest(other, 'withholder', 5)];
    const rows = tableRows(runs);
    const expected = attachControls(runs.map((r) => r.digest!));
    expect(rows[0]!.values.valueAdded).toBe(expected[0]!.axes.valueAdded);
    expect(rows[0]!.values.valueAdded).not.toBeNull();
    expect(rows[1]!.values.valueAdded).toBe(0); // the control against itself
    expect(rows[2]!.values.valueAdded).toBeNull(); // seed 5 has no control stored
    // Without the control stored, nothing to pair with: n/a, never a made-up 0.
    expect(tableRows([runs[0]!])[0]!.values.valueAdded).toBeNull();
  });

  it("days line up: each run's conversation, writes, check and flags on a day", async () => {
    const ag = (await runWith(miniScenario(), 'answer-giver', { seed: 3 })).events;
    const pl = (await runWith(miniScenario(), 'planner', { seed: 3 })).events;
    expect(comparedDays([ag, pl])).toEqual([1, 2, 3]);
    const flags = runFlags(ag);
    const leakSeq = [...flags].find(([, f]) => f.includes('gave an answer away'))?.[0];
    expect(leakSeq).toBeDefined();
    const leakDay = [1, 2, 3].find((d) => dayEntries(ag, d, flags).some((e) => e.seq === leakSeq))!;
    const entry = dayEntries(ag, leakDay, flags).find((e) => e.seq === leakSeq)!;
    expect(entry.kind).toBe('tutor');
    expect(entry.flags).toEqual(['gave an answer away']);
    // The planner writes (assigns practice): its busy days count them.
    const writes = [1, 2, 3].flatMap((d) => dayEntries(pl, d).filter((e) => e.kind === 'write'));
    expect(writes.length).toBeGreaterThan(0);
    expect([...busyDays(pl).values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(writes.length);
    expect(dayEntries(pl, 1).some((e) => e.kind === 'probe')).toBe(true);
  });
});
