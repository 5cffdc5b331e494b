/**
 * The page's benchmarks (one per run library, `library.benchmarks`): the stored benchmarks, the one
 * running in this tab, and every action on them (start, resume, pause, cancel, export, import). A
 * benchmark's runs go through the library's `start` / `resume` like any other run, so each has its
 * own progress (library.live), lease and stored trace; what is here is the plan, the parallelism,
 * the tally, and the benchmark object in IndexedDB. Across tabs a running benchmark holds the lease
 * `benchmark:<id>`: one whose lease nobody holds when a page opens is marked paused.
 */
import { SvelteSet } from 'svelte/reactivity';
import pLimit from 'p-limit';
import { errorMessage, needsModel, parseJsonl, recordFromTrace, scoreTrace, summarizeRun, tutorLabel, voiceLabel, type BenchmarkJob, type BenchmarkSpec, type RunRecord, type TraceEvent } from '../../core/index';
import { storageErrorText, type BenchmarkJobEntry, type RunStore, type StoredBenchmark, type StoredRun } from '../../adapters/browser/run-store';
import { zipBenchmark, type Bundle } from '../../adapters/browser/benchmark-bundle';
import { LeaseTaken, type RunLeases } from '../../adapters/browser/run-lease';
import type { LiveRun } from './live-run.svelte';
import { fileStem } from './run-facts';

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

/** What the benchmarks use of the run library (library.svelte.ts). */
export interface BenchmarkHost {
  readonly store: RunStore;
  readonly runs: readonly StoredRun[];
  start(record: RunRecord, opts?: StartOptions): LiveRun;
  resume(key: string): Promise<LiveRun>;
  canResume(r: StoredRun): boolean;
  cancel(key: string): void;
  refresh(): Promise<void>;
  /** Tells the page's other tabs that the library changed. */
  announce(): void;
}

const INTERRUPTED = 'interrupted: the page was closed or reloaded while it ran; Resume continues it (finished runs are kept, partial ones resumed)';
const isDone = (events: readonly TraceEvent[]) => events.some((e) => e.type === 'run_end' && e.reason === 'horizon_reached');
type ParsedBundleTrace = { path: string; text: string; events: TraceEvent[] };

export class BenchmarkRuns {
  /** Stored benchmarks, newest first. */
  stored = $state.raw<StoredBenchmark[]>([]);
  /** The benchmark running in this tab (or the last one that ran here). */
  live = $state<LiveBenchmark | null>(null);
  readonly #host: BenchmarkHost;
  readonly #leases: RunLeases;

  constructor(host: BenchmarkHost, leases: RunLeases) {
    this.#host = host;
    this.#leases = leases;
  }

