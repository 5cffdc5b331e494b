/** Public surface of the core engine. Other areas import from here (or from an area's index). */
export * from './errors';
export { Rng, hashString } from './rng';
export * from './clock';
export * from './scenario/index';
export * from './course/index';
export * from './lms/index';
export * from './trace/index';
export * from './scoring/index';
export * from './tutors/index';
export { TUTORS, tutorEntry } from './registry';
export { runEpisode, runIdFor, ENGINE_VERSION, type EpisodeOptions, type EpisodeResult } from './run/episode';
export { BktTracer, type BktParamsFile } from './learner/kt/bkt';
export { masteryQueries, type KnowledgeTracer, type Interaction, type Query, type TracerInfo, type LoadProgress } from './learner/kt/types';
export { HELP_TEMPLATES, TemplateVoice, type StudentVoice, type ReplyRequest } from './learner/voice';
export { chooseSeed, unpackHistory, type PersonaSeedFile, type AbilityLevel } from './learner/seeds';
export { loadBktParams, loadPersonaSeeds, loadBktTracer, questionLevels } from './data/index';
export * from './stats/index';
