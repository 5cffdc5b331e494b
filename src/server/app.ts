/**
 * The classroom server's HTTP interface (Hono): the built app for every device on the network,
 * the student API (a participant's own session, signed in by the token `join` gives), and the
 * teacher API behind the teacher secret. Everything a study does is in ClassroomService; this file
 * only maps requests to it, and adds what belongs to HTTP: body size limits, per-address limits
 * on sign-in and on wrong secrets, security headers, and errors as `{ error }` JSON.
 *
 * Routes (all JSON unless said):
 *   GET  / , /index.html                               public: the built app, marked as served by a classroom server
 *   GET  /api/info                                     public: that this is a classroom server
 *   POST /api/student/join        { code, device }     → { token, state }
 *   POST /api/student/consent                          (Authorization: Bearer <token>)
 *   GET  /api/student/state
 *   POST /api/student/act         { action }           → state (+ refused)
 *   GET  /api/student/post-probe                       → { items } (the last session's probe set)
 *   GET  /api/teacher/info                             (X-Teacher-Secret: <secret>) tutors, providers
 *   GET  /api/teacher/studies  ·  POST /api/teacher/studies { spec }
 *   GET  /api/teacher/studies/:id                      → { study, spend }
 *   POST /api/teacher/studies/:id/codes  { n }         → { codes }
 *   GET  /api/teacher/studies/:id/live                 → { participants }
 *   POST /api/teacher/studies/:id/rename  { name }  ·  POST /api/teacher/studies/:id/delete (ended studies only)
 *   POST /api/teacher/studies/:id/end
 *   POST /api/teacher/studies/:id/participants/:code/release   signs the code's device out (use it on another)
 *   POST /api/teacher/studies/:id/participants/:code/extend  { minutes }   more time for the session in progress
 *   POST /api/teacher/studies/:id/participants/:code/pause  ·  …/resume   the session's clock stands still meanwhile
 *   POST /api/teacher/studies/:id/archive  { archived }   an ended study listed apart (false: back)
 *   POST /api/teacher/studies/:id/participants/:code/withdraw   deletes that participant's data
 *   POST /api/student/withdraw                         the student withdraws: their data are deleted
 *   GET  /api/teacher/studies/:id/export               → a zip (traces/*.jsonl + study.json)
 *   GET  /api/teacher/studies/:id/traces/:code         → one trace (JSONL)
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLASSROOM_META } from '../adapters/classroom/page-mark';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { serveStatic } from '@hono/node-server/serve-static';
import { getConnInfo } from '@hono/node-server/conninfo';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ClassroomError, type ClassroomService } from '../adapters/classroom/service';
import { studyZipName, zipStudy } from '../adapters/classroom/export';
import { classroomTutors } from '../adapters/classroom/api';
import { describeError, isDiskFull } from './data-dir';

export interface ClassroomAppOptions {
  service: ClassroomService;
  teacherSecret: string;
  /** The built app (dist/) to serve; null: the API only (tests). */
  staticDir: string | null;
  /** LLM providers configured on this server (their names only). */
  providers: readonly string[];
  /** Per address: refused sign-ins (a wrong code) and wrong teacher secrets allowed per minute. */
  limits?: { joinsPerMinute?: number; badSecretsPerMinute?: number };
  /** The addresses students open (this machine's network addresses), for the teacher's page and code slips. */
  studentUrls?: readonly string[];
  /** Host names the server answers to besides IP addresses and localhost (e.g. this machine's name); others are refused (DNS rebinding). */
  hostNames?: readonly string[];
}

/**
 * Whether a request's Host names this server: an IP address, localhost, or one of `names` (with
 * any port). A page on another site cannot then reach the API by pointing its own name at this
 * machine's address (DNS rebinding).
 */
export function hostAllowed(host: string | undefined, names: readonly string[] = []): boolean {
  if (!host) return false;
  const h = host.toLowerCase().replace(/:\d+$/, '');
  if (/^\[[0-9a-f:.]+\]$/.test(h) || /^\d{1,3}(\.\d{1,3}){3}$/.test(h)) return true;
  return h === 'localhost' || names.some((n) => n.toLowerCase() === h);
}

/**
 * The Content-Security-Policy of everything the server sends. Scripts only from the server itself
 * (the built app's modules; no inline script, no eval; 'wasm-unsafe-eval' lets the Lab's
 * in-page models compile WebAssembly, which is not script evaluation). Style attributes are
 * allowed (KaTeX's typeset math sets sizes in them; no <style> elements come from elsewhere).
 * connect-src: the server, and what the Lab's own features reach from the page when a teacher
 * opens it here (LLM providers and the model hub over HTTPS, a model server on this machine).
 * No framing, no plugins, no <base>, forms only to the server.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  styleSrc: ["'self'"],
  styleSrcAttr: ["'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'https:', 'http://localhost:*', 'http://127.0.0.1:*'],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** A request body at most this large (a probe set's answers are the largest). */
