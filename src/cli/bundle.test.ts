/**
 * The bundled CLI (npm run build:cli → dist-cli/) and the `npm run cli` launcher
 * (scripts/cli/run.mjs): the bundle writes the traces the sources write (a run, and a sweep on
 * worker threads, which start dist-cli/boot.mjs), and the launcher runs the bundle only while no
 * source file in it changed after its build, saying so when it falls back to the sources.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../adapters/node/files';

const node = (args: string[]) => spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'educlaw-bundle-'));
const inputs = join(ROOT, 'dist-cli', 'inputs.json');

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/cli/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
}, 60_000);

describe('the bundled CLI', () => {
  it('writes the same trace as the sources, and the launcher picks it silently', () => {
    const run = ['run', '--scenario', 'scenarios/fixtures/mini-3day.yaml', '--tutor', 'planner', '--seed', '4', '--quiet', '--out'];
    const src = node(['--import', 'tsx', 'src/cli/main.ts', ...run, join(dir, 'src.jsonl')]);
    const bundled = node(['scripts/cli/run.mjs', ...run, join(dir, 'bundle.jsonl')]);
    expect(src.status, src.stderr).toBe(0);
    expect(bundled.status, bundled.stderr).toBe(0);
    expect(bundled.stderr).toBe('');
    expect(readFileSync(join(dir, 'bundle.jsonl')).equals(readFileSync(join(dir, 'src.jsonl')))).toBe(true);
  }, 60_000);

  it('runs a sweep on worker threads with the same traces and summary', () => {
    const sweep = (entry: string[], out: string) => node([...entry, 'sweep', '--scenarios', 'scenarios/fixtures/mini-3day.yaml', '--tutor', 'withholder', '--seeds', '1-3', '--jobs', '2', '--quiet', '--out', join(dir, out)]);
    const a = sweep(['dist-cli/main.mjs'], 'sweep-bundle');
    const b = sweep(['--import', 'tsx', 'src/cli/main.ts'], 'sweep-src');
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    const files = ['summary.json', 'summary.txt', ...readdirSync(join(dir, 'sweep-src', 'traces')).map((f) => join('traces', f))];
    expect(files.length).toBe(5);
    for (const f of files) expect(readFileSync(join(dir, 'sweep-bundle', f)).equals(readFileSync(join(dir, 'sweep-src', f))), f).toBe(true);
  }, 120_000);

  it('falls back to the sources, and says so, when a source file changed after the build', () => {
    const built = readFileSync(inputs, 'utf8');
    try {
      // As if the build had started before every source file was last written.
      writeFileSync(inputs, JSON.stringify({ ...JSON.parse(built), startedMs: 0 }));
      const r = node(['scripts/cli/run.mjs', 'score', '--help']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^educlaw: running from the sources with tsx \(\S+ changed since dist-cli\/ was built; `npm run build:cli` starts faster\)\n$/);
      expect(r.stdout).toContain('Usage: educlaw score');
    } finally {
      writeFileSync(inputs, built);
    }
  }, 60_000);
});
