/**
 * The run environment in Node (CLI, sweep workers, report scripts): tracers by name (each loaded
 * once per process), the persona seeds, and model clients from the LLM config (files and
 * environment; keys stay inside the clients), and the HTTP transport to external agents.
 */
import { loadPersonaSeeds, type KnowledgeTracer, type LlmClient, type RunEnv } from '../../core/index';
import { createNodeTracer } from './tracers';
import { loadLlmConfig, makeClient, pickProvider } from './llm-config';
import { nodeHttpTransport } from './agent-http';

export interface NodeEnvOptions {
  /** LLM config files (--llm-config); the environment's OPENAI_BASE_URL / OPENAI_API_KEY add a "default" provider. */
  llmConfig?: readonly string[];
}

const tracers = new Map<string, Promise<KnowledgeTracer>>();

/** One tracer per name and process: loading AKT compiles its graphs once. */
export function sharedNodeTracer(name: string): Promise<KnowledgeTracer> {
  let t = tracers.get(name);
  if (!t) {
    t = createNodeTracer(name);
    tracers.set(name, t);
    t.catch(() => tracers.delete(name));
  }
  return t;
}

export function nodeRunEnv(o: NodeEnvOptions = {}): RunEnv {
  let cfg: ReturnType<typeof loadLlmConfig> | null = null;
  const clients = new Map<string, LlmClient>();
  return {
    tracer: sharedNodeTracer,
    personaSeeds: loadPersonaSeeds,
    // External agents behind a URL (the http tutor).
    http: nodeHttpTransport(),
    llm: ({ provider, model }) => {
      const key = `${provider}\u0000${model}`;
      let c = clients.get(key);
      if (!c) {
        cfg ??= loadLlmConfig(o.llmConfig ?? []);
        c = makeClient(pickProvider(cfg, provider), model);
        clients.set(key, c);
      }
      return c;
    },
  };
}
