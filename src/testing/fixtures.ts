/** Test builders shared by unit tests (never imported by app code). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseScenario, loadBktTracer, loadPersonaSeeds, runEpisode, tutorEntry, type Scenario, type EpisodeOptions, type EpisodeResult } from '../core/index';

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

/** Runs a built-in tutor (or a given one) on a scenario, switched explicitly to the BKT tracer. */
export async function runWith(scenario: Scenario, tutor: string | EpisodeOptions['tutor'], extra: Partial<EpisodeOptions> = {}): Promise<EpisodeResult> {
  const name = typeof tutor === 'string' ? tutor : 'custom';
  return runEpisode({
    scenario: onBkt(scenario),
    tutor: typeof tutor === 'string' ? tutorEntry(tutor).create({ config: {} }) : tutor,
    tutorSpec: { name, config: {} },
    tracer: await loadBktTracer(),
    seeds: await loadPersonaSeeds(),
    ...extra,
  });
}
