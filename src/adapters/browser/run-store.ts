/**
 * Runs and their traces in IndexedDB, through `idb`. One class owns the database; every
 * transaction goes through it. Stored records are validated on the way out (restoreRun) and
 * traces migrated (core migrateTrace), so an old or damaged database gives a clear error.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { migrateTrace, parseJsonl, toJsonl, type RunRecord, type RunSummary, type ScoreReport, type TraceEvent, type TerminationReason } from '../../core/index';

// DO NOT CHANGE THESE WITHOUT ADDING A MIGRATION IN `upgrade` BELOW: doing so would lose users' runs.
export const DB_NAME = 'educlaw-lab';
export const DB_VERSION = 1;
export const STORES = { runs: 'runs', events: 'events' } as const;

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
  /** Set for runs made by a page sweep: which sweep, and the run's sweep summary (src/core/sweep; null until the run has ended). */
  sweep?: { id: string; label: string; run: RunSummary | null };
  /** The run record (absent for imported runs and runs stored before records existed: their trace's run_start gives it back). */
  record?: RunRecord;
}

interface LabDb extends DBSchema {
  runs: { key: string; value: StoredRun; indexes: { createdAt: number } };
  events: { key: [string, number]; value: { key: string; seq: number; event: TraceEvent } };
}

export class RunStore {
  #db: Promise<IDBPDatabase<LabDb>>;
  #pending = new Set<Promise<unknown>>();

  constructor(name = DB_NAME) {
    this.#db = openDB<LabDb>(name, DB_VERSION, {
      upgrade(db, oldVersion) {
        // Version 0 -> 1: first schema. Future versions add `if (oldVersion < 2) { ... }` steps.
        if (oldVersion < 1) {
          const runs = db.createObjectStore(STORES.runs, { keyPath: 'key' });
          runs.createIndex('createdAt', 'createdAt');
          db.createObjectStore(STORES.events, { keyPath: ['key', 'seq'] });
        }
      },
    });
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
    await this.#track((await this.#db).put(STORES.runs, rec));
  }

  async appendEvents(key: string, events: readonly TraceEvent[]): Promise<void> {
    if (events.length === 0) return;
    const db = await this.#db;
    await this.#track(
      (async () => {
        const tx = db.transaction(STORES.events, 'readwrite');
        for (const e of events) void tx.store.put({ key, seq: e.seq, event: e });
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
        for (const e of tail) void events.put({ key: rec.key, seq: e.seq, event: e });
        void tx.objectStore(STORES.runs).put(rec);
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
  async importJsonl(text: string, source: string, makeReport: (events: TraceEvent[]) => ScoreReport, now: number): Promise<StoredRun> {
    const { events, complete } = parseJsonl(text, source);
    const start = events[0]!;
    if (start.type !== 'run_start') throw new Error('unreachable: parseJsonl checks run_start');
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
    };
    await this.appendEvents(rec.key, events);
    await this.putRun(rec);
    return rec;
  }

  async close(): Promise<void> {
    await this.pending();
    (await this.#db).close();
  }
}

/** Normalises a stored run record (fills fields added later with explicit nulls). */
export function restoreRun(r: StoredRun): StoredRun {
  if (typeof r.key !== 'string' || typeof r.runId !== 'string') throw new Error('stored run record is damaged (no key or run id)');
  return { ...r, report: r.report ?? null, error: r.error ?? null, endReason: r.endReason ?? null };
}
