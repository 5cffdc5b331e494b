/**
 * The Lab's state and actions (Svelte 5 runes). Components render it and call its methods; all
 * I/O (worker, IndexedDB, files) goes through here and the browser adapters.
 */
import defaultScenarioYaml from '../../../scenarios/default.yaml?raw';
import {
  TUTORS,
  errorMessage,
  loadPersonaSeeds,
  parseScenario,
  runEpisode,
  runIdFor,
  scoreTrace,
  tutorEntry,
  tutorLabel,
  llmTutorConfig,
  judgeTrace,
  withVerdicts,
  agreementReport,
  formatAgreement,
  LlmVoice,
  HARNESS_NAMES,
  HARNESS_DESCRIPTIONS,
  PANEL_DEFAULTS,
  type StudentVoice,
  type LlmClient,
  type CurvePoint,
  type Scenario,
  type ScoreReport,
  type TraceEvent,
} from '../../core/index';
import { RunStore, type RunRecord } from '../../adapters/browser/run-store';
import { createWorkerTracer, type WorkerTracer } from '../../adapters/browser/kt-client';
import { clientFor, loadSettings, type LlmSettingsData } from '../../adapters/browser/llm-settings';
import { bundledLibraryFiles, loadBundledScenario } from '../../adapters/browser/library';

/** Tokens, cost and retries of the LLM calls of the run in progress (from its model_call events). */
export interface LiveUsage {
  calls: number;
  failed: number;
  retries: number;
  tokensIn: number;
  tokensOut: number;
  cost: number | null;
}
const noUsage = (): LiveUsage => ({ calls: 0, failed: 0, retries: 0, tokensIn: 0, tokensOut: 0, cost: null });

export interface ScenarioChoice {
  label: string;
  source: 'built-in' | 'library' | 'file';
  /** Null for a library scenario until it is first chosen (loaded on demand). */
  scenario: Scenario | null;
  /** Library file name, for loading. */
  file?: string;
}

const FLUSH_EVERY = 250;

