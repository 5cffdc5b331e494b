import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { strFromU8, unzipSync } from 'fflate';
import { parseJsonl, scoreTrace } from '../core/index';
import { startClassroom } from './main';

/** The real classroom server over HTTP, on a fresh data directory, restarted in the middle. */
describe('classroom server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-'));
  let server: Awaited<ReturnType<typeof startClassroom>>;
  const start = async () => (server = await startClassroom({ data: dir, port: 0, host: '127.0.0.1', llmConfig: [], teacherSecret: 'teacher-secret-for-tests', staticDir: null }));
  beforeAll(start, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, o: { body?: unknown; token?: string; secret?: string; raw?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (o.body !== undefined || o.raw !== undefined) headers['content-type'] = 'application/json';
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.secret) headers['x-teacher-secret'] = o.secret;
    const r = await fetch(`${server.url}${path}`, { method, headers, ...(o.raw !== undefined ? { body: o.raw } : o.body !== undefined ? { body: JSON.stringify(o.body) } : {}) });
    const type = r.headers.get('content-type') ?? '';
    const isJson = type.startsWith('application/json');
    return { status: r.status, headers: r.headers, json: isJson ? ((await r.json()) as Record<string, any>) : null, bytes: isJson ? null : new Uint8Array(await r.arrayBuffer()) };
  };
  const T = 'teacher-secret-for-tests';
  let studyId = '';
  let codes: string[] = [];
  const tokens: string[] = [];

  it('says it is a classroom server; teacher routes refuse a missing or wrong secret', async () => {
    expect((await call('GET', '/api/info')).json).toEqual({ app: 'educlaw-lab', mode: 'classroom' });
    for (const [m, p] of [
      ['GET', '/api/teacher/info'],
      ['GET', '/api/teacher/studies'],
      ['POST', '/api/teacher/studies'],
      ['GET', '/api/teacher/studies/st-x/export'],
    ] as const) {
      const none = await call(m, p, { body: m === 'POST' ? {} : undefined });
      expect(none.status, `${m} ${p}`).toBe(401);
      expect(none.json?.error).toMatch(/teacher secret/);
      const wrong = await call(m, p, { secret: 'not-the-secret', body: m === 'POST' ? {} : undefined });
      expect(wrong.status).toBe(401);
      expect(wrong.json?.error).toBe('wrong teacher secret');
    }
    // A secret given at start is not written to disk.
    expect(statSync(join(dir, 'teacher-secret'), { throwIfNoEntry: false })).toBeUndefined();
    const info = await call('GET', '/api/teacher/info', { secret: T });
    expect(info.status).toBe(200);
    expect(info.json!.tutors.map((t: { name: string }) => t.name)).toContain('planner');
    expect(info.json!.tutors.some((t: { llm: boolean }) => t.llm)).toBe(false);
    expect(info.headers.get('cache-control')).toBe('no-store');
    expect(info.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('makes a teacher secret when none is given, keeps it readable by its owner only, and reuses it', async () => {
    const other = mkdtempSync(join(tmpdir(), 'classroom-secret-'));
    const saved = process.env.CLASSROOM_TEACHER_SECRET;
    delete process.env.CLASSROOM_TEACHER_SECRET;
    try {
      const s1 = await startClassroom({ data: other, port: 0, host: '127.0.0.1', llmConfig: [], staticDir: null });
      await s1.stop();
      expect(s1.secret.length).toBeGreaterThanOrEqual(16);
      expect(statSync(join(other, 'teacher-secret')).mode & 0o777).toBe(0o600);
      const s2 = await startClassroom({ data: other, port: 0, host: '127.0.0.1', llmConfig: [], staticDir: null });
      await s2.stop();
      expect(s2.secret).toBe(s1.secret);
    } finally {
      if (saved !== undefined) process.env.CLASSROOM_TEACHER_SECRET = saved;
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  it('creates a study and codes; refuses bad studies with the field named', async () => {
    const bad = await call('POST', '/api/teacher/studies', { secret: T, body: { spec: { name: 'x', skills: [], tutor: { name: 'planner' }, sessions: 1, sessionMinutes: 20, consent: 'ok' } } });
    expect(bad.status).toBe(400);
    expect(bad.json!.error).toMatch(/skills/);
    const llm = await call('POST', '/api/teacher/studies', { secret: T, body: { spec: { name: 'x', skills: [1], tutor: { name: 'llm', config: { harness: 'reactive', model: 'm', provider: 'default' } }, sessions: 1, sessionMinutes: 20, consent: 'ok' } } });
    expect(llm.status).toBe(400);
    expect(llm.json!.error).toMatch(/no LLM provider configured/);
    const created = await call('POST', '/api/teacher/studies', { secret: T, body: { spec: { name: 'Server test', skills: [1, 2], tutor: { name: 'planner' }, sessions: 2, sessionMinutes: 20, consent: 'I agree.', probes: true, probesPerSkill: 1 } } });
    expect(created.status).toBe(200);
    studyId = created.json!.study.id;
    const c = await call('POST', `/api/teacher/studies/${studyId}/codes`, { secret: T, body: { n: 2 } });
    codes = c.json!.codes;
    expect(codes).toHaveLength(2);
    expect((await call('POST', `/api/teacher/studies/${studyId}/codes`, { secret: T, body: { n: 5000 } })).status).toBe(400);
  });

  it('two students work in their own sessions; neither can read the other', async () => {
    for (const [i, code] of codes.entries()) {
      const j = await call('POST', '/api/student/join', { body: { code, device: `device-test-${i}` } });
      expect(j.status).toBe(200);
      tokens.push(j.json!.token);
      expect((await call('POST', '/api/student/act', { token: j.json!.token, body: { action: { kind: 'login' } } })).status).toBe(403);
      await call('POST', '/api/student/consent', { token: j.json!.token, body: {} });
      const s = await call('POST', '/api/student/act', { token: j.json!.token, body: { action: { kind: 'login' } } });
      expect(s.json!.session.online).toBe(true);
      const probe = s.json!.probe;
      expect(probe.phase).toBe('pre');
      const after = await call('POST', '/api/student/act', { token: j.json!.token, body: { action: { kind: 'probe', phase: 'pre', answers: probe.items.map((it: { id: string }) => ({ itemId: it.id, response: '1' })) } } });
      expect(after.json!.probe).toBeNull();
      const first = after.json!.assignments[0];
      await call('POST', '/api/student/act', { token: j.json!.token, body: { action: { kind: 'open', itemId: first.items[0].item.id, assignmentId: first.id } } });
      await call('POST', '/api/student/act', { token: j.json!.token, body: { action: { kind: 'submit', itemId: first.items[0].item.id, assignmentId: first.id, response: `${i + 3}` } } });
      await call('POST', '/api/student/act', { token: j.json!.token, body: { action: { kind: 'say', text: `<img src=x onerror=alert(${i})> student ${i} here` } } });
    }
    // Each token shows its own session only: its own messages, never the other's.
    const a = (await call('GET', '/api/student/state', { token: tokens[0] })).json!;
    const b = (await call('GET', '/api/student/state', { token: tokens[1] })).json!;
    expect(JSON.stringify(a)).toContain('student 0 here');
    expect(JSON.stringify(a)).not.toContain('student 1 here');
    expect(JSON.stringify(b)).not.toContain('student 0 here');
    // A student token opens no teacher route, and there is no route to a session by id for students.
    expect((await call('GET', `/api/teacher/studies/${studyId}/traces/${codes[1]}`, { token: tokens[0] })).status).toBe(401);
    expect((await call('GET', `/api/student/state/${codes[1]}`, { token: tokens[0] })).status).toBe(404);
    expect((await call('GET', '/api/student/state', { token: 'not-a-real-token-at-all' })).status).toBe(401);
    // A second device with the same code, while the first is active, is refused.
    const again = await call('POST', '/api/student/join', { body: { code: codes[0], device: 'device-someone-else' } });
    expect(again.status).toBe(409);
    expect(again.json!.error).toMatch(/in use on another device/);
    // A wrong code says so.
    expect((await call('POST', '/api/student/join', { body: { code: 'ZZZZZZZZ', device: 'device-test-9' } })).status).toBe(404);
  });

  it('refuses a cross-site form post (not JSON), sends no HSTS over plain HTTP, and tells the teacher the students address', async () => {
    // A form on another site can POST text/plain without a preflight: not a sign-in.
    const r = await fetch(`${server.url}/api/student/join`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ code: codes[0], device: 'device-cross-site' }) });
    expect(r.status).toBe(415);
    expect(((await r.json()) as { error: string }).error).toMatch(/application\/json/);
    const info = await call('GET', '/api/teacher/info', { secret: T });
    expect(info.headers.get('strict-transport-security')).toBeNull();
    expect(info.json!.studentUrls).toEqual([`${server.url}/`]);
    // DNS rebinding: a request naming another host is refused; IP addresses, localhost and this machine's name are answered.
    const port = new URL(server.url).port;
    const hostStatus = (host: string) =>
      new Promise<number>((res, rej) => {
        const req = request({ host: '127.0.0.1', port, path: '/api/info', headers: { host }, agent: false }, (r) => {
          r.resume();
          res(r.statusCode ?? 0);
        });
        req.on('error', rej);
        req.end();
      });
    expect(await hostStatus('evil.example:8787')).toBe(421);
    expect(await hostStatus(`localhost:${port}`)).toBe(200);
    expect(await hostStatus(`${(await import('node:os')).hostname()}:${port}`)).toBe(200);
    expect(await hostStatus(`192.168.1.20:${port}`)).toBe(200);
  });

  it('marks the page it serves as a classroom server\'s (the page asks /api/info only then)', async () => {
    const other = mkdtempSync(join(tmpdir(), 'classroom-page-'));
    const web = join(other, 'dist');
    mkdirSync(web, { recursive: true });
    writeFileSync(join(web, 'index.html'), '<!doctype html><html><head><title>x</title></head><body></body></html>');
    const s = await startClassroom({ data: join(other, 'data'), port: 0, host: '127.0.0.1', llmConfig: [], teacherSecret: T, staticDir: web });
    try {
      for (const path of ['/', '/index.html']) {
        const r = await fetch(new URL(path, s.url));
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toContain('text/html');
        expect(await r.text()).toBe('<!doctype html><html><head><title>x</title><meta name="educlaw-classroom-server" content="1"></head><body></body></html>');
      }
    } finally {
      await s.stop();
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('sends a Content-Security-Policy (scripts only from itself, no inline script) on every page, asset, API answer and refusal; no HSTS', async () => {
    const other = mkdtempSync(join(tmpdir(), 'classroom-csp-'));
    const web = join(other, 'dist');
    mkdirSync(join(web, 'assets'), { recursive: true });
    writeFileSync(join(web, 'index.html'), '<!doctype html><script type="module" src="./assets/a.js"></script>');
    writeFileSync(join(web, 'assets', 'a.js'), 'console.log(1)');
    const s = await startClassroom({ data: join(other, 'data'), port: 0, host: '127.0.0.1', llmConfig: [], teacherSecret: T, staticDir: web });
    try {
      const port = new URL(s.url).port;
      const get = (path: string, host = `127.0.0.1:${port}`) =>
        new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((res, rej) => {
          const req = request({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (r) => {
            r.resume();
            res({ status: r.statusCode ?? 0, headers: r.headers });
          });
          req.on('error', rej);
          req.end();
        });
      const answers = [await get('/'), await get('/assets/a.js'), await get('/api/info'), await get('/api/teacher/studies'), await get('/no-such-page'), await get('/api/nothing'), await get('/', 'evil.example')];
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 401, 404, 404, 421]);
      for (const a of answers) {
        const csp = String(a.headers['content-security-policy'] ?? '');
        const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map((d) => [d[0]!, d.slice(1)]));
        expect(directives.get('script-src'), csp).toEqual(["'self'", "'wasm-unsafe-eval'"]);
        expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
        expect(directives.get('default-src')).toEqual(["'self'"]);
        expect(directives.get('object-src')).toEqual(["'none'"]);
        expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
        expect(directives.get('base-uri')).toEqual(["'none'"]);
        expect(a.headers['strict-transport-security']).toBeUndefined();
        expect(a.headers['x-content-type-options']).toBe('nosniff');
      }
    } finally {
      await s.stop();
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  it('limits wrong codes per address, not sign-ins: a class behind one school address all get in', async () => {
    const other = mkdtempSync(join(tmpdir(), 'classroom-joins-'));
    const s = await startClassroom({ data: other, port: 0, host: '127.0.0.1', llmConfig: [], teacherSecret: T, staticDir: null });
    try {
      const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
        const r = await fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
        return { status: r.status, json: (await r.json()) as Record<string, any> };
      };
      const st = (await post('/api/teacher/studies', { spec: { name: 'big class', skills: [1], tutor: { name: 'planner' }, sessions: 1, sessionMinutes: 20, consent: 'ok' } }, { 'x-teacher-secret': T })).json.study;
      const many = (await post(`/api/teacher/studies/${st.id}/codes`, { n: 40 }, { 'x-teacher-secret': T })).json.codes as string[];
      const statuses = await Promise.all(many.map(async (code, i) => (await post('/api/student/join', { code, device: `device-class-${i}` })).status));
      expect(statuses.filter((x) => x === 200)).toHaveLength(40);
      const wrong: number[] = [];
      for (let i = 0; i < 32; i++) wrong.push((await post('/api/student/join', { code: `WRONG${String(i).padStart(3, '2')}`, device: 'device-guesser' })).status);
      expect(wrong.slice(0, 30).every((x) => x === 404)).toBe(true);
      expect(wrong.slice(30)).toEqual([429, 429]);
    } finally {
      await s.stop();
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  it('caps messages and request sizes, and limits messages per minute', async () => {
    const huge = await call('POST', '/api/student/act', { token: tokens[1], body: { action: { kind: 'say', text: 'x'.repeat(2001) } } });
    expect(huge.status).toBe(413);
    // Over the body limit: 413 at once (the server may close the connection before the client
    // has written the whole body, which fetch reports as a closed socket); nothing is stored.
    const tooBig = await new Promise<number | string>((res) => {
      const body = JSON.stringify({ action: { kind: 'say', text: 'y'.repeat(300_000) } });
      const req = request(`${server.url}/api/student/act`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${tokens[1]}` } }, (r) => {
        r.resume();
        res(r.statusCode ?? 0);
      });
      req.on('error', (e: NodeJS.ErrnoException) => res(e.code ?? e.message));
      req.end(body);
    });
    expect([413, 'ECONNRESET', 'EPIPE']).toContain(tooBig);
    expect(JSON.stringify((await call('GET', '/api/student/state', { token: tokens[1] })).json)).not.toContain('yyyy');
    expect((await call('POST', '/api/student/act', { token: tokens[1], raw: '{not json' })).status).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await call('POST', '/api/student/act', { token: tokens[1], body: { action: { kind: 'say', text: `message ${i}` } } })).status);
    // One message was sent in the test before; ten a minute are allowed.
    expect(statuses.filter((s) => s === 200)).toHaveLength(9);
    expect(statuses.slice(9)).toEqual([429, 429, 429]);
    const s = (await call('GET', '/api/student/state', { token: tokens[1] })).json!;
    expect(s.messages.filter((m: { from: string; text: string }) => m.from === 'learner' && /^message \d+$/.test(m.text))).toHaveLength(9);
  });

  it('a restart loses no stored event; sessions continue; the export scores', async () => {
    const before = (await call('GET', `/api/teacher/studies/${studyId}/traces/${codes[0]}`, { secret: T })).bytes!;
    await server.stop();
    await start();
    const after = (await call('GET', `/api/teacher/studies/${studyId}/traces/${codes[0]}`, { secret: T })).bytes!;
    expect(strFromU8(after)).toBe(strFromU8(before));
    // The old sign-in still works (tokens are stored), and the session goes on from where it was.
    const s = await call('GET', '/api/student/state', { token: tokens[0] });
    expect(s.status).toBe(200);
    expect(s.json!.session.online).toBe(true);
    expect(s.json!.attempts).toHaveLength(1);
    const more = await call('POST', '/api/student/act', { token: tokens[0], body: { action: { kind: 'help', template: s.json!.helpRequests[0].id } } });
    expect(more.status).toBe(200);
    // Online means in a live session now: the second student is, again, once their page asks.
    type Row = { code: string; online: boolean; attempts: number };
    const byCode = (rows: Row[]) => codes.map((c) => rows.find((r) => r.code === c)!);
    let live = byCode((await call('GET', `/api/teacher/studies/${studyId}/live`, { secret: T })).json!.participants);
    expect(live.map((p) => p.online)).toEqual([true, false]);
    await call('GET', '/api/student/state', { token: tokens[1] });
    live = byCode((await call('GET', `/api/teacher/studies/${studyId}/live`, { secret: T })).json!.participants);
    expect(live.map((p) => p.online)).toEqual([true, true]);
    expect(live.map((p) => p.attempts)).toEqual([1, 1]);
    expect((await call('POST', `/api/teacher/studies/${studyId}/end`, { secret: T, body: {} })).status).toBe(200);
    expect((await call('POST', '/api/student/act', { token: tokens[0], body: { action: { kind: 'say', text: 'still here?' } } })).status).toBe(409);
    const zip = await call('GET', `/api/teacher/studies/${studyId}/export`, { secret: T });
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(zip.bytes!);
    const traces = Object.keys(files).filter((f) => f.startsWith('traces/'));
    expect(traces).toHaveLength(2);
    const study = JSON.parse(strFromU8(files['study.json']!));
    // Nothing in the export identifies a device or a sign-in.
    expect(JSON.stringify(study)).not.toMatch(/device-test|token/);
    for (const f of traces) {
      const events = parseJsonl(strFromU8(files[f]!), f).events;
      const r = scoreTrace(events);
      expect(r.endReason).toBe('aborted');
      expect(r.leakage).not.toBeUndefined();
      expect(strFromU8(files[f]!)).not.toMatch(/device-test|teacher-secret-for-tests/);
    }
  }, 60_000);
});