export const MAX_BODY_BYTES = 256 * 1024;

const digest = (s: string) => createHash('sha256').update(s).digest();

export function classroomApp(o: ClassroomAppOptions): Hono {
  const app = new Hono();
  const svc = o.service;
  const secret = digest(o.teacherSecret);
  const joins = new RateLimiterMemory({ points: o.limits?.joinsPerMinute ?? 30, duration: 60 });
  const badSecrets = new RateLimiterMemory({ points: o.limits?.badSecretsPerMinute ?? 10, duration: 60 });
  const address = (c: Context) => getConnInfo(c).remote.address ?? 'unknown';

  // Security headers on every response (pages, assets, the API, errors; also a refused Host).
  // No HSTS: the server speaks plain HTTP on a school network; HSTS there would only mislead.
  app.use('*', secureHeaders({ referrerPolicy: 'no-referrer', strictTransportSecurity: false, contentSecurityPolicy: CONTENT_SECURITY_POLICY }));
  app.use('*', async (c, next) => {
    if (!hostAllowed(c.req.header('host'), o.hostNames)) return c.json({ error: `this server does not answer to the name "${c.req.header('host') ?? ''}": open it by its address` }, 421);
    await next();
  });
  // A request body must be JSON, said so: a cross-site form (text/plain, no preflight) cannot sign in or act.
  app.use('/api/*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const hasBody = Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined;
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (hasBody && type !== 'application/json') return c.json({ error: `the request body must be sent as application/json (it was ${type || 'not said'})` }, 415);
    }
    await next();
  });
  app.use('/api/*', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json({ error: `the request is larger than ${MAX_BODY_BYTES / 1024} KB` }, 413) }));
  app.use('/api/*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });

  app.onError((e, c) => {
    if (e instanceof ClassroomError) return c.json({ error: e.message }, e.status);
    if (e instanceof BadBody) return c.json({ error: e.message }, 400);
    if (isDiskFull(e)) {
      console.error(`classroom server: ${c.req.method} ${c.req.path}: the data directory's disk is full:`, describeError(e));
      return c.json({ error: "the server's disk is full, so nothing new can be saved: tell your teacher (what was saved before is kept)" }, 503);
    }
    // Never the stack, the store's or a provider's words: those stay in the server's log.
    console.error(`classroom server: ${c.req.method} ${c.req.path}:`, e);
    return c.json({ error: 'the server could not do that (see its log)' }, 500);
  });
  app.notFound((c) => (c.req.path.startsWith('/api/') ? c.json({ error: `no route ${c.req.method} ${c.req.path}` }, 404) : c.text('not found', 404)));

  app.get('/api/info', (c) => c.json({ app: 'educlaw-lab', mode: 'classroom' }));

  // ---- students ------------------------------------------------------------------------------
  const token = (c: Context): string => {
    const h = c.req.header('authorization') ?? '';
    const m = /^Bearer (\S+)$/.exec(h);
    if (!m) throw new ClassroomError(401, 'not signed in: enter your code again');
    return m[1]!;
  };
  app.post('/api/student/join', async (c) => {
    // Only refused sign-ins count (guessing codes): a whole class behind one school address signs in.
    const from = address(c);
    const seen = await joins.get(from);
    if (seen && seen.consumedPoints >= (o.limits?.joinsPerMinute ?? 30)) throw new ClassroomError(429, `too many wrong codes from this device: wait ${Math.ceil(seen.msBeforeNext / 1000)} s`);
    const b = await body(c);
    try {
      return c.json(await svc.join(text(b.code, 'code'), text(b.device, 'device')));
    } catch (e) {
      if (e instanceof ClassroomError && (e.status === 400 || e.status === 404)) await joins.penalty(from, 1);
      throw e;
    }
  });
  app.post('/api/student/consent', async (c) => c.json(await svc.consent(token(c))));
  app.get('/api/student/state', async (c) => c.json(await svc.state(token(c))));
  app.post('/api/student/act', async (c) => {
    const t = token(c);
    const b = await body(c);
    return c.json(await svc.act(t, b.action));
  });
  app.post('/api/student/withdraw', async (c) => {
    await svc.withdrawSelf(token(c));
    return c.json({ ok: true });
  });
  app.get('/api/student/post-probe', async (c) => c.json({ items: await svc.postProbe(token(c)) }));

  // ---- teacher -------------------------------------------------------------------------------
  app.use('/api/teacher/*', async (c, next) => {
    const given = c.req.header('x-teacher-secret');
    if (!given || !timingSafeEqual(digest(given), secret)) {
      await limited(badSecrets, address(c));
      return c.json({ error: given ? 'wrong teacher secret' : 'the teacher pages need the teacher secret (printed by the server when it started)' }, 401);
    }
    await next();
  });
  app.get('/api/teacher/info', (c) =>
    c.json({
      providers: o.providers,
      tutors: classroomTutors({ providers: o.providers, http: !!svc.env.run.http }),
      studentUrls: o.studentUrls ?? [],
    }),
  );
  app.get('/api/teacher/studies', async (c) => c.json({ studies: await svc.studies() }));
  app.post('/api/teacher/studies', async (c) => c.json({ study: await svc.createStudy((await body(c)).spec as never) }));
  app.get('/api/teacher/studies/:id', async (c) => {
    const id = c.req.param('id');
    return c.json({ study: await svc.study(id), spend: await svc.spend(id) });
  });
  app.post('/api/teacher/studies/:id/codes', async (c) => c.json({ codes: await svc.addCodes(c.req.param('id'), Number((await body(c)).n)) }));
  app.get('/api/teacher/studies/:id/live', async (c) => c.json({ participants: await svc.live(c.req.param('id')) }));
  app.post('/api/teacher/studies/:id/rename', async (c) => c.json({ study: await svc.renameStudy(c.req.param('id'), text((await body(c)).name, 'name')) }));
  app.post('/api/teacher/studies/:id/delete', async (c) => {
    await svc.deleteStudy(c.req.param('id'));
    return c.json({ ok: true });
  });
  app.post('/api/teacher/studies/:id/end', async (c) => {
    await svc.endStudy(c.req.param('id'));
    return c.json({ ok: true });
  });
  app.post('/api/teacher/studies/:id/participants/:code/release', async (c) => {
    await svc.releaseCode(c.req.param('id'), c.req.param('code'));
    return c.json({ ok: true });
  });
  app.post('/api/teacher/studies/:id/participants/:code/extend', async (c) => {
    await svc.extend(c.req.param('id'), c.req.param('code'), Number((await body(c)).minutes));
    return c.json({ ok: true });
  });
  app.post('/api/teacher/studies/:id/participants/:code/pause', async (c) => {
    await svc.pause(c.req.param('id'), c.req.param('code'));
    return c.json({ ok: true });
  });
  app.post('/api/teacher/studies/:id/participants/:code/resume', async (c) => {
    await svc.resume(c.req.param('id'), c.req.param('code'));
    return c.json({ ok: true });
  });
  app.post('/api/teacher/studies/:id/archive', async (c) => {
    const archived = (await body(c)).archived;
    if (typeof archived !== 'boolean') throw new ClassroomError(400, 'archived: true or false');
    return c.json({ study: await svc.archiveStudy(c.req.param('id'), archived) });
  });
  app.post('/api/teacher/studies/:id/participants/:code/withdraw', async (c) => {
    await svc.withdraw(c.req.param('id'), c.req.param('code'));
    return c.json({ ok: true });
  });
  app.get('/api/teacher/studies/:id/export', async (c) => {
    const x = await svc.exportStudy(c.req.param('id'));
    const zip = zipStudy(x, svc.env.now());
    return c.body(zip.slice().buffer, 200, { 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="${studyZipName(x.study)}"` });
  });
  app.get('/api/teacher/studies/:id/traces/:code', async (c) => c.body(await svc.trace(c.req.param('id'), c.req.param('code')), 200, { 'Content-Type': 'application/x-ndjson; charset=utf-8' }));

  // ---- the app -------------------------------------------------------------------------------
  if (o.staticDir) {
    // The page, marked as served by a classroom server: only such a page asks /api/info.
    const staticDir = o.staticDir;
    const page = async (c: Context) => c.html(markServedByClassroom(await readFile(join(staticDir, 'index.html'), 'utf8')));
    app.get('/', page);
    app.get('/index.html', page);
    app.use('/*', serveStatic({ root: staticDir }));
  }
  return app;
}

/** index.html with the meta tag that tells the page it is served by a classroom server. */
export function markServedByClassroom(html: string): string {
  const meta = `<meta name="${CLASSROOM_META}" content="1">`;
  if (html.includes('</head>')) return html.replace('</head>', `${meta}</head>`);
  const doctype = /^<!doctype html>/i.exec(html);
  return doctype ? `${doctype[0]}${meta}${html.slice(doctype[0].length)}` : `${meta}${html}`;
}

class BadBody extends Error {}

/** Takes one point from a per-address limiter; refused (it rejects with a RateLimiterRes, not an Error) as a 429. */
async function limited(l: RateLimiterMemory, key: string): Promise<void> {
  try {
    await l.consume(key);
  } catch (e) {
    if (e instanceof RateLimiterRes) throw new ClassroomError(429, `too many attempts from this device: wait ${Math.ceil(e.msBeforeNext / 1000)} s`);
    throw e;
  }
}

async function body(c: Context): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = await c.req.json();
  } catch {
    throw new BadBody('the request body is not JSON');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new BadBody('the request body must be a JSON object');
  return v as Record<string, unknown>;
}

function text(v: unknown, name: string): string {
  if (typeof v !== 'string') throw new ClassroomError(400, `${name}: text expected`);
  return v;
}
