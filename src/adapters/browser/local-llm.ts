/**
 * The "In this browser" provider: an `LlmClient` whose model runs in the page, in a Web Worker
 * with transformers.js (local-llm.worker.ts). The worker, and with it transformers.js and its
 * onnxruntime-web wasm, is created only when this provider is used: nothing of the library is in
 * the main chunk.
 *
 * Downloads happen only when the user agrees in LLM settings (`downloadLocalModel`); a run's client
 * loads from the browser cache only (`cacheOnly`), so a model that is not downloaded is a clear
 * LLM_CONFIG error, never a silent download and never a fallback to the templates.
 *
 * Tools: models whose chat template renders `tools` get them through the template, and their
 * `<tool_call>{"name": …, "arguments": {…}}</tool_call>` blocks are read back as tool calls (the
 * Hermes/Qwen convention). For other models the same convention is written into a system message
 * (the text protocol, docs/llm.md "In this browser").
 */
import * as Comlink from 'comlink';
import { LlmError, inferFamily, parseTextToolCalls, type ChatMessage, type ChatRequest, type ChatResponse, type LlmClient, type ToolCallRequest, type ToolSpec } from '../../core/index';
import type { LocalGenerated, LocalLlmService, LocalLoaded, LocalLoadProgress } from './local-llm.worker';
import { folderModel, isFolderModel } from './local-folder';
import { LOCAL_PROVIDER, cachedFiles, hubFiles, localModelInfo, neededFiles, normaliseHub, onnxFileOf, removeCachedModel, verifyCachedModel, type HubFile } from './local-models';

export interface LocalSettings {
  hub: string;
  device: 'auto' | 'wasm' | 'webgpu';
}

interface Handle {
  worker: Worker;
  remote: Comlink.Remote<LocalLlmService>;
  loaded: LocalLoaded;
  /** Calls run one at a time per model (one worker, one session). */
  queue: Promise<unknown>;
}

const handles = new Map<string, Promise<Handle>>();
/** The hub whose cache URLs hold a model: a folder model's files stay under the hub they were written under. */
const hubOf = (id: string, s: LocalSettings): string => normaliseHub(folderModel(id)?.hub ?? s.hub);
const keyOf = (s: LocalSettings, id: string) => `${hubOf(id, s)}|${id}|${s.device}`;

function dtypeOf(id: string): string {
  return folderModel(id)?.dtype ?? localModelInfo(id)?.dtype ?? 'q4';
}

export { onnxFileOf } from './local-models';

