/**
 * Runs and their traces in IndexedDB, through `idb`. One class owns the database; every
 * transaction goes through it. Stored records are validated on the way out (restoreRun) and
 * traces migrated (core migrateTrace), so an old or damaged database gives a clear error.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { digestRun, migrateTrace, parseJsonl, toJsonl, type BenchmarkSpec, type RunDigest, type RunRecord, type RunSummary, type ScoreReport, type TraceEvent, type TerminationReason, type ParsedTrace } from '../../core/index';

// DO NOT CHANGE THESE WITHOUT ADDING A MIGRATION IN `upgrade` BELOW: doing so would lose users' runs.
export const DB_NAME = 'educlaw-lab';
export const DB_VERSION = 2;
export const STORES = { runs: 'runs', events: 'events', benchmarks: 'benchmarks' } as const;

/**
 * running: live in some tab of this browser (see run-lease.ts); interrupted: its page went away
 * mid-run (the events recorded so far are kept; it can be resumed); done: reached its horizon;
 * failed: ended early (error, cancel); imported: read from a JSONL file.
 */
export type RunStatus = 'running' | 'interrupted' | 'done' | 'failed' | 'imported';

/** One stored run: its identity, status, latest score report, and the run record it was made from. */
export interface StoredRun {
  /** Storage key: unique per stored copy (a run id can be stored twice). */
  key: string;
  runId: string;
  scenarioId: string;
  scenarioTitle: string;
  tutor: string;
  seed: number;
  tracer: string;
  status: RunStatus;
  endReason: TerminationReason | null;
  /** Wall-clock time the record was created (browser only; never part of a trace). */
  createdAt: number;
  events: number;
  report: ScoreReport | null;
  error: string | null;
  /** Set for runs of a benchmark: which one, the job's index in it, and the run's summary (src/core/sweep; null until the run has ended). */
  benchmark?: { id: string; name: string; index: number; run: RunSummary | null };
  /** The run record (absent for imported runs and runs stored before records existed: their trace's run_start gives it back). */
  record?: RunRecord;
  /** What the analyses need of a finished run (src/core/analysis), so results never reload its trace. */
  digest?: RunDigest;
}

export type BenchmarkStatus = 'running' | 'paused' | 'done' | 'cancelled';

/** One job of a stored benchmark: its run record and, once started, the storage key of its run. */
export interface BenchmarkJobEntry {
  index: number;
  runId: string;
  tutor: string;
  voice: string;
  /** Null only for benchmarks carried over from a version-1 page sweep whose run stored no record. */
  record: RunRecord | null;
  key: string | null;
}

/** A benchmark as a named object (database version 2): what it runs, its jobs and where each job's run is. */
export interface StoredBenchmark {
  id: string;
  name: string;
  createdAt: number;
  /** Null for a benchmark carried over from a version-1 page sweep. */
  spec: BenchmarkSpec | null;
  jobs: BenchmarkJobEntry[];
  /** running: some tab runs it (or ran it until its page went away: it is then resumed, see the run library). */
  status: BenchmarkStatus;
  /** Runs at once: built-in tutors with the template voice (CPU-bound), and runs that wait on a model. */
  parallel: number;
  llmParallel: number;
  error: string | null;
}

interface LabDb extends DBSchema {
  runs: { key: string; value: StoredRun; indexes: { createdAt: number } };
  events: { key: [string, number]; value: { key: string; seq: number; event: TraceEvent } };
  benchmarks: { key: string; value: StoredBenchmark; indexes: { createdAt: number } };
}

/**
 * A request inside a transaction whose outcome is the transaction's (`tx.done` rejects with the
 * real error, e.g. QuotaExceededError); its own rejection (an AbortError when the transaction is
 * aborted) is not left unhandled.
 */
function settled(p: Promise<unknown>): void {
  void p.catch(() => undefined);
}

