/**
 * The Benchmark view's form (Svelte 5 runes): tutors (the built-in ones, and LLM tutors as
 * provider × model × harness, several at once) × library scenarios (the persona × schedule grid,
 * with ability, learner model and days) × student voices × seeds. It plans the run records (core
 * planBenchmark) and hands them to the app's run library, which stores the benchmark as a named
 * object and runs it in the background (library.svelte.ts). This object only builds specs, plans
 * and estimates, so nothing is lost when the user switches tabs.
 */
import {
  HARNESS_NAMES,
  PERSONA_PRESET_NAMES,
  SCHEDULE_PRESET_NAMES,
  REFERENCE_TUTORS,
  tutorEntry,
  benchmarkSpec,
  errorMessage,
  helloAgent,
  httpTutorConfig,
  libraryScenarioId,
  llmTutorConfig,
  parseScenario,
  parseSeedList,
  planBenchmark,
  summarizeSweep,
  tutorLabel,
  CONTROL_TUTOR,
  REFERENCE_TUTOR,
  type BenchmarkSpec,
  type RunDigest,
  type RunSummary,
  type Scenario,
  type SweepSummary,
  type VoiceSpec,
  type CouplingMode,
  type TracerName,
} from '../../core/index';
import { bundledLibraryFiles, loadBundledScenario } from '../../adapters/browser/library';
import defaultScenarioYaml from '../../../scenarios/default.yaml?raw';
import { loadSettings, type LlmSettingsData } from '../../adapters/browser/llm-settings';
import { readBundle } from '../../adapters/browser/benchmark-bundle';
import { browserHttpTransport } from '../../adapters/browser/agent-http';
import type { StoredBenchmark } from '../../adapters/browser/run-store';
import { fileStem } from './run-facts';
import type { LiveBenchmark, RunLibrary } from './library.svelte';

export interface LlmTutorRow {
  provider: string;
  model: string;
  harnesses: string[];
}

/** An external agent behind a URL (the http tutor): an agent is a harness, its model what it reports. */
export interface AgentTutorRow {
  url: string;
  /** Its name, version and base model: from its hello ("Ask the agent"), or typed. */
  name: string;
  version: string;
  model: string;
  /** What the last hello found (or why it failed); null: not asked. */
  hello: string | null;
  helloFailed: boolean;
}

/** The http tutor configs of the agent rows, and what is wrong with the rows that give none. */
export function agentTutorSpecs(rows: readonly AgentTutorRow[]): { specs: { name: 'http'; config: Record<string, unknown> }[]; errors: string[] } {
  const specs: { name: 'http'; config: Record<string, unknown> }[] = [];
  const errors: string[] = [];
  rows.forEach((r, i) => {
    if (!r.url.trim()) return void errors.push(`agent ${i + 1}: enter its URL`);
    if (!r.name.trim()) return void errors.push(`agent ${i + 1}: press "Ask the agent" (or type its name)`);
    try {
      specs.push({ name: 'http', config: httpTutorConfig({ url: r.url.trim(), name: r.name.trim(), version: r.version.trim(), model: r.model.trim() }) });
    } catch (e) {
      errors.push(`agent ${i + 1}: ${errorMessage(e)}`);
    }
  });
  return { specs, errors };
}

/** What the stored runs say one run of a tutor costs (LLM tutors), from its finished runs in this browser. */
export interface MeasuredCost {
  runs: number;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  /** US$ per run; null when no price is configured. */
  cost: number | null;
  /** Days per measured run (estimates scale by days). */
  days: number;
}

/** The built-in tutors a benchmark offers: the reference tutors but the control, which has a box of its own (`includeControl`). */
const BUILT_IN = REFERENCE_TUTORS.filter((t) => !t.control).map((t) => tutorEntry(t.name));

