/**
 * The Lab's form and selection (Svelte 5 runes): which scenario, tutor, learner model, voice and
 * seed the next run uses, and which stored run is on show. It builds a run record and hands it
 * to the app's run library (library.svelte.ts), which runs it; the run keeps going when the user
 * visits other tabs because neither this object nor the library belongs to a view.
 */
import defaultScenarioYaml from '../../../scenarios/default.yaml?raw';
import { SvelteMap } from 'svelte/reactivity';
import {
  controlRecord,
  TUTORS,
  errorMessage,
  parseScenario,
  runRecord,
  scoreTrace,
  agreementReport,
  formatAgreement,
  HARNESS_NAMES,
  HARNESS_DESCRIPTIONS,
  type RunRecord,
  type Scenario,
  type ScoreReport,
  type TraceEvent,
  type VoiceSpec,
  type CouplingMode,
  type VoiceSpec as Voice,
  type TracerName,
} from '../../core/index';
import type { StoredRun } from '../../adapters/browser/run-store';
import { loadSettings, type LlmSettingsData } from '../../adapters/browser/llm-settings';
import { LOCAL_PROVIDER } from '../../adapters/browser/local-models';
import { browserHttpTransport } from '../../adapters/browser/agent-http';
import { helloAgent, httpTutorConfig, scenarioLabel } from '../../core/index';
import { bundledLibraryFiles, loadBundledScenario } from '../../adapters/browser/library';
import { readTraceStream } from '../../adapters/browser/trace-stream';
import type { LiveRun, RunLibrary } from './library.svelte';
import { planControl, type ControlPlan } from './controls';

export interface ScenarioChoice {
  label: string;
  source: 'built-in' | 'library' | 'file';
  /** Null for a library scenario until it is first chosen (loaded on demand). */
  scenario: Scenario | null;
  /** Library file name, for loading. */
  file?: string;
}

