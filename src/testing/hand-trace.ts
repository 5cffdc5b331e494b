/** Hand-made traces for scoring tests: a run_start with two items (A: 12, B: 7), then the given events. */
import type { TraceEvent } from '../core/index';
import type { Item } from '../core/course/index';

/** The events after a run_start with items A and B and the given help templates (seq and t filled in). */
export function handTrace(events: Record<string, unknown>[], helpTemplates: Record<string, string>): TraceEvent[] {
  const item = (id: string, answer: string): Item => ({
    id, skillId: 87, level: 2, questionRef: 1, stem: 'Solve', answerKind: 'number', answer, accepted: [], answerForms: { numeric: [answer], phrases: [`x = ${answer}`] },
    steps: ['x = 1'], hints: ['h1', 'h2'], misconceptions: [{ answer: '0', why: '' }],
  });
  const start = {
    type: 'run_start', schemaVersion: 1, runId: 'r', engine: 'e',
    scenario: { id: 'hand', seed: 1, horizonDays: 4 }, tutor: { name: 't', config: {} }, tracer: { name: 'bkt', version: '1', nSkills: 110 },
    learner: { seedIndex: 0, seedUid: 1, warmup: 0 },
    itemBank: { hash: 'h', items: [item('A', '12'), item('B', '7')], probes: [] },
    helpTemplates,
  };
  return [start, ...events].map((e, i) => ({ seq: i, t: i, ...e })) as unknown as TraceEvent[];
}