  get #store(): RunStore {
    return this.#host.store;
  }

  async list(): Promise<void> {
    this.stored = await this.#store.listBenchmarks();
  }

  /** Marks "running" benchmarks whose lease no tab holds as paused; `unsaved` gets those the storage refused. */
  async markInterrupted(unsaved: Map<string, string>): Promise<void> {
    for (const b of (await this.#store.listBenchmarks()).filter((x) => x.status === 'running')) {
      try {
        await this.#leases.ifFree(`benchmark:${b.id}`, async () => {
          const now = await this.#store.getBenchmark(b.id);
          if (now?.status !== 'running') return;
          await this.#store.putBenchmark({ ...now, status: 'paused', error: INTERRUPTED });
        });
      } catch (e) {
        unsaved.set(`benchmark:${b.id}`, storageErrorText(e));
      }
    }
  }

  /** A stored benchmark as a zip: benchmark.json and the traces of its runs (docs: adapters/browser/benchmark-bundle.ts). */
  async exportZip(id: string): Promise<{ filename: string; bytes: Uint8Array }> {
    const b = await this.#store.getBenchmark(id);
    if (!b) throw new Error(`no stored benchmark ${id}`);
    const traces = new Map<number, string>();
    for (const j of b.jobs) if (j.key && this.#host.runs.some((r) => r.key === j.key)) traces.set(j.index, await this.#store.exportJsonl(j.key));
    return { filename: `${fileStem(b.name, 'benchmark')}.benchmark.zip`, bytes: zipBenchmark(b, traces) };
  }

  /**
   * Imports a benchmark bundle (ours, or a CLI sweep's directory of traces): every trace goes into
   * the run library (a trace already there is not stored twice) tagged with the benchmark, and the
   * benchmark object is stored. Nothing is stored unless every trace parses.
   */
  async import(bundle: Bundle, name: string): Promise<StoredBenchmark> {
    const parsed = [...bundle.traces.entries()].map(([path, text]) => ({ path, text, events: parseJsonl(text, `${name}/${path}`).events }));
    const byPath = new Map(parsed.map((p) => [p.path, p]));
    const m = bundle.manifest;
    const id = m?.id ?? `import-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
    const existing = m ? await this.#store.getBenchmark(m.id) : undefined;
    const benchName = m?.name ?? name.replace(/\.zip$/i, '');
    const jobs = BenchmarkRuns.#importedJobs(bundle, parsed);
    const pathOf = (index: number) => (m ? (m.jobs.find((j) => j.index === index)?.trace ?? null) : (parsed[index]?.path ?? null));
    for (const job of jobs) {
      const p = byPath.get(pathOf(job.index) ?? '');
      if (p) job.key = await this.#storeImportedRun(p, job, { id, name: benchName }, name);
    }
    const complete = jobs.every((j) => j.key && isDone(byPath.get(pathOf(j.index) ?? '')?.events ?? []));
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
    await this.#store.putBenchmark(bench);
    await this.#host.refresh();
    this.#host.announce();
    return bench;
  }

  /** A bundle's jobs: its manifest's, or one per trace (a CLI sweep's directory). */
  static #importedJobs(bundle: Bundle, parsed: readonly ParsedBundleTrace[]): BenchmarkJobEntry[] {
    const m = bundle.manifest;
    if (m) return m.jobs.map((j) => ({ index: j.index, runId: j.runId, tutor: j.tutor, voice: j.voice, record: j.record, key: null }));
    return parsed.map((p, index) => {
      const start = p.events[0]!;
      const record = recordFromTrace(p.events, p.path);
      return { index, runId: start.type === 'run_start' ? start.runId : p.path, tutor: start.type === 'run_start' ? tutorLabel(start.tutor) : '?', voice: voiceLabel(record.voice), record, key: null };
    });
  }

  /** Stores one imported trace tagged with its benchmark; its storage key. */
  async #storeImportedRun(p: ParsedBundleTrace, job: BenchmarkJobEntry, bench: { id: string; name: string }, name: string): Promise<string> {
    const { duplicate, ...rec } = await this.#store.importJsonl(p.text, `${name}/${p.path}`, scoreTrace, Date.now());
    const record = rec.record ?? (duplicate ? undefined : (job.record ?? undefined));
    const run = isDone(p.events) ? summarizeRun(p.events, job.record?.source ?? p.path) : null;
    await this.#store.putRun({ ...rec, ...(record ? { record } : {}), benchmark: { ...bench, index: job.index, run } });
    return rec.key;
  }

  /** Creates a benchmark from its spec and planned jobs, stores it, and runs it. */
  async start(spec: BenchmarkSpec, jobs: readonly BenchmarkJob[], parallel: { cpu: number; llm: number }): Promise<LiveBenchmark> {
    if (this.live?.active) throw new Error('a benchmark is already running in this tab: pause or cancel it first');
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
    await this.#store.putBenchmark(bench);
    this.stored = [bench, ...this.stored];
    return this.#run(bench);
  }

  /** Continues a paused, cancelled or interrupted benchmark: finished runs are kept, partial ones resumed, missing ones started. */
  async resume(id: string): Promise<LiveBenchmark> {
    if (this.live?.active) throw new Error('a benchmark is already running in this tab: pause or cancel it first');
    const bench = await this.#store.getBenchmark(id);
    if (!bench) throw new Error(`no stored benchmark ${id}`);
    if (bench.status === 'running' && !(await this.#leases.ifFree(`benchmark:${id}`, async () => undefined))) throw new LeaseTaken(`benchmark ${bench.name}`);
    return this.#run({ ...bench, status: 'running', error: null });
  }

  pause(): void {
    this.#stop('pause');
  }

  cancel(): void {
    this.#stop('cancel');
  }

  #stop(how: 'pause' | 'cancel'): void {
    const b = this.live;
    if (!b?.active) return;
    b.requestStop(how);
    for (const k of b.liveKeys) this.#host.cancel(k);
  }

  /** Runs the benchmark's jobs under its lease; returns at once with the live benchmark. */
  #run(initial: StoredBenchmark): LiveBenchmark {
    const lb = new LiveBenchmark(initial);
    this.live = lb;
    const run = new BenchmarkRun(lb, this.#host, (next) => {
      lb.bench = next;
      this.stored = [next, ...this.stored.filter((b) => b.id !== next.id)];
    });
    void this.#leases.hold(`benchmark:${initial.id}`, () => run.all()).catch((e: unknown) => {
      lb.state = 'paused';
      lb.error = errorMessage(e);
    });
    return lb;
  }
}

/** One run of a benchmark's jobs (a start or a resume): the parallel limits, the tally, the saves. */
class BenchmarkRun {
  #bench: StoredBenchmark;
  /** Saves of the benchmark object go one after the other (each job adds its run's key). */
  #saving = Promise.resolve();
  readonly #failures: string[] = [];

  constructor(
    readonly lb: LiveBenchmark,
    readonly host: BenchmarkHost,
    readonly shown: (b: StoredBenchmark) => void,
  ) {
    this.#bench = lb.bench;
  }

  #save(next: StoredBenchmark): void {
    this.#bench = next;
    this.shown(next);
    this.#saving = this.#saving.then(() => this.host.store.putBenchmark(next)).catch((e: unknown) => void (this.lb.error = `Could not save the benchmark: ${storageErrorText(e)}`));
  }

  #count(): void {
    this.lb.finished++;
    this.lb.progressText = `${this.lb.finished} of ${this.lb.total} runs`;
  }

  async all(): Promise<void> {
    const { lb } = this;
    this.#save(this.#bench);
    this.host.announce();
    const cpu = pLimit(this.#bench.parallel);
    const llm = pLimit(this.#bench.llmParallel);
    lb.progressText = `0 of ${lb.total} runs`;
    await Promise.all(this.#bench.jobs.map((j) => (j.record && needsModel(j.record) ? llm : cpu)(() => this.#one(j.index).catch((e: unknown) => void this.#failures.push(`${j.runId}: ${errorMessage(e)}`)))));
    const stop = lb.stopRequested;
    lb.state = stop === 'pause' ? 'paused' : stop === 'cancel' ? 'cancelled' : 'done';
    lb.progressText = stop ? `${stop === 'pause' ? 'Paused' : 'Cancelled'} after ${lb.finished} of ${lb.total} runs` : `Done: ${lb.total} runs`;
    if (this.#failures.length) lb.error = `${this.#failures.length} run(s) did not reach the last day: ${this.#failures.join('; ')}`;
    else if (!stop) lb.notice = `Benchmark finished: ${lb.total} runs stored in the run library.`;
    this.#save({ ...this.#bench, status: lb.state === 'done' ? 'done' : lb.state === 'paused' ? 'paused' : 'cancelled', error: lb.error });
    await this.#saving;
    this.host.announce();
  }

  /** One job: kept when its run is done, resumed when it can be, started otherwise. */
  async #one(index: number): Promise<void> {
    const { lb, host } = this;
    if (lb.stopRequested) return;
    const bench = this.#bench;
    const job = bench.jobs[index]!;
    const existing = job.key ? host.runs.find((r) => r.key === job.key) : undefined;
    if (existing?.status === 'done') return this.#count();
    if (!job.record) {
      this.#failures.push(`${job.runId}: no run record (carried over from an older page sweep)`);
      return this.#count();
    }
    let live: LiveRun;
    if (existing && host.canResume(existing)) live = await host.resume(existing.key);
    else {
      live = host.start(job.record, { benchmark: { id: bench.id, name: bench.name, index } });
      this.#save({ ...this.#bench, jobs: this.#bench.jobs.map((j) => (j.index === index ? { ...j, key: live.key } : j)) });
    }
    lb.liveKeys.add(live.key);
    const rec = await live.done;
    lb.liveKeys.delete(live.key);
    if (rec.status !== 'done' && !lb.stopRequested) this.#failures.push(`${job.runId}: ${rec.error ?? rec.endReason ?? rec.status}`);
    lb.failures = [...this.#failures];
    this.#count();
  }
}
