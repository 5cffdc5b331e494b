/**
 * Kills at seeded random points, then resume (the CLI): `run` killed with SIGKILL or SIGTERM once
 * its trace has reached a random share of its final size, then `run --resume`; and `judge` killed
 * at a random moment while it judges (its panel answers slowly) or writes. Handled: the resumed
 * trace equals the uninterrupted run's byte for byte; the judged file is either the old trace or
 * the whole judged one. Crashed: the resume failed. Data lost: any other bytes. A trial whose
 * process ended before its kill is tried again with the kill point halved (up to 3 times), so a
 * row counts kills that landed (npm test runs 4 trials and requires each row's faults to fire).
 */
import { afterAll, beforeAll, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJsonl } from '../../src/core/index';
import { policyReply, startMockOpenAi, type MockServer } from '../../src/testing/mock-openai-server';
import { newTally, note, rng, writeTallies } from './tally';

const TRIALS = Number(process.env.FAULTS_KILL_TRIALS ?? 10);
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const RUN = ['run', '--scenario', 'scenarios/default.yaml', '--tracer', 'bkt', '--tutor', 'planner', '--seed', '2', '--horizon', '20', '--quiet'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const size = (p: string) => (existsSync(p) ? statSync(p).size : 0);

let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

/** Runs the CLI to its end (asynchronously: the panel's server answers from this process). */
function cli(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d) => (stderr += String(d)));
    p.on('exit', (status) => resolve({ status, stderr }));
  });
}

/** Starts the CLI, kills it with `signal` when `when()` says so (or lets it finish); resolves with how it ended. */
async function killWhen(args: string[], when: () => boolean, signal: NodeJS.Signals): Promise<{ killed: boolean; code: number | null }> {
  const p = spawn(process.execPath, [...CLI, ...args], { stdio: 'ignore' });
  let exited = false;
  const done = new Promise<number | null>((r) => p.on('exit', (c) => ((exited = true), r(c))));
  while (!exited && !when()) await sleep(5);
  const killed = !exited;
  if (killed) p.kill(signal);
  return { killed, code: await done };
}

it(`kills at random points, then resume (${TRIALS} run kills, ${Math.ceil(TRIALS / 2)} judge kills)`, async () => {
  const runs = newTally('CLI run killed (SIGKILL / SIGTERM), then --resume');
  const judges = newTally('CLI judge killed while judging or writing');
  const dir = mkdtempSync(join(tmpdir(), 'educlaw-kill-'));
  const ref = join(dir, 'ref.jsonl');
  const r0 = await cli([...RUN, '--out', ref]);
  if (r0.status !== 0) throw new Error(`the reference run failed: ${r0.stderr}`);
  const reference = readFileSync(ref);
  const r = rng(4242);
  for (let k = 0; k < TRIALS; k++) {
    const out = join(dir, `run-${k}.jsonl`);
    const drawn = 0.05 + r() * 0.9;
    const signal: NodeJS.Signals = k % 2 ? 'SIGTERM' : 'SIGKILL';
    // A run that finishes before its kill point proves nothing: tried again with the point halved (up to 3 times) so the kill lands.
    let killed = false;
    let share = drawn;
    for (let a = 0; a < 3 && !killed; a++, share /= 2) ({ killed } = await killWhen([...RUN, '--out', out], () => size(out) >= share * reference.length, signal));
    const why = `${signal} at ${Math.round(share * 2 * 100)}% of the trace`;
    if (!killed) {
      note(runs, readFileSync(out).equals(reference) ? 'completed' : 'dataLost', `${why}: finished before the kill, different bytes`);
      continue;
    }
    const res = await cli(['run', '--resume', out, '--quiet']);
    if (res.status !== 0) note(runs, 'crashed', `${why}: the resume exited ${res.status}: ${res.stderr.slice(0, 300)}`);
    else note(runs, readFileSync(out).equals(reference) ? 'clearError' : 'dataLost', `${why}: the resumed trace differs from the uninterrupted run`);
  }

  // judge: a panel whose replies take 30 ms, killed at a random moment.
  const panel = join(dir, 'panel.yaml');
  writeFileSync(panel, `providers:\n  - name: local\n    baseURL: ${srv.url}\n    backoffMs: 1\njudges:\n  - { provider: local, model: judge-4, family: a }\n  - { provider: local, model: judge-3, family: b }\ndaysPerRun: null\n`);
  srv.setHandler(async (body) => ({ kind: 'delay', ms: 30, then: policyReply(body) }));
  const original = readFileSync(ref);
  const judgedRef = join(dir, 'judged-ref.jsonl');
  copyFileSync(ref, judgedRef);
  const t0 = Date.now();
  const j0 = await cli(['judge', judgedRef, '--panel', panel]);
  const j0Ms = Date.now() - t0;
  if (j0.status !== 0) throw new Error(`the reference judging failed: ${j0.stderr}`);
  const judged = readFileSync(judgedRef);
  for (let k = 0; k < Math.ceil(TRIALS / 2); k++) {
    const f = join(dir, `judge-${k}.jsonl`);
    const frac = r();
    // A judging that ends before its kill proves nothing: tried again with the moment halved (up to 3 times) so the kill lands.
    let killed = false;
    let at = 0;
    let started = 0;
    for (let a = 0; a < 3 && !killed; a++) {
      copyFileSync(ref, f);
      started = Date.now();
      at = started + (frac * j0Ms) / 2 ** a;
      ({ killed } = await killWhen(['judge', f, '--panel', panel], () => Date.now() >= at, 'SIGKILL'));
    }
    const now = readFileSync(f);
    const whole = now.equals(original) || now.equals(judged);
    if (!whole) note(judges, 'dataLost', `killed after ${at - started} ms: the file is neither the old trace nor the judged one (${now.length} bytes)`);
    else {
      parseJsonl(now.toString('utf8'), f);
      note(judges, killed ? 'clearError' : 'completed');
    }
  }
  srv.setHandler(policyReply);
  writeTallies('4-kill', [runs, judges]);
});
