/**
 * Kills at seeded random points, then resume (the CLI): `run` killed with SIGKILL or SIGTERM once
 * its trace has reached a random share of its final size, then `run --resume`; and `judge` killed
 * at a random moment while it judges (its panel answers slowly) or writes. Handled: the resumed
 * trace equals the uninterrupted run's byte for byte; the judged file is either the old trace or
 * the whole judged one. Crashed: the resume failed. Data lost: any other bytes.
 */
import { afterAll, beforeAll, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJsonl } from '../../src/core/index';
import { chat, policyReply, startMockOpenAi, type MockServer } from '../../src/testing/mock-openai-server';
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
  const r0 = spawnSync(process.execPath, [...CLI, ...RUN, '--out', ref], { encoding: 'utf8' });
  if (r0.status !== 0) throw new Error(`the reference run failed: ${r0.stderr}`);
  const reference = readFileSync(ref);
  const r = rng(4242);
  for (let k = 0; k < TRIALS; k++) {
    const out = join(dir, `run-${k}.jsonl`);
    const share = 0.05 + r() * 0.9;
    const signal: NodeJS.Signals = k % 2 ? 'SIGTERM' : 'SIGKILL';
    const why = `${signal} at ${Math.round(share * 100)}% of the trace`;
    const { killed } = await killWhen([...RUN, '--out', out], () => size(out) >= share * reference.length, signal);
    if (!killed) {
      note(runs, readFileSync(out).equals(reference) ? 'completed' : 'dataLost', `${why}: finished before the kill, different bytes`);
      continue;
    }
    const res = spawnSync(process.execPath, [...CLI, 'run', '--resume', out, '--quiet'], { encoding: 'utf8' });
    if (res.status !== 0) note(runs, 'crashed', `${why}: the resume exited ${res.status}: ${res.stderr.slice(0, 300)}`);
    else note(runs, readFileSync(out).equals(reference) ? 'clearError' : 'dataLost', `${why}: the resumed trace differs from the uninterrupted run`);
  }

  // judge: a panel whose replies take 30 ms, killed at a random moment.
  const panel = join(dir, 'panel.yaml');
  writeFileSync(panel, `providers:\n  - name: local\n    baseURL: ${srv.url}\n    backoffMs: 1\njudges:\n  - { provider: local, model: judge-4, family: a }\n  - { provider: local, model: judge-3, family: b }\ndaysPerRun: null\n`);
  srv.setHandler(async (body, n, h) => ({ kind: 'delay', ms: 30, then: policyReply(body, n, h) }));
  void chat;
  const original = readFileSync(ref);
  const judgedRef = join(dir, 'judged-ref.jsonl');
  copyFileSync(ref, judgedRef);
  const j0 = spawnSync(process.execPath, [...CLI, 'judge', judgedRef, '--panel', panel], { encoding: 'utf8' });
  if (j0.status !== 0) throw new Error(`the reference judging failed: ${j0.stderr}`);
  const judged = readFileSync(judgedRef);
  const j0Ms = 1000 * Number(process.env.FAULTS_JUDGE_SECONDS ?? 6);
  for (let k = 0; k < Math.ceil(TRIALS / 2); k++) {
    const f = join(dir, `judge-${k}.jsonl`);
    copyFileSync(ref, f);
    const at = Date.now() + 1500 + r() * j0Ms;
    const { killed } = await killWhen(['judge', f, '--panel', panel], () => Date.now() >= at, 'SIGKILL');
    const now = readFileSync(f);
    const whole = now.equals(original) || now.equals(judged);
    if (!whole) note(judges, 'dataLost', `killed after ${Math.round(at % 100000)} ms: the file is neither the old trace nor the judged one (${now.length} bytes)`);
    else {
      parseJsonl(now.toString('utf8'), f);
      note(judges, killed ? 'clearError' : 'completed');
    }
  }
  srv.setHandler(policyReply);
  writeTallies('4-kill', [runs, judges]);
});
