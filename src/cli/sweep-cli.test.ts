/**
 * `npm run cli -- sweep` as a user meets it: an LLM tutor as async runs in the CLI's process
 * (provider from --llm-config, key from the environment, never in a file), continued with --resume
 * without asking the provider again for what the trace holds; several tutors at once (built-in ones
 * in threads, LLM tutors as model × harness) with a section per tutor; failed runs make the exit
 * code non-zero; a stop signal leaves partial traces that `sweep --resume` completes to what a
 * fresh sweep writes. The CLI is spawned as `node --import tsx` so a signal reaches the process
 * that runs the sweep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJsonl } from '../core/index';
import { policyReply, startMockOpenAi, type Handler, type MockServer } from '../testing/mock-openai-server';
import { runNodeSweep } from '../adapters/node/sweep/run-sweep';

const KEY = 'sk-sweep-SHOULDNOTLEAK-0123456789';
/**
 * The stand-in model with tool-call ids from the conversation instead of the server's request
 * counter, so the same conversation gets the same reply whichever run asks first (the traces
 * record the ids).
 */
const stableReply: Handler = (body) => {
  const r = policyReply(body);
  return r.kind === 'chat' && r.toolCalls ? { ...r, toolCalls: r.toolCalls.map((c, i) => ({ ...c, id: `call_${body.messages.length}_${i}` })) } : r;
};
let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi(stableReply);
});
afterAll(() => srv?.close());

function cliSweep(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sweep', ...args], { env }, (e, stdout, stderr) => resolve({ code: e ? ((e as { code?: number }).code ?? -1) : 0, stdout, stderr }));
  });
}

describe('npm run cli -- sweep --tutor llm', () => {
  it('runs an LLM tutor as async runs against a provider from --llm-config; traces name harness, model and provider, never the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-sweep-llm-'));
    const cfg = join(dir, 'llm.yaml');
    writeFileSync(cfg, `providers:\n  - name: local\n    baseURL: ${srv.url}\n    apiKeyEnv: SWEEP_TEST_KEY\n`);
    const env: NodeJS.ProcessEnv = { ...process.env, SWEEP_TEST_KEY: KEY };
    delete env.OPENAI_BASE_URL;
    delete env.OPENAI_API_KEY;
    const before = srv.requests.length;
    const out = join(dir, 'out');
    const r = await cliSweep(['--tutor', 'llm', '--harness', 'reactive', '--model', 'm', '--llm-config', cfg, '--scenarios', 'scenarios/fixtures/mini-3day.yaml', '--seeds', '1,2', '--jobs', '2', '--out', out], env);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const files = readdirSync(join(out, 'traces')).sort();
    expect(files).toEqual(['mini-3day__llm-reactive-m__s1.jsonl', 'mini-3day__llm-reactive-m__s2.jsonl']);
    let calls = 0;
    for (const f of files) {
      const text = readFileSync(join(out, 'traces', f), 'utf8');
      const { events } = parseJsonl(text, f);
      const start = events[0]!;
      expect(start.type === 'run_start' && start.tutor).toEqual({ name: 'llm', config: expect.objectContaining({ harness: 'reactive', model: 'm', provider: 'local' }) });
      expect(events.at(-1)).toMatchObject({ type: 'run_end', reason: 'horizon_reached' });
      const mc = events.filter((e) => e.type === 'model_call');
      expect(mc.length).toBeGreaterThan(0);
      for (const e of mc) {
        expect(e).toMatchObject({ role: 'tutor', provider: 'local', model: 'm' });
        expect(e.type === 'model_call' && e.response !== null && e.error === undefined).toBe(true);
      }
      calls += mc.length;
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('SHOULDNOTLEAK');
    }
    // Every call reached the server once, with the key from the environment.
    const reqs = srv.requests.slice(before);
    expect(reqs).toHaveLength(calls);
    expect(reqs.every((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    for (const f of ['summary.json', 'summary.txt', 'timing.json']) expect(readFileSync(join(out, f), 'utf8')).not.toContain('SHOULDNOTLEAK');
    expect(r.stdout + r.stderr).not.toContain('SHOULDNOTLEAK');

    // Cut seed 1 mid-line and continue: the calls before the cut are answered from the trace (the
    // server is asked only for the rest) and the trace comes out as it was.
    const p1 = join(out, 'traces', files[0]!);
    const whole = readFileSync(p1);
    const cutAt = Math.floor(whole.length * 0.6);
    const kept = parseJsonl(whole.subarray(0, whole.subarray(0, cutAt).lastIndexOf(0x0a) + 1).toString('utf8')).events;
    const keptCalls = kept.filter((e) => e.type === 'model_call').length;
    const allCalls = parseJsonl(whole.toString('utf8')).events.filter((e) => e.type === 'model_call').length;
    expect(keptCalls).toBeGreaterThan(0);
    expect(keptCalls).toBeLessThan(allCalls);
    truncateSync(p1, cutAt);
    const asked = srv.requests.length;
    const again = await cliSweep(['--tutor', 'llm', '--harness', 'reactive', '--model', 'm', '--llm-config', cfg, '--scenarios', 'scenarios/fixtures/mini-3day.yaml', '--seeds', '1,2', '--jobs', '2', '--out', out, '--resume'], env);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`mini-3day__llm-reactive-m__s1 (resumed after ${kept.length} events)`);
    expect(again.stderr).toContain('mini-3day__llm-reactive-m__s2 (complete, kept)');
    expect(readFileSync(p1).equals(whole)).toBe(true);
    expect(srv.requests.length - asked).toBe(allCalls - keptCalls);
  }, 60_000);

  it('exits non-zero and lists the failed runs in summary.json when runs fail (the provider refuses the key)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-sweep-llm-fail-'));
    const cfg = join(dir, 'llm.yaml');
    writeFileSync(cfg, `providers:\n  - name: local\n    baseURL: ${srv.url}\n    apiKeyEnv: SWEEP_TEST_KEY\n`);
    const out = join(dir, 'out');
    srv.setHandler(() => ({ kind: 'status', status: 401, body: { error: { message: 'invalid key' } } }));
    try {
      const r = await cliSweep(['--tutor', 'llm', '--model', 'm', '--llm-config', cfg, '--scenarios', 'scenarios/fixtures/mini-3day.yaml', '--seeds', '1,2', '--jobs', '2', '--out', out, '--quiet'], { ...process.env, SWEEP_TEST_KEY: 'wrong-key' });
      expect(r.code).toBe(3);
      const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { summary: { failed: { runId: string; endReason: string | null }[] } };
      expect(json.summary.failed).toEqual([
        { runId: 'mini-3day__llm-reactive-m__s1', endReason: 'llm_error' },
        { runId: 'mini-3day__llm-reactive-m__s2', endReason: 'llm_error' },
      ]);
    } finally {
      srv.setHandler(stableReply);
    }
  }, 60_000);
});

