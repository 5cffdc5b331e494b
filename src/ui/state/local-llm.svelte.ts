/**
 * The "In this browser" part of LLM settings (rune class): the curated models with their sizes,
 * download with consent and progress, what the browser cache holds, removal, and a streamed test
 * message. transformers.js is loaded (in a worker) only by download and test.
 */
import { errorMessage } from '../../core/index';
import { LocalLlmClient, downloadLocalModel, loadCachedLocalModel, unloadLocalModel, type LocalSettings } from '../../adapters/browser/local-llm';
import { addFolderModel, folderModelId, folderModels, pickedFiles, removeFolderModel, type FolderModel } from '../../adapters/browser/local-folder';
import { DEFAULT_HUB, LOCAL_MODELS, cachedFiles, formatBytes, hubFiles, localModelInfo, neededFiles, normaliseHub, removeCachedModel, type LocalModelInfo } from '../../adapters/browser/local-models';
import { onnxFileOf } from '../../adapters/browser/local-llm';
import type { LocalLoaded, LocalLoadProgress } from '../../adapters/browser/local-llm.worker';

const loadedBytes = (l: LocalLoaded) => Object.values(l.files).reduce((a, b) => a + b, 0);

export interface CacheState {
  files: number;
  bytes: number;
}

export class LocalModels {
  /** The hub the rows are for (set on refresh): the project's test model is listed only on a hub other than the default one (a test hub). */
  hub = $state(DEFAULT_HUB);
  get models(): readonly LocalModelInfo[] {
    return LOCAL_MODELS.filter((m) => !m.testOnly || this.hub !== DEFAULT_HUB);
  }
  /** Model id → what the browser cache holds of it (for the current hub). */
  cached = $state<Record<string, CacheState>>({});
  /** Model id → the exact download size from the hub's file list, when the hub gives one. */
  hubSize = $state<Record<string, { bytes: number; files: number } | { error: string }>>({});
  /** The model whose download the user is asked to agree to. */
  consent = $state<string | null>(null);
  busy = $state<string | null>(null);
  progress = $state<LocalLoadProgress | null>(null);
  status = $state<string | null>(null);
  error = $state<string | null>(null);
  streamed = $state('');
  /** Model folders loaded from disk (localStorage), shown as rows "from disk". */
  folders = $state<FolderModel[]>([]);
  #settings: () => LocalSettings;

  constructor(settings: () => LocalSettings) {
    this.#settings = settings;
  }

  info(id: string): LocalModelInfo | null {
    return localModelInfo(id);
  }

  sizeText(id: string): string {
    const h = this.hubSize[id];
    if (h && 'bytes' in h) return `${formatBytes(h.bytes)} in ${h.files} files (the hub's file list)`;
    const m = localModelInfo(id);
    return m ? `about ${formatBytes(m.downloadBytes)} (${m.sizeSource})` : 'size unknown';
  }

  async refresh(): Promise<void> {
    const s = this.#settings();
    this.hub = s.hub;
    const out: Record<string, CacheState> = {};
    try {
      this.folders = folderModels();
      const all = [...this.models.map((m) => ({ id: m.id, hub: s.hub })), ...this.folders.map((m) => ({ id: m.id, hub: m.hub }))];
      for (const m of all) {
        const f = await cachedFiles(m.hub, m.id);
        if (f.length) out[m.id] = { files: f.length, bytes: f.reduce((a, x) => a + x.bytes, 0) };
      }
      this.cached = out;
    } catch (e) {
      this.error = `Could not read the browser cache: ${errorMessage(e)}`;
    }
  }

