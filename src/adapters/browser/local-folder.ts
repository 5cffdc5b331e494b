/**
 * A model folder picked from disk (`<input type="file" webkitdirectory>`), for the "In this
 * browser" provider: the folder is checked (the files transformers.js reads are there, the JSON
 * ones parse, exactly one ONNX weights file and so one dtype), then its files are written into
 * transformers.js's cache under the URLs the worker would fetch for the id `folder/<name>` on the
 * current hub (`modelPrefix`), so a load is a pure cache hit and makes no request. The folder
 * models are listed in localStorage (`FOLDER_MODELS_KEY`). There is no hub, so no hash: the only
 * check of the written files is their size against the size read from disk.
 */
import { LOCAL_CACHE_NAME, modelPrefix, onnxFileOf, neededFiles, normaliseHub, removeCachedModel, verifyCachedModel, type HubFile } from './local-models';

export const FOLDER_PREFIX = 'folder/';
export const FOLDER_MODELS_KEY = 'educlaw-lab.local-folder-models.v1';
/** The dtypes onnxFileOf names (transformers.js's file naming), for reading a file name back. */
const DTYPES = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'q4f16', 'bnb4'] as const;
const REQUIRED = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;

export interface FolderModel {
  /** `folder/<name>` (the folder's name, made a valid model id). */
  id: string;
  /** The folder's name as picked. */
  folder: string;
  dtype: string;
  onnxFile: string;
  /** Path in the folder → bytes as read from disk. */
  files: Record<string, number>;
  bytes: number;
  /** The hub address the files were written under (their cache URLs start with it). */
  hub: string;
  addedAt: string;
}

/** A file of the picked folder: its path inside the folder, its size, and its content. */
export interface PickedFile {
  path: string;
  size: number;
  blob: Blob;
}

export const isFolderModel = (id: string): boolean => id.startsWith(FOLDER_PREFIX);

/** The model id of a folder: `folder/` and its name with what a hub id may not hold replaced by "-". */
export function folderModelId(folder: string): string {
  const name = folder
    .replace(/[^\w.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '')
    .slice(0, 96)
    .replace(/\.git$|\.ipynb$/, '');
  return `${FOLDER_PREFIX}${name || 'model'}`;
}

/** The dtype an ONNX file name stands for (onnxFileOf read backwards), or null. */
export function dtypeOfOnnxFile(path: string): string | null {
  return DTYPES.find((d) => onnxFileOf(d) === path) ?? null;
}

/** Files of an `<input webkitdirectory>` as paths inside the picked folder (the first segment is the folder's name). */
export function pickedFiles(list: FileList | readonly File[]): { folder: string; files: PickedFile[] } {
  const all = [...list];
  if (all.length === 0) throw new Error('the folder is empty (or the browser gave no files from it)');
  const rel = (f: File) => (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;
  const folder = rel(all[0]!).split('/')[0] ?? '';
  const files = all.map((f) => {
    const parts = rel(f).split('/');
    return { path: parts.length > 1 ? parts.slice(1).join('/') : parts[0]!, size: f.size, blob: f };
  });
  return { folder, files };
}

/**
 * Checks a picked folder and says which of its files a load reads. Throws an Error naming the
 * missing or broken file.
 */
export async function checkFolder(folder: string, files: readonly PickedFile[]): Promise<{ dtype: string; onnxFile: string; needed: PickedFile[] }> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const name of REQUIRED) {
    if (!byPath.has(name)) {
      const deeper = files.find((f) => f.path.endsWith(`/${name}`));
      const hint = deeper ? `; there is one in ${deeper.path.slice(0, -name.length - 1)}/: pick that folder` : '';
      throw new Error(`${name} is missing from the folder "${folder}" (a model folder holds config.json, tokenizer.json, tokenizer_config.json and onnx/model*.onnx)${hint}`);
    }
  }
  const onnx = files.filter((f) => /^onnx\/[^/]+\.onnx$/.test(f.path));
  if (onnx.length === 0) throw new Error(`the folder "${folder}" has no ONNX weights: onnx/model.onnx (fp32), onnx/model_fp16.onnx, onnx/model_q4f16.onnx, onnx/model_quantized.onnx (q8) or onnx/model_q4.onnx is missing`);
  if (onnx.length > 1) throw new Error(`the folder "${folder}" has ${onnx.length} ONNX files (${onnx.map((f) => f.path).join(', ')}): keep one of them in the folder, so it is clear which weights (dtype) to load`);
  const onnxFile = onnx[0]!.path;
  const dtype = dtypeOfOnnxFile(onnxFile);
  if (!dtype) throw new Error(`${onnxFile} is not a weights file transformers.js loads by name (onnx/model.onnx, model_fp16, model_q4f16, model_quantized, model_q4, …)`);
  const listed: HubFile[] = files.map((f) => ({ path: f.path, size: f.size, sha256: null }));
  const needed = neededFiles(listed, onnxFile).map((f) => byPath.get(f.path)!);
  for (const f of needed) {
    if (f.size === 0) throw new Error(`${f.path} in the folder "${folder}" is empty (0 bytes)`);
    if (!f.path.endsWith('.json')) continue;
    try {
      JSON.parse(await f.blob.text());
    } catch (e) {
      throw new Error(`${f.path} in the folder "${folder}" is not valid JSON (${(e as Error).message})`);
    }
  }
  return { dtype, onnxFile, needed };
}

