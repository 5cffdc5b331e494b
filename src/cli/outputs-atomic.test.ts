/**
 * Issue 36: outputs are whole or not there. A report directory is replaced as a whole (a failure
 * or a kill at any moment leaves the old report or the new one, never report.md of one beside
 * report.json of another, and no stray files); export-trajectories on a full disk leaves the
 * previous export as it was; readers refuse a FIFO named *.jsonl instead of hanging, stop at a
 * 16 MiB line instead of holding it whole, refuse events nested past 64 levels instead of
 * overflowing the stack, and count a run found twice once.
 */
import { describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJsonl, toJsonl, TraceParseError } from '../core/index';
import { miniScenario, runWith } from '../testing/fixtures';
import { replaceDirAtomic } from '../adapters/node/files';
import { readStoredTrace } from '../adapters/node/trace-file';
import { traceFiles, writeReport } from './commands/report';
import { exportTrajectories } from './commands/export-trajectories';

const run = promisify(execFile);
const quiet = () => undefined;

async function twoTraces(dir: string) {
  mkdirSync(join(dir, 'traces'), { recursive: true });
  for (const [tutor, seed] of [['planner', 1], ['withholder', 2]] as const) {
    const res = await runWith(miniScenario(), tutor, { seed });
    writeFileSync(join(dir, 'traces', `${tutor}.jsonl`), toJsonl(res.events));
  }
}

describe('a report directory is replaced as a whole', () => {
  it('a failure while the new report is written leaves the old one whole, with no stray files beside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-report-atomic-'));
    await twoTraces(dir);
    const out = join(dir, 'report');
    await writeReport([join(dir, 'traces')], { out }, quiet);
    const before = Object.fromEntries(['report.md', 'report.json'].map((f) => [f, readFileSync(join(out, f), 'utf8')]));
    // The disk fills up half-way through the next report.
    await expect(
      replaceDirAtomic(out, (n) => ['report.md', 'report.json', 'csv', 'svg'].includes(n), (staging) => {
        writeFileSync(join(staging, 'report.md'), 'NEW');
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }),
    ).rejects.toThrow(/ENOSPC.*report is unchanged/);
    for (const [f, text] of Object.entries(before)) expect(readFileSync(join(out, f), 'utf8')).toBe(text);
    expect(readdirSync(dir).sort()).toEqual(['report', 'traces']);
  });

  it('killed between its two renames, the next report puts the old one back first; a directory of other files is refused, not replaced', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-report-kill-'));
    await twoTraces(dir);
    const out = join(dir, 'report');
    await writeReport([join(dir, 'traces')], { out }, quiet);
    const json = readFileSync(join(out, 'report.json'), 'utf8');
    // What a kill right after the first rename leaves: the old report aside, none in place.
    spawnSync('mv', [out, join(dir, '.report.old-999-abcd')]);
    await expect(replaceDirAtomic(out, () => true, () => {
      throw new Error('stop before the swap');
    })).rejects.toThrow(/report is unchanged/);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(json);
    const mine = join(dir, 'mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.txt'), 'keep me');
    await expect(writeReport([join(dir, 'traces')], { out: mine }, quiet)).rejects.toThrow(/holds files that are not this output's \(notes\.txt\)/);
    expect(readdirSync(mine)).toEqual(['notes.txt']);
  });

  it('under a file-size limit (a full disk) the CLI report fails naming the file and leaves the old report whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-report-fsize-'));
    await twoTraces(dir);
    const out = join(dir, 'report');
    await writeReport([join(dir, 'traces')], { out, format: 'md' }, quiet);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    // html is one large file: 40 KiB is more than any csv or svg and less than it.
    const e = (await run('bash', ['-c', `ulimit -f 40; exec node --import tsx src/cli/main.ts report "$0" --out "$1" --format both`, join(dir, 'traces'), out]).catch((x: unknown) => x)) as { code?: number; stderr?: string };
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/could not write .*report\.html: EFBIG.*report is unchanged/);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe(md);
    expect(existsSync(join(out, 'report.html'))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['report', 'traces']);
  }, 60_000);
});

