/**
 * The in-page language model ("In this browser"): transformers.js (@huggingface/transformers) in a
 * module Web Worker, so the page stays responsive while a model downloads, compiles and generates.
 * This file (and with it transformers.js and its onnxruntime-web build) is loaded only when the
 * local provider is used: local-llm.ts creates the worker on the first chat or load.
 *
 * - Files come from a hub (https://huggingface.co/ by default, or any server with the same
 *   `<model>/resolve/<revision>/<file>` layout: the tests serve the project's own test model so).
 *   Local paths are never read, and there is no CDN: onnxruntime's wasm is served by our build.
 *   A model folder from disk (`folder/<name>`, local-folder.ts) is written into the cache by the
 *   page beforehand; for it nothing is fetched (a file not in the cache is answered 404 here).
 * - transformers.js keeps downloaded files in the browser's Cache API ("transformers-cache"), so a
 *   second load needs no network; every fetch the library makes goes through `countingFetch`,
 *   which is how the page learns whether a load touched the network.
 * - Device: WebGPU when `navigator.gpu` gives a hardware adapter (not a fallback one), else wasm.
 */
import * as Comlink from 'comlink';
import { AutoModelForCausalLM, AutoTokenizer, TextStreamer, env, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
// The onnxruntime-web build transformers.js itself imports (it pins its own dev build); its files
// are emitted by Vite beside ours, so nothing is fetched from a CDN.
import ortWasmUrl from '../../../node_modules/@huggingface/transformers/node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from '../../../node_modules/@huggingface/transformers/node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.asyncify.mjs?url';

export type LocalDevice = 'webgpu' | 'wasm';

export interface LocalLoadOptions {
  /** Hub base URL, ending with "/". */
  hub: string;
  /** transformers.js dtype (which ONNX file): "fp32" → onnx/model.onnx, "q4" → onnx/model_q4.onnx, … */
  dtype: string;
  /** "auto": WebGPU on a hardware adapter, else wasm. */
  device: 'auto' | LocalDevice;
  /** Load from the browser cache only (a run's client): a missing file is an error, never a download. */
  cacheOnly: boolean;
  /** A model folder from disk (its files were written into the cache): no hub has it, so a file not in the cache is answered 404 here, never fetched. */
  fromDisk?: boolean;
}

export interface LocalLoadProgress {
  /** The file being loaded now, when one is. */
  file: string | null;
  loaded: number;
  total: number;
  filesDone: number;
  filesSeen: number;
}

export interface LocalLoaded {
  model: string;
  device: LocalDevice;
  /** Why that device (e.g. "no WebGPU adapter", "WebGPU adapter is a fallback (software) one"). */
  deviceReason: string;
  /** Requests to the hub in this load (0 when every model file came from the browser cache). */
  networkFiles: number;
  /** Bytes of the files loaded, by file name, as the library reported them. */
  files: Record<string, number>;
  /** Whether the model's chat template renders a `tools` list. */
  templateTools: boolean;
  /** Largest number of positions the model takes (prompt + reply), when its config says. */
  contextLength: number | null;
  loadMs: number;
}

export interface LocalGenerateRequest {
  messages: { role: string; content: string }[];
  /** Tools for the chat template (only when the template supports them). */
  tools?: object[];
  maxNewTokens: number;
  temperature: number;
  /** The model's context (prompt + reply), when known: the reply is cut to what the prompt leaves. */
  contextLength: number | null;
}

export interface LocalGenerated {
  text: string;
  promptTokens: number;
  completionTokens: number;
  /** True when generation stopped because it reached maxNewTokens (or the context). */
  truncated: boolean;
}

let tokenizer: PreTrainedTokenizer | null = null;
let model: PreTrainedModel | null = null;
let loadedId: string | null = null;
let networkFetches = 0;

async function chooseDevice(want: LocalLoadOptions['device']): Promise<{ device: LocalDevice; reason: string }> {
  if (want === 'wasm') return { device: 'wasm', reason: 'wasm chosen in the settings' };
  type Adapter = { info?: { isFallbackAdapter?: boolean }; isFallbackAdapter?: boolean };
  const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<Adapter | null> } }).gpu;
  if (!gpu) return want === 'webgpu' ? Promise.reject(new Error('WebGPU was asked for, but this browser has no navigator.gpu')) : { device: 'wasm', reason: 'this browser has no WebGPU' };
  let adapter: Adapter | null;
  try {
    adapter = await gpu.requestAdapter();
  } catch (e) {
    adapter = null;
    if (want === 'webgpu') throw new Error(`WebGPU was asked for, but requestAdapter failed: ${(e as Error).message}`);
  }
  if (!adapter) {
    if (want === 'webgpu') throw new Error('WebGPU was asked for, but the browser gives no adapter');
    return { device: 'wasm', reason: 'no WebGPU adapter' };
  }
  const fallback = adapter.info?.isFallbackAdapter ?? adapter.isFallbackAdapter ?? false;
  if (fallback && want === 'auto') return { device: 'wasm', reason: 'the WebGPU adapter is a software (fallback) one' };
  return { device: 'webgpu', reason: fallback ? 'WebGPU chosen in the settings (software adapter: slow)' : 'hardware WebGPU adapter' };
}

