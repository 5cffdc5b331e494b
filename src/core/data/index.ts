/**
 * Derived data files (provenance inside each file and in docs/data.md). Loaded lazily so a page
 * that never runs a simulation does not download the persona seeds.
 */
import { BktTracer, type BktParamsFile } from '../learner/kt/bkt';
import catalogue from './assist2009-skills.json';
import type { PersonaSeedFile } from '../learner/seeds';

export async function loadBktParams(): Promise<BktParamsFile> {
  return (await import('./bkt-assist2009.json')).default as unknown as BktParamsFile;
}

export async function loadPersonaSeeds(): Promise<PersonaSeedFile> {
  return (await import('./persona-seeds.json')).default as unknown as PersonaSeedFile;
}

/** Real question id -> difficulty level, for the questions the catalogue places in a level. */
export function questionLevels(): Map<number, number> {
  const m = new Map<number, number>();
  for (const s of catalogue.skills) for (const l of s.levels) for (const q of l.questions) if (!m.has(q)) m.set(q, l.level);
  return m;
}

/** The BKT tracer with its fitted parameters and the catalogue's question levels. */
export async function loadBktTracer(): Promise<BktTracer> {
  return new BktTracer(await loadBktParams(), questionLevels());
}
