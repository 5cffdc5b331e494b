/**
 * The run environment in Node (CLI, sweep workers, report scripts): tracers by name (each loaded
 * once per process), the persona seeds, and model clients from the LLM config (files and
 * environment; keys stay inside the clients), and the HTTP transport to external agents.
 */
import { loadPersonaSeeds, type KnowledgeTracer, type LlmClient, type RunEnv } from '../../core/index';
import { createNodeTracer } from './tracers';
import type { KtRuntimeChoice } from './akt';
import { loadLlmConfig, makeClient, pickProvider } from './llm-config';
import { nodeHttpTransport } from './agent-http';

export interface NodeEnvOptions {
  /** LLM config files (--llm-config); the environment's OPENAI_BASE_URL / OPENAI_API_KEY add a "default" provider. */
  llmConfig?: readonly string[];
  /** AKT's ONNX Runtime (default: the process's choice, --kt-runtime / EDUCLAW_KT_RUNTIME; adapters/node/akt.ts). */
  ktRuntime?: KtRuntimeChoice;
}

const tracers = new Map<string, Promise<KnowledgeTracer>>();

/** One tracer per name (and AKT runtime) and process: AKT's sessions are compiled once per process anyway (akt.ts). */
export function sharedNodeTracer(name: string, ktRuntime?: KtRuntimeChoice): Promise<KnowledgeTracer> {
  const key = `${name}\u0000${ktRuntime ?? ''}`;
  let t = tracers.get(key);
  if (!t) {
    t = createNodeTracer(name, ktRuntime);
    tracers.set(key, t);
    t.catch(() => tracers.delete(key));
  }
  return t;
}

export function nodeRunEnv(o: NodeEnvOptions = {}): RunEnv {
  let cfg: ReturnType<typeof loadLlmConfig> | null = null;
  const clients = new Map<string, LlmClient>();
  return {
    tracer: (name) => sharedNodeTracer(name, o.ktRuntime),
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
