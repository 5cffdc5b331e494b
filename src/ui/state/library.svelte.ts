/**
 * The app's run library (one per page, shared by every view through context): the stored runs,
 * the runs live in this tab with their progress, the page sweep in progress, and every action on
 * runs (start, resume, cancel, delete, import, export, judge); its benchmarks are in
 * `library.benchmarks` (benchmarks.svelte.ts). Views only render it and call it,
 * so a run or a sweep keeps going and keeps reporting while the user visits other tabs.
 *
 * Every run goes through the engine's run runner (run-execution.ts: `runRun` with the IndexedDB
 * sink): its events are written to IndexedDB as it goes, so a reload keeps what was recorded and
 * the run can be resumed.
 * Across tabs of this browser, a live run holds a lease (run-lease.ts): a "running" record whose
 * lease nobody holds is marked interrupted; a run live in another tab is left alone.
 */
import { SvelteMap } from 'svelte/reactivity';
import {
  TUTORS,
  judgeTrace,
  loadPersonaSeeds,
  recordFromTrace,
  resumePoint,
  runIdOf,
  scoreTrace,
  summarizeRun,
  digestRun,
  tutorLabel,
  withVerdicts,
  PANEL_DEFAULTS,
  effectiveScenario,
  type RunEnv,
  type RunRecord,
  type TraceEvent,
} from '../../core/index';
import { RunStore, isQuotaError, storageErrorText, type StoredRun } from '../../adapters/browser/run-store';
import { TracerPool, type PooledTracer } from '../../adapters/browser/tracer-pool';
import { LeaseTaken, browserLeases, type RunLeases } from '../../adapters/browser/run-lease';
import { clientFor, loadSettings, type LlmSettingsData } from '../../adapters/browser/llm-settings';
import { browserHttpTransport } from '../../adapters/browser/agent-http';
import type { HttpTransport, ParsedTrace } from '../../core/index';
import { exportFileName } from './run-facts';
import { LiveRun, PlayRun } from './live-run.svelte';
import { executeStoredRun } from './run-execution';
import { BenchmarkRuns, type StartOptions } from './benchmarks.svelte';

export { LiveRun, PlayRun, type LiveUsage } from './live-run.svelte';
export { BenchmarkRuns, LiveBenchmark, type StartOptions } from './benchmarks.svelte';

const channelName = 'educlaw-lab.runs';

export class RunLibrary {
  runs = $state.raw<StoredRun[]>([]);
  /** Runs started or resumed in this tab since it loaded, by storage key. */
  readonly live = new SvelteMap<string, LiveRun>();
  /** The stored benchmarks, the one running in this tab, and their actions (benchmarks.svelte.ts). */
  readonly benchmarks: BenchmarkRuns;
  /** The run the person plays (Play view), while it is open in this tab. */
  play = $state<PlayRun | null>(null);
  /** Why the library could not be opened or listed (shown by every view). */
  error = $state<string | null>(null);
  ready = $state(false);
  readonly store: RunStore;
  readonly #tracers: TracerPool;
  readonly #leases: RunLeases;
  readonly #channel: BroadcastChannel | null;
  readonly #http: HttpTransport;

