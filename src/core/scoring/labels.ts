import type { TutorSpec } from '../trace/types';

/** A tutor as people name it: the registry name, plus harness and model for LLM tutors ("llm/reactive/gpt-4.1-mini"). */
export function tutorLabel(spec: TutorSpec): string {
  const c = spec.config ?? {};
  const parts = [spec.name];
  if (typeof c.harness === 'string') parts.push(c.harness);
  if (typeof c.model === 'string') parts.push(c.model);
  return parts.join('/');
}
