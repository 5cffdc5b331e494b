import { describe, expect, it } from 'vitest';
import { miniScenario } from '../../testing/fixtures';
import { runRecord } from '../engine/record';
import type { Scenario } from '../scenario/schema';
import { estimateRunCost, longestFirst } from './cost';

const rec = (scenario: Scenario, extra: { horizonDays?: number } = {}) => runRecord({ scenario, source: 'x.yaml', tutor: { name: 'planner', config: {} }, ...extra });
const withPersona = (s: Scenario, p: Partial<Scenario['learner']['persona']>): Scenario => ({ ...s, learner: { ...s.learner, persona: { ...s.learner.persona, ...p } } });

describe('estimateRunCost', () => {
  const s = miniScenario();

  it('is the expected number of answers: blocks × minutes worked ÷ minutes per item', () => {
    const one: Scenario = withPersona({ ...s, horizonDays: 7, schedule: { name: 'one', blocks: [{ days: ['mon', 'wed'], start: '16:00', minutes: 60, chance: 0.5 }] } }, { loginDelayMinutes: [0, 10], skipBlockProb: 0.2, sessionMinutes: null, minutesPerItem: [4, 6], guessProb: 0 });
    // Two blocks a week, each 0.5 × 0.8 × (60 − 5) ÷ 5 answers.
    expect(estimateRunCost(rec(one))).toBeCloseTo(2 * 0.5 * 0.8 * (55 / 5), 10);
    // A persona that stops after 20 minutes of a 60-minute block; guesses take a minute.
    expect(estimateRunCost(rec(withPersona(one, { sessionMinutes: [10, 30] })))).toBeCloseTo(2 * 0.5 * 0.8 * (20 / 5), 10);
    expect(estimateRunCost(rec(withPersona(one, { guessProb: 0.5 })))).toBeCloseTo(2 * 0.5 * 0.8 * (55 / 3), 10);
  });

  it('follows the run record: a longer horizon costs more, a block that never happens nothing', () => {
    expect(estimateRunCost(rec(s, { horizonDays: 30 }))).toBeGreaterThan(estimateRunCost(rec(s)));
    const never: Scenario = { ...s, schedule: { ...s.schedule, blocks: s.schedule.blocks.map((b) => ({ ...b, chance: 0 })) } };
    expect(estimateRunCost(rec(never))).toBe(0);
  });
});

describe('longestFirst', () => {
  it('orders by the estimate, largest first, and keeps the given order among equals', () => {
    const s = miniScenario();
    const jobs = [
      { id: 'a', record: rec(s, { horizonDays: 1 }) },
      { id: 'b', record: rec(s, { horizonDays: 3 }) },
      { id: 'c', record: rec(s, { horizonDays: 1 }) },
      { id: 'd', record: rec(s, { horizonDays: 2 }) },
    ];
    expect(longestFirst(jobs).map((j) => j.id)).toEqual(['b', 'd', 'a', 'c']);
    expect(jobs.map((j) => j.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});