  constructor(opts: { store?: RunStore; tracers?: TracerPool; leases?: RunLeases; http?: HttpTransport } = {}) {
    this.store = opts.store ?? new RunStore();
    this.#tracers = opts.tracers ?? new TracerPool();
    this.#http = opts.http ?? browserHttpTransport();
    this.#leases = opts.leases ?? browserLeases();
    this.#channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(channelName) : null;
    // Another tab changed a run: list again (our own live runs are in the store too).
    if (this.#channel) this.#channel.onmessage = () => void this.refresh();
    this.benchmarks = new BenchmarkRuns(this, this.#leases);
  }

  /** Opens the library: marks runs whose page went away as interrupted, then lists. */
  async init(): Promise<void> {
    // Marking a run interrupted is a write, and a full storage refuses writes: the library still
    // opens (reading and deleting work when storage is full), the run shows as interrupted, and
    // the reason is shown.
    const unsaved = new Map<string, string>();
    const INTERRUPTED = 'interrupted: the page was closed or reloaded during the run; the events recorded so far are kept, and Resume continues it';
    try {
      for (const r of (await this.store.listRuns()).filter((x) => x.status === 'running')) {
        // Only when no tab holds its lease, and re-read under the lease: the run may have just ended.
        try {
          await this.#leases.ifFree(r.key, async () => {
            const now = await this.store.getRun(r.key);
            if (now?.status !== 'running') return;
            try {
              await this.store.putRun({ ...now, status: 'interrupted', error: INTERRUPTED });
            } catch (e) {
              unsaved.set(r.key, storageErrorText(e));
            }
          });
        } catch (e) {
          unsaved.set(r.key, storageErrorText(e));
        }
      }
      await this.benchmarks.markInterrupted(unsaved);
      await this.refresh();
      if (unsaved.size) {
        this.runs = this.runs.map((r) => (unsaved.has(r.key) ? { ...r, status: 'interrupted', error: `${INTERRUPTED} (not saved: ${unsaved.get(r.key)})` } : r));
        const why = [...unsaved.values()][0]!;
        this.error = `${unsaved.size} interrupted run(s) could not be marked so in storage (${why})${[...unsaved.values()].some(isQuotaError) ? ": this site's storage is full; delete runs to free space" : ''}. They are listed as interrupted; the events they stored are kept.`;
      }
      this.ready = true;
    } catch (e) {
      this.error = `Could not open the run library in this browser: ${storageErrorText(e)}`;
    }
  }

  async refresh(): Promise<void> {
    this.runs = await this.store.listRuns();
    await this.benchmarks.list();
  }

  /** Tells the page's other tabs that the library changed (they list it again). */
  announce(): void {
    this.#channel?.postMessage({ type: 'changed' });
  }

  /** True when the run is live in this tab. */
  isLiveHere(key: string): boolean {
    return this.live.get(key)?.active ?? false;
  }

  /** Runs that can be resumed: cut short by a closed page, a cancel or a provider outage. */
  canResume(r: StoredRun): boolean {
    if (this.isLiveHere(r.key)) return false;
    if (r.status === 'interrupted') return true;
    // An external agent behind a URL that failed (timeouts, bad replies after the retries) resumes too: its recorded replies are not asked for again.
    return r.status === 'failed' && (r.endReason === null || r.endReason === 'aborted' || r.endReason === 'llm_error' || r.endReason === 'storage_full' || (r.endReason === 'tutor_error' && r.record?.tutor.name === 'http'));
  }