describe('export-trajectories', () => {
  it('on a full disk the previous export stays whole; a run found twice (a trace and its judged copy) counts once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-export-'));
    await twoTraces(dir);
    const out = join(dir, 'out', 'traj.jsonl');
    await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'export-trajectories', join(dir, 'traces'), '--out', out]);
    const old = readFileSync(out, 'utf8');
    expect(old.length).toBeGreaterThan(20_000);
    const e = (await run('bash', ['-c', `ulimit -f 8; exec node --import tsx src/cli/main.ts export-trajectories "$0" --out "$1"`, join(dir, 'traces'), out]).catch((x: unknown) => x)) as { code?: number; stderr?: string };
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/could not write .*traj\.jsonl: EFBIG.*the file there is unchanged/);
    expect(readFileSync(out, 'utf8')).toBe(old);
    expect(readdirSync(join(dir, 'out'))).toEqual(['traj.jsonl']);
    // The same run twice: once.
    writeFileSync(join(dir, 'traces', 'copy.jsonl'), readFileSync(join(dir, 'traces', 'planner.jsonl')));
    let lines = 0;
    const r = exportTrajectories([join(dir, 'traces')], { per: 'run' }, () => void lines++);
    expect(r.runs).toBe(2);
    expect(lines).toBe(2);
    expect(r.skipped).toEqual([{ path: join(dir, 'traces', 'planner.jsonl'), why: expect.stringMatching(/the same run as .*copy\.jsonl/) }]);
  }, 60_000);
});

describe('judge keeps the run\'s own lines byte for byte', () => {
  it('bytes that are not UTF-8 in a message stay as they were (they became U+FFFD)', async () => {
    const { startMockOpenAi } = await import('../testing/mock-openai-server');
    const srv = await startMockOpenAi();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'educlaw-judge-bytes-'));
      const text = toJsonl((await runWith(miniScenario(), 'planner', { seed: 4 })).events);
      const i = text.indexOf('"from":"tutor","text":"') + '"from":"tutor","text":"'.length;
      const bytes = Buffer.concat([Buffer.from(text.slice(0, i)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(i))]);
      const trace = join(dir, 't.jsonl');
      writeFileSync(trace, bytes);
      const panel = join(dir, 'panel.yaml');
      writeFileSync(panel, `providers:\n  - name: local\n    baseURL: ${srv.url}\n    backoffMs: 1\njudges:\n  - { provider: local, model: judge-4, family: a }\n  - { provider: local, model: judge-3, family: b }\ndaysPerRun: null\n`);
      const { Command } = await import('commander');
      const { registerJudge } = await import('./commands/judge');
      const p = new Command().exitOverride();
      registerJudge(p);
      const err = console.error;
      console.error = () => undefined;
      try {
        await p.parseAsync(['node', 'educlaw', 'judge', trace, '--panel', panel]);
      } finally {
        console.error = err;
      }
      const after = readFileSync(trace);
      expect(after.subarray(0, bytes.length).equals(bytes)).toBe(true);
      expect(after.length).toBeGreaterThan(bytes.length);
      expect(readStoredTrace(trace).events.some((e) => e.type === 'judge_verdict')).toBe(true);
    } finally {
      srv.close();
    }
  }, 60_000);
});

describe('run on a full disk', () => {
  it('the error names the trace file, and the events before it are kept and resumable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-run-fsize-'));
    const out = join(dir, 't.jsonl');
    const e = (await run('bash', ['-c', `ulimit -f 20; exec node --import tsx src/cli/main.ts run --scenario "$0" --tracer bkt --tutor planner --out "$1" --quiet`, 'scenarios/fixtures/mini-3day.yaml', out]).catch((x: unknown) => x)) as { code?: number; stderr?: string };
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/could not append event \d+ to the trace .*t\.jsonl: EFBIG: file too large, write; the events before it are kept/);
    expect(readStoredTrace(out).events.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('readers never hang, hold a huge line or overflow the stack', () => {
  it('a FIFO named *.jsonl is refused, not waited on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-fifo-'));
    expect(spawnSync('mkfifo', [join(dir, 'x.jsonl')]).status).toBe(0);
    expect(() => traceFiles([dir])).toThrow(/x\.jsonl is not a regular file \(a FIFO, socket or device\)/);
    expect(() => traceFiles([join(dir, 'x.jsonl')])).toThrow(/not a regular file/);
  });

  it('a line over 16 MiB is refused at its line without being held whole; an event 20,000 levels deep is refused at its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-bigline-'));
    const lines = toJsonl((await runWith(miniScenario(), 'planner')).events).trim().split('\n');
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, `${lines[0]}\n${'x'.repeat(17 * 1024 * 1024)}\n`);
    expect(() => readStoredTrace(big)).toThrow(/big\.jsonl:2: line of more than 16777216 bytes/);
    const deep = `${'{"x":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const i = lines.findIndex((l) => l.includes('"type":"tool_call"'));
    const o = JSON.parse(lines[i]!);
    const text = [...lines.slice(0, i), JSON.stringify({ ...o, args: '@@' }).replace('"@@"', deep), ...lines.slice(i + 1)].join('\n') + '\n';
    let err: unknown;
    try {
      parseJsonl(text, 'deep.jsonl');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TraceParseError);
    expect((err as Error).message).toBe(`deep.jsonl:${i + 1}: invalid event: an event nested more than 64 levels deep`);
  });
});