/** The built-in scenario (the Lab's, Play's and the demo's Sam), offered beside the library grid. */
const BUILT_IN_SCENARIO: Scenario = parseScenario(defaultScenarioYaml, 'scenarios/default.yaml');
export const BUILT_IN_SCENARIO_ID = BUILT_IN_SCENARIO.id;

export class BenchmarkState {
  readonly library: RunLibrary;
  readonly personas = PERSONA_PRESET_NAMES;
  readonly schedules = SCHEDULE_PRESET_NAMES;
  readonly files = new Set(bundledLibraryFiles());
  readonly builtIn = BUILT_IN.map((t) => ({ name: t.name, description: t.description }));
  readonly harnessNames = HARNESS_NAMES;

  name = $state('');
  /**
   * Built-in tutors chosen. A first benchmark: the three reference tutors (the demo's), with the
   * no-tutor control, on the built-in student, 3 seeds (12 runs).
   */
  tutors = $state.raw<string[]>(BUILT_IN.map((t) => t.name));
  llmTutors = $state.raw<LlmTutorRow[]>([]);
  /** External agents behind a URL (docs/bring-your-own-tutor.md). */
  agentTutors = $state.raw<AgentTutorRow[]>([]);
  agents = $derived(agentTutorSpecs(this.agentTutors));
  /**
   * Run the no-tutor control (the silent tutor) on the same students as the tutors: one run per
   * scenario × seed × voice, so the results show value added, head-to-heads against no tutor and a
   * pass^k whose rule needs value added. Ticked by default; once, however the tutors are chosen.
   */
  includeControl = $state(true);
  /**
   * Run the oracle (REFERENCE_TUTOR: the planner's strategy on the learner's true knowledge) on the
   * same students, so the learning curves have their steady-learning reference (docs/analyses.md).
   * Off by default: one more run per student.
   */
  includeReference = $state(false);
  /** Selected scenario ids (persona--schedule) of the library grid. */
  selected = $state.raw<string[]>([]);
  /** The built-in scenario (scenarios/default.yaml: Sam, pre-algebra after school), beside the grid. */
  readonly builtInScenario = { id: BUILT_IN_SCENARIO_ID, title: BUILT_IN_SCENARIO.title };
  includeBuiltIn = $state(true);
  /** Every scenario chosen: the built-in one first, then the grid's. */
  scenarioCount = $derived(this.selected.length + (this.includeBuiltIn ? 1 : 0));
  ability = $state<'scenario' | 'low' | 'average' | 'high'>('scenario');
  tracer = $state<'scenario' | TracerName>('scenario');
  days = $state<number | null>(null);
  voiceTemplates = $state(true);
  voiceLlm = $state(false);
  /** More LLM student models beside the one in LLM settings (same provider), comma- or line-separated: one voice each. */
  studentModelsText = $state('');
  /** Who decides a graded attempt in every run (learner.coupling): each scenario's, or chosen. */
  coupling = $state<'scenario' | CouplingMode>('scenario');
  /** Opt-in chat-instruction rule in every run. */
  chatInstruction = $state(false);
  seedsText = $state('1,2,3');
  parallel = $state(2);
  llmParallel = $state(8);
  settings = $state.raw<LlmSettingsData>(loadSettings().data);
  /** Problems with the form (the running benchmark's own messages are on `live`). */
  error = $state<string | null>(null);
  /** A stored benchmark on show, when it is not the one this tab ran last. */
  shownId = $state<string | null>(null);
  live: LiveBenchmark | null = $derived.by(() => this.library.benchmarks.live);
  running = $derived(this.live?.active ?? false);
  shown: StoredBenchmark | null = $derived.by(() => {
    const id = this.shownId ?? this.live?.id ?? this.library.benchmarks.stored[0]?.id ?? null;
    if (id === this.live?.id) return this.live.bench;
    return this.library.benchmarks.stored.find((b) => b.id === id) ?? null;
  });
  /** Run summaries of the shown benchmark's finished runs, by tutor. */
  summaries = $derived.by((): { tutor: string; runs: RunSummary[]; summary: SweepSummary }[] => {
    const b = this.shown;
    if (!b) return [];
    const keys = new Set(b.jobs.map((j) => j.key).filter((k): k is string => k !== null));
    // Several student voices: one summary per tutor and voice (results by student model).
    const voiceOf = new Map(b.jobs.filter((j) => j.key !== null).map((j) => [j.key!, j.voice]));
    const byVoice = new Set(voiceOf.values()).size > 1;
    const byTutor = new Map<string, RunSummary[]>();
    for (const r of this.library.runs) {
      if (!keys.has(r.key) || !r.benchmark?.run || r.endReason !== 'horizon_reached') continue;
      const label = byVoice ? `${r.benchmark.run.tutor} · ${voiceOf.get(r.key) ?? 'templates'}` : r.benchmark.run.tutor;
      byTutor.set(label, [...(byTutor.get(label) ?? []), r.benchmark.run]);
    }
    return [...byTutor.entries()].map(([tutor, runs]) => ({ tutor, runs, summary: summarizeSweep(runs) }));
  });
  /** The shown benchmark's finished runs, as the analyses take them (their stored digests). */
  resultRuns = $derived.by(() => {
    const b = this.shown;
    if (!b) return { digests: [] as RunDigest[], needDigest: [] as string[] };
    const keys = new Set(b.jobs.map((j) => j.key).filter((k): k is string => k !== null));
    const digests: RunDigest[] = [];
    const needDigest: string[] = [];
    for (const r of this.library.runs) {
      if (!keys.has(r.key) || r.endReason === null) continue;
      if (r.digest) digests.push(r.digest);
      else needDigest.push(r.key);
    }
    return { digests, needDigest };
  });
  seedsError = $derived.by(() => {
    try {
      parseSeedList(this.seedsText);
      return null;
    } catch (e) {
      return errorMessage(e);
    }
  });
  /** The tutors chosen (LLM rows expand to model × harness), without the control. */
  chosenTutors = $derived.by(() => [
    ...this.tutors.map((name) => ({ name, config: {} as Record<string, unknown> })),
    ...this.llmTutors.flatMap((row) => (row.provider && row.model.trim() ? row.harnesses.map((harness) => ({ name: 'llm', config: llmTutorConfig({ harness, model: row.model.trim(), provider: row.provider }) as Record<string, unknown> })) : [])),
    ...this.agents.specs,
  ]);
  /** The no-tutor control is run as a tutor of its own (not when it is chosen as a tutor already, nor when no tutor is chosen). */
  addsControl = $derived(this.includeControl && this.chosenTutors.length > 0 && !this.chosenTutors.some((t) => t.name === CONTROL_TUTOR));
  /** The oracle, likewise (once, and only beside a chosen tutor). */
  addsReference = $derived(this.includeReference && this.chosenTutors.length > 0 && !this.chosenTutors.some((t) => t.name === REFERENCE_TUTOR));
  /** Tutor configs the benchmark runs: the chosen ones, then the no-tutor control and the oracle when they are included. */
  tutorSpecs = $derived.by(() => [
    ...this.chosenTutors,
    ...(this.addsControl ? [{ name: CONTROL_TUTOR, config: {} as Record<string, unknown> }] : []),
    ...(this.addsReference ? [{ name: REFERENCE_TUTOR, config: {} as Record<string, unknown> }] : []),
  ]);
  /**
   * The LLM student models: the one in LLM settings, then the extra ones typed here, each once;
   * "<model>@<provider>" names a model of another configured provider (students of mixed provenance).
   */
  studentModels = $derived.by((): { provider: string; model: string }[] => {
    const v = this.settings.voice;
    if (!this.voiceLlm || !v) return [];
    const extra = this.studentModelsText
      .split(/[,\n]/)
      .map((m) => m.trim())
      .filter(Boolean)
      .map((m) => {
        const at = m.lastIndexOf('@');
        return at > 0 ? { provider: m.slice(at + 1), model: m.slice(0, at) } : { provider: v.provider, model: m };
      });
    const seen = new Set<string>();
    return [{ provider: v.provider, model: v.model }, ...extra].filter((x) => (seen.has(`${x.provider}/${x.model}`) ? false : (seen.add(`${x.provider}/${x.model}`), true)));
  });
  voices = $derived.by((): VoiceSpec[] => [...(this.voiceTemplates ? [{ kind: 'templates' } as const] : []), ...this.studentModels.map((m) => ({ kind: 'llm', provider: m.provider, model: m.model }) as const)]);
  plannedRuns = $derived(this.seedsError ? 0 : this.tutorSpecs.length * this.scenarioCount * this.voices.length * parseSeedList(this.seedsText).length);
  /** Runs of the no-tutor control in the plan (one per scenario × voice × seed). */
  controlRuns = $derived(this.includeControl && this.tutorSpecs.some((t) => t.name === CONTROL_TUTOR) && this.tutorSpecs.length > 0 ? this.plannedRuns / this.tutorSpecs.length : 0);