function contextOf(config: Record<string, unknown>): number | null {
  for (const k of ['max_position_embeddings', 'n_positions', 'n_ctx', 'max_sequence_length']) {
    const v = config[k];
    if (typeof v === 'number' && v > 0) return v;
  }
  return null;
}

const service = {
  async load(id: string, opts: LocalLoadOptions, onProgress?: (p: LocalLoadProgress) => void): Promise<LocalLoaded> {
    const t0 = performance.now();
    if (loadedId === id && model && tokenizer) throw new Error(`model ${id} is already loaded in this worker`);
    env.allowLocalModels = false;
    // Remote stays allowed: the library refuses to load with both local and remote off, and with
    // `local_files_only` while local models are off. Cache-only loads are enforced by the fetch
    // guard below instead: in them, any request to the hub throws.
    env.allowRemoteModels = true;
    env.remoteHost = opts.hub;
    env.remotePathTemplate = '{model}/resolve/{revision}/';
    env.useBrowserCache = true;
    const onnx = env.backends.onnx as { wasm?: { wasmPaths?: unknown; numThreads?: number } };
    if (onnx.wasm) {
      onnx.wasm.wasmPaths = { wasm: new URL(ortWasmUrl, self.location.href).href, mjs: new URL(ortMjsUrl, self.location.href).href };
      // One thread needs no COOP/COEP headers (and was as fast on 2 cores: TOOLCHAIN.md).
      onnx.wasm.numThreads = 1;
    }
    networkFetches = 0;
    const base = globalThis.fetch.bind(globalThis);
    env.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (opts.fromDisk && url.startsWith(opts.hub)) return new Response(`${url} is not in the model folder`, { status: 404, statusText: 'Not Found' });
      if (opts.cacheOnly && url.startsWith(opts.hub)) throw new Error(`not downloaded: ${url} is not in the browser cache, and a run's load may not download (download the model under LLM settings)`);
      if (url.startsWith(opts.hub)) networkFetches++;
      return base(input, init);
    }) as typeof fetch;

    const { device, reason } = await chooseDevice(opts.device);
    const files: Record<string, number> = {};
    const loadedBytes: Record<string, number> = {};
    const done = new Set<string>();
    const seen = new Set<string>();
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    const progress_callback = (p: { status: string; file?: string; loaded?: number; total?: number }) => {
      if (!p.file) return;
      if (p.status === 'initiate') seen.add(p.file);
      else if (p.status === 'progress') {
        seen.add(p.file);
        loadedBytes[p.file] = p.loaded ?? 0;
        files[p.file] = p.total ?? p.loaded ?? 0;
      } else if (p.status === 'done') done.add(p.file);
      else return;
      onProgress?.({ file: p.file, loaded: sum(loadedBytes), total: sum(files), filesDone: done.size, filesSeen: seen.size });
    };

    const tok = await AutoTokenizer.from_pretrained(id, { progress_callback });
    const m = await AutoModelForCausalLM.from_pretrained(id, { progress_callback, dtype: opts.dtype as 'fp32', device });
    tokenizer = tok;
    model = m;
    loadedId = id;
    const template = (tok as unknown as { chat_template?: unknown }).chat_template;
    const templateText = typeof template === 'string' ? template : JSON.stringify(template ?? '');
    return {
      model: id,
      device,
      deviceReason: reason,
      networkFiles: networkFetches,
      files,
      templateTools: /\btools\b/.test(templateText),
      contextLength: contextOf(m.config as unknown as Record<string, unknown>),
      loadMs: Math.round(performance.now() - t0),
    };
  },

  async generate(req: LocalGenerateRequest, onToken?: (text: string) => void): Promise<LocalGenerated> {
    if (!model || !tokenizer) throw new Error('no model is loaded in this worker');
    const tok = tokenizer;
    const inputs = tok.apply_chat_template(req.messages as never, { add_generation_prompt: true, return_dict: true, ...(req.tools ? { tools: req.tools as never } : {}) }) as unknown as { input_ids: { dims: number[] }; attention_mask: unknown };
    const promptTokens = inputs.input_ids.dims.at(-1) ?? 0;
    const room = req.contextLength === null ? req.maxNewTokens : Math.min(req.maxNewTokens, req.contextLength - promptTokens);
    if (room < 1) throw new Error(`the prompt is ${promptTokens} tokens, and the model takes ${req.contextLength} in all: no room for a reply`);
    const streamer = onToken ? new TextStreamer(tok, { skip_prompt: true, skip_special_tokens: true, callback_function: (t: string) => onToken(t) }) : undefined;
    const sample = req.temperature > 0;
    const out = (await model.generate({
      ...(inputs as object),
      max_new_tokens: room,
      do_sample: sample,
      ...(sample ? { temperature: req.temperature } : {}),
      ...(streamer ? { streamer } : {}),
    } as never)) as unknown as { dims: number[]; slice(...a: unknown[]): unknown };
    const total = out.dims.at(-1) ?? promptTokens;
    const newIds = (out as unknown as { slice(a: null, b: [number, null]): unknown }).slice(null, [promptTokens, null]);
    const [text] = tok.batch_decode(newIds as never, { skip_special_tokens: true });
    const completionTokens = total - promptTokens;
    return { text: text ?? '', promptTokens, completionTokens, truncated: completionTokens >= room };
  },
};

export type LocalLlmService = typeof service;
Comlink.expose(service);
