import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINI_PATH, runWith, miniScenario } from '../../../testing/fixtures';
import { toJsonl } from '../../../core/index';
import { runNodeSweep } from './run-sweep';
import { expandScenarioPaths } from '../scenario-paths';

describe('node sweep in worker threads', () => {
  it('runs scenario × seed jobs in parallel threads and writes traces identical to a direct run, plus summaries', async () => {
    const out = mkdtempSync(join(tmpdir(), 'educlaw-sweep-'));
    const res = await runNodeSweep({ files: [MINI_PATH], base: { tutor: { name: 'withholder', config: {} } }, seeds: [3, 4], threads: 2, outDir: out });
    expect(res.results.map((r) => r.error)).toEqual([null, null]);
    expect(res.summary.runs).toBe(2);
    expect(res.summary.failed).toEqual([]);
    const direct = toJsonl((await runWith(miniScenario(), 'withholder', { seed: 4 })).events);
    expect(readFileSync(join(out, 'traces', 'mini-3day__withholder__s4.jsonl'), 'utf8')).toBe(direct);
    const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(json.runs).toHaveLength(2);
    expect(readFileSync(join(out, 'summary.txt'), 'utf8')).toContain('mini-3day');
  }, 120_000);

  it('refuses to start when a scenario file is invalid, naming file, field and line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-bad-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, readFileSync(MINI_PATH, 'utf8').replace('replyProb: 1', 'replyProb: 7'));
    await expect(runNodeSweep({ files: [MINI_PATH, bad], base: { tutor: { name: 'withholder', config: {} } }, seeds: [1], threads: 1, outDir: null })).rejects.toThrow(/bad\.yaml:\d+:\d+ learner\.persona\.replyProb/);
  });

  it('expands directories and file-name patterns, and says when nothing matches', () => {
    const dir = mkdtempSync(join(tmpdir(), 'educlaw-paths-'));
    for (const f of ['a--x.yaml', 'b--x.yaml', 'c.yaml', 'notes.txt']) writeFileSync(join(dir, f), '');
    expect(expandScenarioPaths([dir]).map((p) => p.slice(dir.length + 1))).toEqual(['a--x.yaml', 'b--x.yaml', 'c.yaml']);
    expect(expandScenarioPaths([join(dir, '*--x.yaml')]).map((p) => p.slice(dir.length + 1))).toEqual(['a--x.yaml', 'b--x.yaml']);
    expect(() => expandScenarioPaths([join(dir, '*--y.yaml')])).toThrow(/no file matches/);
    expect(() => expandScenarioPaths([join(dir, 'missing.yaml')])).toThrow(/no such file/);
  });
});
