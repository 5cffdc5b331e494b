/**
 * The app's run library (one per page, shared by every view through context): the stored runs,
 * the runs live in this tab with their progress, the page sweep in progress, and every action on
 * runs (start, resume, cancel, delete, import, export, judge). Views only render it and call it,
 * so a run or a sweep keeps going and keeps reporting while the user visits other tabs.
 *
 * Every run goes through the engine's run runner (run-execution.ts: `runRun` with the IndexedDB
 * sink): its events are written to IndexedDB as it goes, so a reload keeps what was recorded and
 * the run can be resumed.
 * Across tabs of this browser, a live run holds a lease (run-lease.ts): a "running" record whose
 * lease nobody holds is marked interrupted; a run live in another tab is left alone.
 */
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import pLimit from 'p-limit';
import {
  errorMessage,
  TUTORS,
  judgeTrace,
  loadPersonaSeeds,
  recordFromTrace,
  resumePoint,
  runIdOf,
  scoreTrace,
  summarizeRun,
  needsModel,
  digestRun,
  parseJsonl,
  voiceLabel,
  tutorLabel,
  withVerdicts,
  PANEL_DEFAULTS,
  effectiveScenario,
  type RunEnv,
  type RunRecord,
  type RunSummary,
  type BenchmarkJob,
  type BenchmarkSpec,
  type TraceEvent,
} from '../../core/index';
import { RunStore, isQuotaError, storageErrorText, type BenchmarkJobEntry, type StoredBenchmark, type StoredRun } from '../../adapters/browser/run-store';
import { zipBenchmark, type Bundle } from '../../adapters/browser/benchmark-bundle';
import { TracerPool, type PooledTracer } from '../../adapters/browser/tracer-pool';
import { LeaseTaken, browserLeases, type RunLeases } from '../../adapters/browser/run-lease';
import { clientFor, loadSettings, type LlmSettingsData } from '../../adapters/browser/llm-settings';
import { browserHttpTransport } from '../../adapters/browser/agent-http';
import type { HttpTransport, ParsedTrace } from '../../core/index';
import { exportFileName, fileStem } from './run-facts';
import { LiveRun, PlayRun } from './live-run.svelte';
import { executeStoredRun } from './run-execution';

export { LiveRun, PlayRun, type LiveUsage } from './live-run.svelte';

/**
 * A benchmark running in this tab (or the last one that ran here): its stored object, which of its
 * runs are live now, and how far it got. Runs go through `start` / `resume` like any other, so each
 * has its own progress (library.live) and survives a reload.
 */
export class LiveBenchmark {
  bench = $state.raw<StoredBenchmark>(undefined as unknown as StoredBenchmark);
  state = $state<'running' | 'stopping' | 'paused' | 'cancelled' | 'done'>('running');
  /** Jobs whose run has ended (done or not). */
  finished = $state(0);
  failures = $state.raw<string[]>([]);
  progressText = $state('');
  error = $state<string | null>(null);
  notice = $state<string | null>(null);
  /** Storage keys of this benchmark's runs that are live now. */
  readonly liveKeys = new SvelteSet<string>();
  #stop: 'pause' | 'cancel' | null = null;

  constructor(bench: StoredBenchmark) {
    this.bench = bench;
  }

  get id(): string {
    return this.bench.id;
  }

  get total(): number {
    return this.bench.jobs.length;
  }

  get active(): boolean {
    return this.state === 'running' || this.state === 'stopping';
  }

  get stopRequested(): 'pause' | 'cancel' | null {
    return this.#stop;
  }

  requestStop(how: 'pause' | 'cancel'): void {
    this.#stop = how;
    if (this.state === 'running') this.state = 'stopping';
  }
}

export interface StartOptions {
  /** The run is a job of this benchmark. */
  benchmark?: { id: string; name: string; index: number };
}

const channelName = 'educlaw-lab.runs';

