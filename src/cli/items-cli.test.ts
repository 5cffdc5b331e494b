/** The item-bank commands as a user types them: sample, grade (with --answer and --json), check. */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const cli = (...args: string[]) => run('npx', ['tsx', 'src/cli/main.ts', 'items', ...args]).then(
  (r) => ({ code: 0, ...r }),
  (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
);

describe('npm run cli -- items', () => {
  it('samples an item and grades its own answer correct and a near miss incorrect, as JSON', async () => {
    const s = await cli('sample', '--skill', '87', '--level', '2', '--seed', '4', '--json');
    expect(s.code).toBe(0);
    const item = JSON.parse(s.stdout) as { answer: string; id: string };
    const ok = await cli('grade', '--skill', '87', '--level', '2', '--seed', '4', '--answer', item.answer, '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ correct: true, given: item.answer, answer: item.answer, item: item.id });
    const bad = await cli('grade', '--skill', '87', '--level', '2', '--seed', '4', '--answer', `${item.answer}1`, '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ correct: false });
  }, 60_000);

  it('says what is missing when no answer is given', async () => {
    const r = await cli('grade', '--skill', '87');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--answer/);
  }, 60_000);
});