/** A version-1 stored run (page sweeps tagged their runs with `sweep`). */
type RunV1 = Omit<StoredRun, 'benchmark'> & { sweep?: { id: string; label: string; run: RunSummary | null } };

export class RunStore {
  #db: Promise<IDBPDatabase<LabDb>>;
  #pending = new Set<Promise<unknown>>();

  constructor(name = DB_NAME) {
    this.#db = openDB<LabDb>(name, DB_VERSION, {
      async upgrade(db, oldVersion, _newVersion, tx) {
        // Version 0 -> 1: first schema.
        if (oldVersion < 1) {
          const runs = db.createObjectStore(STORES.runs, { keyPath: 'key' });
          runs.createIndex('createdAt', 'createdAt');
          db.createObjectStore(STORES.events, { keyPath: ['key', 'seq'] });
        }
        // Version 1 -> 2: benchmarks are named objects. Each page sweep of version 1 (runs tagged
        // `sweep`) becomes a finished benchmark of those runs; the runs' tag becomes `benchmark`.
        if (oldVersion < 2) {
          const benches = db.createObjectStore(STORES.benchmarks, { keyPath: 'id' });
          benches.createIndex('createdAt', 'createdAt');
          if (oldVersion >= 1) await migrateSweeps(tx.objectStore(STORES.runs) as unknown as RunsStoreV1, tx.objectStore(STORES.benchmarks));
        }
      },
    });
  }

  async putBenchmark(b: StoredBenchmark): Promise<void> {
    await this.#put(STORES.benchmarks, b);
  }

  /** One record put in its own transaction; a failure is the transaction's error (a full storage: QuotaExceededError), never the request's AbortError. */
  async #put<S extends typeof STORES.runs | typeof STORES.benchmarks>(store: S, value: LabDb[S]['value']): Promise<void> {
    const db = await this.#db;
    await this.#track(
      (async () => {
        const tx = db.transaction(store, 'readwrite');
        settled(tx.store.put(value));
        await tx.done;
      })(),
    );
  }

  async getBenchmark(id: string): Promise<StoredBenchmark | undefined> {
    return (await this.#db).get(STORES.benchmarks, id);
  }

  /** Newest first. */
  async listBenchmarks(): Promise<StoredBenchmark[]> {
    return (await (await this.#db).getAllFromIndex(STORES.benchmarks, 'createdAt')).reverse();
  }

  async deleteBenchmark(id: string): Promise<void> {
    await this.#track((await this.#db).delete(STORES.benchmarks, id));
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#pending.add(p);
    void p.finally(() => this.#pending.delete(p)).catch(() => undefined);
    return p;
  }

  /** Resolves when every write started so far has finished (useful for tests). */
  async pending(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  async putRun(rec: StoredRun): Promise<void> {
    await this.#put(STORES.runs, rec);
  }

  async appendEvents(key: string, events: readonly TraceEvent[]): Promise<void> {
    if (events.length === 0) return;
    const db = await this.#db;
    await this.#track(
      (async () => {
        const tx = db.transaction(STORES.events, 'readwrite');
        for (const e of events) settled(tx.store.put({ key, seq: e.seq, event: e }));
        await tx.done;
      })(),
    );
  }

  async getRun(key: string): Promise<StoredRun | undefined> {
    const r = await (await this.#db).get(STORES.runs, key);
    return r ? restoreRun(r) : undefined;
  }

  /** Newest first. */
  async listRuns(): Promise<StoredRun[]> {
    const all = await (await this.#db).getAllFromIndex(STORES.runs, 'createdAt');
    return all.map(restoreRun).reverse();
  }

  async getEvents(key: string): Promise<TraceEvent[]> {
    const db = await this.#db;
    const rows = await db.getAll(STORES.events, IDBKeyRange.bound([key, 0], [key, Number.MAX_SAFE_INTEGER]));
    const events = rows.map((r) => r.event);
    events.forEach((e, i) => {
      if (e.seq !== i) throw new Error(`stored trace ${key} is damaged: event ${i} has seq ${e.seq}`);
    });
    return migrateTrace(events);
  }

  /** How many events a run has stored, and the last of them (without reading the whole trace): what a list of runs to continue shows. */
  async storedTail(key: string): Promise<{ count: number; last: TraceEvent | null }> {
    const db = await this.#db;
    const range = IDBKeyRange.bound([key, 0], [key, Number.MAX_SAFE_INTEGER]);
    const count = await db.count(STORES.events, range);
    const cursor = await db.transaction(STORES.events).store.openCursor(range, 'prev');
    return { count, last: cursor ? (cursor.value.event as TraceEvent) : null };
  }

  /** Deletes the stored events from `fromSeq` on (a resumed run replaces what followed its resume point). */
  async truncateEvents(key: string, fromSeq: number): Promise<void> {
    const db = await this.#db;
    await this.#track(db.delete(STORES.events, IDBKeyRange.bound([key, fromSeq], [key, Number.MAX_SAFE_INTEGER])));
  }

  async deleteRun(key: string): Promise<void> {
    const db = await this.#db;
    await this.#track(
      (async () => {
        const tx = db.transaction([STORES.runs, STORES.events], 'readwrite');
        await tx.objectStore(STORES.runs).delete(key);
        await tx.objectStore(STORES.events).delete(IDBKeyRange.bound([key, 0], [key, Number.MAX_SAFE_INTEGER]));
        await tx.done;
      })(),
    );
  }

  /**
   * Stores a judged trace: the run's events stay as they are; every event after `fromSeq` (an
   * earlier panel's verdicts) is replaced by `tail`, and the record (with its new report) is put
   * in the same transaction. Verdicts live in the trace itself, so export carries them.
   */
  async replaceTail(rec: StoredRun, fromSeq: number, tail: readonly TraceEvent[]): Promise<void> {
    const db = await this.#db;
    await this.#track(
      (async () => {
        const tx = db.transaction([STORES.runs, STORES.events], 'readwrite');
        const events = tx.objectStore(STORES.events);
        await events.delete(IDBKeyRange.bound([rec.key, fromSeq], [rec.key, Number.MAX_SAFE_INTEGER]));
        for (const e of tail) settled(events.put({ key: rec.key, seq: e.seq, event: e }));
        settled(tx.objectStore(STORES.runs).put(rec));
        await tx.done;
      })(),
    );
  }

  async exportJsonl(key: string): Promise<string> {
    return toJsonl(await this.getEvents(key));
  }

  /**
   * Imports a JSONL trace (from the CLI or another browser). Throws a TraceParseError naming the
   * line of the first bad event; nothing is stored unless the whole file parses.
   */
  /** Stores an imported trace: its JSONL text, or the trace already read (a file read as a stream: trace-stream.ts). */
  async importJsonl(input: string | ParsedTrace, source: string, makeReport: (events: TraceEvent[]) => ScoreReport, now: number): Promise<StoredRun & { duplicate?: true }> {
    const { events, complete } = typeof input === 'string' ? parseJsonl(input, source) : input;
    const start = events[0]!;
    if (start.type !== 'run_start') throw new Error('unreachable: parseJsonl checks run_start');
    // The same trace imported twice (or a run already made here) is not stored again.
    const exported = toJsonl(events);
    for (const r of await this.listRuns()) {
      if (r.runId === start.runId && r.events === events.length && (await this.exportJsonl(r.key)) === exported) return { ...r, duplicate: true };
    }
    const end = events.find((e) => e.type === 'run_end');
    const rec: StoredRun = {
      key: `${start.runId}@${now}`,
      runId: start.runId,
      scenarioId: start.scenario.id,
      scenarioTitle: start.scenario.title,
      tutor: start.tutor.name,
      seed: start.scenario.seed,
      tracer: start.tracer.name,
      status: 'imported',
      endReason: complete && end?.type === 'run_end' ? end.reason : null,
      createdAt: now,
      events: events.length,
      report: makeReport(events),
      error: null,
      digest: digestRun({ events }),
    };
    // Events and record in one transaction: a full storage stores neither (never events without their run).
    const db = await this.#db;
    await this.#track(
      (async () => {
        const tx = db.transaction([STORES.runs, STORES.events], 'readwrite');
        const store = tx.objectStore(STORES.events);
        for (const e of events) settled(store.put({ key: rec.key, seq: e.seq, event: e }));
        settled(tx.objectStore(STORES.runs).put(rec));
        await tx.done;
      })(),
    );
    return rec;
  }

  async close(): Promise<void> {
    await this.pending();
    (await this.#db).close();
  }
}

/**
 * The text of a failed storage operation: the error's name and message (a DOMException such as
 * QuotaExceededError often has an empty or generic message, so the name is always given), never
 * an empty string.
 */
export function storageErrorText(e: unknown): string {
  if (e && typeof e === 'object' && 'name' in e) {
    const name = String((e as { name?: unknown }).name ?? '');
    const msg = String((e as { message?: unknown }).message ?? '').trim();
    const generic = name === '' || name === 'Error';
    if (generic) return msg || 'an unnamed error with no message';
    return msg && !msg.startsWith(name) ? `${name}: ${msg}` : msg || `${name} (the browser gave no message)`;
  }
  const t = String(e ?? '').trim();
  return t || 'an error with no message';
}

/** True for the browser's "storage is full" errors (IndexedDB's QuotaExceededError, and a transaction it aborted). */
export function isQuotaError(e: unknown): boolean {
  const name = e && typeof e === 'object' ? String((e as { name?: unknown }).name ?? '') : '';
  const msg = e && typeof e === 'object' ? String((e as { message?: unknown }).message ?? '') : String(e ?? '');
  return name === 'QuotaExceededError' || /quota/i.test(msg);
}

/** Normalises a stored run record (fills fields added later with explicit nulls). */
export function restoreRun(r: StoredRun): StoredRun {
  if (typeof r.key !== 'string' || typeof r.runId !== 'string') throw new Error('stored run record is damaged (no key or run id)');
  return { ...r, report: r.report ?? null, error: r.error ?? null, endReason: r.endReason ?? null };
}

interface RunsStoreV1 {
  getAll(): Promise<RunV1[]>;
  put(r: StoredRun): Promise<unknown>;
}

async function migrateSweeps(runs: RunsStoreV1, benches: { put(b: StoredBenchmark): Promise<unknown> }): Promise<void> {
  const bySweep = new Map<string, RunV1[]>();
  for (const r of await runs.getAll()) if (r.sweep) bySweep.set(r.sweep.id, [...(bySweep.get(r.sweep.id) ?? []), r]);
  for (const [id, rs] of bySweep) {
    rs.sort((a, b) => a.scenarioId.localeCompare(b.scenarioId) || a.seed - b.seed || a.createdAt - b.createdAt);
    const name = rs[0]!.sweep!.label;
    const jobs: BenchmarkJobEntry[] = rs.map((r, index) => ({ index, runId: r.runId, tutor: r.tutor, voice: r.record ? (r.record.voice.kind === 'templates' ? 'templates' : `llm:${r.record.voice.provider}/${r.record.voice.model}`) : 'templates', record: r.record ?? null, key: r.key }));
    await benches.put({ id, name, createdAt: Math.min(...rs.map((r) => r.createdAt)), spec: null, jobs, status: 'done', parallel: 1, llmParallel: 1, error: null });
    for (const [index, r] of rs.entries()) {
      const { sweep, ...rest } = r;
      await runs.put({ ...rest, benchmark: { id, name, index, run: sweep!.run } });
    }
  }
}
