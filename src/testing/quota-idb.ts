/**
 * A storage quota for fake-indexeddb (tests only), as Chromium enforces it: the values written to
 * a database count against a budget of bytes; a transaction that would pass it is aborted when it
 * commits, with `tx.error` a DOMException named "QuotaExceededError" whose message is empty (what
 * Chromium gives, and what made the page's error messages end in a colon). Everything the
 * transaction wrote is rolled back; reads and deletes always work (a delete frees its bytes).
 *
 * `withQuota(dbName, bytes)` sets a budget for one database name (other databases are unlimited)
 * and returns a handle to read the usage, change the budget and remove the limit.
 */
import { IDBKeyRange as FDBKeyRange, IDBObjectStore as FDBObjectStore } from 'fake-indexeddb';

interface Entry {
  key: unknown;
  size: number;
}
interface Budget {
  bytes: number;
  used: number;
  entries: Map<string, Map<string, Entry>>;
  refused: number;
}
const budgets = new Map<string, Budget>();
const undo = new WeakMap<object, (() => void)[]>();
const doomed = new WeakSet<object>();

type Store = { name: string; keyPath: string | string[] | null; transaction: { db: { name: string }; addEventListener(t: string, f: () => void): void; _abort(name: string): void; _state: string } };

const keyOf = (store: Store, value: unknown, key: unknown): unknown => {
  if (key !== undefined) return key;
  const v = value as Record<string, unknown>;
  const kp = store.keyPath;
  return Array.isArray(kp) ? kp.map((k) => v[k]) : kp ? v[kp] : undefined;
};

/** What a transaction changed in the accounting, undone when the quota aborts it. */
function log(store: Store, f: () => void): void {
  const tx = store.transaction;
  let l = undo.get(tx);
  if (!l) undo.set(tx, (l = []));
  l.push(f);
}

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  const proto = FDBObjectStore.prototype as unknown as { put: (this: Store, value: unknown, key?: unknown) => unknown; delete: (this: Store, key: unknown) => unknown };
  const put = proto.put;
  proto.put = function (this: Store, value: unknown, key?: unknown) {
    const req = put.call(this, value, key);
    const b = budgets.get(this.transaction.db.name);
    if (!b) return req;
    const k = keyOf(this, value, key);
    const id = JSON.stringify(k);
    let m = b.entries.get(this.name);
    if (!m) b.entries.set(this.name, (m = new Map()));
    const size = JSON.stringify(value).length;
    const prev = m.get(id);
    m.set(id, { key: k, size });
    b.used += size - (prev?.size ?? 0);
    const mm = m;
    log(this, () => {
      if (prev) mm.set(id, prev);
      else mm.delete(id);
      b.used -= size - (prev?.size ?? 0);
    });
    const tx = this.transaction;
    if (b.used > b.bytes && !doomed.has(tx)) {
      doomed.add(tx);
      b.refused++;
      // At commit: after every request of this task is queued, before any is carried out.
      queueMicrotask(() => {
        if (tx._state === 'finished') return;
        for (const u of (undo.get(tx) ?? []).reverse()) u();
        undo.delete(tx);
        tx._abort('QuotaExceededError');
      });
    }
    return req;
  };
  const del = proto.delete;
  proto.delete = function (this: Store, key: unknown) {
    const req = del.call(this, key);
    const b = budgets.get(this.transaction.db.name);
    const m = b?.entries.get(this.name);
    if (!b || !m) return req;
    const hit = (k: unknown) => (key instanceof FDBKeyRange ? key.includes(k) : JSON.stringify(k) === JSON.stringify(key));
    for (const [id, e] of [...m]) {
      if (!hit(e.key)) continue;
      m.delete(id);
      b.used -= e.size;
      log(this, () => {
        m.set(id, e);
        b.used += e.size;
      });
    }
    return req;
  };
}

export interface Quota {
  /** Bytes the database's values take now. */
  readonly used: number;
  /** Transactions refused for the quota so far. */
  readonly refused: number;
  setBytes(bytes: number): void;
  remove(): void;
}

export function withQuota(dbName: string, bytes: number): Quota {
  install();
  const b: Budget = budgets.get(dbName) ?? { bytes, used: 0, entries: new Map(), refused: 0 };
  b.bytes = bytes;
  budgets.set(dbName, b);
  return {
    get used() {
      return b.used;
    },
    get refused() {
      return b.refused;
    },
    setBytes: (n: number) => void (b.bytes = n),
    remove: () => void budgets.delete(dbName),
  };
}
