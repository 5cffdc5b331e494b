/**
 * `npm run cli -- report` on a directory of traces made here (BKT runs of the mini scenario): the
 * files it writes (Markdown, HTML, SVG, a CSV per table, report.json) and the numbers in them,
 * checked against the traces' own scores; a judged copy of a trace counts once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJsonl, scoreTrace, toJsonl, withControl, type TraceEvent } from '../core/index';
import { miniScenario, runWith } from '../testing/fixtures';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'report', ...args], (e, stdout, stderr) => resolve({ code: e ? ((e as { code?: number }).code ?? -1) : 0, stdout, stderr }));
  });
}

/** A CSV file as rows of cells (no quoted commas in the cells read here). */
const csv = (path: string) => {
  const [head, ...rows] = readFileSync(path, 'utf8').trim().split('\n').map((l) => l.split(','));
  return rows.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ''])));
};

describe('npm run cli -- report', () => {
  let dir: string;
  const traces = new Map<string, TraceEvent[]>();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'educlaw-report-'));
    mkdirSync(join(dir, 'traces'));
    for (const tutor of ['planner', 'withholder']) {
      for (const seed of [1, 2, 3]) {
        const r = await runWith(miniScenario(), tutor, { seed });
        traces.set(`${tutor}-${seed}`, r.events);
        writeFileSync(join(dir, 'traces', `mini__${tutor}__s${seed}.jsonl`), toJsonl(r.events));
      }
    }
    // The same run again in a subdirectory (as a judged copy would be): counted once.
    mkdirSync(join(dir, 'copies'));
    writeFileSync(join(dir, 'copies', 'planner-1.jsonl'), toJsonl(traces.get('planner-1')!));
  });

  it('writes Markdown with SVG plots, HTML, a CSV per table and report.json, with the traces\' numbers', async () => {
    // --controls runs each run's no-tutor control and oracle reference once (cached in a dot directory the report does not search)
    const r = await cli([dir, '--format', 'both', '--controls', '--control-cache', join(dir, '.controls')]);
    expect(r.stderr).toContain('is in');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('ran 6 yardstick runs (no-tutor controls and oracle references on the same students');
    expect(r.stdout).toMatch(/^12 runs of 4 tutors -> .*report: report\.md, report\.html, report\.json, \d+ CSV tables, \d+ SVG plots/);
    const out = join(dir, 'report');
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(json.command).toBe(`npm run cli -- report ${dir} --controls --control-cache ${join(dir, '.controls')} --format both --pass 'valueAdded > 0.0005 && leakage == 0'`);
    expect(json.traces).toHaveLength(12);
    // the cached yardsticks: one silent and one oracle run per seed, on the same student as the tutors' runs of that seed
    const controls = new Map<number, TraceEvent[]>();
    const oracles = new Map<number, TraceEvent[]>();
    for (const f of readdirSync(join(dir, '.controls'))) {
      const ev = parseJsonl(readFileSync(join(dir, '.controls', f), 'utf8'), f).events;
      const start = ev[0]!;
      if (start.type === 'run_start') (start.tutor.name === 'oracle' ? oracles : controls).set(start.scenario.seed, ev);
    }
    expect([...controls.keys()].sort()).toEqual([1, 2, 3]);
    expect([...oracles.keys()].sort()).toEqual([1, 2, 3]);
    // the steady-learning reference: each run's share of the oracle's gain on its student
    const shares = (tutor: string) =>
      [1, 2, 3].map((s) => {
        const c = scoreTrace(traces.get(`${tutor}-${s}`)!).curve;
        const o = scoreTrace(oracles.get(s)!).curve;
        const last = c[c.length - 1]!;
        return (last.solveRate - c[0]!.solveRate) / (o.find((p) => p.day === last.day)!.solveRate - c[0]!.solveRate);
      });
    const summary = csv(join(out, 'csv', 'curve-summary.csv'));
    for (const tutor of ['planner', 'withholder']) {
      const row = summary.find((x) => x.tutor === tutor)!;
      expect(Number(row.reference_share_mean)).toBeCloseTo(shares(tutor).reduce((a, b) => a + b, 0) / 3, 12);
      expect(row.no_reference).toBe('');
    }
    expect(Number(summary.find((x) => x.tutor === 'oracle')!.reference_share_mean)).toBeCloseTo(1, 12);

    // every plot the Markdown links is an accessible SVG file, and the HTML has it inline
    const svgs = [...md.matchAll(/\]\((svg\/[^)]+\.svg)\)/g)].map((m) => m[1]!);
    expect(svgs.length).toBeGreaterThanOrEqual(5);
    expect(svgs).toContain('svg/solve-rate-curves.svg');
    for (const s of svgs) {
      const text = readFileSync(join(out, s), 'utf8');
      expect(text).toMatch(/^<svg [^>]*role="img" aria-label="[^"]+"><title>[^<]+<\/title><desc>/);
    }
    expect((html.match(/<figure id="plot-[^"]+"><svg /g) ?? []).length).toBe(svgs.length);
    // every CSV the Markdown links exists
    const csvs = [...md.matchAll(/\]\((csv\/[^)]+\.csv)\)/g)].map((m) => m[1]!);
    expect(csvs.sort()).toEqual(readdirSync(join(out, 'csv')).map((f) => `csv/${f}`).sort());

    // the numbers: learning gain per tutor is the mean of the traces' own scores
    const gains = (tutor: string) => [1, 2, 3].map((s) => scoreTrace(traces.get(`${tutor}-${s}`)!).learningGain!);
    const axes = csv(join(out, 'csv', 'axes-by-tutor.csv'));
    for (const tutor of ['planner', 'withholder']) {
      const row = axes.find((x) => x.tutor === tutor && x.axis === 'learningGain')!;
      const g = gains(tutor);
      expect(Number(row.mean)).toBeCloseTo(g.reduce((a, b) => a + b, 0) / 3, 12);
      expect(row.n).toBe('3');
      const help = axes.find((x) => x.tutor === tutor && x.axis === 'helpfulness')!;
      expect(help.mean).toBe('');
      expect(help.unscored_reasons).toBe('no judge panel has judged the run (3 runs)');
      // pass^1 over the one task is the share of seeds that pass (value added over the cached control > 0.0005, no leak)
      const passes = [1, 2, 3].filter((s) => {
        const rep = withControl(scoreTrace(traces.get(`${tutor}-${s}`)!), scoreTrace(controls.get(s)!));
        return rep.valueAdded!.value! > 0.0005 && rep.leakage === 0;
      }).length;
      const pk = csv(join(out, 'csv', 'pass-k-seeds.csv')).find((x) => x.tutor === tutor && x.k === '1')!;
      expect(Number(pk.mean)).toBeCloseTo(passes / 3, 12);
      // three seeds: k runs to 3, over the same task
      expect(csv(join(out, 'csv', 'pass-k-seeds.csv')).find((x) => x.tutor === tutor && x.k === '4')).toBeUndefined();
    }
    expect(csv(join(out, 'csv', 'runs.csv'))).toHaveLength(12);
    expect(md).toContain('| planner | 3 |');
    expect(md).toContain('Answer holding (panel): unscored for oracle, planner, silent and withholder: no judge panel has judged the run (3 runs).');
    // the day-by-day curve: 3 days and day 0, per tutor
    expect(csv(join(out, 'csv', 'solve-rate-by-day.csv')).filter((x) => x.tutor === 'planner').map((x) => x.day)).toEqual(['0', '1', '2', '3']);
  });

  it('takes trace files, a pass rule and an output directory; refuses a bad rule', async () => {
    const out = join(dir, 'elsewhere');
    const r = await cli([join(dir, 'traces', 'mini__planner__s1.jsonl'), join(dir, 'traces', 'mini__planner__s2.jsonl'), '--out', out, '--pass', 'responsiveness >= 0.5']);
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'report.md'))).toBe(true);
    expect(existsSync(join(out, 'report.html'))).toBe(false);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('`responsiveness >= 0.5`');
    const bad = await cli([dir, '--out', out, '--pass', 'gain > 0']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/unknown axis "gain"/);
  });
});
