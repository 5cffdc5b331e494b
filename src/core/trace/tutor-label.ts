import type { TutorSpec } from '../trace/types';

/** A tutor as people name it: the registry name, plus harness and model for LLM tutors ("llm/reactive/gpt-4.1-mini"), an external agent's name and model ("mcp/my-agent/gpt-4o", "http/my-service"), or a person's display name ("human/Ms Rivera"). */
export function tutorLabel(spec: TutorSpec): string {
  const c = spec.config ?? {};
  const parts = [spec.name];
  // An external agent: "mcp/<agent>/<model>", "http/<name>/<model>" (the model it reports, if any).
  const agent = spec.name === 'mcp' ? c.agent : spec.name === 'http' ? c.name : undefined;
  if (typeof agent === 'string' && agent) return [...parts, agent, ...(typeof c.model === 'string' && c.model ? [c.model] : [])].join('/');
  if (typeof c.harness === 'string') parts.push(c.harness);
  if (typeof c.model === 'string') parts.push(c.model);
  // A person's display name (the human tutor).
  if (spec.name === 'human' && typeof c.name === 'string' && c.name) parts.push(c.name);
  return parts.join('/');
}
