export { ScenarioSchema, PersonaSchema, scenarioJsonSchema, WAKE_EVENTS, HELP_TEMPLATE_IDS, type Scenario, type ScenarioInput, type Persona, type WakeEventKind } from './schema';
export { parseScenario, ScenarioError, type ScenarioIssue } from './parse';
