/**
 * The LLM tutor entry ("llm"): a tool-calling tutor over any LlmClient, in one of the harness
 * styles. Its config (recorded in the trace's tutor spec) names the harness, model and provider;
 * it never holds a key.
 */
import { z } from 'zod';
import type { TutorEntry } from '../types';
import { LlmError } from '../../llm/types';
import { HARNESS_NAMES, createHarness } from './harnesses';
import { TUTOR_PROMPT_VERSION } from './prompts';

export const LlmTutorConfigSchema = z
  .object({
    harness: z.enum(HARNESS_NAMES),
    model: z.string().min(1),
    provider: z.string().min(1),
    temperature: z.number().min(0).max(2).default(0.2),
    maxStepsPerWake: z.number().int().min(1).max(50).default(8),
    notesMaxChars: z.number().int().min(200).max(20000).default(2000),
    historyMaxMessages: z.number().int().min(2).max(400).default(40),
    promptVersion: z.literal(TUTOR_PROMPT_VERSION).default(TUTOR_PROMPT_VERSION),
  })
  .strict();
export type LlmTutorConfig = z.infer<typeof LlmTutorConfigSchema>;

/** Validates a config as given (CLI flags, page settings) and fills defaults: the form a trace records. */
export function llmTutorConfig(input: Record<string, unknown>): LlmTutorConfig {
  const r = LlmTutorConfigSchema.safeParse(input);
  if (!r.success) throw new LlmError('LLM_CONFIG', `LLM tutor config: ${r.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ')}`);
  return r.data;
}

/**
 * The LLM tutor's part of a run id: "llm-<harness>-<model>", the model lower-cased with every run
 * of characters other than letters, digits, "." and "-" made one "-" ("llama3.1:8b" →
 * "llm-reactive-llama3.1-8b", "meta-llama/Llama-3.1-8B" → "llm-notes-meta-llama-llama-3.1-8b").
 * Run ids are file names: no "/", no "__" (the separator of run ids), the same on case-insensitive
 * disks. Two models that differ only in such characters get the same label; a sweep refuses that.
 */
export function llmRunLabel(c: Pick<LlmTutorConfig, 'harness' | 'model'>): string {
  const model = c.model.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'model';
  return `llm-${c.harness}-${model}`;
}

export const llmTutor: TutorEntry = {
  name: 'llm',
  description: 'A tool-calling LLM tutor (any OpenAI-compatible model) in a chosen harness: reactive, notes or curriculum.',
  needs: ['llm'],
  configSchema: LlmTutorConfigSchema,
  parseConfig: (config) => llmTutorConfig(config),
  model: (config) => {
    const c = llmTutorConfig(config);
    return { provider: c.provider, model: c.model };
  },
  runLabel: (config) => llmRunLabel(llmTutorConfig(config)),
  create({ config, llm }) {
    const cfg = llmTutorConfig(config);
    if (!llm) throw new LlmError('LLM_CONFIG', 'the llm tutor needs a model client: configure a provider (page settings, or OPENAI_BASE_URL / --llm-config for the CLI)');
    if (llm.model !== cfg.model || llm.provider !== cfg.provider) throw new LlmError('LLM_CONFIG', `the tutor config names ${cfg.provider}/${cfg.model} but the client is ${llm.provider}/${llm.model}`);
    return createHarness(cfg.harness, llm, cfg);
  },
};

export { HARNESS_NAMES, HARNESS_DESCRIPTIONS, type HarnessName } from './harnesses';
export { LMS_TOOL_SPECS } from './loop';
export { TUTOR_PROMPT_VERSION } from './prompts';
