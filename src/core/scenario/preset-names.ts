/** Names of the built-in personas (src/core/scenario/personas.ts), kept apart so the schema can name them without a cycle. */
export const PERSONA_PRESET_NAMES = [
  'steady-worker',
  'confused-productive',
  'silent-struggler',
  'frustrated-spiral',
  'adversarial',
  'gamer',
  'overconfident',
  'procrastinator',
  'perfectionist',
  'disengaged',
  'fast-careless',
] as const;
export type PersonaPresetName = (typeof PERSONA_PRESET_NAMES)[number];

/** Names of the built-in schedules (src/core/scenario/schedules.ts). */
export const SCHEDULE_PRESET_NAMES = ['after-school', 'homework-only', 'school-integrated', 'weekend-warrior', 'self-directed'] as const;
export type SchedulePresetName = (typeof SCHEDULE_PRESET_NAMES)[number];
