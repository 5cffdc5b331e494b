export { ScenarioSchema, PersonaSchema, scenarioJsonSchema, WAKE_EVENTS, HELP_TEMPLATE_IDS, COUPLING_MODES, SCENARIO_LIMITS, type CouplingMode, type Scenario, type ScenarioInput, type Persona, type WakeEventKind } from './schema';
export { parseScenario, ScenarioError, MAX_SCENARIO_BYTES, MAX_SCENARIO_ALIASES, type ScenarioIssue } from './parse';
export { PERSONA_PRESET_NAMES, SCHEDULE_PRESET_NAMES, type PersonaPresetName, type SchedulePresetName } from './preset-names';
export { PERSONA_PRESETS, PERSONA_TRAITS, personaPreset, type PersonaPreset, type PersonaTraits } from './personas';
export { SCHEDULE_PRESETS, type SchedulePreset } from './schedules';
export { applyPersonaPreset } from './resolve';
export { LIBRARY_DEFAULTS, PERSONA_FIELDS, libraryEntries, libraryScenarioId, parseLibraryId, renderLibraryScenario, scenarioLabel, type LibraryEntry } from './library';
