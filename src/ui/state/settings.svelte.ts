/**
 * LLM settings (rune class): providers with keys, the judge panel, the student voice. Persisted
 * in this browser only: localStorage, with the keys there or in this tab's sessionStorage as the
 * user chooses (src/adapters/browser/llm-settings.ts).
 */
import { errorMessage, isLlmError, HARNESS_NAMES, RUBRIC_IDS, type RubricId } from '../../core/index';
import { ProviderSchema, panelWarnings, type PanelConfig } from '../../adapters/llm/config';
import { diagnoseUnreachable, type Unreachable } from '../../adapters/browser/reachability';
import { clientFor, emptySettings, loadSettings, saveSettings, type KeyStorageMode, type LlmSettingsData } from '../../adapters/browser/llm-settings';
import { LOCAL_PROVIDER, normaliseHub } from '../../adapters/browser/local-models';

export interface ProviderForm {
  name: string;
  baseURL: string;
  apiKey: string;
  family: string;
  model: string;
  priceIn: string;
  priceOut: string;
  maxConcurrency: number;
  timeoutS: number;
  jsonMode: boolean;
}

export const emptyProviderForm = (): ProviderForm => ({ name: '', baseURL: 'http://localhost:11434/v1', apiKey: '', family: '', model: '', priceIn: '', priceOut: '', maxConcurrency: 4, timeoutS: 120, jsonMode: true });

export class LlmSettings {
  data = $state<LlmSettingsData>(emptySettings());
  error = $state<string | null>(null);
  notice = $state<string | null>(null);
  testing = $state(false);
  /** The last test's outcome, shown beside the Test button (null before a test and while one runs). */
  testResult = $state<{ ok: boolean; kind?: Unreachable; text: string; fixes: string[] } | null>(null);
  readonly harnesses = HARNESS_NAMES;
  readonly rubricIds = RUBRIC_IDS;
  warnings = $derived(panelWarnings({ id: 'panel', judges: this.data.panel.judges, temperature: this.data.panel.temperature, daysPerRun: this.data.panel.daysPerRun, strata: 3, rubrics: this.data.panel.rubrics, attempts: 3, maxConsecutiveFailures: 3, concurrency: 4 } as PanelConfig, this.data.providers));

  constructor() {
    const r = loadSettings();
    this.data = r.data;
    this.error = r.error;
  }

