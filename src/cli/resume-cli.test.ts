/**
 * `run --resume` as a user meets it: a run killed (SIGKILL, or cut mid-line) or stopped (SIGTERM)
 * is resumed from its trace file, and the resumed file is byte for byte the file an uninterrupted
 * run writes. The CLI is spawned as `node --import tsx` (not `npx tsx`, whose wrapper processes
 * would take the signal while the real process went on writing).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NODE_ARGS = ['--import', 'tsx', 'src/cli/main.ts'];
const RUN = ['run', '--tutor', 'planner', '--seed', '5', '--tracer', 'bkt'];

interface Done {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): Promise<Done> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...NODE_ARGS, ...args], (e, stdout, stderr) => {
      const err = e as (Error & { code?: number; signal?: NodeJS.Signals }) | null;
      resolve({ code: err ? (err.code ?? null) : 0, signal: err?.signal ?? null, stdout, stderr });
    });
  });
}

/**
 * Starts a run writing `out` and stops it once the file holds more than 300 kB (past the ~130 kB
 * run_start line, well before the ~1.3 MB end): `stop` is a signal for the child, or a function
 * that signals it. Resolves, once every process writing to its pipes is gone, with how the child
 * ended and the file size when it was signalled (null: the run ended before it could be caught).
 * `npm` runs the CLI as a user does (`npm run cli -- run ...`), as the leader of its own process
 * group, like a terminal's foreground job.
 */
function runAndInterrupt(out: string, stop: NodeJS.Signals | ((child: ChildProcess) => void), how: 'node' | 'npm' = 'node'): Promise<Done & { sentAt: number | null }> {
  return new Promise((resolve) => {
    const child =
      how === 'node'
        ? spawn(process.execPath, [...NODE_ARGS, ...RUN, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn('npm', ['run', '--silent', 'cli', '--', ...RUN, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    let sentAt: number | null = null;
    const poll = setInterval(() => {
      const size = existsSync(out) ? statSync(out).size : 0;
      if (size > 300_000 && sentAt === null) {
        sentAt = size;
        if (typeof stop === 'string') child.kill(stop);
        else stop(child);
      }
    }, 1);
    child.on('exit', () => clearInterval(poll));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, sentAt }));
  });
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

let dir: string;
let A: string;
let reference: Buffer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'educlaw-resume-cli-'));
  A = join(dir, 'A.jsonl');
  const r = await cli(...RUN, '--out', A, '--quiet');
  expect(r.code).toBe(0);
  reference = readFileSync(A);
  expect(lines(reference.toString('utf8')).at(-1)).toMatch(/"type":"run_end".*"reason":"horizon_reached"/);
}, 60_000);

