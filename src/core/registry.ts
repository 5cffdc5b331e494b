/**
 * The tutor registry: name -> entry. Explicit, no import side effects: to add a tutor, add an
 * entry here (and its file). Tracers are not registered here: they are made by name in
 * adapters/node/tracers.ts and adapters/browser/kt.worker.ts (CONTRIBUTING.md, "A tracer").
 */
import type { TutorEntry } from './tutors/types';
import { answerGiver, oracle, planner, silent, withholder } from './tutors/reference';
import { VALIDITY_POLICIES } from './tutors/policies';
import { llmTutor } from './tutors/llm/index';
import { humanTutor } from './tutors/human';
import { httpTutor } from './tutors/external/http';
import { mcpTutor } from './tutors/external/mcp';
import { SimError } from './errors';

export const TUTORS: ReadonlyMap<string, TutorEntry> = new Map([answerGiver, withholder, planner, silent, llmTutor, humanTutor, httpTutor, mcpTutor, oracle, ...VALIDITY_POLICIES].map((t) => [t.name, t]));

/** Tutors a program can drive (the CLI's choices; the human tutor is played in the page, the mcp tutor by an agent through serve-mcp). */
export const AUTOMATED_TUTORS: readonly string[] = [...TUTORS.values()].filter((t) => !t.needs.includes('human')).map((t) => t.name);

export function tutorEntry(name: string): TutorEntry {
  const t = TUTORS.get(name);
  if (!t) throw new SimError('UNKNOWN_TUTOR', `unknown tutor "${name}" (built-in: ${[...TUTORS.keys()].join(', ')})`);
  return t;
}