  constructor(library: RunLibrary) {
    this.library = library;
    const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
    this.parallel = Math.max(1, Math.min(4, cores));
  }

  refreshSettings(): void {
    this.settings = loadSettings().data;
  }

  available(persona: string, schedule: string): boolean {
    return this.files.has(`${libraryScenarioId(persona, schedule)}.yaml`);
  }

  isSelected(persona: string, schedule: string): boolean {
    return this.selected.includes(libraryScenarioId(persona, schedule));
  }

  toggle(persona: string, schedule: string, on?: boolean): void {
    const id = libraryScenarioId(persona, schedule);
    const has = this.selected.includes(id);
    const want = on ?? !has;
    if (want && !has && this.available(persona, schedule)) this.selected = [...this.selected, id];
    else if (!want && has) this.selected = this.selected.filter((x) => x !== id);
  }

  /** Selects the whole row (persona) or column (schedule), or clears it when all of it is selected. */
  toggleRow(persona: string): void {
    const all = this.schedules.every((s) => !this.available(persona, s) || this.isSelected(persona, s));
    for (const s of this.schedules) this.toggle(persona, s, !all);
  }

  toggleColumn(schedule: string): void {
    const all = this.personas.every((p) => !this.available(p, schedule) || this.isSelected(p, schedule));
    for (const p of this.personas) this.toggle(p, schedule, !all);
  }