describe('npm run cli -- sweep with several tutors (a benchmark)', () => {
  it('runs --tutor planner --tutor llm with 2 models × 2 harnesses: 5 tutors, distinct run ids, planner in a thread and the LLM runs async, a section per tutor', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-sweep-bench-'));
    const cfg = join(dir, 'llm.yaml');
    writeFileSync(cfg, `providers:\n  - name: local\n    baseURL: ${srv.url}\n    maxConcurrency: 2\n`);
    const out = join(dir, 'out');
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.OPENAI_BASE_URL;
    delete env.OPENAI_API_KEY;
    const r = await cliSweep(['--tutor', 'planner', '--tutor', 'llm', '--model', 'a', '--model', 'Org/B:1', '--harness', 'reactive', '--harness', 'notes', '--llm-config', cfg, '--scenarios', 'scenarios/fixtures/mini-3day.yaml', '--seeds', '1', '--jobs', '1', '--concurrency', '3', '--out', out], env);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('sweep: planner, llm/reactive/a, llm/notes/a, llm/reactive/Org/B:1, llm/notes/Org/B:1 over 1 scenario × 1 seed = 5 runs: 1 run on 1 thread, 4 LLM runs 3 at a time');
    const ids = ['mini-3day__planner__s1', 'mini-3day__llm-reactive-a__s1', 'mini-3day__llm-notes-a__s1', 'mini-3day__llm-reactive-org-b-1__s1', 'mini-3day__llm-notes-org-b-1__s1'];
    expect(readdirSync(join(out, 'traces')).sort()).toEqual(ids.map((id) => `${id}.jsonl`).sort());
    for (const id of ids) {
      const start = parseJsonl(readFileSync(join(out, 'traces', `${id}.jsonl`), 'utf8')).events[0]!;
      expect(start.type === 'run_start' && start.runId).toBe(id);
    }
    const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { tutor?: unknown; tutors: { name: string; config: { model?: string; harness?: string } }[]; summary: { byTutor: { tutor: string; runs: number }[] }; runs: { runId: string; tutor: string }[] };
    expect(json.tutor).toBeUndefined();
    expect(json.tutors.map((t) => [t.name, t.config.model, t.config.harness])).toEqual([['planner', undefined, undefined], ['llm', 'a', 'reactive'], ['llm', 'a', 'notes'], ['llm', 'Org/B:1', 'reactive'], ['llm', 'Org/B:1', 'notes']]);
    expect(json.summary.byTutor.map((t) => [t.tutor, t.runs])).toEqual([['planner', 1], ['llm/reactive/a', 1], ['llm/notes/a', 1], ['llm/reactive/Org/B:1', 1], ['llm/notes/Org/B:1', 1]]);
    expect(json.runs.map((x) => x.runId)).toEqual(ids);
    const txt = readFileSync(join(out, 'summary.txt'), 'utf8');
    expect(txt.match(/^== tutor .* ==$/gm)).toEqual(['== tutor planner ==', '== tutor llm/reactive/a ==', '== tutor llm/notes/a ==', '== tutor llm/reactive/Org/B:1 ==', '== tutor llm/notes/Org/B:1 ==']);
    expect(txt).toContain('== tutors compared (overall over seeds) ==');
    expect(r.stdout).toContain(txt.trim().split('\n')[0]!);
    const timing = JSON.parse(readFileSync(join(out, 'timing.json'), 'utf8')) as { concurrency: number; runs: { runId: string; async?: boolean }[] };
    expect(timing.concurrency).toBe(3);
    expect(timing.runs.map((x) => x.async ?? false)).toEqual([false, true, true, true, true]);
  }, 60_000);

  it('refuses misplaced or missing LLM flags before running anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-sweep-flags-'));
    const base = ['--scenarios', 'scenarios/fixtures/mini-3day.yaml', '--out', join(dir, 'out'), '--quiet'];
    const noModel = await cliSweep(['--tutor', 'planner', '--tutor', 'llm', ...base], process.env);
    expect(noModel.code).not.toBe(0);
    expect(noModel.stderr).toContain('--tutor llm needs --model <model>');
    const misplaced = await cliSweep(['--tutor', 'planner', '--model', 'a', ...base], process.env);
    expect(misplaced.code).not.toBe(0);
    expect(misplaced.stderr).toContain('--harness, --model, --temperature and --max-steps are for LLM tutors');
    const badTutor = await cliSweep(['--tutor', 'nobody', ...base], process.env);
    expect(badTutor.code).not.toBe(0);
    expect(badTutor.stderr).toMatch(/Allowed choices are answer-giver, withholder, planner, silent, llm/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  }, 60_000);
});

