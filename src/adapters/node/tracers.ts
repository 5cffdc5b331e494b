/** Knowledge tracers available to the CLI, by name. */
import { SimError, loadBktTracer, type KnowledgeTracer } from '../../core/index';
import { loadNodeAkt } from './akt';

export const NODE_TRACERS = ['akt', 'bkt'] as const;

export async function createNodeTracer(name: string): Promise<KnowledgeTracer> {
  switch (name) {
    case 'bkt':
      return loadBktTracer();
    case 'akt':
      return (await loadNodeAkt()).tracer;
    default:
      throw new SimError('UNKNOWN_TRACER', `unknown tracer "${name}" (available: ${NODE_TRACERS.join(', ')})`);
  }
}
