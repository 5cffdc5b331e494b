/**
 * Which tab runs which run. A live run holds a lease on its storage key for as long as it runs;
 * a stored run marked "running" whose lease nobody holds belongs to a page that went away, and is
 * marked interrupted (resumable). Two tabs of the app therefore never declare each other's live
 * runs dead, and never resume the same run twice.
 *
 * Web Locks (navigator.locks) where the browser has them: a lock is released by the browser when
 * its tab closes or crashes. Elsewhere (pages served over plain http on a LAN are not a secure
 * context, so they have no Web Locks) a heartbeat in localStorage: the holder rewrites a timestamp
 * every `beatMs`; a lease older than `staleMs` is free.
 */
export class LeaseTaken extends Error {
  readonly code = 'LEASE_TAKEN';
  constructor(key: string) {
    super(`run ${key} is live in another tab of this browser`);
  }
}

export interface RunLeases {
  readonly kind: 'web-locks' | 'heartbeat';
  /** Holds the lease on `key` while `work` runs. Rejects with LeaseTaken when another tab holds it. */
  hold<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Runs `fn` only when nobody holds `key` (holding it meanwhile); resolves false when it is held. */
  ifFree(key: string, fn: () => Promise<void>): Promise<boolean>;
}

const lockName = (key: string) => `educlaw-lab.run:${key}`;

export function webLockLeases(locks: LockManager): RunLeases {
  return {
    kind: 'web-locks',
    async hold(key, work) {
      let taken = false;
      const out = await locks.request(lockName(key), { ifAvailable: true }, async (lock) => {
        if (!lock) {
          taken = true;
          return undefined;
        }
        return { v: await work() };
      });
      if (taken || !out) throw new LeaseTaken(key);
      return out.v;
    },
    async ifFree(key, fn) {
      return locks.request(lockName(key), { ifAvailable: true }, async (lock) => {
        if (!lock) return false;
        await fn();
        return true;
      });
    },
  };
}

export interface HeartbeatOptions {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  now: () => number;
  /** This tab's id (unique per page load). */
  owner: string;
  beatMs?: number;
  staleMs?: number;
  setInterval?: (f: () => void, ms: number) => unknown;
  clearInterval?: (h: unknown) => void;
}

export function heartbeatLeases(o: HeartbeatOptions): RunLeases {
  const beat = o.beatMs ?? 2000;
  const stale = o.staleMs ?? 10_000;
  const every = o.setInterval ?? ((f, ms) => setInterval(f, ms));
  const stop = o.clearInterval ?? ((h) => clearInterval(h as ReturnType<typeof setInterval>));
  const read = (key: string): { owner: string; at: number } | null => {
    try {
      const v = JSON.parse(o.storage.getItem(lockName(key)) ?? 'null') as { owner?: unknown; at?: unknown } | null;
      return v && typeof v.owner === 'string' && typeof v.at === 'number' ? { owner: v.owner, at: v.at } : null;
    } catch {
      return null;
    }
  };
  const heldByOther = (key: string) => {
    const l = read(key);
    return l !== null && l.owner !== o.owner && o.now() - l.at < stale;
  };
  const write = (key: string) => o.storage.setItem(lockName(key), JSON.stringify({ owner: o.owner, at: o.now() }));
  const take = async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    write(key);
    const h = every(() => write(key), beat);
    try {
      return await work();
    } finally {
      stop(h);
      if (read(key)?.owner === o.owner) o.storage.removeItem(lockName(key));
    }
  };
  return {
    kind: 'heartbeat',
    async hold(key, work) {
      if (heldByOther(key)) throw new LeaseTaken(key);
      return take(key, work);
    },
    async ifFree(key, fn) {
      if (heldByOther(key)) return false;
      await take(key, fn);
      return true;
    },
  };
}

/** The leases this browser supports (Web Locks, else the localStorage heartbeat). */
export function browserLeases(): RunLeases {
  if (typeof navigator !== 'undefined' && navigator.locks) return webLockLeases(navigator.locks);
  return heartbeatLeases({ storage: localStorage, now: () => Date.now(), owner: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}` });
}
