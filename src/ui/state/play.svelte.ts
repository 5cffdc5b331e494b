/**
 * The Play view's form, debrief and yardsticks (Svelte 5 runes): which learner the educator
 * teaches (the built-in scenario or a library persona × schedule, an ability level, a learner
 * model, a seed and the number of days), their display name and the wake rule. Starting hands a run
 * record with the human tutor to the run library, which holds the run and its turns
 * (library.svelte.ts, PlayRun); this object only builds records and reads results, so nothing is
 * lost when the user switches tabs. After the run, the debrief compares it with yardsticks: the
 * same learner and seed with no tutor (the silent tutor) and with the built-in tutors.
 */
import defaultScenarioYaml from '../../../scenarios/default.yaml?raw';
import {
  PERSONA_PRESET_NAMES,
  SCHEDULE_PRESET_NAMES,
  PLAY_WAKE_ON,
  WAKE_EVENTS,
  effectiveScenario,
  errorMessage,
  libraryScenarioId,
  parseScenario,
  runRecord,
  type RunRecord,
  type Scenario,
  type TraceEvent,
  type TracerName,
} from '../../core/index';
import type { StoredRun } from '../../adapters/browser/run-store';
import { bundledLibraryFiles, loadBundledScenario } from '../../adapters/browser/library';
import type { PlayRun, RunLibrary } from './library.svelte';
import { YARDSTICKS, yardstickRecord, type Yardstick } from '../components/play/debrief';

/** The scenario-defining parts of a run: runs that share them are comparable. */
function comparableKey(r: RunRecord): string {
  const s = effectiveScenario(r);
  return JSON.stringify([s.id, s.seed, s.horizonDays, s.learner.tracer, s.learner.ability, s.tutor.wakeOn, r.voice]);
}

/** A played run the debrief shows: its stored entry and its trace. */
export interface Debriefed {
  key: string;
  events: readonly TraceEvent[];
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
  tracer = $state<'scenario' | TracerName>('scenario');
  seed = $state<number | null>(null);
  days = $state<number | null>(null);
  name = $state('');
  wakeOnGraded = $state(false);
  error = $state<string | null>(null);
  /** Tool names, ids and raw results beside the teacher's words (for researchers; nothing hidden from an agent). */
  details = $state(false);
  /** The debrief on screen (null: the setup form or the teaching screen). */
  debrief = $state.raw<Debriefed | null>(null);
  /** Played runs to continue: how many events each stored and where it stopped (read from storage, not the run's record). */
  resumable = $state.raw<Record<string, { count: number; t: number | null }>>({});
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

  /** Reads, for each played run that can be continued, how many events it stored and its last virtual time. */
  async loadResumable(keys: readonly string[]): Promise<void> {
    const out: Record<string, { count: number; t: number | null }> = {};
    for (const k of keys) {
      try {
        const tail = await this.library.store.storedTail(k);
        out[k] = { count: tail.count, t: tail.last?.t ?? null };
      } catch (e) {
        this.error = `Could not read a stored run: ${errorMessage(e)}`;
      }
    }
    this.resumable = out;
  }

  /** Opens the debrief of a played run that ended: the trace of the run in this tab, or the stored one. */
  async openDebrief(key: string): Promise<void> {
    const live = this.run?.key === key ? this.run.driver?.session.events : null;
    try {
      this.debrief = { key, events: live && live.length ? [...live] : await this.library.getEvents(key) };
    } catch (e) {
      this.error = `Could not open the run: ${errorMessage(e)}`;
    }
  }

  closeDebrief(): void {
    this.debrief = null;
  }

  /** The days a debriefed run covered, when its tutor ended it (its yardsticks then run as many days). */
  #daysPlayed(events: readonly TraceEvent[]): number | null {
    const end = [...events].reverse().find((e) => e.type === 'run_end');
    return end?.type === 'run_end' && end.reason === 'ended_by_tutor' ? end.days : null;
  }

  /** The stored run of a debriefed run. */
  storedOf(key: string): StoredRun | null {
    return this.library.runs.find((r) => r.key === key) ?? null;
  }

  /**
   * The yardstick runs of a debriefed run: for each of the silent tutor and the built-in tutors, the
   * newest stored run on exactly its record (same scenario, seed, learner model, ability, days and
   * wake rule), with its state. Null run: not run yet.
   */
  yardsticks(d: Debriefed): { tutor: Yardstick; run: StoredRun | null; live: boolean }[] {
    const rec = this.storedOf(d.key)?.record;
    if (!rec) return YARDSTICKS.map((tutor) => ({ tutor, run: null, live: false }));
    const days = this.#daysPlayed(d.events);
    return YARDSTICKS.map((tutor) => {
      const key = comparableKey(yardstickRecord(rec, tutor, days));
      const run = this.library.runs.find((r) => r.record?.tutor.name === tutor && comparableKey(r.record) === key && (r.status === 'done' || this.library.isLiveHere(r.key))) ?? null;
      return { tutor, run, live: run ? this.library.isLiveHere(run.key) : false };
    });
  }

  /** Starts the yardsticks not run yet on exactly the debriefed run's learner (the built-in tutors and no tutor). */
  startYardsticks(d: Debriefed): void {
    const rec = this.storedOf(d.key)?.record;
    if (!rec) return;
    const days = this.#daysPlayed(d.events);
    for (const y of this.yardsticks(d)) {
      if (y.run) continue;
      try {
        this.library.start(yardstickRecord(rec, y.tutor, days));
      } catch (e) {
        this.error = `Could not start the comparison runs: ${errorMessage(e)}`;
        return;
      }
    }
  }
}
