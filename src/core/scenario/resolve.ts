import { personaPreset } from './personas';

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Applies `learner.persona.preset`: the named built-in persona's parameters, overridden by every
 * field the file gives. Runs on the raw YAML data before validation, so an unknown preset name is
 * reported by the schema (with its field path and line) and the merged persona is validated like
 * any other. Returns the input unchanged when there is no (known) preset.
 */
export function applyPersonaPreset(data: unknown): unknown {
  if (!isRecord(data) || !isRecord(data.learner) || !isRecord(data.learner.persona)) return data;
  const given = data.learner.persona;
  const preset = typeof given.preset === 'string' ? personaPreset(given.preset) : undefined;
  if (!preset) return data;
  return { ...data, learner: { ...data.learner, persona: { ...structuredClone(preset), ...given } } };
}