  #env(settings: LlmSettingsData, live: LiveRun, held: PooledTracer[]): RunEnv {
    return {
      tracer: async (name) => {
        const t = await this.#tracers.acquire(name, (p) => {
          if (live.state === 'loading') live.progressText = p.text;
        });
        held.push(t);
        const l = t.loaded;
        live.tracerStatus = `Learner model: ${l.info.name} (${l.info.version}) on ${l.runtime}; ${l.reason}${t.reused ? '; already loaded in this page' : l.fromCache ? '' : '; model downloaded'}`;
        return t;
      },
      personaSeeds: loadPersonaSeeds,
      llm: ({ provider, model }) => clientFor(settings, provider, model),
      // External agents behind a URL (the http tutor): fetched from the page (the agent allows its origin).
      http: this.#http,
    };
  }

  /** Starts a run from its record. The live run's `done` resolves with the stored run when it ends. */
  start(record: RunRecord, opts: StartOptions = {}): LiveRun {
    const s = effectiveScenario(record);
    const runId = runIdOf(record);
    const rec: StoredRun = {
      key: `${runId}@${Date.now()}-${Math.random().toString(36).slice(2, 6)}`,
      runId,
      scenarioId: s.id,
      scenarioTitle: s.title,
      tutor: tutorLabel({ name: record.tutor.name, config: record.tutor.config }),
      seed: s.seed,
      tracer: s.learner.tracer,
      status: 'running',
      endReason: null,
      createdAt: Date.now(),
      events: 0,
      report: null,
      error: null,
      record,
      ...(opts.benchmark ? { benchmark: { ...opts.benchmark, run: null } } : {}),
    };
    return this.#execute(rec, record, null);
  }

  /** Starts a run a person plays (a tutor that needs "human"): the turns come to the Play view. */
  startPlay(record: RunRecord): PlayRun {
    if (this.play?.active) throw new Error('a played run is already open in this tab: finish or stop it first');
    return this.start(record) as PlayRun;
  }

  /** Resumes an interrupted run from its stored trace (refused, with the reason, when it cannot be). */
  async resume(key: string): Promise<LiveRun> {
    const rec = await this.store.getRun(key);
    if (!rec) throw new Error(`no stored run ${key}`);
    if (this.isLiveHere(key)) throw new Error('this run is running in this tab already');
    // A run another tab is running is that tab's; a "running" run nobody holds is marked interrupted first.
    if (rec.status === 'running' && !(await this.#leases.ifFree(key, async () => undefined))) throw new LeaseTaken(key);
    const stored = await this.store.getEvents(key);
    // A run whose page went away before its first events were stored starts again, under its key.
    if (stored.length === 0 && rec.record) return this.#execute({ ...rec, status: 'running', endReason: null, error: null, events: 0, report: null }, rec.record, null);
    const record = rec.record ?? recordFromTrace(stored, key);
    // The run ended (every event stored) but its page went away before its record said so: it is
    // complete, so it is finished from what was stored instead of resumed.
    const end = stored.find((e) => e.type === 'run_end');
    if (end?.type === 'run_end' && (end.reason === 'horizon_reached' || end.reason === 'ended_by_tutor') && rec.status !== 'done' && rec.status !== 'imported') return this.#finishStored({ ...rec, record }, stored, end.reason);
    resumePoint(stored); // a complete run says so here, before anything changes
    return this.#execute({ ...rec, status: 'running', endReason: null, error: null, record }, record, stored);
  }

  /** True for runs whose tutor is played by a person (they resume in the Play view). */
  isPlayed(r: StoredRun): boolean {
    const name = r.record?.tutor.name ?? r.runId.split('__')[1];
    // An MCP agent's turns are held from outside too, but by the agent through serve-mcp, never in the Play view.
    return name !== 'mcp' && (TUTORS.get(name ?? '')?.needs.includes('human') ?? false);
  }

  async #finishStored(rec: StoredRun, stored: readonly TraceEvent[], reason: 'horizon_reached' | 'ended_by_tutor' = 'horizon_reached'): Promise<LiveRun> {
    const live = new LiveRun(rec.key, effectiveScenario(rec.record!).horizonDays);
    const done: StoredRun = {
      ...rec,
      status: 'done',
      endReason: reason,
      error: null,
      events: stored.length,
      report: scoreTrace(stored),
      digest: digestRun({ events: stored }),
      ...(rec.benchmark ? { benchmark: { ...rec.benchmark, run: summarizeRun(stored, rec.record!.source) } } : {}),
    };
    await this.store.putRun(done);
    this.runs = this.runs.map((r) => (r.key === rec.key ? done : r));
    this.announce();
    for (const e of stored) live.see(e);
    live.state = 'done';
    live.progress = 1;
    live.progressText = 'Done';
    this.live.set(rec.key, live);
    live.resolveDone(done);
    return live;
  }

  #execute(rec: StoredRun, record: RunRecord, stored: readonly TraceEvent[] | null): LiveRun {
    if (record.tutor.name === 'mcp') throw new Error('an MCP agent tutors through `npm run cli -- serve-mcp`, not in the page: continue its run with `npm run cli -- serve-mcp --resume <trace>` and import the trace');
    const played = TUTORS.get(record.tutor.name)?.needs.includes('human') ?? false;
    if (played && this.play?.active) throw new Error('a played run is already open in this tab: finish or stop it first');
    const live = played ? new PlayRun(rec.key, effectiveScenario(record).horizonDays) : new LiveRun(rec.key, effectiveScenario(record).horizonDays);
    this.live.set(rec.key, live);
    if (live instanceof PlayRun) this.play = live;
    const run = async (): Promise<StoredRun> => {
      const held: PooledTracer[] = [];
      try {
        const listed = () => {
          this.runs = [rec, ...this.runs.filter((r) => r.key !== rec.key)];
          this.announce();
        };
        await executeStoredRun({ store: this.store, rec, record, stored, live, env: this.#env(loadSettings().data, live, held), listed });
      } finally {
        for (const t of held) this.#tracers.release(t);
      }
      this.runs = this.runs.map((r) => (r.key === rec.key ? { ...rec } : r));
      this.announce();
      return rec;
    };
    this.#leases.hold(rec.key, run).then(
      (out) => live.resolveDone(out),
      (e: unknown) => {
        live.state = 'failed';
        live.error = `The run could not start: ${storageErrorText(e)}`;
        live.progressText = 'Failed';
        live.resolveDone(rec);
      },
    );
    return live;
  }

  cancel(key: string): void {
    const l = this.live.get(key);
    if (l instanceof PlayRun) l.stop();
    else l?.abort.abort();
  }

  async remove(key: string): Promise<void> {
    if (this.isLiveHere(key)) throw new Error('cancel the run before deleting it');
    await this.store.deleteRun(key);
    this.runs = this.runs.filter((r) => r.key !== key);
    this.live.delete(key);
    this.announce();
  }

  /** Gives finished runs stored before digests existed their digest (reads each trace once). */
  async addDigests(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      const r = this.runs.find((x) => x.key === key);
      if (!r || r.digest) continue;
      const digest = digestRun({ events: await this.store.getEvents(key) });
      const next = { ...r, digest };
      await this.store.putRun(next);
      this.runs = this.runs.map((x) => (x.key === key ? next : x));
    }
  }

  getEvents(key: string): Promise<TraceEvent[]> {
    return this.store.getEvents(key);
  }

  async exportRun(key: string): Promise<{ filename: string; text: string }> {
    const rec = this.runs.find((r) => r.key === key);
    return { filename: rec ? exportFileName(rec) : 'run.jsonl', text: await this.store.exportJsonl(key) };
  }

  async importTrace(trace: string | ParsedTrace, name: string): Promise<StoredRun & { duplicate?: true }> {
    const rec = await this.store.importJsonl(trace, name, scoreTrace, Date.now());
    await this.refresh();
    this.announce();
    return rec;
  }

  /**
   * Judges a stored, finished run with the panel from LLM settings. The verdicts are stored with
   * the run's trace (replacing an earlier panel's) and the report is recomputed from it.
   */
  async judge(key: string, opts: { signal: AbortSignal; onProgress: (text: string) => void; judges?: readonly string[] }): Promise<{ events: TraceEvent[]; summary: string; errors: string[] }> {
    const rec = this.runs.find((r) => r.key === key);
    if (!rec) throw new Error(`no stored run ${key}`);
    const s = loadSettings().data;
    if (s.panel.judges.length === 0) throw new Error('No judges configured: add them under LLM settings.');
    const events = await this.store.getEvents(key);
    const endIdx = events.findIndex((e) => e.type === 'run_end');
    if (endIdx < 0) throw new Error('this run has no end (it was interrupted); only finished runs can be judged');
    // A subset of the panel (the Benchmark's "Judge this benchmark" chooses one), by judge id "<model>@<provider>".
    const chosen = opts.judges ? s.panel.judges.filter((j) => opts.judges!.includes(`${j.model}@${j.provider}`)) : s.panel.judges;
    if (chosen.length === 0) throw new Error('none of the chosen judges is in the panel of LLM settings');
    const judges = chosen.map((j) => ({ id: `${j.model}@${j.provider}`, client: clientFor(s, j.provider, j.model, j.family) }));
    const res = await judgeTrace(events, { ...PANEL_DEFAULTS, id: 'page-panel', judges, temperature: s.panel.temperature, daysPerRun: s.panel.daysPerRun, rubrics: s.panel.rubrics }, {
      signal: opts.signal,
      onProgress: (p) => opts.onProgress(`${p.done} of ${p.total} verdicts`),
    });
    const all = withVerdicts(events, res.events);
    const updated: StoredRun = { ...rec, events: all.length, report: scoreTrace(all), digest: digestRun({ events: all }) };
    await this.store.replaceTail(updated, endIdx + 1, all.slice(endIdx + 1));
    this.runs = this.runs.map((r) => (r.key === key ? updated : r));
    this.announce();
    const cost = res.cost === null ? 'cost unknown (no prices configured)' : `$${res.cost.toFixed(4)}`;
    return {
      events: all,
      summary: `Judged: ${res.scored} verdicts scored, ${res.unscored} unscored; ${res.usage ? `${res.usage.promptTokens} + ${res.usage.completionTokens} tokens` : 'no usage reported'}, ${cost}`,
      errors: res.stopped.map((st) => `${st.judge}: ${st.reason}`),
    };
  }
}
