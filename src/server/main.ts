#!/usr/bin/env node
/**
 * The classroom server: `npm run classroom` (builds the app, then starts this).
 *
 *   node --import tsx src/server/main.ts [--data classroom-data] [--port 8787] [--host 0.0.0.0]
 *        [--llm-config <file>...] [--teacher-secret <text>] [--static dist]
 *
 * Data (studies, participants, every trace event) is a PGlite database in <data>/db; the teacher
 * secret, unless given (--teacher-secret or CLASSROOM_TEACHER_SECRET), is made once and kept in
 * <data>/teacher-secret. LLM keys come from the LLM config and the environment, as for the CLI, and
 * stay in this process: students' devices talk only to this server.
 */
import { Command } from 'commander';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { ClassroomService } from '../adapters/classroom/service';
import { PgliteClassroomStore } from '../adapters/node/classroom-store';
import { nodeRunEnv } from '../adapters/node/run-env';
import { loadLlmConfig } from '../adapters/node/llm-config';
import { writeFileAtomic } from '../adapters/node/files';
import { classroomApp } from './app';
import { describeError, lockDataDir, makePrivate } from './data-dir';

export interface StartOptions {
  data: string;
  port: number;
  host: string;
  llmConfig: string[];
  teacherSecret?: string;
  staticDir: string | null;
}

/** Starts the server; resolves once it listens, with a function that stops it (runs stop, data stays). */
export async function startClassroom(o: StartOptions): Promise<{ url: string; port: number; secret: string; stop: () => Promise<void> }> {
  const data = resolve(o.data);
  mkdirSync(data, { recursive: true, mode: 0o700 });
  // One server per data directory: two would each keep their own copy of the database and lose
  // what the other stored.
  const unlock = lockDataDir(data);
  try {
    return await startLocked(o, data, unlock);
  } catch (e) {
    unlock();
    throw e;
  }
}

async function startLocked(o: StartOptions, data: string, unlock: () => void): Promise<{ url: string; port: number; secret: string; stop: () => Promise<void> }> {
  makePrivate(data);
  const secretFile = join(data, 'teacher-secret');
  let secret = o.teacherSecret ?? process.env.CLASSROOM_TEACHER_SECRET ?? null;
  if (!secret) {
    if (existsSync(secretFile)) secret = readFileSync(secretFile, 'utf8').trim();
    else {
      secret = randomBytes(12).toString('base64url');
      writeFileAtomic(secretFile, `${secret}\n`, { mode: 0o600 });
    }
  }
  if (secret.length < 8) throw new Error('the teacher secret must be at least 8 characters');
  const providers = loadLlmConfig(o.llmConfig).providers.map((p) => p.name);
  const run = nodeRunEnv({ llmConfig: o.llmConfig });
  const store = new PgliteClassroomStore(join(data, 'db'));
  try {
    await store.init();
  } catch (e) {
    await store.close().catch(() => undefined);
    throw new Error(`could not open the classroom database in ${join(data, 'db')}: ${describeError(e)}`);
  }
  makePrivate(data);
  const service = new ClassroomService(store, {
    run: { llm: run.llm!, ...(run.http ? { http: run.http } : {}) },
    providers,
    now: () => Date.now(),
    random: (n) => randomBytes(n).toString('base64url'),
  });
  // The addresses students open (filled in once the port is known): the teacher's page shows them and prints them on the code slips.
  const studentUrls: string[] = [];
  const app = classroomApp({ service, teacherSecret: secret, staticDir: o.staticDir, providers, studentUrls, hostNames: [hostname(), `${hostname()}.local`] });
  const server = await new Promise<ReturnType<typeof serve>>((res, rej) => {
    const s = serve({ fetch: app.fetch, port: o.port, hostname: o.host }, () => res(s));
    s.once('error', rej);
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  studentUrls.push(...(o.host === '0.0.0.0' ? lanAddresses() : [o.host]).map((a) => `http://${a}:${port}/`));
  return {
    url: `http://${o.host === '0.0.0.0' ? '127.0.0.1' : o.host}:${port}`,
    port,
    secret,
    stop: async () => {
      await new Promise<void>((res) => server.close(() => res()));
      await service.close();
      await store.close();
      makePrivate(data);
      unlock();
    },
  };
}

function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((i): i is NonNullable<typeof i> => !!i && i.family === 'IPv4' && !i.internal)
    .map((i) => i.address);
}

async function main() {
  const p = new Command()
    .name('classroom')
    .description('The classroom server: students open it on the local network; the teacher runs studies from #classroom.')
    .option('--data <dir>', 'where studies and sessions are kept', 'classroom-data')
    .option('--port <n>', 'port', '8787')
    .option('--host <address>', 'address to listen on (0.0.0.0: every network of this machine)', '0.0.0.0')
    .option('--llm-config <file...>', 'LLM providers (as for the CLI); OPENAI_API_KEY / OPENAI_BASE_URL add "default"', [])
    .option('--teacher-secret <text>', 'the teacher secret (default: CLASSROOM_TEACHER_SECRET, or one kept in <data>/teacher-secret)')
    .option('--static <dir>', 'the built app to serve (npm run build)', 'dist')
    .parse();
  const opts = p.opts<{ data: string; port: string; host: string; llmConfig: string[]; teacherSecret?: string; static: string }>();
  const staticDir = resolve(opts.static);
  if (!existsSync(join(staticDir, 'index.html'))) throw new Error(`no built app in ${staticDir}: run npm run build first (npm run classroom does)`);
  const s = await startClassroom({ data: opts.data, port: Number(opts.port), host: opts.host, llmConfig: opts.llmConfig, ...(opts.teacherSecret ? { teacherSecret: opts.teacherSecret } : {}), staticDir });
  const lan = opts.host === '0.0.0.0' ? lanAddresses() : [opts.host];
  console.log(`EduClaw Lab classroom server, data in ${resolve(opts.data)}`);
  // Students' devices cannot reach this machine as "localhost": it is named only when there is no network address.
  console.log(`  students open:  ${(lan.length ? lan.map((a) => `http://${a}:${s.port}/`) : [`http://localhost:${s.port}/ (no network address found: only this machine can reach it)`]).join('  or  ')}`);
  console.log(`  teacher opens:  http://localhost:${s.port}/#classroom   (teacher secret: ${s.secret})`);
  const stop = async (sig: string) => {
    console.log(`\n${sig}: stopping (every stored event is kept; sessions resume at the next start)`);
    await s.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch((e: unknown) => {
    console.error(`classroom: ${describeError(e)}`);
    process.exit(1);
  });
}
