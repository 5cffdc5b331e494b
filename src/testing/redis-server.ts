/**
 * A redis-server of the test's own (the queue-backed sweep's test and `npm run bench:scale`): on
 * 127.0.0.1, a free port and a temporary directory, with the append-only file on and written
 * through on every write (appendfsync always: the persistence docs/sweeps.md recommends, under which
 * Redis killed outright loses no acknowledged write) and no RDB snapshots; stopped by its PID. `restart()` kills it
 * outright (SIGKILL) and starts it again on the same port and directory, as a crash would.
 * Without redis-server on PATH it throws, naming the package to install.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  url: string;
  port: number;
  dir: string;
  /** SIGKILL, then the same server again on the same port and directory (it reloads its append-only file). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export const REDIS_MISSING = 'redis-server is not installed (it runs the queue-backed sweep\'s tests and bench:scale); install it: apt-get install -y redis-server (Debian/Ubuntu; .ci/run and npm test do this when run as root)';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function launch(port: number, dir: string, appendfsync: 'always' | 'everysec' | 'none', password?: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const persistence = appendfsync === 'none' ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', appendfsync];
    const p = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...persistence, '--save', '', '--daemonize', 'no', ...(password ? ['--requirepass', password] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        p.stdout!.off('data', onData);
        p.stdout!.resume();
        resolve(p);
      }
    };
    p.stdout!.on('data', onData);
    p.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    p.once('error', (e) => reject((e as NodeJS.ErrnoException).code === 'ENOENT' ? new Error(REDIS_MISSING) : e));
    p.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${out}`)));
  });
}

const stopped = (p: ChildProcess, sig: NodeJS.Signals) =>
  new Promise<void>((r) => {
    if (p.exitCode !== null || p.signalCode !== null) return r();
    p.once('exit', () => r());
    p.kill(sig);
  });

/** `appendfsync`: 'always' (the default here) or Redis's own default 'everysec' (bench:scale compares them); 'none': no persistence at all (a restart empties it). */
/** `password`: the server requires it (the URL carries it). */
export async function startTestRedis(o: { appendfsync?: 'always' | 'everysec' | 'none'; password?: string } = {}): Promise<TestRedis> {
  const fsync = o.appendfsync ?? 'always';
  if (spawnSync('redis-server', ['--version']).error) throw new Error(REDIS_MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-redis-'));
  const port = await freePort();
  let proc = await launch(port, dir, fsync, o.password);
  return {
    url: o.password ? `redis://:${encodeURIComponent(o.password)}@127.0.0.1:${port}` : `redis://127.0.0.1:${port}`,
    port,
    dir,
    restart: async () => {
      await stopped(proc, 'SIGKILL');
      proc = await launch(port, dir, fsync, o.password);
    },
    stop: () => stopped(proc, 'SIGTERM'),
  };
}
