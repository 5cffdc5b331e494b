/**
 * The Sweep view's state and actions (Svelte 5 runes): one built-in tutor over a chosen subset of
 * the 55 library scenarios × seeds, run in the page with the same core as the CLI's sweep. Each
 * run's tracer works in a Web Worker; several runs go at once. Runs are stored in the RunStore
 * (they appear in the Lab's run library too) with their sweep tag, so a sweep's summary can be
 * shown again after a reload.
 */
import {
  PERSONA_PRESET_NAMES,
  SCHEDULE_PRESET_NAMES,
  answerGiver,
  errorMessage,
  libraryScenarioId,
  loadPersonaSeeds,
  parseSeedList,
  planSweep,
  runEpisode,
  scoreTrace,
  summarizeRun,
  summarizeSweep,
  tutorEntry,
  planner,
  withholder,
  type RunSummary,
  type SweepJob,
  type SweepSummary,
} from '../../core/index';
import { RunStore, type RunRecord } from '../../adapters/browser/run-store';
import { createWorkerTracer, type WorkerTracer } from '../../adapters/browser/kt-client';
import { bundledLibraryFiles, loadBundledScenario } from '../../adapters/browser/library';

export interface PastSweep {
  id: string;
  label: string;
  runs: number;
  createdAt: number;
}

/** The deterministic built-in tutors (LLM tutors need settings and keys: run those from the Lab or the CLI). */
const SWEEP_TUTORS = [answerGiver, withholder, planner];

export class SweepState {
  readonly personas = PERSONA_PRESET_NAMES;
  readonly schedules = SCHEDULE_PRESET_NAMES;
  readonly files = new Set(bundledLibraryFiles());
  readonly tutors = SWEEP_TUTORS.map((t) => ({ name: t.name, description: t.description }));

  /** Selected scenario ids (persona--schedule). */
  selected = $state.raw<string[]>([]);
  tutor = $state('withholder');
  seedsText = $state('42');
  parallel = $state(2);
  running = $state(false);
  done = $state(0);
  total = $state(0);
  progressText = $state('');
  error = $state<string | null>(null);
  notice = $state<string | null>(null);
  /** The sweep on show: its label and its runs' summaries (in job order). */
  label = $state('');
  runs = $state.raw<RunSummary[]>([]);
  summary: SweepSummary | null = $derived(this.runs.length ? summarizeSweep(this.runs) : null);
  past = $state.raw<PastSweep[]>([]);
  seedsError = $derived.by(() => {
    try {
      parseSeedList(this.seedsText);
      return null;
    } catch (e) {
      return errorMessage(e);
    }
  });
  plannedRuns = $derived(this.seedsError ? 0 : this.selected.length * parseSeedList(this.seedsText).length);

  #store: RunStore;
  #abort: AbortController | null = null;

