/**
 * CLI options for LLM tutors and the LLM student voice (used by `run` and `sweep`): the tutor
 * config a run record holds (harness, model, provider: never the key) and the voice spec. The
 * clients themselves come from the run environment (adapters/node/run-env.ts), which reads the
 * same --llm-config files and the environment.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { AUTOMATED_TUTORS, COUPLING_MODES, HARNESS_NAMES, tutorEntry, type CouplingMode, type VoiceSpec } from '../../core/index';
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
  coupling?: CouplingMode;
  chatInstruction?: boolean;
}

const num = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`not a number: ${v}`);
  return n;
};
const collect = (v: string, prev: string[] = []) => [...prev, v];

/**
 * The LLM flags. `repeatable` (sweep): --harness and --model may be given several times, and an
 * LLM tutor runs once per model × harness (see sweepTutors).
 */
export function addLlmOptions(cmd: Command, o: { repeatable?: boolean } = {}): Command {
  const harness = new Option('--harness <name>', o.repeatable ? 'LLM tutor harness, for --tutor llm; repeatable: every model × harness is a tutor (default: reactive)' : 'LLM tutor harness, for --tutor llm (default: reactive)');
  const model = new Option('--model <model>', o.repeatable ? 'model name for --tutor llm, as the provider calls it (e.g. gpt-4.1-mini, llama3.1:8b); repeatable: every model × harness is a tutor' : 'model name for --tutor llm, as the provider calls it (e.g. gpt-4.1-mini, llama3.1:8b)');
  if (o.repeatable) {
    harness.argParser((v: string, prev: string[] = []) => {
      if (!(HARNESS_NAMES as readonly string[]).includes(v)) throw new InvalidArgumentError(`Allowed choices are ${HARNESS_NAMES.join(', ')}.`);
      return prev.includes(v) ? prev : [...prev, v];
    });
    model.argParser((v: string, prev: string[] = []) => (prev.includes(v) ? prev : [...prev, v]));
  } else harness.choices([...HARNESS_NAMES]);
  return cmd
    .addOption(harness)
    .addOption(model)
    .option('--provider <name>', 'provider from --llm-config (default: "default" from OPENAI_BASE_URL/OPENAI_API_KEY, or the only one)')
    .option('--llm-config <file>', 'providers (and judge panel) as JSON or YAML; repeatable', collect)
    .option('--temperature <t>', 'LLM tutor temperature (default 0.2)', num)
    .option('--max-steps <n>', 'model steps per wake before the turn is cut (default 8)', num)
    .addOption(new Option('--voice <kind>', 'student voice: fixed templates, or an LLM role-playing the learner').choices(['templates', 'llm']).default('templates'))
    .addOption(
      o.repeatable
        ? new Option('--voice-model <model>', 'model for --voice llm (default: --model); repeatable: every run once per student model; <model>@<provider> for a model of another provider than --voice-provider').argParser((v: string, prev: string[] = []) => (prev.includes(v) ? prev : [...prev, v]))
        : new Option('--voice-model <model>', 'model for --voice llm (default: --model)'),
    )
    .option('--voice-provider <name>', 'provider for --voice llm (default: --provider)')
    .addOption(new Option('--coupling <mode>', 'who decides a graded attempt: the knowledge tracer (tracer-decides, the default) or the LLM student, whose attempts the checker grades (student-attempts; needs --voice llm). docs/learning-model.md').choices([...COUPLING_MODES]))
    .option('--chat-instruction', 'engines 1-2 only: kept so old commands run; engine 3 checks every chat message for instruction, so it changes nothing (docs/learning-model.md)');
}

