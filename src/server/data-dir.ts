/**
 * The classroom server's data directory: one server at a time (a lock file, as Postgres keeps
 * postmaster.pid), kept private to the user who runs it (students' chat and sign-in tokens are in
 * it), and errors about it told in words.
 */
import { closeSync, chmodSync, lstatSync, openSync, readFileSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'server.lock';

interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
}

/** Whether a process with this id runs on this machine (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data directory for this process, or refuses when another server holds it. A lock
 * left by a server that is gone (killed, the machine restarted) is taken over. Returns the release.
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(mine)}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e;
      let other: Partial<LockInfo> = {};
      try {
        other = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>;
      } catch {
        // An unreadable lock (cut short by a crash while it was written) holds nothing.
      }
      const pid = typeof other.pid === 'number' ? other.pid : null;
      if (pid !== null && other.host && other.host !== mine.host) {
        throw new Error(`${dir} is in use by a classroom server on ${other.host} (pid ${pid}, since ${other.startedAt ?? '?'}): two servers on one data directory lose data. Stop that one, or, if it is gone, delete ${path}`);
      }
      if (pid !== null && alive(pid)) {
        throw new Error(`${dir} is in use by another classroom server (pid ${pid}, since ${other.startedAt ?? '?'}): two servers on one data directory lose data. Stop that one first, or start this one with another --data`);
      }
      // The server that held it is gone: its lock is stale.
      unlinkSync(path);
    }
  }
  return () => {
    try {
      const now = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>;
      if (now.pid === mine.pid && now.host === mine.host) unlinkSync(path);
    } catch {
      // Already gone: nothing to release.
    }
  };
}

/**
 * Makes the directory and everything in it private to this user (directories 0700, files 0600).
 * PGlite creates its files 0666 whatever the umask; the directory's own mode is what keeps other
 * users out of files created later.
 */
export function makePrivate(dir: string): void {
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      if ((st.mode & 0o777) !== 0o700) chmodSync(p, 0o700);
      for (const name of readdirSync(p)) walk(join(p, name));
    } else if ((st.mode & 0o077) !== 0) chmodSync(p, st.mode & 0o700);
  };
  walk(dir);
}

/** Words for what a start or a store threw: Errors by their message; the database's wasm file-system errors (`{ name: 'ErrnoError', errno }`) by what they mean. */
export function describeError(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (e && typeof e === 'object') {
    const o = e as { name?: unknown; errno?: unknown; message?: unknown; code?: unknown };
    if (typeof o.message === 'string') return o.message;
    if (o.name === 'ErrnoError' && typeof o.errno === 'number') return `${WASI_ERRNO[o.errno] ?? 'a file-system error'} (errno ${o.errno} of the database's file system)`;
    try {
      return JSON.stringify(e);
    } catch {
      return Object.prototype.toString.call(e);
    }
  }
  return String(e);
}

/** The errno values (WASI / Emscripten numbering) a data directory can give. */
const WASI_ERRNO: Record<number, string> = { 2: 'permission denied (EACCES)', 20: 'the file exists (EEXIST)', 29: 'an I/O error (EIO)', 44: 'no such file or directory (ENOENT)', 51: 'no space left on the device (ENOSPC)', 63: 'permission denied (EPERM)', 69: 'a read-only file system (EROFS)' };

/** Whether an error says the disk is full (Node's ENOSPC, Postgres' 53100 disk_full, PGlite's wasm errno 51). */
export function isDiskFull(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const o = e as { code?: unknown; errno?: unknown; name?: unknown; message?: unknown };
  return o.code === 'ENOSPC' || o.code === '53100' || (o.name === 'ErrnoError' && o.errno === 51) || (typeof o.message === 'string' && /No space left on device|ENOSPC/.test(o.message));
}