  #save(msg: string): void {
    try {
      saveSettings($state.snapshot(this.data) as LlmSettingsData);
      this.notice = msg;
      this.error = null;
    } catch (e) {
      this.error = `Could not save the settings: ${errorMessage(e)}`;
    }
  }

  addProvider(f: ProviderForm): boolean {
    this.notice = null;
    if (f.name.trim() === LOCAL_PROVIDER) {
      this.error = `Provider not saved: the name "${LOCAL_PROVIDER}" is the in-page model's (In this browser); choose another name`;
      return false;
    }
    const models: Record<string, { input: number; output: number; family?: string }> = {};
    if (f.model.trim() && (f.priceIn.trim() || f.priceOut.trim())) models[f.model.trim()] = { input: Number(f.priceIn || 0), output: Number(f.priceOut || 0) };
    const r = ProviderSchema.safeParse({
      name: f.name.trim(),
      baseURL: f.baseURL.trim(),
      ...(f.apiKey ? { apiKey: f.apiKey } : {}),
      ...(f.family.trim() ? { family: f.family.trim() } : {}),
      models,
      maxConcurrency: f.maxConcurrency,
      timeoutMs: Math.round(f.timeoutS * 1000),
      jsonMode: f.jsonMode,
    });
    if (!r.success) {
      this.error = `Provider not saved: ${r.error.issues.map((i) => `${i.path.join('.') || 'provider'}: ${i.message}`).join('; ')}`;
      return false;
    }
    const others = this.data.providers.filter((p) => p.name !== r.data.name);
    this.data.providers = [...others, r.data];
    this.#save(`Saved provider ${r.data.name}.`);
    return true;
  }

  removeProvider(name: string): void {
    this.data.providers = this.data.providers.filter((p) => p.name !== name);
    this.data.panel.judges = this.data.panel.judges.filter((j) => j.provider !== name);
    if (this.data.voice?.provider === name) this.data.voice = null;
    this.#save(`Removed provider ${name} (and its judges).`);
  }

  addJudge(provider: string, model: string, family: string): void {
    if (!provider || !model.trim()) {
      this.error = 'A judge needs a provider and a model.';
      return;
    }
    this.data.panel.judges = [...this.data.panel.judges, { provider, model: model.trim(), ...(family.trim() ? { family: family.trim() } : {}) }];
    this.#save(`Added judge ${model.trim()}.`);
  }

  removeJudge(i: number): void {
    this.data.panel.judges = this.data.panel.judges.filter((_, k) => k !== i);
    this.#save('Removed the judge.');
  }

  setPanel(daysPerRun: number | null, temperature: number, rubrics: RubricId[]): void {
    this.data.panel.daysPerRun = daysPerRun;
    this.data.panel.temperature = temperature;
    this.data.panel.rubrics = rubrics.length ? rubrics : [...RUBRIC_IDS];
    this.#save('Saved the panel settings.');
  }

  /** The in-page provider's hub and device. */
  setLocal(hub: string, device: 'auto' | 'wasm' | 'webgpu'): void {
    try {
      this.data.local = { hub: normaliseHub(hub), device };
    } catch (e) {
      this.error = `Not saved: ${errorMessage(e)}`;
      return;
    }
    this.#save(`In this browser: models come from ${this.data.local.hub}, device ${device}.`);
  }

  /** How many judges of the panel are the in-page model (a warning is shown). */
  localJudges = $derived(this.data.panel.judges.filter((j) => j.provider === LOCAL_PROVIDER).length);

  /** Where the keys are kept: on this device (localStorage) or for this session only (this tab's sessionStorage). */
  setKeyStorage(mode: KeyStorageMode): void {
    if (this.data.keyStorage === mode) return;
    this.data.keyStorage = mode;
    this.#save(mode === 'device' ? 'Keys are remembered on this device (localStorage) until you remove their provider.' : 'Keys are kept for this session only: they are forgotten when this tab closes, and removed from this device.');
  }

  setVoice(provider: string | null, model: string): void {
    this.data.voice = provider && model.trim() ? { provider, model: model.trim() } : null;
    this.#save(this.data.voice ? `The student voice is ${this.data.voice.model} (when chosen for a run).` : 'The student voice is the templates.');
  }

  /**
   * Sends one tiny request to check a provider and model, once (no retries: a test answers at
   * once). The outcome goes to `testResult`, shown beside the Test button. A failure without a
   * status (the browser's "Failed to fetch") is diagnosed: CORS, mixed content, or nothing
   * listening (reachability.ts).
   */
  async test(provider: string, model: string): Promise<void> {
    this.testing = true;
    this.testResult = null;
    try {
      const data = $state.snapshot(this.data) as LlmSettingsData;
      const once = { ...data, providers: data.providers.map((p) => (p.name === provider ? { ...p, maxRetries: 0 } : p)) };
      const c = clientFor(once, provider, model);
      const res = await c.chat({ messages: [{ role: 'user', content: 'Reply with the word OK.' }], maxTokens: 10 });
      this.testResult = { ok: true, text: `${provider}/${model} answered: "${(res.content ?? '').slice(0, 80)}" (${res.usage ? `${res.usage.promptTokens} + ${res.usage.completionTokens} tokens` : 'no usage reported'}).`, fixes: [] };
    } catch (e) {
      const p = this.data.providers.find((x) => x.name === provider);
      if (isLlmError(e) && e.code === 'LLM_NETWORK' && p && typeof location !== 'undefined') {
        const d = await diagnoseUnreachable(location.origin, p.baseURL);
        this.testResult = { ok: false, kind: d.kind, text: `Test failed: ${d.summary}`, fixes: d.fixes };
      } else this.testResult = { ok: false, text: `Test failed: ${errorMessage(e)}`, fixes: [] };
    } finally {
      this.testing = false;
    }
  }
}
