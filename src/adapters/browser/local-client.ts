/** The in-page model's client as LLM settings hands it out (see lazyLocalClient). */
import { inferFamily, type ChatRequest, type ChatResponse, type LlmClient } from '../../core/index';
import { LOCAL_PROVIDER } from './local-models';

/**
 * The client of the in-page model as LLM settings hands it out: local-llm.ts (the client, the
 * worker handles) is imported on its first call, so the main chunk carries only this wrapper.
 */
export function lazyLocalClient(model: string, settings: { hub: string; device: 'auto' | 'wasm' | 'webgpu' }): LlmClient {
  let real: Promise<LlmClient> | null = null;
  return {
    provider: LOCAL_PROVIDER,
    model,
    family: inferFamily(model),
    chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
      real ??= import('./local-llm').then((m) => new m.LocalLlmClient(model, settings));
      return real.then((c) => c.chat(req, signal));
    },
  };
}
