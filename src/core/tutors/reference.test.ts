import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario } from '../index';
import { runWith } from '../../testing/fixtures';

/**
 * The built-in tutors read item views for the leakage check of what they post. A learner whose
 * homework piles up (the procrastinator) has many open items: reading all their views once ran
 * the planner past its turn's tool calls (run_end tutor_error, "at most 50 tool calls per turn").
 * Within a tight budget they now post nothing they could not check, and the run goes on.
 */
describe('built-in tutors within a turn of few tool calls', () => {
  const scenario = parseScenario(readFileSync('scenarios/procrastinator--after-school.yaml', 'utf8'), 'procrastinator--after-school.yaml');
  const tight = { ...scenario, tutor: { ...scenario.tutor, maxToolCallsPerTurn: 24 } };
  for (const tutor of ['planner', 'withholder', 'oracle']) {
    it(`${tutor} reaches the horizon and never hits the turn limit`, async () => {
      const res = await runWith(tight, tutor, { seed: 42, horizonDays: 12 });
      expect(res.reason).toBe('horizon_reached');
      const limited = res.events.filter((e) => e.type === 'tool_call' && !e.result.ok && e.result.error.code === 'TURN_LIMIT');
      expect(limited).toHaveLength(0);
      // It still teaches: worked examples or hints were posted on some days.
      expect(res.events.some((e) => e.type === 'tool_call' && e.tool === 'provide_content' && e.result.ok)).toBe(true);
    }, 60_000);
  }
});
