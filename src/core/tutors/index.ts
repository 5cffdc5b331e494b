export type { Tutor, TutorContext, TutorEntry, ToolBox, Wake, TutorFactoryOptions } from './types';
export { answerGiver, withholder, planner, silent } from './reference';
export { llmTutor, llmTutorConfig, llmRunLabel, LlmTutorConfigSchema, HARNESS_NAMES, HARNESS_DESCRIPTIONS, LMS_TOOL_SPECS, TUTOR_PROMPT_VERSION, type LlmTutorConfig, type HarnessName } from './llm/index';
export { humanTutor, HumanTutorConfigSchema, type HumanTutorConfig } from './human';
export { wakeText, clockText } from './llm/loop';
export * from './external/index';