  /** Asks for consent: reads the exact size from the hub first when it gives a file list. */
  async ask(id: string): Promise<void> {
    this.error = null;
    this.status = null;
    this.consent = id;
    const m = localModelInfo(id);
    const r = await hubFiles(this.#settings().hub, id);
    if (r.files) {
      const need = neededFiles(r.files, onnxFileOf(m?.dtype ?? 'q4'));
      this.hubSize = { ...this.hubSize, [id]: { bytes: need.reduce((a, f) => a + f.size, 0), files: need.length } };
    } else this.hubSize = { ...this.hubSize, [id]: { error: r.reason } };
  }

  cancel(): void {
    this.consent = null;
  }

  async download(id: string): Promise<void> {
    this.consent = null;
    await this.#load(
      id,
      (onProgress) => downloadLocalModel(id, this.#settings(), onProgress),
      (l) => `${l.networkFiles === 0 ? 'loaded from the browser cache, no download' : `${l.networkFiles} requests to the hub`}, ${formatBytes(loadedBytes(l))}; ${l.verified}`,
      `Download of ${id} failed`,
      ': runs that use this model stop with this error until it downloads.',
    );
    await this.refresh();
  }

  /**
   * Loads a model in the worker with a progress bar; on success the status says where it runs and
   * what `detail` reports, on failure the error says `failed` and that nothing falls back.
   */
  async #load<L extends LocalLoaded>(id: string, load: (onProgress: (p: LocalLoadProgress) => void) => Promise<L>, detail: (l: L) => string, failed: string, after = '.'): Promise<void> {
    this.busy = id;
    this.error = null;
    this.status = null;
    this.progress = { file: null, loaded: 0, total: 0, filesDone: 0, filesSeen: 0 };
    try {
      const l = await load((p) => (this.progress = p));
      this.status = `${id} is ready on ${l.device} (${l.deviceReason}); ${detail(l)}; ${(l.loadMs / 1000).toFixed(1)} s.`;
    } catch (e) {
      this.error = `${failed}: ${errorMessage(e)}. Nothing falls back to the templates${after}`;
    } finally {
      this.busy = null;
      this.progress = null;
    }
  }

  async remove(id: string): Promise<void> {
    this.error = null;
    const s = this.#settings();
    await unloadLocalModel(id, s);
    try {
      const n = await removeCachedModel(s.hub, id);
      this.status = `Removed ${id} from this browser's cache (${n} files).`;
    } catch (e) {
      this.error = `Could not remove ${id}: ${errorMessage(e)}`;
    }
    await this.refresh();
  }

  /** Checks a picked model folder and writes it into the browser cache (see local-folder.ts). */
  async addFolder(list: FileList | readonly File[]): Promise<void> {
    this.error = null;
    this.status = null;
    let folder = '(the folder)';
    try {
      const picked = pickedFiles(list);
      folder = picked.folder;
      // A folder picked again replaces the earlier one: its worker (if loaded) ends first.
      await unloadLocalModel(folderModelId(picked.folder), this.#settings());
      const { model, checked } = await addFolderModel(this.#settings().hub, picked.folder, picked.files);
      this.status = `Loaded the folder "${folder}" as ${model.id} (${model.dtype}, ${model.onnxFile}): ${checked} files, ${formatBytes(model.bytes)}, written into this browser's cache and checked by their sizes as read from disk; there is no hub hash to check them against. Press Load to open it, or Student voice.`;
    } catch (e) {
      this.error = `The model folder "${folder}" was not loaded: ${errorMessage(e)}. Nothing falls back to the templates.`;
    }
    await this.refresh();
  }

  /** Loads a folder model from the cache (no request to any hub), with progress. */
  async loadFolder(id: string): Promise<void> {
    await this.#load(
      id,
      (onProgress) => loadCachedLocalModel(id, this.#settings(), onProgress),
      (l) => `from the folder's files in the browser cache, ${l.networkFiles} requests to any hub, ${formatBytes(loadedBytes(l))}; sizes as read from disk, no hub hash to check against`,
      `Load of ${id} failed`,
    );
  }


  async removeFolder(id: string): Promise<void> {
    this.error = null;
    await unloadLocalModel(id, this.#settings());
    try {
      const n = await removeFolderModel(id);
      this.status = `Removed ${id} (from disk) from this browser (${n} files in the cache); the folder on disk is untouched.`;
    } catch (e) {
      this.error = `Could not remove ${id}: ${errorMessage(e)}`;
    }
    await this.refresh();
  }

  /** One short message to the model, its reply streamed into `streamed`. */
  async test(id: string, prompt: string): Promise<void> {
    this.busy = id;
    this.error = null;
    this.streamed = '';
    try {
      const c = new LocalLlmClient(id, this.#settings(), { onToken: (t) => (this.streamed += t), maxNewTokens: 120 });
      const t0 = performance.now();
      const r = await c.chat({ messages: [{ role: 'user', content: prompt }], temperature: 0 });
      this.status = `${id} answered in ${((performance.now() - t0) / 1000).toFixed(1)} s (${r.usage?.promptTokens} + ${r.usage?.completionTokens} tokens).`;
    } catch (e) {
      this.error = `Test of ${id} failed: ${errorMessage(e)}`;
    } finally {
      this.busy = null;
    }
  }

  hubText(): string {
    try {
      return normaliseHub(this.#settings().hub);
    } catch (e) {
      return errorMessage(e);
    }
  }
}