describe('npm run cli -- run --resume', () => {
  it('a run killed with SIGKILL mid-run resumes to the same bytes as an uninterrupted run', async () => {
    const B = join(dir, 'B-kill.jsonl');
    const k = await runAndInterrupt(B, 'SIGKILL');
    expect(k.sentAt, 'the run ended before it could be killed').not.toBeNull();
    expect(k.signal).toBe('SIGKILL');
    const partial = readFileSync(B);
    expect(partial.length).toBeGreaterThan(300_000);
    expect(partial.length).toBeLessThan(reference.length);
    expect(partial.toString('utf8')).not.toContain('"type":"run_end"');
    // Everything the killed run wrote is a prefix of the reference (at most its last line cut short).
    expect(reference.subarray(0, partial.length).equals(partial)).toBe(true);

    const r = await cli('run', '--resume', B);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^resuming .*B-kill\.jsonl: replaying \d+ of \d+ stored events/m);
    expect(r.stdout).toMatch(/horizon_reached/);
    expect(readFileSync(B).equals(reference)).toBe(true);
  }, 60_000);

  it('a trace cut inside a line (a kill mid-write) resumes to the same bytes; the cut line is dropped and said so', async () => {
    const text = reference.toString('utf8');
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    const line = 1234; // any line well inside the run
    const cutAt = Buffer.byteLength(text.slice(0, starts[line]! + 37), 'utf8');
    const C = join(dir, 'C-cut.jsonl');
    writeFileSync(C, reference.subarray(0, cutAt));
    expect(readFileSync(C).at(-1)).not.toBe(0x0a); // really inside a line

    const r = await cli('run', '--resume', C);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`replaying ${line} of ${line} stored events (a last line cut short was dropped)`);
    expect(readFileSync(C).equals(reference)).toBe(true);
  }, 60_000);

  it('SIGTERM stops the run cleanly (exit 3, run_end "aborted", how to resume) and run --resume completes it to the same bytes', async () => {
    const B = join(dir, 'B-term.jsonl');
    const t = await runAndInterrupt(B, 'SIGTERM');
    expect(t.sentAt, 'the run ended before it could be stopped').not.toBeNull();
    expect(t.signal).toBeNull(); // it exited by itself, not by the signal
    expect(t.code).toBe(3);
    expect(t.stderr).toContain('SIGTERM: stopping; the trace written so far is kept');
    expect(t.stderr).toContain(`resume with: npm run cli -- run --resume ${B}`);
    const stopped = lines(readFileSync(B, 'utf8'));
    const end = JSON.parse(stopped.at(-1)!) as { type: string; reason: string };
    expect(end).toMatchObject({ type: 'run_end', reason: 'aborted' });
    expect(stopped.length).toBeLessThan(lines(reference.toString('utf8')).length);

    const r = await cli('run', '--resume', B, '--quiet');
    expect(r.code).toBe(0);
    expect(readFileSync(B).equals(reference)).toBe(true);
  }, 60_000);

  it('Ctrl-C is one stop however many copies of it arrive: to the process group under `npm run cli`, or twice in a row', async () => {
    const G = join(dir, 'B-group.jsonl');
    const D = join(dir, 'B-twice.jsonl');
    const [group, twice] = await Promise.all([
      // Ctrl-C signals every process of the terminal's group (npm, the CLI).
      runAndInterrupt(G, (child) => process.kill(-child.pid!, 'SIGINT'), 'npm'),
      // A copy a few milliseconds after the first (a wrapper relaying it) is not a second Ctrl-C.
      runAndInterrupt(D, (child) => {
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGINT'), 5);
      }),
    ]);
    for (const [r, file] of [[group, G], [twice, D]] as const) {
      expect(r.sentAt, `${file}: the run ended before it could be stopped`).not.toBeNull();
      expect(r.stderr.match(/SIGINT: stopping/g), file).toHaveLength(1);
      expect(r.stderr, file).toContain(`resume with: npm run cli -- run --resume ${file}`);
      expect(JSON.parse(lines(readFileSync(file, 'utf8')).at(-1)!), file).toMatchObject({ type: 'run_end', reason: 'aborted' });
    }
    // The CLI's own status (npm's is that of a process Ctrl-C ended): 3, not 130, the exit at once of a second Ctrl-C.
    expect(twice.code, twice.stderr).toBe(3);
  }, 60_000);

  it('refuses what it cannot resume, saying why: a complete run, a run with --tutor or --model, a file with no complete line', async () => {
    const early = join(dir, 'early.jsonl');
    writeFileSync(early, reference.subarray(0, 5000)); // killed while writing run_start
    const [complete, withTutor, cut] = await Promise.all([cli('run', '--resume', A), cli('run', '--resume', A, '--tutor', 'planner', '--model', 'x'), cli('run', '--resume', early)]);
    expect(complete.code).not.toBe(0);
    expect(complete.stderr).toMatch(/this run is complete \(it reached its last day\): nothing to resume/);
    expect(withTutor.code).not.toBe(0);
    expect(withTutor.stderr).toMatch(/--resume takes the run from the trace: give no --tutor, --model \(only --llm-config, --kt-runtime and --quiet go with --resume\)/);
    expect(cut.code).not.toBe(0);
    expect(cut.stderr).toMatch(/early\.jsonl: no event was written completely .*start the run again/);
    // Nothing was written to the files it refused.
    expect(readFileSync(A).equals(reference)).toBe(true);
    expect(readFileSync(early).length).toBe(5000);
  }, 60_000);
});