/** An error of the worker, told as what failed and where. */
function loadError(id: string, dtype: string, e: unknown, cacheOnly: boolean): LlmError {
  const msg = e instanceof Error ? e.message : String(e);
  if (isFolderModel(id) && /Could not locate file|404/i.test(msg)) return new LlmError('LLM_CONFIG', `${LOCAL_PROVIDER}/${id}: a file the model needs is not in the folder it was loaded from, nor in this browser's cache (${msg}); load the folder again under LLM settings, "In this browser"`);
  if (cacheOnly && /not downloaded: |not found locally/i.test(msg)) {
    return new LlmError('LLM_CONFIG', `${LOCAL_PROVIDER}/${id}: the model is not downloaded in this browser; download it under LLM settings, "In this browser" (${msg})`);
  }
  if (/Could not locate file|404/i.test(msg)) return new LlmError('LLM_BAD_REQUEST', `${LOCAL_PROVIDER}/${id}: a file of the model is not on the hub (${msg})`);
  if (/protobuf|session|onnx|Can't create/i.test(msg)) return new LlmError('LLM_BAD_RESPONSE', `${LOCAL_PROVIDER}/${id}: ${onnxFileOf(dtype)} could not be opened by onnxruntime: the file is damaged or not an ONNX model (${msg})`);
  if (/fetch|network|Failed to fetch|ERR_/i.test(msg)) return new LlmError('LLM_NETWORK', `${LOCAL_PROVIDER}/${id}: the download failed (${msg})`);
  return new LlmError('LLM_BAD_RESPONSE', `${LOCAL_PROVIDER}/${id}: the model could not be loaded (${msg})`);
}

async function open(id: string, s: LocalSettings, cacheOnly: boolean, onProgress?: (p: LocalLoadProgress) => void): Promise<Handle> {
  const fromDisk = isFolderModel(id);
  if (fromDisk && !folderModel(id)) throw new LlmError('LLM_CONFIG', `${LOCAL_PROVIDER}/${id}: no model folder of that name was loaded in this browser; load it under LLM settings, "In this browser", "Load a model folder from disk"`);
  if (fromDisk && (await cachedFiles(hubOf(id, s), id)).length === 0) {
    throw new LlmError('LLM_CONFIG', `${LOCAL_PROVIDER}/${id}: the folder's files are no longer in this browser's cache; load the folder again under LLM settings, "In this browser"`);
  }
  if (!fromDisk && cacheOnly && (await cachedFiles(s.hub, id)).length === 0) {
    throw new LlmError('LLM_CONFIG', `${LOCAL_PROVIDER}/${id}: the model is not downloaded in this browser (from ${normaliseHub(s.hub)}); download it under LLM settings, "In this browser"`);
  }
  const worker = new Worker(new URL('./local-llm.worker.ts', import.meta.url), { type: 'module' });
  const remote = Comlink.wrap<LocalLlmService>(worker);
  const dtype = dtypeOf(id);
  try {
    const loaded = await remote.load(id, { hub: hubOf(id, s), dtype, device: s.device, cacheOnly: cacheOnly || fromDisk, fromDisk }, onProgress ? Comlink.proxy(onProgress) : undefined);
    return { worker, remote, loaded, queue: Promise.resolve() };
  } catch (e) {
    worker.terminate();
    throw loadError(id, dtype, e, cacheOnly);
  }
}

function acquire(id: string, s: LocalSettings, cacheOnly: boolean, onProgress?: (p: LocalLoadProgress) => void): Promise<Handle> {
  const key = keyOf(s, id);
  let h = handles.get(key);
  if (!h) {
    h = open(id, s, cacheOnly, onProgress);
    handles.set(key, h);
    h.catch(() => handles.delete(key));
  }
  return h;
}

/** Ends a model's worker (its memory is freed; the browser cache keeps the files). */
export async function unloadLocalModel(id: string, s: LocalSettings): Promise<void> {
  const key = keyOf(s, id);
  const h = handles.get(key);
  handles.delete(key);
  if (!h) return;
  try {
    const x = await h;
    x.remote[Comlink.releaseProxy]();
    x.worker.terminate();
  } catch {
    // it never loaded: nothing to end
  }
}

/**
 * Downloads (or loads from the cache) a model the user agreed to, with progress. A failed load
 * removes what the cache kept of the model, so a damaged file is fetched again next time; the
 * error says so.
 */
export async function downloadLocalModel(id: string, s: LocalSettings, onProgress: (p: LocalLoadProgress) => void): Promise<LocalLoaded & { verified: string }> {
  await unloadLocalModel(id, s);
  const listing = await hubFiles(s.hub, id);
  const listed: HubFile[] | null = listing.files ? neededFiles(listing.files, onnxFileOf(dtypeOf(id))) : null;
  const check = async (): Promise<{ problems: string[]; text: string }> => {
    if (!listed) return { problems: [], text: `not checked: ${'reason' in listing ? listing.reason : 'no list'}` };
    const v = await verifyCachedModel(s.hub, id, listed);
    return { problems: v.problems, text: `${v.checked} files checked against the hub's sizes, ${v.hashed} against its sha256` };
  };
  const fail = async (e: LlmError, problems: string[]): Promise<never> => {
    await unloadLocalModel(id, s);
    const removed = await removeCachedModel(s.hub, id).catch(() => 0);
    const why = problems.length ? `; ${problems.join('; ')}` : '';
    throw new LlmError(e.code, `${e.message}${why}${removed > 0 ? `; the ${removed} file(s) kept of it were removed from the browser cache` : ''}`);
  };
  let loaded: LocalLoaded;
  try {
    loaded = (await acquire(id, s, false, onProgress)).loaded;
  } catch (e) {
    const v = await check().catch(() => ({ problems: [] as string[], text: '' }));
    return fail(e instanceof LlmError ? e : loadError(id, dtypeOf(id), e, false), v.problems);
  }
  const v = await check();
  if (v.problems.length) return fail(new LlmError('LLM_BAD_RESPONSE', `${LOCAL_PROVIDER}/${id}: the download does not match the hub's file list`), v.problems);
  return { ...loaded, verified: v.text };
}

/** Loads a model from the browser cache only (a folder model, or a downloaded one): no request to the hub. */
export async function loadCachedLocalModel(id: string, s: LocalSettings, onProgress?: (p: LocalLoadProgress) => void): Promise<LocalLoaded> {
  await unloadLocalModel(id, s);
  return (await acquire(id, s, true, onProgress)).loaded;
}

/** The model's load facts when it is loaded in this page. */
export async function loadedLocalModel(id: string, s: LocalSettings): Promise<LocalLoaded | null> {
  const h = handles.get(keyOf(s, id));
  if (!h) return null;
  try {
    return (await h).loaded;
  } catch {
    return null;
  }
}

/** The text protocol for models whose template has no tools: the tool list and the call format, as a system message. */
export function toolProtocol(tools: readonly ToolSpec[]): string {
  const list = tools.map((t) => `- ${t.name}: ${t.description}\n  arguments (JSON Schema): ${JSON.stringify(t.parameters)}`).join('\n');
  return `You can call these tools:\n${list}\n\nTo call a tool, write exactly one line per call:\n<tool_call>{"name": "<tool name>", "arguments": {<the arguments as JSON>}}</tool_call>\nWrite nothing else on such a line. To reply without a tool, write plain text with no <tool_call>.`;
}

/** Reads `<tool_call>` blocks back from a model's text (the shared parser, src/core/llm/text-tools.ts). A block that is not {"name", "arguments"} JSON is kept as a call named "" with its raw text, so the engine reports it as malformed. */
export function parseToolCalls(text: string, callSeq: () => number): { content: string | null; toolCalls: ToolCallRequest[] } {
  const r = parseTextToolCalls(text, () => `local-call-${callSeq()}`);
  return { content: r.content, toolCalls: r.toolCalls };
}

/** Chat messages in the plain {role, content} form chat templates read. */
export function templateMessages(req: ChatRequest, toolsInTemplate: boolean): { role: string; content: string }[] {
  const out: { role: string; content: string }[] = [];
  if (req.tools?.length && !toolsInTemplate) out.push({ role: 'system', content: toolProtocol(req.tools) });
  for (const m of req.messages as ChatMessage[]) {
    if (m.role === 'assistant') {
      const calls = (m.toolCalls ?? []).map((c) => `<tool_call>{"name": ${JSON.stringify(c.name)}, "arguments": ${c.arguments}}</tool_call>`);
      out.push({ role: 'assistant', content: [m.content ?? '', ...calls].filter((x) => x !== '').join('\n') });
    } else if (m.role === 'tool') {
      out.push(toolsInTemplate ? { role: 'tool', content: m.content } : { role: 'user', content: `Tool result (${m.toolCallId}):\n${m.content}` });
    } else out.push({ role: m.role, content: m.content });
  }
  return out;
}

export interface LocalClientOptions {
  /** Called with each piece of text as the model writes it. */
  onToken?: (text: string) => void;
  /** Default 512 new tokens, cut to what the model's context leaves. */
  maxNewTokens?: number;
}

/** An LlmClient on a model in this browser (loaded from the cache on first use). */
export class LocalLlmClient implements LlmClient {
  readonly provider = LOCAL_PROVIDER;
  readonly model: string;
  readonly family: string | null;
  readonly #settings: LocalSettings;
  readonly #opts: LocalClientOptions;
  #calls = 0;

  constructor(model: string, settings: LocalSettings, opts: LocalClientOptions = {}) {
    this.model = model;
    this.family = inferFamily(model);
    this.#settings = { hub: normaliseHub(settings.hub), device: settings.device };
    this.#opts = opts;
  }

  toJSON(): object {
    return { provider: this.provider, model: this.model };
  }

  async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    if (signal?.aborted) throw new LlmError('LLM_ABORTED', `${this.provider}/${this.model}: cancelled`);
    const h = await acquire(this.model, this.#settings, true);
    const run = async (): Promise<LocalGenerated> => {
      const toolsIn = h.loaded.templateTools;
      const messages = templateMessages(req, toolsIn);
      const tools = req.tools?.length && toolsIn ? req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })) : undefined;
      const ctx = h.loaded.contextLength;
      const want = req.maxTokens ?? this.#opts.maxNewTokens ?? 512;
      const onToken = this.#opts.onToken;
      return h.remote.generate({ messages, ...(tools ? { tools } : {}), maxNewTokens: want, temperature: req.temperature ?? 0, contextLength: ctx }, onToken ? Comlink.proxy(onToken) : undefined);
    };
    const next = h.queue.then(run, run);
    h.queue = next.catch(() => undefined);
    let aborted: (() => void) | null = null;
    const stop = new Promise<never>((_, reject) => {
      aborted = () => {
        // Generation cannot be cut mid-call: the worker is ended (the next call reloads from the cache).
        void unloadLocalModel(this.model, this.#settings);
        reject(new LlmError('LLM_ABORTED', `${this.provider}/${this.model}: cancelled`));
      };
      signal?.addEventListener('abort', aborted, { once: true });
    });
    let out: LocalGenerated;
    try {
      out = await Promise.race([next, stop]);
    } catch (e) {
      if (e instanceof LlmError) throw e;
      throw new LlmError('LLM_BAD_RESPONSE', `${this.provider}/${this.model}: generation failed (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    } finally {
      if (aborted) signal?.removeEventListener('abort', aborted);
    }
    const parsed = req.tools?.length ? parseToolCalls(out.text, () => ++this.#calls) : { content: out.text, toolCalls: [] };
    return {
      content: parsed.content,
      toolCalls: parsed.toolCalls,
      finishReason: parsed.toolCalls.length ? 'tool_calls' : out.truncated ? 'length' : 'stop',
      usage: { promptTokens: out.promptTokens, completionTokens: out.completionTokens },
      cost: 0,
      retries: 0,
    };
  }
}
