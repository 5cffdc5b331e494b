/** The runs behind the trace pins (scripts/pins/pins.ts and scripts/pins/pins.test.ts). */
import { fileURLToPath } from 'node:url';
import { loadScenarioFile } from '../../src/adapters/node/files';
import { nodeRunEnv } from '../../src/adapters/node/run-env';
import { KT_RUNTIME_ENV, ktRuntimeChoice, type KtRuntimeChoice } from '../../src/adapters/node/akt';
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
/**
 * AKT pins are of onnxruntime-web wasm: bit-identical on every machine and in the page. Native ONNX
 * Runtime (the CLI's default) picks its CPU kernels by instruction set, so its floats are only
 * reproducible on the same kind of CPU (src/adapters/node/README.md). EDUCLAW_KT_RUNTIME=native
 * runs the same pins on native, to count what changes.
 */
export const PIN_KT_RUNTIME: KtRuntimeChoice = process.env[KT_RUNTIME_ENV] ? ktRuntimeChoice() : 'wasm';
const env = nodeRunEnv({ ktRuntime: PIN_KT_RUNTIME });

export async function pinTrace(file: string, tutor: string, seed: number, tracer: string): Promise<{ key: string; jsonl: string }> {
  const scenario = loadScenarioFile(root + file);
  const res = await executeRun(runRecord({ scenario, source: file, tutor: { name: tutor, config: {} }, tracer, seed }), env);
  return { key: `${tracer}/${scenario.id}/${tutor}/s${seed}`, jsonl: toJsonl(res.events) };
}