export class RunLibrary {
  runs = $state.raw<StoredRun[]>([]);
  /** Runs started or resumed in this tab since it loaded, by storage key. */
  readonly live = new SvelteMap<string, LiveRun>();
  /** Stored benchmarks, newest first. */
  benchmarks = $state.raw<StoredBenchmark[]>([]);
  /** The benchmark running in this tab (or the last one that ran here). */
  bench = $state<LiveBenchmark | null>(null);
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
      for (const b of (await this.store.listBenchmarks()).filter((x) => x.status === 'running')) {
        try {
          await this.#leases.ifFree(`benchmark:${b.id}`, async () => {
            const now = await this.store.getBenchmark(b.id);
            if (now?.status !== 'running') return;
            await this.store.putBenchmark({ ...now, status: 'paused', error: 'interrupted: the page was closed or reloaded while it ran; Resume continues it (finished runs are kept, partial ones resumed)' });
          });
        } catch (e) {
          unsaved.set(`benchmark:${b.id}`, storageErrorText(e));
        }
      }
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
    this.benchmarks = await this.store.listBenchmarks();
  }

  #changed(): void {
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
    this.#changed();
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
          this.#changed();
        };
        await executeStoredRun({ store: this.store, rec, record, stored, live, env: this.#env(loadSettings().data, live, held), listed });
      } finally {
        for (const t of held) this.#tracers.release(t);
      }
      this.runs = this.runs.map((r) => (r.key === rec.key ? { ...rec } : r));
      this.#changed();
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
    this.#changed();
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
    this.#changed();
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
    this.#changed();
    const cost = res.cost === null ? 'cost unknown (no prices configured)' : `$${res.cost.toFixed(4)}`;
    return {
      events: all,
      summary: `Judged: ${res.scored} verdicts scored, ${res.unscored} unscored; ${res.usage ? `${res.usage.promptTokens} + ${res.usage.completionTokens} tokens` : 'no usage reported'}, ${cost}`,
      errors: res.stopped.map((st) => `${st.judge}: ${st.reason}`),
    };
  }

  /** A stored benchmark as a zip: benchmark.json and the traces of its runs (docs: adapters/browser/benchmark-bundle.ts). */
  async exportBenchmark(id: string): Promise<{ filename: string; bytes: Uint8Array }> {
    const b = await this.store.getBenchmark(id);
    if (!b) throw new Error(`no stored benchmark ${id}`);
    const traces = new Map<number, string>();
    for (const j of b.jobs) if (j.key && this.runs.some((r) => r.key === j.key)) traces.set(j.index, await this.store.exportJsonl(j.key));
    return { filename: `${fileStem(b.name, 'benchmark')}.benchmark.zip`, bytes: zipBenchmark(b, traces) };
  }

  /**
   * Imports a benchmark bundle (ours, or a CLI sweep's directory of traces): every trace goes into
   * the run library (a trace already there is not stored twice) tagged with the benchmark, and the
   * benchmark object is stored. Nothing is stored unless every trace parses.
   */
  async importBenchmark(bundle: Bundle, name: string): Promise<StoredBenchmark> {
    const parsed = [...bundle.traces.entries()].map(([path, text]) => ({ path, text, events: parseJsonl(text, `${name}/${path}`).events }));
    const byPath = new Map(parsed.map((p) => [p.path, p]));
    const m = bundle.manifest;
    const id = m?.id ?? `import-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
    const existing = m ? await this.store.getBenchmark(m.id) : undefined;
    const benchName = m?.name ?? name.replace(/\.zip$/i, '');
    const jobs: BenchmarkJobEntry[] = m
      ? m.jobs.map((j) => ({ index: j.index, runId: j.runId, tutor: j.tutor, voice: j.voice, record: j.record, key: null }))
      : parsed.map((p, index) => {
          const start = p.events[0]!;
          const record = recordFromTrace(p.events, p.path);
          return { index, runId: start.type === 'run_start' ? start.runId : p.path, tutor: start.type === 'run_start' ? tutorLabel(start.tutor) : '?', voice: voiceLabel(record.voice), record, key: null };
        });
    const pathOf = (index: number) => (m ? (m.jobs.find((j) => j.index === index)?.trace ?? null) : (parsed[index]?.path ?? null));
    for (const job of jobs) {
      const path = pathOf(job.index);
      const p = path ? byPath.get(path) : undefined;
      if (!p) continue;
      const { duplicate, ...rec } = await this.store.importJsonl(p.text, `${name}/${p.path}`, scoreTrace, Date.now());
      const done = p.events.some((e) => e.type === 'run_end' && e.reason === 'horizon_reached');
      const record = rec.record ?? (duplicate ? undefined : (job.record ?? undefined));
      await this.store.putRun({ ...rec, ...(record ? { record } : {}), benchmark: { id, name: benchName, index: job.index, run: done ? summarizeRun(p.events, job.record?.source ?? p.path) : null } });
      job.key = rec.key;
    }
    const complete = jobs.every((j) => j.key && byPath.get(pathOf(j.index) ?? '')?.events.some((e) => e.type === 'run_end' && e.reason === 'horizon_reached'));
    const bench: StoredBenchmark = {
      id,
      name: benchName,
      createdAt: m?.createdAt ?? Date.now(),
      spec: m?.spec ?? null,
      jobs: jobs.map((j) => ({ ...j, key: j.key ?? existing?.jobs.find((x) => x.index === j.index)?.key ?? null })),
      status: complete ? 'done' : 'paused',
      parallel: existing?.parallel ?? 2,
      llmParallel: existing?.llmParallel ?? 8,
      error: complete ? null : 'imported with runs missing or cut short: Resume runs them',
    };
    await this.store.putBenchmark(bench);
    await this.refresh();
    this.#changed();
    return bench;
  }

  /** Creates a benchmark from its spec and planned jobs, stores it, and runs it. */
  async startBenchmark(spec: BenchmarkSpec, jobs: readonly BenchmarkJob[], parallel: { cpu: number; llm: number }): Promise<LiveBenchmark> {
    if (this.bench?.active) throw new Error('a benchmark is already running in this tab: pause or cancel it first');
    const bench: StoredBenchmark = {
      id: `bench-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`,
      name: spec.name,
      createdAt: Date.now(),
      spec,
      jobs: jobs.map((j) => ({ index: j.index, runId: j.runId, tutor: j.tutor, voice: j.voice, record: j.record, key: null })),
      status: 'running',
      parallel: Math.max(1, parallel.cpu),
      llmParallel: Math.max(1, parallel.llm),
      error: null,
    };
    await this.store.putBenchmark(bench);
    this.benchmarks = [bench, ...this.benchmarks];
    return this.#runBenchmark(bench);
  }

  /** Continues a paused, cancelled or interrupted benchmark: finished runs are kept, partial ones resumed, missing ones started. */
  async resumeBenchmark(id: string): Promise<LiveBenchmark> {
    if (this.bench?.active) throw new Error('a benchmark is already running in this tab: pause or cancel it first');
    const bench = await this.store.getBenchmark(id);
    if (!bench) throw new Error(`no stored benchmark ${id}`);
    if (bench.status === 'running' && !(await this.#leases.ifFree(`benchmark:${id}`, async () => undefined))) throw new LeaseTaken(`benchmark ${bench.name}`);
    return this.#runBenchmark({ ...bench, status: 'running', error: null });
  }

  pauseBenchmark(): void {
    this.#stopBenchmark('pause');
  }

  cancelBenchmark(): void {
    this.#stopBenchmark('cancel');
  }

  #stopBenchmark(how: 'pause' | 'cancel'): void {
    const b = this.bench;
    if (!b?.active) return;
    b.requestStop(how);
    for (const k of b.liveKeys) this.cancel(k);
  }

  async #runBenchmark(initial: StoredBenchmark): Promise<LiveBenchmark> {
    const lb = new LiveBenchmark(initial);
    this.bench = lb;
    let bench = initial;
    // Saves of the benchmark object go one after the other (each job adds its run's key).
    let saving = Promise.resolve();
    const save = (next: StoredBenchmark) => {
      bench = next;
      lb.bench = next;
      this.benchmarks = [next, ...this.benchmarks.filter((b) => b.id !== next.id)];
      saving = saving.then(() => this.store.putBenchmark(next)).catch((e: unknown) => void (lb.error = `Could not save the benchmark: ${storageErrorText(e)}`));
    };
    const run = async () => {
      save(bench);
      this.#changed();
      const cpu = pLimit(bench.parallel);
      const llm = pLimit(bench.llmParallel);
      const failures: string[] = [];
      const count = () => {
        lb.finished++;
        lb.progressText = `${lb.finished} of ${lb.total} runs`;
      };
      const one = async (index: number) => {
        if (lb.stopRequested) return;
        const job = bench.jobs[index]!;
        const existing = job.key ? this.runs.find((r) => r.key === job.key) : undefined;
        if (existing?.status === 'done') return count();
        if (!job.record) {
          failures.push(`${job.runId}: no run record (carried over from an older page sweep)`);
          return count();
        }
        let live: LiveRun;
        if (existing && this.canResume(existing)) live = await this.resume(existing.key);
        else {
          live = this.start(job.record, { benchmark: { id: bench.id, name: bench.name, index } });
          save({ ...bench, jobs: bench.jobs.map((j) => (j.index === index ? { ...j, key: live.key } : j)) });
        }
        lb.liveKeys.add(live.key);
        const rec = await live.done;
        lb.liveKeys.delete(live.key);
        if (rec.status !== 'done' && !lb.stopRequested) failures.push(`${job.runId}: ${rec.error ?? rec.endReason ?? rec.status}`);
        lb.failures = [...failures];
        count();
      };
      lb.progressText = `0 of ${lb.total} runs`;
      await Promise.all(bench.jobs.map((j) => (j.record && needsModel(j.record) ? llm : cpu)(() => one(j.index).catch((e: unknown) => void failures.push(`${j.runId}: ${errorMessage(e)}`)))));
      const stop = lb.stopRequested;
      lb.state = stop === 'pause' ? 'paused' : stop === 'cancel' ? 'cancelled' : 'done';
      lb.progressText = stop ? `${stop === 'pause' ? 'Paused' : 'Cancelled'} after ${lb.finished} of ${lb.total} runs` : `Done: ${lb.total} runs`;
      if (failures.length) lb.error = `${failures.length} run(s) did not reach the last day: ${failures.join('; ')}`;
      else if (!stop) lb.notice = `Benchmark finished: ${lb.total} runs stored in the run library.`;
      save({ ...bench, status: lb.state === 'done' ? 'done' : lb.state === 'paused' ? 'paused' : 'cancelled', error: lb.error });
      await saving;
      this.#changed();
    };
    void this.#leases.hold(`benchmark:${initial.id}`, run).catch((e: unknown) => {
      lb.state = 'paused';
      lb.error = errorMessage(e);
    });
    return lb;
  }
}
