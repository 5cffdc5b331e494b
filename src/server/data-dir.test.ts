/**
 * The classroom server and its data directory (issue 34): one server per directory, files private
 * to its user, a full disk refused in words (the server goes on), and a clear error at start.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClassroom } from './main';
import { LOCK_FILE, describeError } from './data-dir';

const SECRET = 'teacher-secret-for-tests';
const start = (data: string) => startClassroom({ data, port: 0, host: '127.0.0.1', llmConfig: [], teacherSecret: SECRET, staticDir: null });
type Server = Awaited<ReturnType<typeof start>>;

async function call(s: Server, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(`${s.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: r.status, json: (await r.json()) as Record<string, any> };
}
const teacher = { 'x-teacher-secret': SECRET };

async function studyWithCodes(s: Server, n: number): Promise<string[]> {
  const st = await call(s, 'POST', '/api/teacher/studies', { spec: { name: 'disk', skills: [1], tutor: { name: 'planner' }, sessions: 1, sessionMinutes: 20, consent: 'ok' } }, teacher);
  expect(st.status).toBe(200);
  return (await call(s, 'POST', `/api/teacher/studies/${st.json.study.id}/codes`, { n }, teacher)).json.codes;
}

async function signIn(s: Server, code: string): Promise<Record<string, string>> {
  const j = await call(s, 'POST', '/api/student/join', { code, device: `device-${code}` });
  expect(j.status).toBe(200);
  const auth = { authorization: `Bearer ${j.json.token}` };
  expect((await call(s, 'POST', '/api/student/consent', {}, auth)).status).toBe(200);
  return auth;
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map((f) => join(dir, String(f)));
}

describe('the classroom data directory', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'classroom-data-'));
    dirs.push(d);
    return join(d, 'data');
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('one server at a time: a second on the same directory is refused; a stale lock is taken over', async () => {
    const data = fresh();
    const a = await start(data);
    try {
      await expect(start(data)).rejects.toThrow(/in use by another classroom server \(pid \d+/);
      // The first server is unharmed.
      expect((await call(a, 'GET', '/api/info')).status).toBe(200);
    } finally {
      await a.stop();
    }
    expect(existsSync(join(data, LOCK_FILE))).toBe(false);
    // A server killed without stopping leaves its lock: a process that no longer runs holds nothing.
    const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
    writeFileSync(join(data, LOCK_FILE), JSON.stringify({ pid: dead, host: (await import('node:os')).hostname(), startedAt: 'earlier' }));
    const b = await start(data);
    await b.stop();
  }, 120_000);

  it('keeps every file private to its user (students chat and sign-in tokens are in them)', async () => {
    const data = fresh();
    const s = await start(data);
    try {
      const [code] = await studyWithCodes(s, 1);
      const auth = await signIn(s, code!);
      expect((await call(s, 'POST', '/api/student/act', { action: { kind: 'login' } }, auth)).status).toBe(200);
      expect(statSync(data).mode & 0o777).toBe(0o700);
      expect(statSync(join(data, 'db')).mode & 0o077).toBe(0);
    } finally {
      await s.stop();
    }
    const open = files(data).filter((f) => (statSync(f).mode & 0o077) !== 0);
    expect(open).toEqual([]);
  }, 120_000);

  it('describes the database file system errors in words', () => {
    expect(describeError({ name: 'ErrnoError', errno: 51 })).toMatch(/no space left on the device/);
    expect(describeError(new Error('x'))).toBe('x');
    expect(describeError({ a: 1 })).toBe('{"a":1}');
  });

  // A real full disk: a small tmpfs (needs root to mount; skipped otherwise, with why).
  const root = process.getuid?.() === 0 && process.platform === 'linux';
  const mount = (dir: string, size: string): boolean => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  it.skipIf(!root)('a full disk: the server refuses what it cannot store, in words, and goes on; freed, it resumes (skipped unless root can mount a tmpfs)', async (ctx) => {
    const mnt = mkdtempSync(join(tmpdir(), 'classroom-full-'));
    dirs.push(mnt);
    if (!mount(mnt, '64m')) ctx.skip();
    const rejections: unknown[] = [];
    const onRejection = (e: unknown) => rejections.push(e);
    process.on('unhandledRejection', onRejection);
    try {
      const data = join(mnt, 'data');
      const s = await start(data);
      try {
        const codes = await studyWithCodes(s, 3);
        // Fill the volume, then give back a little: room for a sign-in, not for a session.
        const filler = join(mnt, 'filler');
        const fd = openSync(filler, 'w');
        try {
          for (const buf = Buffer.alloc(1 << 16); ; ) writeSync(fd, buf);
        } catch (e) {
          expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
        } finally {
          closeSync(fd);
        }
        truncateSync(filler, statSync(filler).size - 64 * 1024);
        const auth = await signIn(s, codes[0]!);
        const login = await call(s, 'POST', '/api/student/act', { action: { kind: 'login' } }, auth);
        expect(login.status).toBe(503);
        expect(login.json.error).toMatch(/disk is full/);
        await new Promise((r) => setTimeout(r, 500));
        expect(rejections.map((e) => describeError(e).slice(0, 200))).toEqual([]);
        expect((await call(s, 'GET', '/api/info')).status).toBe(200);
        // Space again: the same student goes on.
        rmSync(filler);
        const again = await call(s, 'POST', '/api/student/act', { action: { kind: 'login' } }, auth);
        expect(again.status).toBe(200);
        expect(again.json.session.online).toBe(true);
      } finally {
        await s.stop();
      }
      // Too small a volume: the start fails with what is wrong, not "[object Object]".
      rmSync(data, { recursive: true, force: true });
      execFileSync('umount', [mnt]);
      expect(mount(mnt, '16m')).toBe(true);
      mkdirSync(join(mnt, 'data'));
      await expect(start(join(mnt, 'data'))).rejects.toThrow(/could not open the classroom database .*no space left on the device/);
    } finally {
      process.off('unhandledRejection', onRejection);
      try {
        execFileSync('umount', ['-l', mnt], { stdio: 'ignore' });
      } catch {
        // not mounted
      }
    }
  }, 180_000);
});