  constructor(store = new RunStore()) {
    this.#store = store;
    const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
    this.parallel = Math.max(1, Math.min(4, cores));
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

  async init(): Promise<void> {
    try {
      await this.#refreshPast();
      const latest = this.past[0];
      if (latest && this.runs.length === 0) await this.show(latest.id);
    } catch (e) {
      this.error = `Could not open the run library in this browser: ${errorMessage(e)}`;
    }
  }

  async #refreshPast(): Promise<void> {
    const byId = new Map<string, PastSweep>();
    for (const r of await this.#store.listRuns()) {
      if (!r.sweep) continue;
      const p = byId.get(r.sweep.id) ?? { id: r.sweep.id, label: r.sweep.label, runs: 0, createdAt: r.createdAt };
      p.runs++;
      p.createdAt = Math.min(p.createdAt, r.createdAt);
      byId.set(r.sweep.id, p);
    }
    this.past = [...byId.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Shows a stored sweep's summary. */
  async show(id: string): Promise<void> {
    const recs = (await this.#store.listRuns()).filter((r) => r.sweep?.id === id);
    const first = recs[0];
    if (!first?.sweep) return;
    this.label = first.sweep.label;
    this.runs = recs.map((r) => r.sweep!.run).sort((a, b) => a.scenarioId.localeCompare(b.scenarioId) || a.seed - b.seed);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.error = null;
    this.notice = null;
    let seeds: number[];
    try {
      seeds = parseSeedList(this.seedsText);
    } catch (e) {
      this.error = errorMessage(e);
      return;
    }
    const ids = this.personas.flatMap((p) => this.schedules.map((s) => libraryScenarioId(p, s))).filter((id) => this.selected.includes(id));
    if (ids.length === 0) {
      this.error = 'Choose at least one scenario.';
      return;
    }
    const entry = tutorEntry(this.tutor);
    this.running = true;
    this.done = 0;
    this.progressText = 'Loading scenarios…';
    this.#abort = new AbortController();
    const signal = this.#abort.signal;
    const sweepId = `sweep-${Date.now()}`;
    const label = `${entry.name} × ${ids.length} scenario${ids.length === 1 ? '' : 's'} × seed${seeds.length === 1 ? '' : 's'} ${this.seedsText.trim()}`;
    this.label = label;
    this.runs = [];
    const tracers: WorkerTracer[] = [];
    try {
      const loaded = await Promise.all(ids.map(async (id) => ({ scenario: await loadBundledScenario(`${id}.yaml`), source: `scenarios/${id}.yaml` })));
      const jobs = planSweep(loaded, entry.name, seeds);
      this.total = jobs.length;
      const personaSeeds = await loadPersonaSeeds();
      const results: (RunSummary | undefined)[] = new Array(jobs.length);
      let next = 0;
      const failures: string[] = [];
      const runOne = async (job: SweepJob, tracer: WorkerTracer) => {
        const res = await runEpisode({ scenario: job.scenario, tutor: entry.create({ config: {} }), tutorSpec: { name: entry.name, config: {} }, tracer, seeds: personaSeeds, seed: job.seed, signal });
        const summary = summarizeRun(res.events, job.source);
        const now = Date.now();
        const end = res.events[res.events.length - 1];
        const rec: RunRecord = {
          key: `${job.runId}@${now}`,
          runId: job.runId,
          scenarioId: job.scenario.id,
          scenarioTitle: job.scenario.title,
          tutor: entry.name,
          seed: job.seed,
          tracer: job.scenario.learner.tracer,
          status: res.reason === 'horizon_reached' ? 'done' : 'failed',
          endReason: res.reason,
          createdAt: now,
          events: res.events.length,
          report: scoreTrace(res.events),
          error: res.reason === 'horizon_reached' ? null : end?.type === 'run_end' ? `${res.reason}: ${end.message ?? ''}` : res.reason,
          sweep: { id: sweepId, label, run: summary },
        };
        await this.#store.appendEvents(rec.key, res.events);
        await this.#store.putRun(rec);
        if (res.reason !== 'horizon_reached' && !signal.aborted) failures.push(`${job.runId}: ${res.reason}`);
        results[job.index] = summary;
        this.done++;
        this.runs = results.filter((r): r is RunSummary => r !== undefined);
        this.progressText = `${this.done} of ${this.total} runs`;
      };
      const slot = async () => {
        // One tracer worker per slot, reused for its runs (all library scenarios use one tracer).
        let tracer: WorkerTracer | null = null;
        while (next < jobs.length && !signal.aborted) {
          const job = jobs[next++]!;
          if (!tracer || tracer.info.name !== job.scenario.learner.tracer) {
            tracer?.dispose();
            tracer = await createWorkerTracer(job.scenario.learner.tracer);
            tracers.push(tracer);
          }
          await runOne(job, tracer);
        }
      };
      this.progressText = `0 of ${this.total} runs`;
      await Promise.all(Array.from({ length: Math.max(1, Math.min(this.parallel, jobs.length)) }, slot));
      if (signal.aborted) this.progressText = `Cancelled after ${this.done} of ${this.total} runs`;
      else {
        this.progressText = `Done: ${this.done} runs`;
        this.notice = failures.length ? null : `Sweep finished: ${this.done} runs stored in the run library.`;
      }
      if (failures.length) this.error = `${failures.length} run(s) did not reach the last day: ${failures.join('; ')}`;
    } catch (e) {
      this.error = `The sweep failed: ${errorMessage(e)}. Runs finished so far are kept.`;
      this.progressText = 'Failed';
    } finally {
      for (const t of tracers) t.dispose();
      this.running = false;
      this.#abort = null;
      await this.#refreshPast().catch(() => undefined);
    }
  }

  cancel(): void {
    this.#abort?.abort();
  }

  /** The summary of the sweep on show, as JSON (the same shape as the CLI's summary.json). */
  summaryJson(): { filename: string; text: string } {
    return { filename: `${this.label.replace(/[^a-z0-9-]+/gi, '_').slice(0, 80) || 'sweep'}.summary.json`, text: JSON.stringify({ label: this.label, summary: this.summary, runs: this.runs }, null, 2) + '\n' };
  }
}
