/** Knowledge tracers in Node (the CLI, sweeps, the classroom server): one factory per declared tracer (core/tracers.ts). */
import { loadBktTracer, tracerDeclaration, type KnowledgeTracer, type TracerName } from '../../core/index';
import { sharedNodeAktTracer, type KtRuntimeChoice } from './akt';

/** Typed against the declaration: a tracer declared in the core without a factory here does not compile. */
const FACTORIES: Record<TracerName, (ktRuntime?: KtRuntimeChoice) => Promise<KnowledgeTracer>> = {
  akt: (ktRuntime) => sharedNodeAktTracer(ktRuntime),
  bkt: () => loadBktTracer(),
};

/**
 * A new tracer instance. AKT instances share the process's sessions on the runtime chosen by
 * `ktRuntime`, by default the one --kt-runtime / EDUCLAW_KT_RUNTIME chose (akt.ts): the first one
 * compiles them, later ones cost a few objects. An unknown name is `UNKNOWN_TRACER`.
 */
export async function createNodeTracer(name: string, ktRuntime?: KtRuntimeChoice): Promise<KnowledgeTracer> {
  return FACTORIES[tracerDeclaration(name).name](ktRuntime);
}
