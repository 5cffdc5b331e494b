/**
 * CLI options for LLM tutors and the LLM student voice (used by `run`): picks the provider and
 * model, builds the client (key from the environment or the config file), and the tutor config a
 * trace records (harness, model, provider: never the key).
 */
import { Option, type Command } from 'commander';
import { HARNESS_NAMES, LlmVoice, llmTutorConfig, type LlmClient, type LlmTutorConfig, type StudentVoice } from '../../core/index';
import { loadLlmConfig, makeClient, pickProvider } from '../../adapters/node/llm-config';

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
    .addOption(new Option('--harness <name>', 'LLM tutor harness (with --tutor llm)').choices([...HARNESS_NAMES]))
    .option('--model <model>', 'model name for --tutor llm, as the provider calls it (e.g. gpt-4.1-mini, llama3.1:8b)')
    .option('--provider <name>', 'provider from --llm-config (default: "default" from OPENAI_BASE_URL/OPENAI_API_KEY, or the only one)')
    .option('--llm-config <file>', 'providers (and judge panel) as JSON or YAML; repeatable', collect)
    .option('--temperature <t>', 'LLM tutor temperature (default 0.2)', num)
    .option('--max-steps <n>', 'model steps per wake before the turn is cut (default 8)', num)
    .addOption(new Option('--voice <kind>', 'student voice: fixed templates, or an LLM role-playing the learner').choices(['templates', 'llm']).default('templates'))
    .option('--voice-model <model>', 'model for --voice llm (default: --model)')
    .option('--voice-provider <name>', 'provider for --voice llm (default: --provider)');
}

export interface LlmSetup {
  tutorConfig: LlmTutorConfig | null;
  tutorClient: LlmClient | null;
  voice: StudentVoice | null;
}

export function llmSetup(tutor: string, o: LlmCliOptions, learnerName: string): LlmSetup {
  const isLlm = tutor === 'llm';
  if (!isLlm && (o.harness || o.model || o.temperature !== undefined || o.maxSteps !== undefined)) throw new Error('--harness, --model, --temperature and --max-steps are for --tutor llm');
  const needsVoice = o.voice === 'llm';
  if (!isLlm && !needsVoice) return { tutorConfig: null, tutorClient: null, voice: null };
  const cfg = loadLlmConfig(o.llmConfig ?? []);
  let tutorConfig: LlmTutorConfig | null = null;
  let tutorClient: LlmClient | null = null;
  if (isLlm) {
    if (!o.model) throw new Error('--tutor llm needs --model <model>');
    const p = pickProvider(cfg, o.provider);
    tutorClient = makeClient(p, o.model);
    tutorConfig = llmTutorConfig({ harness: o.harness ?? 'reactive', model: o.model, provider: p.name, ...(o.temperature !== undefined ? { temperature: o.temperature } : {}), ...(o.maxSteps !== undefined ? { maxStepsPerWake: o.maxSteps } : {}) });
  }
  let voice: StudentVoice | null = null;
  if (needsVoice) {
    const model = o.voiceModel ?? o.model;
    if (!model) throw new Error('--voice llm needs --voice-model <model> (or --model)');
    const p = pickProvider(cfg, o.voiceProvider ?? o.provider);
    voice = new LlmVoice(makeClient(p, model), { learnerName });
  }
  return { tutorConfig, tutorClient, voice };
}
