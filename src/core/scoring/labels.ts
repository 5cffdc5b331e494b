import type { TutorSpec } from '../trace/types';

/** A tutor as people name it: the registry name, plus harness and model for LLM tutors ("llm/reactive/gpt-4.1-mini"), or a person's display name ("human/Ms Rivera"). */
export function tutorLabel(spec: TutorSpec): string {
  const c = spec.config ?? {};
  const parts = [spec.name];
  if (typeof c.harness === 'string') parts.push(c.harness);
  if (typeof c.model === 'string') parts.push(c.model);
  // A person's display name (the human tutor).
  if (spec.name === 'human' && typeof c.name === 'string' && c.name) parts.push(c.name);
  return parts.join('/');
}
