/** The knowledge tracers: the port, AKT (over its backend port) and BKT. Outside the core, import them from here or from `src/core/index.ts`. */
export { masteryQueries, type KnowledgeTracer, type Interaction, type PredictOptions, type Query, type TracerInfo, type LoadProgress } from './types';
export { AktTracer, AKT_REFERENCE_RUNTIME, type AktMeta, type AktBackend, type AktCache } from './akt';
export { BktTracer, type BktParamsFile } from './bkt';