/** The coupling and chat-instruction overrides of a run record from the flags (nothing when not given). */
export function learnerParts(o: Pick<LlmCliOptions, 'coupling' | 'chatInstruction' | 'voice'>): { coupling?: CouplingMode; chatInstruction?: boolean } {
  if (o.coupling === 'student-attempts' && o.voice !== 'llm') throw new Error('--coupling student-attempts needs an LLM student: --voice llm --voice-model <model>');
  if (o.chatInstruction) process.stderr.write('note: --chat-instruction changes nothing since engine 3: every chat message is checked for instruction (docs/learning-model.md)\n');
  return { ...(o.coupling ? { coupling: o.coupling } : {}), ...(o.chatInstruction ? { chatInstruction: true } : {}) };
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

/** The sweep's flags: --tutor, --harness, --model and --voice-model repeatable. */
export interface SweepLlmCliOptions extends Omit<LlmCliOptions, 'harness' | 'model' | 'voiceModel'> {
  harness?: string[];
  model?: string[];
  voiceModel?: string[];
}

/** Commander parser for a repeatable --tutor: a registered automated tutor, each once. */
export const collectTutor = (v: string, prev: string[] = []): string[] => {
  if (!AUTOMATED_TUTORS.includes(v)) throw new InvalidArgumentError(`Allowed choices are ${AUTOMATED_TUTORS.join(', ')}.`);
  return prev.includes(v) ? prev : [...prev, v];
};

/**
 * The tutors of a sweep from its flags: each --tutor in order; an LLM tutor once per --model ×
 * --harness (model-major; harness default reactive); built-in tutors with an empty config. And the
 * student voices: the templates, or one LLM voice per --voice-model (every tutor × scenario × seed
 * runs once per voice; `voice` is the first). Errors say which flag is missing or misplaced.
 */
export function sweepTutors(tutors: readonly string[], o: SweepLlmCliOptions): { tutors: { name: string; config: Record<string, unknown> }[]; voice: VoiceSpec; voices: VoiceSpec[] } {
  const models = o.model ?? [];
  const harnesses = o.harness?.length ? o.harness : ['reactive'];
  const llmTutors = tutors.filter((t) => tutorEntry(t).needs.includes('llm'));
  if (!llmTutors.length && (o.harness?.length || models.length || o.temperature !== undefined || o.maxSteps !== undefined)) throw new Error(`--harness, --model, --temperature and --max-steps are for LLM tutors (${tutors.join(', ')} ${tutors.length === 1 ? 'is not one' : 'are not'})`);
  if (llmTutors.length && !models.length) throw new Error(`--tutor ${llmTutors[0]} needs --model <model> (repeatable: one tutor per model × harness)`);
  const needsVoice = o.voice === 'llm';
  if (!needsVoice && o.voiceModel?.length) throw new Error('--voice-model is for --voice llm');
  if (!llmTutors.length && !needsVoice) return { tutors: tutors.map((name) => ({ name, config: {} })), voice: { kind: 'templates' }, voices: [{ kind: 'templates' }] };
  const cfg = loadLlmConfig(o.llmConfig ?? []);
  const out: { name: string; config: Record<string, unknown> }[] = [];
  for (const name of tutors) {
    const entry = tutorEntry(name);
    if (!entry.needs.includes('llm')) {
      out.push({ name, config: {} });
      continue;
    }
    const provider = pickProvider(cfg, o.provider).name;
    for (const model of models)
      for (const harness of harnesses)
        out.push({ name, config: entry.parseConfig({ harness, model, provider, ...(o.temperature !== undefined ? { temperature: o.temperature } : {}), ...(o.maxSteps !== undefined ? { maxStepsPerWake: o.maxSteps } : {}) }) });
  }
  let voices: VoiceSpec[] = [{ kind: 'templates' }];
  if (needsVoice) {
    if (!o.voiceModel?.length && models.length > 1) throw new Error('--voice llm with several --model: choose the voice\'s with --voice-model <model>');
    const vm = o.voiceModel?.length ? o.voiceModel : models.slice(0, 1);
    if (!vm.length) throw new Error('--voice llm needs --voice-model <model> (or --model)');
    // "<model>@<provider>": a student model of another provider (students of mixed provenance); else --voice-provider's.
    const provider = (name?: string) => pickProvider(cfg, name ?? o.voiceProvider ?? o.provider).name;
    voices = vm.map((m) => {
      const at = m.lastIndexOf('@');
      return at > 0 ? { kind: 'llm', provider: provider(m.slice(at + 1)), model: m.slice(0, at) } : { kind: 'llm', provider: provider(), model: m };
    });
  }
  return { tutors: out, voice: voices[0]!, voices };
}
