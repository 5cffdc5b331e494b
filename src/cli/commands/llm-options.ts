/**
 * CLI options for LLM tutors and the LLM student voice (used by `run` and `sweep`): the tutor
 * config a run record holds (harness, model, provider: never the key) and the voice spec. The
 * clients themselves come from the run environment (adapters/node/run-env.ts), which reads the
 * same --llm-config files and the environment.
 */
import { Option, type Command } from 'commander';
import { HARNESS_NAMES, tutorEntry, type VoiceSpec } from '../../core/index';
import { loadLlmConfig, pickProvider } from '../../adapters/node/llm-config';

export interface LlmCliOptions {
  harness?: string;
  model?: string;
  provider?: string;
  llmConfig?: string[];
  temperature?: number;
  maxSteps?: number;
  voice?: 'templates' | 'llm';
  voiceModel?: string;
  voiceProvider?: string;
}

const num = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`not a number: ${v}`);
  return n;
};
const collect = (v: string, prev: string[] = []) => [...prev, v];

export function addLlmOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--harness <name>', 'LLM tutor harness, for --tutor llm (default: reactive)').choices([...HARNESS_NAMES]))
    .option('--model <model>', 'model name for --tutor llm, as the provider calls it (e.g. gpt-4.1-mini, llama3.1:8b)')
    .option('--provider <name>', 'provider from --llm-config (default: "default" from OPENAI_BASE_URL/OPENAI_API_KEY, or the only one)')
    .option('--llm-config <file>', 'providers (and judge panel) as JSON or YAML; repeatable', collect)
    .option('--temperature <t>', 'LLM tutor temperature (default 0.2)', num)
    .option('--max-steps <n>', 'model steps per wake before the turn is cut (default 8)', num)
    .addOption(new Option('--voice <kind>', 'student voice: fixed templates, or an LLM role-playing the learner').choices(['templates', 'llm']).default('templates'))
    .option('--voice-model <model>', 'model for --voice llm (default: --model)')
    .option('--voice-provider <name>', 'provider for --voice llm (default: --provider)');
}

export interface LlmRecordParts {
  /** The tutor config for the run record ({} for built-in tutors). */
  tutorConfig: Record<string, unknown>;
  voice: VoiceSpec;
}

/** The LLM parts of a run record from the flags; errors say which flag is missing or misplaced. */
export function llmRecordParts(tutor: string, o: LlmCliOptions): LlmRecordParts {
  const entry = tutorEntry(tutor);
  const isLlm = entry.needs.includes('llm');
  if (!isLlm && (o.harness || o.model || o.temperature !== undefined || o.maxSteps !== undefined)) throw new Error(`--harness, --model, --temperature and --max-steps are for LLM tutors (${tutor} is not one)`);
  const needsVoice = o.voice === 'llm';
  if (!isLlm && !needsVoice) return { tutorConfig: {}, voice: { kind: 'templates' } };
  const cfg = loadLlmConfig(o.llmConfig ?? []);
  let tutorConfig: Record<string, unknown> = {};
  if (isLlm) {
    if (!o.model) throw new Error(`--tutor ${tutor} needs --model <model>`);
    const p = pickProvider(cfg, o.provider);
    tutorConfig = entry.parseConfig({ harness: o.harness ?? 'reactive', model: o.model, provider: p.name, ...(o.temperature !== undefined ? { temperature: o.temperature } : {}), ...(o.maxSteps !== undefined ? { maxStepsPerWake: o.maxSteps } : {}) });
  }
  let voice: VoiceSpec = { kind: 'templates' };
  if (needsVoice) {
    const model = o.voiceModel ?? o.model;
    if (!model) throw new Error('--voice llm needs --voice-model <model> (or --model)');
    voice = { kind: 'llm', provider: pickProvider(cfg, o.voiceProvider ?? o.provider).name, model };
  }
  return { tutorConfig, voice };
}
