/**
 * The CLI's readers and writers under bad input and a full disk (issue 16):
 *  - `score`, `judge` and `report` refuse an impossible trace (a probe solve rate of 5 used to
 *    score "+149.73 pp/day, 51% → 500%") with file, line and field, and write nothing;
 *  - `judge` writes a judged trace to a temporary file and renames it: under a file-size limit
 *    (the "full disk" case; it used to leave the trace truncated, "not JSON" at a later line) the
 *    trace is left as it was and the error says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerScore } from './commands/score';
import { registerJudge } from './commands/judge';
import { registerReport } from './commands/report';
import { registerRun } from './commands/run';
import { registerSweep } from './commands/sweep';
import { parseJsonl, toJsonl, TRACER_NAMES } from '../core/index';
import { miniScenario, runWith } from '../testing/fixtures';
import { startMockOpenAi, type MockServer } from '../testing/mock-openai-server';

const run = promisify(execFile);
let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

/** Runs a CLI command in this process; resolves with what it printed, rejects with its error. */
async function cli(register: (p: Command) => void, args: string[]): Promise<{ out: string; err: string }> {
  const p = new Command().exitOverride();
  register(p);
  let out = '';
  let err = '';
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => void (out += a.join(' ') + '\n');
  console.error = (...a: unknown[]) => void (err += a.join(' ') + '\n');
  try {
    await p.parseAsync(['node', 'educlaw', ...args]);
  } finally {
    console.log = log;
    console.error = error;
  }
  return { out, err };
}

describe('CLI readers refuse impossible traces, naming file, line and field', () => {
  it('score, judge and report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-faults-'));
    const ls = toJsonl((await runWith(miniScenario(), 'planner')).events).trim().split('\n');
    const i = ls.findIndex((l) => l.includes('"type":"probe"') && l.includes('"day":3'));
    const o = JSON.parse(ls[i]!) as { solveRate: number };
    o.solveRate = 5;
    ls[i] = JSON.stringify(o);
    const bad = join(dir, 'bad.jsonl');
    const text = ls.join('\n') + '\n';
    writeFileSync(bad, text);
    const want = new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${i + 1}: invalid event at solveRate: a probability must be between 0 and 1`);
    await expect(cli(registerScore, ['score', bad])).rejects.toThrow(want);
    const panel = join(dir, 'panel.yaml');
    writeFileSync(panel, `providers:\n  - name: local\n    baseURL: ${srv.url}\njudges:\n  - { provider: local, model: judge-4, family: a }\n`);
    const before = srv.requests.length;
    await expect(cli(registerJudge, ['judge', bad, '--panel', panel])).rejects.toThrow(want);
    expect(srv.requests.length).toBe(before); // nothing spent on a trace that does not read
    expect(readFileSync(bad, 'utf8')).toBe(text);
    await expect(cli(registerReport, ['report', dir, '--out', join(dir, 'report')])).rejects.toThrow(want);
    expect(existsSync(join(dir, 'report'))).toBe(false);
  });
});

describe('unknown names are refused before anything runs', () => {
  it('--tracer in run and sweep (it used to fail later, naming no file, field or line)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'educlaw-tracer-')), 'never.jsonl');
    await expect(cli(registerRun, ['run', '--tutor', 'planner', '--tracer', 'dkt', '--out', out])).rejects.toThrow(new RegExp(`'--tracer <name>' argument 'dkt' is invalid\\. Allowed choices are ${TRACER_NAMES.join(', ')}`));
    await expect(cli(registerSweep, ['sweep', '--scenarios', 'scenarios/default.yaml', '--tutor', 'planner', '--tracer', 'dkt', '--out', out])).rejects.toThrow(new RegExp(`Allowed choices are ${TRACER_NAMES.join(', ')}`));
    expect(existsSync(out)).toBe(false);
  });
});

describe('judge writes atomically', () => {
  it('under a file-size limit the judged trace is not written and the old one is left whole (it used to be truncated)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-fsize-'));
    const trace = join(dir, 't.jsonl');
    const text = toJsonl((await runWith(miniScenario(), 'withholder')).events);
    writeFileSync(trace, text);
    const panel = join(dir, 'panel.yaml');
    writeFileSync(panel, `providers:\n  - name: local\n    baseURL: ${srv.url}\n    backoffMs: 1\njudges:\n  - { provider: local, model: judge-4, family: a }\n  - { provider: local, model: judge-3, family: b }\ndaysPerRun: null\n`);
    // bash's ulimit -f counts 1024-byte blocks: below the old trace's size, so any in-place write would cut it.
    const blocks = Math.floor(text.length / 1024) - 2;
    const e = (await run('bash', ['-c', `ulimit -f ${blocks}; exec npx tsx src/cli/main.ts judge "$0" --panel "$1"`, trace, panel]).catch((x: unknown) => x)) as { code?: number; stderr?: string };
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/could not write .*t\.jsonl: EFBIG: .*; the file there is unchanged/);
    expect(readFileSync(trace, 'utf8')).toBe(text);
    expect(parseJsonl(readFileSync(trace, 'utf8')).complete).toBe(true);
    // No temporary file is left behind.
    expect(readdirSync(dir).sort()).toEqual(['panel.yaml', 't.jsonl']);
    expect(statSync(trace).size).toBe(Buffer.byteLength(text));
  });
});
