/**
 * The plug-in registries, explicit, with no import side effects:
 * - tutors (`TUTORS`, name -> entry): to add one, add its entry here (and its file). The CLI's
 *   `--tutor` choices (`AUTOMATED_TUTORS`), the page's tutor lists and every caller of
 *   `executeRun` read it. `REFERENCE_TUTORS` is the one list of the reference tutors people
 *   compare with (the page's Play debrief, Home demo and Benchmark tab).
 * - tracers (`TRACERS`): declared in `tracers.ts` and re-exported here. They live in a file of
 *   their own because the scenario schema reads them, and this file imports the tutors, which
 *   sit above the scenario. Their implementations are made by name in the adapters' factory
 *   tables (adapters/node/tracers.ts, adapters/browser/kt.worker.ts), typed against the
 *   declaration. CONTRIBUTING.md, "A tutor" and "A tracer".
 */
import type { TutorEntry } from './tutors/types';
import { answerGiver, oracle, planner, silent, withholder } from './tutors/reference';
import { VALIDITY_POLICIES } from './tutors/policies';
import { EXPLOIT_POLICIES } from './tutors/exploits';
import { llmTutor } from './tutors/llm/index';
import { humanTutor } from './tutors/human';
import { httpTutor } from './tutors/external/http';
import { mcpTutor } from './tutors/external/mcp';
import { SimError } from './errors';

export { TRACERS, TRACER_NAMES, DEFAULT_TRACER, isTracerName, tracerDeclaration, type TracerName, type TracerDeclaration, type TracerNeed } from './tracers';

export const TUTORS: ReadonlyMap<string, TutorEntry> = new Map([answerGiver, withholder, planner, silent, llmTutor, humanTutor, httpTutor, mcpTutor, oracle, ...VALIDITY_POLICIES, ...EXPLOIT_POLICIES].map((t) => [t.name, t]));

/** Tutors a program can drive (the CLI's choices; the human tutor is played in the page, the mcp tutor by an agent through serve-mcp). */
export const AUTOMATED_TUTORS: readonly string[] = [...TUTORS.values()].filter((t) => !t.needs.includes('human')).map((t) => t.name);

export function tutorEntry(name: string): TutorEntry {
  const t = TUTORS.get(name);
  if (!t) throw new SimError('UNKNOWN_TUTOR', `unknown tutor "${name}" (built-in: ${[...TUTORS.keys()].join(', ')})`);
  return t;
}

/**
 * The reference tutors as people compare with them: the no-tutor control first, then from worst
 * to best on docs/reference-tutors.md's table, each with the name and the one line a newcomer
 * reads. The page's Play debrief (its yardsticks), the Home demo and the Benchmark tab's built-in
 * tutors (all but the control, which has a box of its own) read this one list. The oracle
 * (`REFERENCE_TUTOR`, scoring/value-added.ts) is the reference curve of results, not one of them.
 */
export const REFERENCE_TUTORS = [
  { name: 'silent', label: 'No tutor', what: 'nobody answers; the course homework goes on (the control)', control: true },
  { name: 'answer-giver', label: 'Answer-giver', what: 'answers every help request with the answer', control: false },
  { name: 'withholder', label: 'Hint-giver', what: 'answers every help request with a hint and a question, never the answer', control: false },
  { name: 'planner', label: 'Planner', what: 'reads the gradebook, assigns practice on weak skills, adjusts levels, posts worked examples', control: false },
] as const satisfies readonly { name: string; label: string; what: string; control: boolean }[];

export type ReferenceTutorName = (typeof REFERENCE_TUTORS)[number]['name'];
