/**
 * The Play view's form and comparisons (Svelte 5 runes): which learner the educator teaches (the
 * built-in scenario or a library persona × schedule, an ability level, a learner model, a seed and
 * the number of days), their display name and the wake rule. Starting hands a run record with the
 * human tutor to the run library, which holds the run and its turns (library.svelte.ts, PlayRun);
 * this object only builds records and reads results, so nothing is lost when the user switches tabs.
 */
import defaultScenarioYaml from '../../../scenarios/default.yaml?raw';
import {
  AXES,
  PERSONA_PRESET_NAMES,
  SCHEDULE_PRESET_NAMES,
  PLAY_WAKE_ON,
  WAKE_EVENTS,
  effectiveScenario,
  errorMessage,
  libraryScenarioId,
  parseScenario,
  runRecord,
  scoreTrace,
  type RunRecord,
  type Scenario,
  type ScoreReport,
} from '../../core/index';
import type { StoredRun } from '../../adapters/browser/run-store';
import { bundledLibraryFiles, loadBundledScenario } from '../../adapters/browser/library';
import type { PlayRun, RunLibrary } from './library.svelte';

export const REFERENCE_TUTORS = ['answer-giver', 'withholder', 'planner'] as const;

/** The scenario-defining parts of a run: runs that share them are comparable. */
function comparableKey(r: RunRecord): string {
  const s = effectiveScenario(r);
  return JSON.stringify([s.id, s.seed, s.horizonDays, s.learner.tracer, s.learner.ability, s.tutor.wakeOn]);
}

export class PlayState {
  readonly library: RunLibrary;
  readonly personas = PERSONA_PRESET_NAMES;
  readonly schedules = SCHEDULE_PRESET_NAMES;
  readonly builtIn: Scenario = parseScenario(defaultScenarioYaml, 'scenarios/default.yaml');
  readonly #files = new Set(bundledLibraryFiles());
  /** 'built-in', or a library id persona--schedule. */
  scenarioId = $state('built-in');
  ability = $state<'scenario' | 'low' | 'average' | 'high'>('scenario');
  tracer = $state<'scenario' | 'akt' | 'bkt'>('scenario');
  seed = $state<number | null>(null);
  days = $state<number | null>(null);
  name = $state('');
  wakeOnGraded = $state(false);
  error = $state<string | null>(null);
  #loaded = $state.raw<Record<string, Scenario>>({});
  scenario = $derived.by(() => (this.scenarioId === 'built-in' ? this.builtIn : (this.#loaded[this.scenarioId] ?? null)));
  /** The played run open in this tab, or the last one (finished). */
  run: PlayRun | null = $derived.by(() => this.library.play);
  /** Its stored entry. */
  stored = $derived.by(() => (this.run ? (this.library.runs.find((r) => r.key === this.run!.key) ?? null) : null));

  constructor(library: RunLibrary) {
    this.library = library;
  }

  available(persona: string, schedule: string): boolean {
    return this.#files.has(`${libraryScenarioId(persona, schedule)}.yaml`);
  }

  async choose(id: string): Promise<void> {
    this.scenarioId = id;
    this.error = null;
    if (id === 'built-in' || this.#loaded[id]) return;
    try {
      const s = await loadBundledScenario(`${id}.yaml`);
      this.#loaded = { ...this.#loaded, [id]: s };
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** The run record the form describes (the human tutor, the chosen wake rule). */
  record(): RunRecord {
    const s = this.scenario;
    if (!s) throw new Error('the scenario is still loading');
    if (this.days !== null && (!Number.isInteger(this.days) || this.days < 1 || this.days > s.horizonDays)) throw new Error(`days: a whole number from 1 to ${s.horizonDays}`);
    if (this.seed !== null && (!Number.isInteger(this.seed) || this.seed < 0 || this.seed > 2 ** 32 - 1)) throw new Error('seed: a whole number from 0 to 4294967295');
    return runRecord({
      scenario: s,
      source: this.scenarioId === 'built-in' ? 'scenarios/default.yaml' : `scenarios/${this.scenarioId}.yaml`,
      tutor: { name: 'human', config: { name: this.name } },
      wakeOn: this.wakeOnGraded ? [...WAKE_EVENTS] : [...PLAY_WAKE_ON],
      ...(this.tracer !== 'scenario' ? { tracer: this.tracer } : {}),
      ...(this.ability !== 'scenario' ? { ability: this.ability } : {}),
      ...(this.seed !== null ? { seed: this.seed } : {}),
      ...(this.days !== null && this.days !== s.horizonDays ? { horizonDays: this.days } : {}),
    });
  }

  start(): void {
    this.error = null;
    try {
      this.library.startPlay(this.record());
    } catch (e) {
      this.error = `Cannot start: ${errorMessage(e)}`;
    }
  }

  /** Runs every built-in tutor on the played run's record (same scenario, seed, learner model, days and wake rule). */
  compareWithReferences(): void {
    const rec = this.stored?.record;
    if (!rec) return;
    for (const t of REFERENCE_TUTORS) this.library.start({ ...rec, tutor: { name: t, config: {} } });
  }

  /** Stored runs comparable with the played one (same effective scenario), newest of each tutor, with their reports. */
  comparable(): { run: StoredRun; report: ScoreReport | null; self: boolean }[] {
    const me = this.stored;
    if (!me?.record) return [];
    const key = comparableKey(me.record);
    const seen = new Set<string>();
    const out: { run: StoredRun; report: ScoreReport | null; self: boolean }[] = [];
    for (const r of this.library.runs) {
      if (!r.record || comparableKey(r.record) !== key || seen.has(r.tutor)) continue;
      if (r.key !== me.key && r.status !== 'done') continue;
      seen.add(r.tutor);
      out.push({ run: r, report: r.key === me.key ? this.liveReport() : r.report, self: r.key === me.key });
    }
    return out;
  }

  /** The played run's scores so far (from its events in this tab). */
  liveReport(): ScoreReport | null {
    const run = this.run;
    const d = run?.driver;
    if (!run || !d) return this.stored?.report ?? null;
    void run.version; // re-read as events arrive
    return d.session.events.length ? scoreTrace(d.session.events) : null;
  }

  readonly axes = AXES;
}