  selectAll(on: boolean): void {
    this.selected = on ? this.personas.flatMap((p) => this.schedules.filter((s) => this.available(p, s)).map((s) => libraryScenarioId(p, s))) : [];
  }

  toggleTutor(name: string, on: boolean): void {
    this.tutors = on ? [...new Set([...this.tutors, name])] : this.tutors.filter((t) => t !== name);
  }

  addLlmTutor(): void {
    this.refreshSettings();
    this.llmTutors = [...this.llmTutors, { provider: this.settings.providers[0]?.name ?? '', model: '', harnesses: ['reactive'] }];
  }

  updateLlmTutor(i: number, patch: Partial<LlmTutorRow>): void {
    this.llmTutors = this.llmTutors.map((r, k) => (k === i ? { ...r, ...patch } : r));
  }

  removeLlmTutor(i: number): void {
    this.llmTutors = this.llmTutors.filter((_, k) => k !== i);
  }

  addAgentTutor(): void {
    this.agentTutors = [...this.agentTutors, { url: '', name: '', version: '', model: '', hello: null, helloFailed: false }];
  }

  updateAgentTutor(i: number, patch: Partial<AgentTutorRow>): void {
    this.agentTutors = this.agentTutors.map((r, k) => (k === i ? { ...r, ...patch } : r));
  }

  removeAgentTutor(i: number): void {
    this.agentTutors = this.agentTutors.filter((_, k) => k !== i);
  }

