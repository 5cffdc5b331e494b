/** The runs behind the trace pins (scripts/pins/pins.ts and scripts/pins/pins.test.ts). */
import { fileURLToPath } from 'node:url';
import { loadScenarioFile } from '../../src/adapters/node/files';
import { nodeRunEnv } from '../../src/adapters/node/run-env';
import { executeRun, runRecord, toJsonl } from '../../src/core/index';

/** The default scenario, the 3-day test fixture and six library scenarios that exercise every persona habit. */
export const PIN_SCENARIOS = [
  'scenarios/default.yaml',
  'scenarios/fixtures/mini-3day.yaml',
  'scenarios/adversarial--after-school.yaml',
  'scenarios/frustrated-spiral--homework-only.yaml',
  'scenarios/gamer--school-integrated.yaml',
  'scenarios/perfectionist--weekend-warrior.yaml',
  'scenarios/procrastinator--self-directed.yaml',
  'scenarios/fast-careless--after-school.yaml',
] as const;
export const PIN_TUTORS = ['answer-giver', 'withholder', 'planner'] as const;
export const PIN_SEEDS = [1, 2, 3] as const;

const root = fileURLToPath(new URL('../../', import.meta.url));
const env = nodeRunEnv();

export async function pinTrace(file: string, tutor: string, seed: number, tracer: string): Promise<{ key: string; jsonl: string }> {
  const scenario = loadScenarioFile(root + file);
  const res = await executeRun(runRecord({ scenario, source: file, tutor: { name: tutor, config: {} }, tracer, seed }), env);
  return { key: `${tracer}/${scenario.id}/${tutor}/s${seed}`, jsonl: toJsonl(res.events) };
}
