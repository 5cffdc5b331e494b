/**
 * The page's LLM settings in localStorage (this browser only): providers with their keys, the
 * judge panel and the student voice. Keys are read from here only to build a client; they are
 * never put into runs, traces, exports or logs.
 */
import { z } from 'zod';
import { JudgeRefSchema, ProviderSchema, findProvider, formatZodError, type ProviderConfig } from '../llm/config';
import { OpenAiCompatClient } from '../llm/openai-compat';
import { LlmError, PANEL_DEFAULTS, RUBRIC_IDS } from '../../core/index';

export const SETTINGS_KEY = 'educlaw-lab.llm-settings.v1';

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
  })
  .strict();
export type LlmSettingsData = z.infer<typeof LlmSettingsSchema>;

export function emptySettings(): LlmSettingsData {
  return LlmSettingsSchema.parse({});
}

/** Reads the settings; a damaged entry is reported (never silently replaced). */
export function loadSettings(storage: Pick<Storage, 'getItem'> = localStorage): { data: LlmSettingsData; error: string | null } {
  const raw = storage.getItem(SETTINGS_KEY);
  if (!raw) return { data: emptySettings(), error: null };
  try {
    const r = LlmSettingsSchema.safeParse(JSON.parse(raw));
    if (r.success) return { data: r.data, error: null };
    return { data: emptySettings(), error: formatZodError('saved LLM settings are invalid', r.error) };
  } catch (e) {
    return { data: emptySettings(), error: `saved LLM settings are not JSON (${(e as Error).message})` };
  }
}

export function saveSettings(data: LlmSettingsData, storage: Pick<Storage, 'setItem'> = localStorage): void {
  storage.setItem(SETTINGS_KEY, JSON.stringify(LlmSettingsSchema.parse(data)));
}

export function clientFor(data: LlmSettingsData, provider: string, model: string, family?: string): OpenAiCompatClient {
  let p: ProviderConfig;
  try {
    p = findProvider(data.providers, provider);
  } catch (e) {
    throw new LlmError('LLM_CONFIG', `${(e as Error).message}; add it under LLM settings`);
  }
  return new OpenAiCompatClient(p, model, { ...(p.apiKey ? { apiKey: p.apiKey } : {}), ...(family ? { family } : {}) });
}
