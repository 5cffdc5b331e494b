/**
 * Name -> factory maps for the pluggable parts. Explicit, no import side effects: to add a tutor
 * or tracer, add an entry here (and its file).
 */
import type { TutorEntry } from './tutors/types';
import { answerGiver, planner, withholder } from './tutors/reference';
import { llmTutor } from './tutors/llm/index';
import { SimError } from './errors';

export const TUTORS: ReadonlyMap<string, TutorEntry> = new Map([answerGiver, withholder, planner, llmTutor].map((t) => [t.name, t]));

export function tutorEntry(name: string): TutorEntry {
  const t = TUTORS.get(name);
  if (!t) throw new SimError('UNKNOWN_TUTOR', `unknown tutor "${name}" (built-in: ${[...TUTORS.keys()].join(', ')})`);
  return t;
}