  /** Asks the agent of row i who it is (the protocol's hello) and fills in its name, version and model. */
  async askAgent(i: number): Promise<void> {
    const row = this.agentTutors[i];
    if (!row) return;
    try {
      const url = String(httpTutorConfig({ url: row.url.trim() }).url);
      const id = await helloAgent(browserHttpTransport(), { url });
      this.updateAgentTutor(i, { url, name: id.name, version: id.version, model: row.model.trim() || id.model, hello: `${id.name}${id.version ? ` ${id.version}` : ''}${id.model ? `, model ${id.model}` : ', no model reported'}`, helloFailed: false });
    } catch (e) {
      this.updateAgentTutor(i, { hello: errorMessage(e), helloFailed: true });
    }
  }

  /** The spec the form describes. Throws with what to fix. */
  spec(): BenchmarkSpec {
    const seeds = parseSeedList(this.seedsText);
    const ids = [...(this.includeBuiltIn ? [BUILT_IN_SCENARIO_ID] : []), ...this.personas.flatMap((p) => this.schedules.map((s) => libraryScenarioId(p, s))).filter((id) => this.selected.includes(id))];
    if (ids.length === 0) throw new Error('choose at least one scenario');
    if (this.agents.errors.length) throw new Error(this.agents.errors.join('; '));
    if (this.chosenTutors.length === 0) throw new Error('choose at least one tutor (an LLM tutor needs a provider, a model and a harness)');
    if (this.voices.length === 0) throw new Error(this.voiceLlm && !this.settings.voice ? 'no LLM student voice is configured (LLM settings): choose the templates' : 'choose at least one student voice');
    if (this.coupling === 'student-attempts' && this.voiceTemplates) throw new Error('"The LLM student writes its attempts" needs LLM student voices only: untick Templates (and tick LLM student)');
    if (this.voices.length > 10) throw new Error(`at most 10 student voices in a benchmark (${this.voices.length} chosen)`);
    const unknown = this.studentModels.find((m) => !this.settings.providers.some((p) => p.name === m.provider));
    if (unknown) throw new Error(`student model ${unknown.model}@${unknown.provider}: no provider "${unknown.provider}" in LLM settings`);
    const labels = this.tutorSpecs.map((t) => tutorLabel(t));
    const name = this.name.trim() || `${labels.join(' + ')} × ${ids.length} scenario${ids.length === 1 ? '' : 's'} × seed${seeds.length === 1 ? '' : 's'} ${this.seedsText.trim()}`;
    return benchmarkSpec({
      name: name.slice(0, 200),
      tutors: this.tutorSpecs,
      scenarios: ids,
      voices: this.voices,
      seeds,
      ...(this.tracer !== 'scenario' ? { tracer: this.tracer } : {}),
      ...(this.ability !== 'scenario' ? { ability: this.ability } : {}),
      ...(this.days !== null ? { horizonDays: this.days } : {}),
      ...(this.coupling !== 'scenario' ? { coupling: this.coupling } : {}),
      ...(this.chatInstruction ? { chatInstruction: true } : {}),
    });
  }

