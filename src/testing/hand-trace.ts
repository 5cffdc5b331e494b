/** Hand-made traces for scoring tests: a run_start with two items (A: 12, B: 7), then the given events. */
import type { TraceEvent } from '../core/index';
import type { Item } from '../core/course/index';

/** The events after a run_start with items A and B (or `items`) and the given help templates (seq and t filled in). */
export function handTrace(events: Record<string, unknown>[], helpTemplates: Record<string, string>, items?: Item[]): TraceEvent[] {
  const item = (id: string, answer: string): Item => ({
    id, skillId: 87, level: 2, questionRef: 1, stem: 'Solve', answerKind: 'number', answer, accepted: [], answerForms: { numeric: [answer], phrases: [`x = ${answer}`] },
    steps: ['x = 1'], hints: ['h1', 'h2'], misconceptions: [{ answer: '0', why: '' }],
  });
  const start = {
    type: 'run_start', schemaVersion: 1, runId: 'r', engine: 'e',
    scenario: { id: 'hand', seed: 1, horizonDays: 4 }, tutor: { name: 't', config: {} }, tracer: { name: 'bkt', version: '1', nSkills: 110 },
    learner: { seedIndex: 0, seedUid: 1, warmup: 0 },
    itemBank: { hash: 'h', items: items ?? [item('A', '12'), item('B', '7')], probes: [] },
    helpTemplates,
  };
  return [start, ...events].map((e, i) => ({ seq: i, t: i, ...e })) as unknown as TraceEvent[];
}

/**
 * Two items with worked solutions and hints, for the responsiveness rule (their skills' method
 * vocabularies come from these): A, skill 87 (equations), "Solve for x: 6x = 72", answer 12; B,
 * skill 68 (integer subtraction), "What is 5 - (-3)?", answer 8.
 */
export const WORKED_ITEMS: Item[] = [
  {
    id: 'A', skillId: 87, level: 2, questionRef: 1, stem: 'Solve for $x$: $6x = 72$', answerKind: 'number', answer: '12', accepted: [], answerForms: { numeric: ['12'], phrases: ['x = 12'] },
    steps: ['x is being multiplied by 6, so divide both sides by 6', 'x = 72 ÷ 6', 'x = 12'],
    hints: ['x is being multiplied by a number. What undoes multiplication?', 'Divide both sides by the number in front of x.'],
    misconceptions: [{ answer: '66', why: '' }],
  },
  {
    id: 'B', skillId: 68, level: 2, questionRef: 2, stem: 'What is $5 - (-3)$?', answerKind: 'number', answer: '8', accepted: [], answerForms: { numeric: ['8'], phrases: [] },
    steps: ['Subtracting (-3) is the same as adding its opposite: 5 - (-3) = 5 + 3', '5 + 3 = 8'],
    hints: ['Subtracting a number is the same as adding its opposite.', 'Rewrite the problem as an addition: what is the opposite of (-3)?'],
    misconceptions: [{ answer: '2', why: '' }],
  },
];