export class Lab {
  scenarios = $state.raw<ScenarioChoice[]>([]);
  scenarioIndex = $state(0);
  tutor = $state('planner');
  /** Seed override; null uses the scenario's seed. */
  seed = $state<number | null>(null);
  /** Knowledge tracer for the next run: the scenario's own, or one chosen by name (BKT is an ablation). */
  tracerChoice = $state<'scenario' | 'akt' | 'bkt'>('scenario');
  running = $state(false);
  progress = $state(0);
  progressText = $state('');
  /** What runs the learner model, and why (shown under the progress bar). */
  tracerStatus = $state<string | null>(null);
  liveCurve = $state.raw<CurvePoint[]>([]);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);
  runs = $state.raw<RunRecord[]>([]);
  selectedKey = $state<string | null>(null);
  /** Trace of the selected run (loaded on selection). */
  selectedEvents = $state.raw<TraceEvent[]>([]);
  selected = $derived(this.runs.find((r) => r.key === this.selectedKey) ?? null);
  scenario = $derived(this.scenarios[this.scenarioIndex]?.scenario ?? null);
  readonly tutors = [...TUTORS.values()].map((t) => ({ name: t.name, description: t.description }));
  // LLM tutor choices (the providers, keys, judges and voice live in LLM settings).
  readonly harnesses = HARNESS_NAMES.map((h) => ({ name: h, description: HARNESS_DESCRIPTIONS[h] }));
  harness = $state<string>('reactive');
  llmProvider = $state('');
  llmModel = $state('');
  voiceKind = $state<'templates' | 'llm'>('templates');
  llmSettings = $state.raw<LlmSettingsData>(loadSettings().data);
  liveUsage = $state<LiveUsage>(noUsage());
  judging = $state(false);
  judgeProgress = $state('');
  #judgeAbort: AbortController | null = null;

  #store: RunStore;
  #abort: AbortController | null = null;

  constructor(store = new RunStore()) {
    this.#store = store;
    this.scenarios = [
      { label: 'Built-in: pre-algebra, after school', source: 'built-in', scenario: parseScenario(defaultScenarioYaml, 'scenarios/default.yaml') },
      ...bundledLibraryFiles().map((file) => ({ label: file.replace(/\.yaml$/, '').replace('--', ' · '), source: 'library' as const, scenario: null, file })),
    ];
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

  /** Re-reads the LLM settings (they are edited in the settings view). */
  refreshSettings(): void {
    const r = loadSettings();
    this.llmSettings = r.data;
    if (r.error) this.error = r.error;
    if (!this.llmProvider || !r.data.providers.some((p) => p.name === this.llmProvider)) this.llmProvider = r.data.providers[0]?.name ?? '';
  }

  /** The LLM parts of a run: tutor config and client, and the student voice. Throws with a reason a user can act on. */
  #llmParts(learnerName: string): { config: Record<string, unknown>; client: LlmClient | null; voice: StudentVoice | null } {
    this.refreshSettings();
    const s = this.llmSettings;
    let config: Record<string, unknown> = {};
    let client: LlmClient | null = null;
    if (this.tutor === 'llm') {
      if (!this.llmProvider) throw new Error('choose an LLM provider (add one under LLM settings)');
      if (!this.llmModel.trim()) throw new Error('enter the model name for the LLM tutor');
      config = llmTutorConfig({ harness: this.harness, model: this.llmModel.trim(), provider: this.llmProvider });
      client = clientFor(s, this.llmProvider, this.llmModel.trim());
    }
    let voice: StudentVoice | null = null;
    if (this.voiceKind === 'llm') {
      if (!s.voice) throw new Error('no student voice model configured: set one under LLM settings, or use the templates');
      voice = new LlmVoice(clientFor(s, s.voice.provider, s.voice.model), { learnerName });
    }
    return { config, client, voice };
  }

  async init(): Promise<void> {
    this.refreshSettings();
    try {
      const runs = await this.#store.listRuns();
      // A run still marked running belongs to a page that closed mid-run: keep its events, say so.
      for (const r of runs.filter((x) => x.status === 'running')) {
        r.status = 'failed';
        r.error = 'interrupted: the page was closed or reloaded during the run (the events recorded so far are kept)';
        await this.#store.putRun(r);
      }
      this.runs = await this.#store.listRuns();
      const first = this.runs[0];
      if (first && this.selectedKey === null) await this.select(first.key);
    } catch (e) {
      this.error = `Could not open the run library in this browser: ${errorMessage(e)}`;
    }
  }

  async start(): Promise<void> {
    const choice = this.scenarios[this.scenarioIndex];
    if (!choice || !choice.scenario || this.running) return;
    this.error = null;
    this.notice = null;
    // Same as the CLI's --tracer: the run_start event records the scenario with the tracer used.
    const scenario = this.tracerChoice === 'scenario' ? choice.scenario : { ...choice.scenario, learner: { ...choice.scenario.learner, tracer: this.tracerChoice } };
    const seed = this.seed ?? scenario.seed;
    const entry = tutorEntry(this.tutor);
    let llm: { config: Record<string, unknown>; client: LlmClient | null; voice: StudentVoice | null };
    try {
      llm = this.#llmParts(scenario.learner.name);
    } catch (e) {
      this.error = `Cannot start: ${errorMessage(e)}`;
      return;
    }
    const key = `${runIdFor(scenario.id, entry.name, seed)}@${Date.now()}`;
    const rec: RunRecord = {
      key,
      runId: runIdFor(scenario.id, entry.name, seed),
      scenarioId: scenario.id,
      scenarioTitle: scenario.title,
      tutor: tutorLabel({ name: entry.name, config: llm.config }),
      seed,
      tracer: scenario.learner.tracer,
      status: 'running',
      endReason: null,
      createdAt: Date.now(),
      events: 0,
      report: null,
      error: null,
    };
    this.running = true;
    this.progress = 0;
    this.liveCurve = [];
    this.liveUsage = noUsage();
    this.progressText = 'Loading the learner model…';
    this.#abort = new AbortController();
    let tracer: WorkerTracer | null = null;
    let loading = true;
    const buffer: TraceEvent[] = [];
    const all: TraceEvent[] = [];
    let writes = Promise.resolve();
    const flush = () => {
      const batch = buffer.splice(0);
      writes = writes.then(() => this.#store.appendEvents(key, batch));
    };
    try {
      await this.#store.putRun(rec);
      this.runs = [rec, ...this.runs];
      this.selectedKey = key;
      this.selectedEvents = [];
      // Downloads still in flight after a failure must not overwrite "Failed".
      tracer = await createWorkerTracer(scenario.learner.tracer, (p) => {
        if (loading) this.progressText = p.text;
      });
      loading = false;
      const l = tracer.loaded;
      this.tracerStatus = `Learner model: ${l.info.name} (${l.info.version}) on ${l.runtime}; ${l.reason}${l.fromCache ? '' : '; model downloaded'}`;
      this.progressText = 'Running…';
      const res = await runEpisode({
        scenario,
        tutor: entry.create({ config: llm.config, ...(llm.client ? { llm: llm.client } : {}) }),
        tutorSpec: { name: entry.name, config: llm.config },
        tracer,
        seeds: await loadPersonaSeeds(),
        seed,
        ...(llm.voice ? { voice: llm.voice } : {}),
        signal: this.#abort.signal,
        onEvent: (e) => {
          buffer.push(e);
          all.push(e);
          if (buffer.length >= FLUSH_EVERY) flush();
          if (e.type === 'model_call') {
            const u = this.liveUsage;
            this.liveUsage = {
              calls: u.calls + 1,
              failed: u.failed + (e.response === null ? 1 : 0),
              retries: u.retries + e.retries,
              tokensIn: u.tokensIn + (e.usage?.promptTokens ?? 0),
              tokensOut: u.tokensOut + (e.usage?.completionTokens ?? 0),
              cost: e.cost === null ? u.cost : (u.cost ?? 0) + e.cost,
            };
          }
          if (e.type === 'probe') this.liveCurve = [...this.liveCurve, { day: e.day, solveRate: e.solveRate, gradedRate: e.gradedRate }];
          else if (e.type === 'lms_event' && e.kind === 'day_start') {
            this.progress = (e.day - 1) / scenario.horizonDays;
            this.progressText = `Day ${e.day} of ${scenario.horizonDays}`;
          }
        },
      });
      flush();
      await writes;
      rec.events = res.events.length;
      rec.endReason = res.reason;
      rec.report = scoreTrace(res.events);
      rec.status = res.reason === 'horizon_reached' ? 'done' : 'failed';
      const end = res.events[res.events.length - 1];
      rec.error = res.reason === 'horizon_reached' ? null : end?.type === 'run_end' ? `${res.reason}: ${end.message ?? ''}` : res.reason;
      this.progress = 1;
      this.progressText = res.reason === 'horizon_reached' ? 'Done' : `Stopped: ${res.reason}`;
      this.selectedEvents = res.events;
    } catch (e) {
      flush();
      await writes.catch(() => undefined);
      rec.status = 'failed';
      rec.events = all.length;
      rec.error = errorMessage(e);
      loading = false;
      this.error = `The run failed: ${errorMessage(e)}. The events recorded so far are kept.`;
      this.progressText = 'Failed';
    } finally {
      tracer?.dispose();
      this.running = false;
      this.#abort = null;
      await this.#store.putRun(rec).catch((e: unknown) => (this.error = `Could not save the run: ${errorMessage(e)}`));
      this.runs = this.runs.map((r) => (r.key === key ? { ...rec } : r));
    }
  }

  cancel(): void {
    this.#abort?.abort();
  }

  /**
   * Judges the selected stored run with the panel from LLM settings. The verdicts are stored with
   * the run's trace (replacing an earlier panel's) and the report is recomputed from it.
   */
  async judgeSelected(): Promise<void> {
    const rec = this.selected;
    if (!rec || this.judging || this.running) return;
    this.error = null;
    this.notice = null;
    this.refreshSettings();
    const s = this.llmSettings;
    if (s.panel.judges.length === 0) {
      this.error = 'No judges configured: add them under LLM settings.';
      return;
    }
    this.judging = true;
    this.judgeProgress = 'Preparing…';
    this.#judgeAbort = new AbortController();
    try {
      const events = await this.#store.getEvents(rec.key);
      const endIdx = events.findIndex((e) => e.type === 'run_end');
      if (endIdx < 0) throw new Error('this run has no end (it was interrupted); only finished runs can be judged');
      const judges = s.panel.judges.map((j) => ({ id: `${j.model}@${j.provider}`, client: clientFor(s, j.provider, j.model, j.family) }));
      const res = await judgeTrace(events, { ...PANEL_DEFAULTS, id: 'page-panel', judges, temperature: s.panel.temperature, daysPerRun: s.panel.daysPerRun, rubrics: s.panel.rubrics }, {
        signal: this.#judgeAbort.signal,
        onProgress: (p) => (this.judgeProgress = `${p.done} of ${p.total} verdicts`),
      });
      const all = withVerdicts(events, res.events);
      const updated: RunRecord = { ...rec, events: all.length, report: scoreTrace(all) };
      await this.#store.replaceTail(updated, endIdx + 1, all.slice(endIdx + 1));
      this.runs = this.runs.map((r) => (r.key === rec.key ? updated : r));
      if (this.selectedKey === rec.key) this.selectedEvents = all;
      const cost = res.cost === null ? 'cost unknown (no prices configured)' : `$${res.cost.toFixed(4)}`;
      this.judgeProgress = `Judged: ${res.scored} verdicts scored, ${res.unscored} unscored; ${res.usage ? `${res.usage.promptTokens} + ${res.usage.completionTokens} tokens` : 'no usage reported'}, ${cost}`;
      for (const st of res.stopped) this.error = `${st.judge}: ${st.reason}`;
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
  agreement = $state<string | null>(null);
  async computeAgreement(): Promise<void> {
    this.error = null;
    try {
      const judged: { runId: string; events: TraceEvent[] }[] = [];
      for (const r of this.runs) {
        if (!r.report?.details.judged?.panel) continue;
        judged.push({ runId: r.runId, events: await this.#store.getEvents(r.key) });
      }
      this.agreement = judged.length === 0 ? 'No stored run has judge verdicts yet.' : `${judged.length} judged run${judged.length === 1 ? '' : 's'}.\n${formatAgreement(agreementReport(judged))}`;
    } catch (e) {
      this.error = `Could not compute judge agreement: ${errorMessage(e)}`;
    }
  }

  async select(key: string): Promise<void> {
    this.selectedKey = key;
    this.selectedEvents = [];
    try {
      this.selectedEvents = await this.#store.getEvents(key);
    } catch (e) {
      this.error = `Could not load run ${key}: ${errorMessage(e)}`;
    }
  }

  /** Report of the selected run: stored, or computed from its events when absent (e.g. interrupted runs). */
  reportOf(rec: RunRecord | null): ScoreReport | null {
    if (!rec) return null;
    if (rec.report) return rec.report;
    if (this.selectedKey === rec.key && this.selectedEvents.length > 0) return scoreTrace(this.selectedEvents);
    return null;
  }

  async exportRun(key: string): Promise<{ filename: string; text: string }> {
    const rec = this.runs.find((r) => r.key === key);
    const text = await this.#store.exportJsonl(key);
    return { filename: `${rec?.runId ?? 'run'}.jsonl`, text };
  }

  async importTrace(file: File): Promise<void> {
    this.error = null;
    try {
      const rec = await this.#store.importJsonl(await file.text(), file.name, scoreTrace, Date.now());
      this.runs = await this.#store.listRuns();
      await this.select(rec.key);
      this.notice = `Imported ${file.name} (${rec.events} events).`;
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
    await this.#store.deleteRun(key);
    this.runs = this.runs.filter((r) => r.key !== key);
    if (this.selectedKey === key) {
      this.selectedKey = null;
      this.selectedEvents = [];
    }
  }
}