describe('npm run cli -- sweep, stopped and continued', () => {
  it('SIGTERM stops the sweep (exit 3, partial and missing traces, how to continue); sweep --resume ends equal to a fresh sweep', async () => {
    // The default scenario on BKT: ~0.3 s per run, long enough to stop one mid-run.
    const args = ['--tutor', 'planner', '--scenarios', 'scenarios/default.yaml', '--tracer', 'bkt', '--seeds', '1,2', '--jobs', '1'];
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-sweep-stop-'));
    const ref = join(dir, 'ref');
    const out = join(dir, 'out');
    const s1 = join(out, 'traces', 'default-prealgebra-after-school__planner__s1.jsonl');
    const s2 = join(out, 'traces', 'default-prealgebra-after-school__planner__s2.jsonl');
    const stopped = await new Promise<{ code: number | null; stderr: string; sentAt: number | null }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sweep', ...args, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      let sentAt: number | null = null;
      const poll = setInterval(() => {
        const size = existsSync(s1) ? statSync(s1).size : 0;
        if (size > 300_000 && sentAt === null) {
          sentAt = size;
          child.kill('SIGTERM');
        }
      }, 1);
      child.on('exit', (code) => {
        clearInterval(poll);
        setTimeout(() => resolve({ code, stderr, sentAt }), 20);
      });
    });
    // The reference: the same sweep uninterrupted (in-process; its files are the CLI's).
    const fresh = await runNodeSweep({ files: ['scenarios/default.yaml'], base: { tutor: { name: 'planner', config: {} }, tracer: 'bkt' }, seeds: [1, 2], threads: 1, outDir: ref });
    expect(fresh.summary.failed).toEqual([]);
    expect(stopped.sentAt, 'the sweep ended before it could be stopped').not.toBeNull();
    expect(stopped.code).toBe(3);
    expect(stopped.stderr).toContain('SIGTERM: stopping; the trace written so far is kept');
    expect(stopped.stderr).toContain(`stopped; continue with: npm run cli -- sweep ${args.join(' ')} --out ${out} --resume`);
    const partial = readFileSync(s1, 'utf8');
    expect(partial.length).toBeLessThan(readFileSync(join(ref, 'traces', 'default-prealgebra-after-school__planner__s1.jsonl'), 'utf8').length);
    expect(existsSync(s2)).toBe(false);
    const stoppedSummary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { errors: { runId: string; error: string }[] };
    expect(stoppedSummary.errors.map((e) => e.error)).toEqual(['cancelled', 'cancelled']);

    const r = await cliSweep([...args, '--out', out, '--resume'], process.env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/__s1 \(resumed after \d+ events\)/);
    for (const f of ['traces/default-prealgebra-after-school__planner__s1.jsonl', 'traces/default-prealgebra-after-school__planner__s2.jsonl', 'summary.json', 'summary.txt']) {
      expect(readFileSync(join(out, f)).equals(readFileSync(join(ref, f))), f).toBe(true);
    }
  }, 60_000);
});