  /** Per LLM tutor label: what one run costs, measured on this browser's finished runs of that tutor (null: not measured yet). */
  measured(label: string): MeasuredCost | null {
    const rs = this.library.runs.filter((r) => r.status === 'done' && r.tutor === label && r.report?.details.llm);
    if (rs.length === 0) return null;
    let calls = 0;
    let tin = 0;
    let tout = 0;
    let cost: number | null = 0;
    let days = 0;
    for (const r of rs) {
      const u = r.report!.details.llm!;
      const roles = [u.tutor, u.student];
      calls += roles.reduce((a, x) => a + x.calls, 0);
      tin += roles.reduce((a, x) => a + x.promptTokens, 0);
      tout += roles.reduce((a, x) => a + x.completionTokens, 0);
      const c = roles.every((x) => x.unpricedCalls === 0) ? roles.reduce((a, x) => a + (x.cost ?? 0), 0) : null;
      cost = cost === null || c === null ? null : cost + c;
      days += r.report!.dailySolveRate.length - 1;
    }
    const n = rs.length;
    return { runs: n, calls: calls / n, tokensIn: tin / n, tokensOut: tout / n, cost: cost === null ? null : cost / n, days: days / n };
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.error = null;
    let spec: BenchmarkSpec;
    try {
      spec = this.spec();
    } catch (e) {
      this.error = `Cannot start: ${errorMessage(e)}`;
      return;
    }
    try {
      const loaded = new Map<string, { scenario: Scenario; source: string }>();
      await Promise.all(spec.scenarios.map(async (id) => loaded.set(id, id === BUILT_IN_SCENARIO_ID ? { scenario: BUILT_IN_SCENARIO, source: 'scenarios/default.yaml' } : { scenario: await loadBundledScenario(`${id}.yaml`), source: `scenarios/${id}.yaml` })));
      const jobs = planBenchmark(spec, loaded);
      this.shownId = null;
      await this.library.benchmarks.start(spec, jobs, { cpu: this.parallel, llm: this.llmParallel });
    } catch (e) {
      this.error = `The benchmark could not start: ${errorMessage(e)}`;
    }
  }

  async resume(id: string): Promise<void> {
    this.error = null;
    try {
      this.shownId = null;
      await this.library.benchmarks.resume(id);
    } catch (e) {
      this.error = `Cannot resume: ${errorMessage(e)}`;
    }
  }

  show(id: string): void {
    this.shownId = id;
  }

  notice = $state<string | null>(null);

  /** Downloads the shown benchmark as a zip (benchmark.json + traces/). */
  async exportShown(): Promise<{ filename: string; bytes: Uint8Array } | null> {
    const b = this.shown;
    if (!b) return null;
    try {
      return await this.library.benchmarks.exportZip(b.id);
    } catch (e) {
      this.error = `Could not export: ${errorMessage(e)}`;
      return null;
    }
  }

  /** Imports a benchmark zip, or a picked directory (a CLI sweep's output works too). */
  async importFiles(files: readonly File[]): Promise<void> {
    this.error = null;
    this.notice = null;
    const first = files[0];
    if (!first) return;
    const label = files.length === 1 ? first.name : (first.webkitRelativePath.split('/')[0] ?? 'folder');
    try {
      // A zip by its content (PK\x03\x04), whatever the file is called.
      const head = files.length === 1 ? new Uint8Array(await first.slice(0, 4).arrayBuffer()) : null;
      const isZip = head !== null && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
      const bundle = isZip
          ? readBundle({ zip: new Uint8Array(await first.arrayBuffer()), name: first.name })
          : readBundle({ files: await Promise.all(files.filter((f) => /\.(jsonl|json)$/i.test(f.name)).map(async (f) => ({ path: f.webkitRelativePath.split('/').slice(1).join('/') || f.name, text: await f.text() }))), name: label });
      const b = await this.library.benchmarks.import(bundle, label);
      this.shownId = b.id;
      this.notice = `Imported ${label}: ${b.jobs.filter((j) => j.key).length} of ${b.jobs.length} runs.`;
    } catch (e) {
      this.error = `Could not import ${label}: ${errorMessage(e)}`;
    }
  }

  /** The shown benchmark's per-tutor summaries as JSON (the shape of the CLI's summary.json, one per tutor). */
  summaryJson(): { filename: string; text: string } {
    const b = this.shown;
    const name = b?.name ?? 'benchmark';
    return { filename: `${fileStem(name, 'benchmark')}.summary.json`, text: JSON.stringify({ name, tutors: this.summaries.map((s) => ({ tutor: s.tutor, summary: s.summary, runs: s.runs })) }, null, 2) + '\n' };
  }
}
