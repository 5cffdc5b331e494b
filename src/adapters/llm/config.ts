/**
 * LLM provider and judge-panel configuration, shared by the page (settings in localStorage) and
 * the CLI (a config file and/or OPENAI_BASE_URL / OPENAI_API_KEY). A provider is an
 * OpenAI-compatible endpoint: OpenAI, OpenRouter, vLLM, Ollama, LM Studio, llama.cpp's server,
 * and the compatible endpoints of Gemini, Kimi, Solar and others.
 *
 * Keys: a provider holds its key literally (page settings; kept in the browser) or names the
 * environment variable that holds it (`apiKeyEnv`, CLI). Keys never leave the client object:
 * traces record the provider's name and the model only.
 */
import { z } from 'zod';
import { RUBRIC_IDS, PANEL_DEFAULTS, inferFamily } from '../../core/index';

export const ProviderSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-"'),
    baseURL: z.url().describe('e.g. http://localhost:11434/v1 (Ollama), https://api.openai.com/v1'),
    apiKey: z.string().optional().describe('The key itself (page settings). Prefer apiKeyEnv in files.'),
    apiKeyEnv: z.string().optional().describe('Name of the environment variable holding the key (CLI).'),
    family: z.string().optional().describe('Model family for every model of this provider, unless the model says otherwise.'),
    /** Per-model prices (US dollars per million tokens) and families. */
    models: z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0), family: z.string().optional() }).strict()).default({}),
    /** Calls in flight at once, over every client of this provider in the process or page (all the runs of a sweep). */
    maxConcurrency: z.number().int().min(1).max(64).default(4),
    /** Optional: request starts are spaced at least 60 000 / this many ms apart (each try counts), shared like maxConcurrency. */
    maxRequestsPerMinute: z.number().positive().max(1_000_000).optional(),
    timeoutMs: z.number().int().min(100).max(600_000).default(120_000),
    maxRetries: z.number().int().min(0).max(10).default(3),
    backoffMs: z.number().int().min(0).max(60_000).default(500),
    /** A Retry-After longer than this is not waited for: the call fails at once (LLM_RATE_LIMITED). */
    maxRetryAfterMs: z.number().int().min(0).max(3_600_000).default(120_000),
    /** Send response_format json_object for JSON replies (turn off for servers that reject it). */
    jsonMode: z.boolean().default(true),
    /**
     * Send the model's reasoning back with its own earlier turns, as `reasoning_content` on the
     * assistant message (providers that ask for it in tool-call loops, e.g. DeepSeek's thinking
     * mode). Off by default: some providers refuse the field. The reasoning is recorded either way.
     */
    echoReasoning: z.boolean().default(false),
    /**
     * Send the tools in OpenAI's strict form (`strict: true`; core/llm/strict-schema.ts): every
     * property required, the optional ones nullable. The nulls the model writes for properties it
     * does not give are left out of its calls (`fromStrictArgs`) before they are recorded and run.
     * Off by default: servers other than OpenAI's may refuse the field or the form.
     */
    strictTools: z.boolean().default(false),
  })
  .strict();
export type ProviderConfig = z.infer<typeof ProviderSchema>;
export type ProviderInput = z.input<typeof ProviderSchema>;

export const JudgeRefSchema = z
  .object({
    provider: z.string(),
    model: z.string().min(1),
    /** Shown in reports; default "<model>@<provider>". */
    id: z.string().optional(),
    family: z.string().optional(),
  })
  .strict();

export const PanelSchema = z
  .object({
    id: z.string().default('panel'),
    judges: z.array(JudgeRefSchema).min(1),
    temperature: z.number().min(0).max(2).default(PANEL_DEFAULTS.temperature),
    daysPerRun: z.number().int().min(1).nullable().default(PANEL_DEFAULTS.daysPerRun),
    strata: z.number().int().min(1).default(PANEL_DEFAULTS.strata),
    rubrics: z.array(z.enum(RUBRIC_IDS)).min(1).default([...RUBRIC_IDS]),
    attempts: z.number().int().min(1).max(10).default(PANEL_DEFAULTS.attempts),
    maxConsecutiveFailures: z.number().int().min(1).default(PANEL_DEFAULTS.maxConsecutiveFailures),
    concurrency: z.number().int().min(1).max(64).default(PANEL_DEFAULTS.concurrency),
  })
  .strict();
export type PanelConfig = z.infer<typeof PanelSchema>;

/** A config file: providers and, optionally, a judge panel. */
export const LlmConfigSchema = z
  .object({
    providers: z.array(ProviderSchema).default([]),
    panel: PanelSchema.optional(),
  })
  .strict();
export type LlmConfig = z.infer<typeof LlmConfigSchema>;

export function formatZodError(where: string, e: z.ZodError): string {
  return `${where}: ${e.issues.map((i) => `${i.path.length ? i.path.join('.') : '(top)'}: ${i.message}`).join('; ')}`;
}

export function findProvider(providers: readonly ProviderConfig[], name: string): ProviderConfig {
  const p = providers.find((x) => x.name === name);
  if (!p) throw new Error(`no LLM provider named "${name}" (configured: ${providers.map((x) => x.name).join(', ') || 'none'})`);
  return p;
}

export function familyOf(p: ProviderConfig, model: string, explicit?: string): string | null {
  return explicit ?? p.models[model]?.family ?? p.family ?? inferFamily(model);
}

/** Warnings about a panel (not errors): fewer than three judges, judges of the same family. */
export function panelWarnings(panel: PanelConfig, providers: readonly ProviderConfig[]): string[] {
  const out: string[] = [];
  if (panel.judges.length < 3) out.push(`the panel has ${panel.judges.length} judge${panel.judges.length === 1 ? '' : 's'}; three from different model families guard against a family grading its own outputs`);
  const fams = new Map<string, string[]>();
  for (const j of panel.judges) {
    const p = providers.find((x) => x.name === j.provider);
    const fam = p ? familyOf(p, j.model, j.family) : (j.family ?? inferFamily(j.model));
    const key = fam ?? `unknown:${j.model}`;
    fams.set(key, [...(fams.get(key) ?? []), j.model]);
  }
  for (const [fam, models] of fams) if (models.length > 1 && !fam.startsWith('unknown:')) out.push(`judges ${models.join(', ')} are all of the ${fam} family`);
  return out;
}
