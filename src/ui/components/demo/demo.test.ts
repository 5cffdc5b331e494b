/** The demo's finding, from real runs of the four tutors on one learner (BKT, a few days: fast). */
import { describe, expect, it } from 'vitest';
import { defaultScenario, runWith } from '../../../testing/fixtures';
import { DEMO_TUTORS, demoRecord, finding, setupKey, type DemoTutor } from './demo';
import type { TraceEvent } from '../../../core/index';

describe('the demo finding', () => {
  it('value added over the no-tutor run, leakage, and the same help request answered two ways', async () => {
    const traces: Partial<Record<DemoTutor, readonly TraceEvent[]>> = {};
    for (const t of DEMO_TUTORS) traces[t] = (await runWith(defaultScenario(), t, { seed: 42, horizonDays: 6 })).events;
    const f = finding(traces);
    expect(f.rows.map((r) => r.tutor)).toEqual([...DEMO_TUTORS]);
    const by = new Map(f.rows.map((r) => [r.tutor, r]));
    // The control has no value added of its own; every tutor's is its gain minus the control's.
    expect(by.get('silent')!.added).toBeNull();
    for (const t of ['answer-giver', 'withholder', 'planner'] as const) expect(by.get(t)!.added).toBeCloseTo(by.get(t)!.gain! - by.get('silent')!.gain!, 12);
    // The answer-giver gives answers away; the hint-giver never does.
    expect(by.get('answer-giver')!.leakage).toBeGreaterThan(0.5);
    expect(by.get('withholder')!.leakage).toBe(0);
    expect(by.get('silent')!.help.answered).toBe(0);
    expect(f.contrast).not.toBeNull();
    expect(f.contrast!.gave.leaked).toBe(true);
    expect(f.contrast!.taught.leaked).toBe(false);
    // The learner is the same until the tutors first differ: the hint-giver answers the very request the answer-giver gave away.
    expect(f.contrast!.taught.asked).toBe(f.contrast!.gave.asked);
    expect(f.contrast!.taught.day).toBe(f.contrast!.gave.day);
    expect(f.headline).toMatch(/^The answer-giver answered \d+ of \d+ help requests, gave the answer away in \d+% of its turns/);
    expect(f.best).not.toBeNull();
  });

  it('says nothing it cannot back while runs are missing', () => {
    const f = finding({});
    expect(f.rows).toEqual([]);
    expect(f.best).toBeNull();
    expect(f.contrast).toBeNull();
    expect(f.headline).toMatch(/appears once/);
  });

  it('a demo record is the built-in scenario with the tutor; setups differ by tutor and by learner model', () => {
    const s = defaultScenario();
    const a = demoRecord(s, 'planner');
    expect(a.tutor).toEqual({ name: 'planner', config: {} });
    expect(setupKey(a)).toBe(setupKey(demoRecord(s, 'planner')));
    expect(setupKey(a)).not.toBe(setupKey(demoRecord(s, 'silent')));
    expect(setupKey(a)).not.toBe(setupKey({ ...a, tracer: 'bkt' }));
  });
});
