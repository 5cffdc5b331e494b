/**
 * The Sweep view's form (Svelte 5 runes): one built-in tutor over a chosen subset of the 55
 * library scenarios × seeds. It plans the run records (core planSweep) and hands them to the
 * app's run library, which runs them a few at a time (each run's tracer in a Web Worker) and
 * keeps the sweep's progress and summary while the user visits other tabs. Runs are stored with
 * their sweep tag, so an earlier sweep's summary can be shown again after a reload.
 */
import {
  PERSONA_PRESET_NAMES,
  SCHEDULE_PRESET_NAMES,
  answerGiver,
  errorMessage,
  libraryScenarioId,
  parseSeedList,
  planSweep,
  summarizeSweep,
  planner,
  withholder,
  type RunSummary,
  type SweepSummary,
} from '../../core/index';
import { bundledLibraryFiles, loadBundledScenario } from '../../adapters/browser/library';
import type { LiveSweep, RunLibrary } from './library.svelte';

export interface PastSweep {
  id: string;
  label: string;
  runs: number;
  createdAt: number;
}

/** The deterministic built-in tutors (LLM tutors need settings and keys: run those from the Lab or the CLI). */
const SWEEP_TUTORS = [answerGiver, withholder, planner];

export class SweepState {
  readonly library: RunLibrary;
  readonly personas = PERSONA_PRESET_NAMES;
  readonly schedules = SCHEDULE_PRESET_NAMES;
  readonly files = new Set(bundledLibraryFiles());
  readonly tutors = SWEEP_TUTORS.map((t) => ({ name: t.name, description: t.description }));

  /** Selected scenario ids (persona--schedule). */
  selected = $state.raw<string[]>([]);
  tutor = $state('withholder');
  seedsText = $state('42');
  parallel = $state(2);
  /** Problems with the form (the running sweep's own messages are on `live`). */
  error = $state<string | null>(null);
  /** An earlier sweep on show (from the run library), when no sweep of this tab is shown. */
  shown = $state.raw<{ id: string; label: string; runs: RunSummary[] } | null>(null);
  live: LiveSweep | null = $derived.by(() => this.library.sweep);
  running = $derived(this.live?.running ?? false);
  /** What the summary panel shows: this tab's sweep (live or finished), else an earlier one. */
  label = $derived(this.shown?.label ?? this.live?.label ?? '');
  runs: RunSummary[] = $derived(this.shown?.runs ?? this.live?.runs ?? []);
  summary: SweepSummary | null = $derived(this.runs.length ? summarizeSweep(this.runs) : null);
  past = $derived.by(() => {
    const byId = new Map<string, PastSweep>();
    for (const r of this.library.runs) {
      if (!r.sweep) continue;
      const p = byId.get(r.sweep.id) ?? { id: r.sweep.id, label: r.sweep.label, runs: 0, createdAt: r.createdAt };
      p.runs++;
      p.createdAt = Math.min(p.createdAt, r.createdAt);
      byId.set(r.sweep.id, p);
    }
    return [...byId.values()].sort((a, b) => b.createdAt - a.createdAt);
  });
  seedsError = $derived.by(() => {
    try {
      parseSeedList(this.seedsText);
      return null;
    } catch (e) {
      return errorMessage(e);
    }
  });
  plannedRuns = $derived(this.seedsError ? 0 : this.selected.length * parseSeedList(this.seedsText).length);
  #initialised = false;

  constructor(library: RunLibrary) {
    this.library = library;
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

  /** The first time the view opens (once the library is open): show the latest stored sweep unless this tab has one. */
  init(): void {
    if (this.#initialised || !this.library.ready) return;
    this.#initialised = true;
    const latest = this.past[0];
    if (latest && !this.live) this.show(latest.id);
  }

  /** Shows a stored sweep's summary. */
  show(id: string): void {
    const recs = this.library.runs.filter((r) => r.sweep?.id === id);
    const first = recs[0];
    if (!first?.sweep) return;
    this.shown = { id, label: first.sweep.label, runs: recs.flatMap((r) => (r.sweep?.run ? [r.sweep.run] : [])).sort((a, b) => a.scenarioId.localeCompare(b.scenarioId) || a.seed - b.seed) };
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.error = null;
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
    const tutor = this.tutor;
    const label = `${tutor} × ${ids.length} scenario${ids.length === 1 ? '' : 's'} × seed${seeds.length === 1 ? '' : 's'} ${this.seedsText.trim()}`;
    try {
      const loaded = await Promise.all(ids.map(async (id) => ({ scenario: await loadBundledScenario(`${id}.yaml`), source: `scenarios/${id}.yaml` })));
      const jobs = planSweep(loaded, { tutor: { name: tutor, config: {} } }, seeds);
      this.shown = null;
      this.library.startSweep(label, jobs, this.parallel);
    } catch (e) {
      this.error = `The sweep could not start: ${errorMessage(e)}`;
    }
  }

  cancel(): void {
    this.library.cancelSweep();
  }

  /** The summary of the sweep on show, as JSON (the same shape as the CLI's summary.json). */
  summaryJson(): { filename: string; text: string } {
    return { filename: `${this.label.replace(/[^a-z0-9-]+/gi, '_').slice(0, 80) || 'sweep'}.summary.json`, text: JSON.stringify({ label: this.label, summary: this.summary, runs: this.runs }, null, 2) + '\n' };
  }
}
