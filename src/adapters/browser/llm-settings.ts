/**
 * The page's LLM settings (this browser only): providers, the judge panel and the student voice
 * in localStorage; the providers' keys where the user chose (`keyStorage`): "device" keeps them
 * in localStorage with the rest (remembered until removed), "session" keeps them in this tab's
 * sessionStorage only (forgotten when the tab closes; in memory where there is no
 * sessionStorage), and never in localStorage. Any page of the same origin can read either, so
 * the app should be served from an origin of its own (docs/hosting.md). Keys are read
 * from here only to build a client; they are never put into runs, traces, exports or logs.
 */
import { z } from 'zod';
import { JudgeRefSchema, ProviderSchema, findProvider, formatZodError, type ProviderConfig } from '../llm/config';
import { OpenAiCompatClient } from '../llm/openai-compat';
import { LlmError, PANEL_DEFAULTS, RUBRIC_IDS, type LlmClient } from '../../core/index';
import { DEFAULT_HUB, LOCAL_PROVIDER } from './local-models';
import { lazyLocalClient } from './local-client';

export const SETTINGS_KEY = 'educlaw-lab.llm-settings.v1';
/** Where the keys are in sessionStorage when they are kept for this session only: { provider name: key }. */
export const SESSION_KEYS_KEY = 'educlaw-lab.llm-keys.session.v1';
export const KEY_STORAGE_MODES = ['device', 'session'] as const;
export type KeyStorageMode = (typeof KEY_STORAGE_MODES)[number];

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
const memory = new Map<string, string>();
/** This tab's sessionStorage, or memory where the page has none (or refuses it). */
export function sessionStore(): Store {
  try {
    if (typeof sessionStorage !== 'undefined') return sessionStorage;
  } catch {
    // storage disabled
  }
  return { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, v), removeItem: (k) => void memory.delete(k) };
}

export const LlmSettingsSchema = z
  .object({
    version: z.literal(1).default(1),
    providers: z.array(ProviderSchema).default([]),
    panel: z
      .object({
        judges: z.array(JudgeRefSchema).default([]),
        temperature: z.number().min(0).max(2).default(PANEL_DEFAULTS.temperature),
        daysPerRun: z.number().int().min(1).nullable().default(PANEL_DEFAULTS.daysPerRun),
        rubrics: z.array(z.enum(RUBRIC_IDS)).min(1).default([...RUBRIC_IDS]),
      })
      .strict()
      .default({ judges: [], temperature: PANEL_DEFAULTS.temperature, daysPerRun: PANEL_DEFAULTS.daysPerRun, rubrics: [...RUBRIC_IDS] }),
    voice: z.object({ provider: z.string(), model: z.string().min(1) }).strict().nullable().default(null),
    /** Where the keys are kept: "device" (localStorage, remembered) or "session" (this tab only). New settings start with "session". */
    keyStorage: z.enum(KEY_STORAGE_MODES).default('session'),
    /** The "In this browser" provider (LOCAL_PROVIDER): where models are downloaded from, and the device. */
    local: z
      .object({ hub: z.string().url().default(DEFAULT_HUB), device: z.enum(['auto', 'wasm', 'webgpu']).default('auto') })
      .strict()
      .default({ hub: DEFAULT_HUB, device: 'auto' }),
  })
  .strict();
export type LlmSettingsData = z.infer<typeof LlmSettingsSchema>;

export function emptySettings(): LlmSettingsData {
  return LlmSettingsSchema.parse({});
}

function sessionKeys(session: Pick<Storage, 'getItem'>): Record<string, string> {
  try {
    const o = JSON.parse(session.getItem(SESSION_KEYS_KEY) ?? '{}') as unknown;
    if (!o || typeof o !== 'object' || Array.isArray(o)) return {};
    return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** Reads the settings (with this session's keys when they are kept for the session); a damaged entry is reported (never silently replaced). */
export function loadSettings(storage: Pick<Storage, 'getItem'> = localStorage, session: Pick<Storage, 'getItem'> = sessionStore()): { data: LlmSettingsData; error: string | null } {
  const raw = storage.getItem(SETTINGS_KEY);
  if (!raw) return { data: emptySettings(), error: null };
  try {
    const json = JSON.parse(raw) as unknown;
    // Settings saved before the choice existed kept their keys on this device: they stay there until the user chooses.
    if (json && typeof json === 'object' && !Array.isArray(json) && !('keyStorage' in json)) {
      const ps = (json as { providers?: unknown }).providers;
      if (Array.isArray(ps) && ps.some((p) => p && typeof p === 'object' && 'apiKey' in p)) (json as { keyStorage?: string }).keyStorage = 'device';
    }
    const r = LlmSettingsSchema.safeParse(json);
    if (!r.success) return { data: emptySettings(), error: formatZodError('saved LLM settings are invalid', r.error) };
    if (r.data.keyStorage === 'session') {
      const keys = sessionKeys(session);
      r.data.providers = r.data.providers.map((p) => {
        const { apiKey: _drop, ...rest } = p;
        void _drop;
        return keys[p.name] ? { ...rest, apiKey: keys[p.name]! } : rest;
      });
    }
    return { data: r.data, error: null };
  } catch (e) {
    return { data: emptySettings(), error: `saved LLM settings are not JSON (${(e as Error).message})` };
  }
}

/** Saves the settings: the keys go with them (device) or to this session's storage only (session, and then never to localStorage). */
export function saveSettings(data: LlmSettingsData, storage: Pick<Storage, 'setItem'> = localStorage, session: Pick<Storage, 'setItem' | 'removeItem'> = sessionStore()): void {
  const d = LlmSettingsSchema.parse(data);
  if (d.keyStorage === 'device') {
    storage.setItem(SETTINGS_KEY, JSON.stringify(d));
    session.removeItem(SESSION_KEYS_KEY);
    return;
  }
  const keys: Record<string, string> = {};
  const providers = d.providers.map((p) => {
    const { apiKey, ...rest } = p;
    if (apiKey) keys[p.name] = apiKey;
    return rest;
  });
  session.setItem(SESSION_KEYS_KEY, JSON.stringify(keys));
  storage.setItem(SETTINGS_KEY, JSON.stringify({ ...d, providers }));
}

export function clientFor(data: LlmSettingsData, provider: string, model: string, family?: string): LlmClient {
  // The in-page model (transformers.js in a worker, loaded on first use from the browser cache).
  if (provider === LOCAL_PROVIDER) return lazyLocalClient(model, data.local);
  let p: ProviderConfig;
  try {
    p = findProvider(data.providers, provider);
  } catch (e) {
    throw new LlmError('LLM_CONFIG', `${(e as Error).message}; add it under LLM settings`);
  }
  return new OpenAiCompatClient(p, model, { ...(p.apiKey ? { apiKey: p.apiKey } : {}), ...(family ? { family } : {}) });
}