export class Lab {
  readonly library: RunLibrary;
  scenarios = $state.raw<ScenarioChoice[]>([]);
  scenarioIndex = $state(0);
  tutor = $state('planner');
  /** Seed override; null uses the scenario's seed. */
  seed = $state<number | null>(null);
  /** Knowledge tracer for the next run: the scenario's own, or one chosen by name (BKT is an ablation). */
  tracerChoice = $state<'scenario' | TracerName>('scenario');
  error = $state<string | null>(null);
  notice = $state<string | null>(null);
  selectedKey = $state<string | null>(null);
  /** Trace of the selected run (loaded on selection and when it ends). */
  selectedEvents = $state.raw<TraceEvent[]>([]);
  /** An event of the selected run the trace viewer opens on (a link from elsewhere in the page); null: where the tutor first acted. */
  openAt = $state<number | null>(null);
  /** The run this form started or resumed last (its progress is shown under the form). */
  currentKey = $state<string | null>(null);
  selected = $derived.by(() => this.library.runs.find((r) => r.key === this.selectedKey) ?? null);
  current: LiveRun | null = $derived.by(() => (this.currentKey ? (this.library.live.get(this.currentKey) ?? null) : null));
  running = $derived(this.current?.active ?? false);
  scenario = $derived(this.scenarios[this.scenarioIndex]?.scenario ?? null);
  readonly tutors = [...TUTORS.values()].filter((t) => !t.needs.includes('human')).map((t) => ({ name: t.name, description: t.description }));
  /** The chosen tutor needs a model client: the form asks for harness, provider and model. */
  needsLlm = $derived(TUTORS.get(this.tutor)?.needs.includes('llm') ?? false);
  /** The chosen tutor is an external agent behind a URL (the http tutor): the form asks for its URL. */
  needsAgent = $derived(TUTORS.get(this.tutor)?.needs.includes('http') ?? false);
  agentUrl = $state('');
  agentName = $state('');
  agentVersion = $state('');
  agentModel = $state('');
  /** What the agent's hello said (or why it failed); null: not asked. */
  agentHello = $state<{ text: string; failed: boolean } | null>(null);
  // LLM tutor choices (the providers, keys, judges and voice live in LLM settings).
  readonly harnesses = HARNESS_NAMES.map((h) => ({ name: h, description: HARNESS_DESCRIPTIONS[h] }));
  harness = $state<string>('reactive');
  llmProvider = $state('');
  llmModel = $state('');
  voiceKind = $state<'templates' | 'llm'>('templates');
  /** Who decides a graded attempt (learner.coupling; docs/learning-model.md, "Coupling"): the scenario's, or chosen. */
  coupling = $state<'scenario' | CouplingMode>('scenario');
  /** Opt-in: chat messages that give a step or hint of the item count as instruction (learner.chatInstruction). */
  chatInstruction = $state(false);
  llmSettings = $state.raw<LlmSettingsData>(loadSettings().data);
  judging = $state(false);
  judgeProgress = $state('');
  agreement = $state<string | null>(null);
  #judgeAbort: AbortController | null = null;
  /** After a run started here finishes, run the same student with no tutor (once per student), for its value added. */
  controlAfterRun = $state(true);
  /** The run started here whose control starts on its own when it has finished (null: none). */
  autoControlKey = $state<string | null>(null);
  /** No-tutor controls started from the Lab (control key → storage key), until the run library lists them. */
  readonly #startedControls = new SvelteMap<string, string>();
  /**
   * The selected finished run's no-tutor control (controls.ts): itself, unscored with the reason,
   * stored (reused), running, or to run. Null while the run is live or its trace is loading.
   */
  control: ControlPlan | null = $derived.by(() => {
    const rec = this.selected;
    if (!rec || this.library.isLiveHere(rec.key) || this.selectedEvents.length === 0) return null;
    return planControl(rec, this.selectedEvents, { runs: this.library.runs, isLive: (k) => this.library.isLiveHere(k), started: this.#startedControls, voiceProblem: (v) => this.#voiceProblem(v) });
  });
  /** The progress of the selected run's control while it runs. */
  controlProgress = $derived.by(() => (this.control?.kind === 'running' ? (this.library.live.get(this.control.key)?.progressText ?? null) : null));

  constructor(library: RunLibrary) {
    this.library = library;
    this.scenarios = [
      { label: 'Built-in: pre-algebra, after school', source: 'built-in', scenario: parseScenario(defaultScenarioYaml, 'scenarios/default.yaml') },
      ...bundledLibraryFiles().map((file) => ({ label: scenarioLabel(file.replace(/\.yaml$/, '')), source: 'library' as const, scenario: null, file })),
    ];
  }

  /** Shows the newest stored run once the library is open (only the first time). */
  async init(): Promise<void> {
    this.refreshSettings();
    const first = this.library.runs[0];
    if (first && this.selectedKey === null) await this.select(first.key);
  }

  /** Chooses a scenario, loading a library scenario's file the first time. */
  async chooseScenario(index: number): Promise<void> {
    this.scenarioIndex = index;
    const c = this.scenarios[index];
    if (!c || c.scenario || !c.file) return;
    try {
      const scenario = await loadBundledScenario(c.file);
      this.scenarios = this.scenarios.map((x, i) => (i === index ? { ...x, scenario } : x));
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** A new URL is another agent: what the last one said about itself no longer holds. */
  agentUrlChanged(): void {
    this.agentHello = null;
    this.agentName = '';
    this.agentVersion = '';
  }

  /** Asks the agent at agentUrl who it is (the protocol's hello): its name, version and base model. */
  async askAgent(): Promise<void> {
    try {
      const url = String(httpTutorConfig({ url: this.agentUrl.trim() }).url);
      const id = await helloAgent(browserHttpTransport(), { url });
      this.agentName = id.name;
      this.agentVersion = id.version;
      if (!this.agentModel.trim()) this.agentModel = id.model;
      this.agentHello = { text: `The agent says: ${id.name}${id.version ? ` ${id.version}` : ''}${id.model ? `, model ${id.model}` : ', no model reported'}`, failed: false };
    } catch (e) {
      this.agentHello = { text: errorMessage(e), failed: true };
    }
  }

  /** Why a student voice cannot be run in this page (null: it can). */
  #voiceProblem(v: Voice): string | null {
    if (v.kind !== 'llm' || v.provider === LOCAL_PROVIDER) return null;
    return this.llmSettings.providers.some((p) => p.name === v.provider) ? null : `no provider "${v.provider}" in LLM settings (add it there to run the control)`;
  }

  /**
   * Runs the selected run's no-tutor control through the run library, like any run (stored, and
   * reused by every run of the same student). Does nothing when it is stored, running or cannot run.
   */
  runControl(): void {
    const p = this.control;
    if (p?.kind !== 'needed') return;
    if (this.autoControlKey === this.selectedKey) this.autoControlKey = null;
    try {
      const live = this.library.start(controlRecord(p.record));
      this.#startedControls.set(p.key, live.key);
    } catch (e) {
      this.error = `Could not start the no-tutor control: ${errorMessage(e)}`;
    }
  }

  /** Re-reads the LLM settings (they are edited in the settings view). */
  refreshSettings(): void {
    const r = loadSettings();
    this.llmSettings = r.data;
    if (r.error) this.error = r.error;
    if (!this.llmProvider || (this.llmProvider !== LOCAL_PROVIDER && !r.data.providers.some((p) => p.name === this.llmProvider))) this.llmProvider = r.data.providers[0]?.name ?? '';
  }

  /** The run record the form describes. Throws with a reason a user can act on. */
  record(): RunRecord {
    const choice = this.scenarios[this.scenarioIndex];
    if (!choice?.scenario) throw new Error('choose a scenario');
    this.refreshSettings();
    const s = this.llmSettings;
    let config: Record<string, unknown> = {};
    if (this.needsLlm) {
      if (!this.llmProvider) throw new Error('choose an LLM provider (add one under LLM settings)');
      if (!this.llmModel.trim()) throw new Error('enter the model name for the LLM tutor');
      config = TUTORS.get(this.tutor)!.parseConfig({ harness: this.harness, model: this.llmModel.trim(), provider: this.llmProvider });
    }
    if (this.needsAgent) {
      if (!this.agentUrl.trim()) throw new Error("enter the agent's URL");
      if (!this.agentName.trim()) throw new Error('press "Ask the agent" for its name (or type it)');
      config = httpTutorConfig({ url: this.agentUrl.trim(), name: this.agentName.trim(), version: this.agentVersion.trim(), model: this.agentModel.trim() });
    }
    let voice: VoiceSpec = { kind: 'templates' };
    if (this.voiceKind === 'llm') {
      if (!s.voice) throw new Error('no student voice model configured: set one under LLM settings, or use the templates');
      voice = { kind: 'llm', provider: s.voice.provider, model: s.voice.model };
    }
    const coupling = this.coupling === 'scenario' ? (choice.scenario.learner.coupling ?? 'tracer-decides') : this.coupling;
    if (coupling === 'student-attempts' && voice.kind !== 'llm') throw new Error('"The LLM student writes its attempts" needs the LLM student voice: choose it under Student voice (a model set in LLM settings)');
    return runRecord({
      scenario: choice.scenario,
      source: choice.file ? `scenarios/${choice.file}` : choice.source === 'built-in' ? 'scenarios/default.yaml' : choice.label,
      tutor: { name: this.tutor, config },
      voice,
      // Same as the CLI's --tracer: the run_start event records the scenario with the tracer used.
      ...(this.tracerChoice !== 'scenario' ? { tracer: this.tracerChoice } : {}),
      ...(this.seed !== null ? { seed: this.seed } : {}),
      // Recorded in run_start only when it differs from the scenario's (the CLI's --coupling, --chat-instruction).
      ...(this.coupling !== 'scenario' ? { coupling: this.coupling } : {}),
      ...(this.chatInstruction ? { chatInstruction: true } : {}),
    });
  }

  start(): void {
    if (this.running) return;
    this.error = null;
    this.notice = null;
    let record: RunRecord;
    try {
      record = this.record();
    } catch (e) {
      this.error = `Cannot start: ${errorMessage(e)}`;
      return;
    }
    const live = this.library.start(record);
    this.autoControlKey = this.controlAfterRun ? live.key : null;
    this.#follow(live);
  }

  async resume(key: string): Promise<void> {
    this.autoControlKey = null;
    this.error = null;
    this.notice = null;
    try {
      this.#follow(await this.library.resume(key));
    } catch (e) {
      this.error = `Cannot resume: ${errorMessage(e)}`;
    }
  }

  #follow(live: LiveRun): void {
    this.currentKey = live.key;
    this.selectedKey = live.key;
    this.selectedEvents = [];
    void live.done.then(async (rec) => {
      if (this.selectedKey === rec.key) await this.select(rec.key);
    });
  }

  cancel(): void {
    if (this.currentKey) this.library.cancel(this.currentKey);
  }

  async select(key: string, openAt: number | null = null): Promise<void> {
    this.selectedKey = key;
    this.selectedEvents = [];
    this.openAt = openAt;
    if (this.library.isLiveHere(key)) return; // shown live; loaded when it ends
    try {
      const events = await this.library.getEvents(key);
      if (this.selectedKey === key) this.selectedEvents = events;
    } catch (e) {
      this.error = `Could not load run ${key}: ${errorMessage(e)}`;
    }
  }

  /** Report of a stored run: stored, or computed from its events when absent (e.g. interrupted runs). */
  reportOf(rec: StoredRun | null): ScoreReport | null {
    if (!rec) return null;
    if (rec.report) return rec.report;
    if (this.selectedKey === rec.key && this.selectedEvents.length > 0) return scoreTrace(this.selectedEvents);
    return null;
  }

  async judgeSelected(): Promise<void> {
    const rec = this.selected;
    if (!rec || this.judging || this.library.isLiveHere(rec.key)) return;
    this.error = null;
    this.notice = null;
    this.judging = true;
    this.judgeProgress = 'Preparing…';
    this.#judgeAbort = new AbortController();
    try {
      const out = await this.library.judge(rec.key, { signal: this.#judgeAbort.signal, onProgress: (t) => (this.judgeProgress = t) });
      if (this.selectedKey === rec.key) this.selectedEvents = out.events;
      this.judgeProgress = out.summary;
      for (const e of out.errors) this.error = e;
    } catch (e) {
      this.judgeProgress = 'Judging stopped';
      this.error = `Judging failed: ${errorMessage(e)}. Nothing was stored.`;
    } finally {
      this.judging = false;
      this.#judgeAbort = null;
    }
  }

  cancelJudging(): void {
    this.#judgeAbort?.abort();
  }

  /** Judge agreement over every stored run that has verdicts (Spearman per axis; opposite orderings of tutors). */
  async computeAgreement(): Promise<void> {
    this.error = null;
    try {
      const judged: { runId: string; events: TraceEvent[] }[] = [];
      for (const r of this.library.runs) {
        if (!r.report?.details.judged?.panel) continue;
        judged.push({ runId: r.runId, events: await this.library.getEvents(r.key) });
      }
      this.agreement = judged.length === 0 ? 'No stored run has judge verdicts yet.' : `${judged.length} judged run${judged.length === 1 ? '' : 's'}.\n${formatAgreement(agreementReport(judged))}`;
    } catch (e) {
      this.error = `Could not compute judge agreement: ${errorMessage(e)}`;
    }
  }

  async exportRun(key: string): Promise<{ filename: string; text: string }> {
    return this.library.exportRun(key);
  }

  async importTrace(file: File): Promise<void> {
    this.error = null;
    try {
      // Read as a stream, line by line: a large trace is never one string in the page.
      const rec = await this.library.importTrace(await readTraceStream(file, file.name), file.name);
      await this.select(rec.key);
      this.notice = rec.duplicate ? `${file.name} is already in the run library (the same trace, ${rec.events} events): nothing was added.` : `Imported ${file.name} (${rec.events} events).`;
    } catch (e) {
      this.error = `Could not import ${file.name}: ${errorMessage(e)}`;
    }
  }

  async importScenario(file: File): Promise<void> {
    this.error = null;
    try {
      const scenario = parseScenario(await file.text(), file.name);
      this.scenarios = [...this.scenarios, { label: `${scenario.title} (${file.name})`, source: 'file', scenario }];
      this.scenarioIndex = this.scenarios.length - 1;
      this.notice = `Loaded scenario ${scenario.id} from ${file.name}.`;
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  async remove(key: string): Promise<void> {
    this.error = null;
    try {
      await this.library.remove(key);
    } catch (e) {
      this.error = `Could not delete the run: ${errorMessage(e)}`;
      return;
    }
    if (this.selectedKey === key) {
      this.selectedKey = null;
      this.selectedEvents = [];
    }
  }
}
