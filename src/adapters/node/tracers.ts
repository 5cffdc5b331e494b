/** Knowledge tracers available to the CLI, by name. */
import { SimError, loadBktTracer, type KnowledgeTracer } from '../../core/index';
import { sharedNodeAktTracer, type KtRuntimeChoice } from './akt';

export const NODE_TRACERS = ['akt', 'bkt'] as const;

/**
 * A new tracer instance. AKT instances share the process's sessions on the runtime chosen by
 * `ktRuntime`, by default the one --kt-runtime / EDUCLAW_KT_RUNTIME chose (akt.ts): the first one
 * compiles them, later ones cost a few objects.
 */
export async function createNodeTracer(name: string, ktRuntime?: KtRuntimeChoice): Promise<KnowledgeTracer> {
  switch (name) {
    case 'bkt':
      return loadBktTracer();
    case 'akt':
      return sharedNodeAktTracer(ktRuntime);
    default:
      throw new SimError('UNKNOWN_TRACER', `unknown tracer "${name}" (available: ${NODE_TRACERS.join(', ')})`);
  }
}
