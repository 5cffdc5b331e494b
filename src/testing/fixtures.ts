/** Test builders shared by unit tests (never imported by app code). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TUTORS, executeRun, loadBktTracer, loadPersonaSeeds, parseScenario, runRecord, type RunEnv, type RunOptions, type RunRecordInput, type RunResult, type Scenario, type Tutor, type TutorEntry } from '../core/index';
import { z } from 'zod';

export const MINI_PATH = fileURLToPath(new URL('../../scenarios/fixtures/mini-3day.yaml', import.meta.url));
export const DEFAULT_PATH = fileURLToPath(new URL('../../scenarios/default.yaml', import.meta.url));

export function miniScenario(): Scenario {
  return parseScenario(readFileSync(MINI_PATH, 'utf8'), 'mini-3day.yaml');
}

export function defaultScenario(): Scenario {
  return parseScenario(readFileSync(DEFAULT_PATH, 'utf8'), 'default.yaml');
}

/** The scenario with the BKT tracer: most tests run on BKT because it is fast; AKT has its own tests. */
export function onBkt(scenario: Scenario): Scenario {
  return { ...scenario, learner: { ...scenario.learner, tracer: 'bkt' } };
}

/** A registry entry for a tutor object written in a test (name "custom", no config). */
export function customEntry(tutor: Tutor, name = 'custom'): TutorEntry {
  return { name, description: 'a tutor written in a test', needs: [], configSchema: z.object({}), parseConfig: () => ({}), create: () => tutor };
}

/** The BKT environment of the unit tests (the AKT one is adapters/node's nodeRunEnv). */
export function bktEnv(extra: Partial<RunEnv> = {}): RunEnv {
  return { tracer: async () => loadBktTracer(), personaSeeds: loadPersonaSeeds, ...extra };
}

/** Runs a built-in tutor (or a given one, as "custom") on a scenario, switched explicitly to the BKT tracer. */
export type RunWithOptions = RunOptions & Partial<Pick<RunRecordInput, 'seed' | 'horizonDays' | 'voice' | 'coupling' | 'chatInstruction'>> & { env?: Partial<RunEnv>; tutorConfig?: Record<string, unknown> };

export async function runWith(scenario: Scenario, tutor: string | Tutor, extra: RunWithOptions = {}): Promise<RunResult> {
  const { seed, horizonDays, voice, coupling, chatInstruction, env, tutorConfig, ...opts } = extra;
  const name = typeof tutor === 'string' ? tutor : 'custom';
  const tutors = typeof tutor === 'string' ? TUTORS : new Map([...TUTORS, ['custom', customEntry(tutor)]]);
  const record = runRecord({ scenario: onBkt(scenario), tutor: { name, config: tutorConfig ?? {} }, ...(seed !== undefined ? { seed } : {}), ...(horizonDays !== undefined ? { horizonDays } : {}), ...(voice ? { voice } : {}), ...(coupling ? { coupling } : {}), ...(chatInstruction !== undefined ? { chatInstruction } : {}) });
  return executeRun(record, bktEnv({ tutors, ...env }), opts);
}