export function folderModels(storage: Pick<Storage, 'getItem'> = localStorage): FolderModel[] {
  const raw = storage.getItem(FOLDER_MODELS_KEY);
  if (!raw) return [];
  const x = JSON.parse(raw) as unknown;
  if (!Array.isArray(x)) throw new Error(`${FOLDER_MODELS_KEY} in localStorage is not a list`);
  return x.filter((m): m is FolderModel => !!m && typeof m === 'object' && typeof (m as FolderModel).id === 'string' && typeof (m as FolderModel).dtype === 'string');
}

function saveFolderModels(list: FolderModel[], storage: Pick<Storage, 'setItem'> = localStorage): void {
  storage.setItem(FOLDER_MODELS_KEY, JSON.stringify(list));
}

/** The record of a folder model, or null (a run's client reads its dtype from here). */
export function folderModel(id: string): FolderModel | null {
  if (!isFolderModel(id) || typeof localStorage === 'undefined') return null;
  try {
    return folderModels().find((m) => m.id === id) ?? null;
  } catch {
    return null;
  }
}

/**
 * Writes a checked folder into the browser cache under the hub's URLs for `folder/<name>` (what was
 * there of that id is replaced), reads back every size, and records the model. On any failure what
 * was written is removed and the error names the file.
 */
export async function addFolderModel(hub: string, folder: string, files: readonly PickedFile[]): Promise<{ model: FolderModel; checked: number }> {
  const h = normaliseHub(hub);
  const { dtype, onnxFile, needed } = await checkFolder(folder, files);
  const id = folderModelId(folder);
  const prefix = `${modelPrefix(h, id)}main/`;
  const cache = await caches.open(LOCAL_CACHE_NAME);
  await removeCachedModel(h, id);
  try {
    for (const f of needed) {
      const type = f.path.endsWith('.json') ? 'application/json' : 'application/octet-stream';
      try {
        await cache.put(`${prefix}${f.path}`, new Response(f.blob, { status: 200, headers: { 'content-type': type, 'content-length': String(f.size) } }));
      } catch (e) {
        throw new Error(`${f.path} could not be written into the browser cache (${(e as Error).message})`);
      }
    }
    const v = await verifyCachedModel(h, id, needed.map((f) => ({ path: f.path, size: f.size, sha256: null })));
    if (v.checked !== needed.length) throw new Error(`only ${v.checked} of the ${needed.length} files written are in the browser cache`);
    if (v.problems.length) throw new Error(v.problems.join('; '));
    const model: FolderModel = { id, folder, dtype, onnxFile, files: Object.fromEntries(needed.map((f) => [f.path, f.size])), bytes: needed.reduce((a, f) => a + f.size, 0), hub: h, addedAt: new Date().toISOString() };
    saveFolderModels([...folderModels().filter((m) => m.id !== id), model]);
    return { model, checked: v.checked };
  } catch (e) {
    await removeCachedModel(h, id).catch(() => 0);
    throw e;
  }
}

/** Removes a folder model: its cache entries (under the hub it was written under) and its record. Returns the entries deleted. */
export async function removeFolderModel(id: string): Promise<number> {
  const m = folderModels().find((x) => x.id === id);
  if (!m) throw new Error(`${id} is not a folder model of this browser`);
  const n = await removeCachedModel(m.hub, id);
  saveFolderModels(folderModels().filter((x) => x.id !== id));
  return n;
}
