/**
 * Coupling "student-attempts" and several student models from the command line, against the
 * scripted server (src/testing/scripted-student.ts): `sweep --coupling student-attempts` with two
 * `--voice-model`s runs every run once per student model, records the mode in run_start and
 * reports each tutor once per voice; `calibration` reports those runs per student model, apart from
 * tracer-decides runs; the results report breaks the axes down by student model and computes
 * pass^k across voices; `run` refuses the mode without an LLM student and records --chat-instruction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBenchmarkReport, calibrationByMode, parseJsonl, runRecord, toJsonl, type TraceEvent } from '../core/index';
import { MINI_PATH, miniScenario, onBkt, runWith } from '../testing/fixtures';
import { startMockOpenAi, type MockServer } from '../testing/mock-openai-server';
import { itemsByStem, scriptedStudentHandler } from '../testing/scripted-student';
import { formatCalibration } from './commands/calibration';
import { learnerParts } from './commands/llm-options';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], (e, stdout, stderr) => resolve({ code: e ? ((e as { code?: number }).code ?? -1) : 0, stdout, stderr }));
  });
}

let srv: MockServer;
let dir: string;
let cfg: string;
beforeAll(async () => {
  const items = itemsByStem(runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'withholder', config: {} }, seed: 1 }));
  srv = await startMockOpenAi(scriptedStudentHandler(items));
  dir = mkdtempSync(join(tmpdir(), 'educlaw-student-cli-'));
  cfg = join(dir, 'llm.yaml');
  writeFileSync(cfg, `providers:\n  - name: local\n    baseURL: ${srv.url}\n    backoffMs: 5\n`);
});
afterAll(() => srv?.close());

const VOICES = ['llm:local/student-calibrated', 'llm:local/student-overconfident'];

describe('student-attempts and several student models in the CLI', () => {
  it('sweep: one run per student model, the mode in run_start, the summary per tutor and voice; calibration per student model; the report by student model with pass^k across voices', async () => {
    const out = join(dir, 'sweep');
    const r = await cli(['sweep', '--scenarios', MINI_PATH, '--tutor', 'withholder', '--seeds', '1', '--horizon', '2', '--tracer', 'bkt', '--voice', 'llm', '--voice-model', 'student-calibrated', '--voice-model', 'student-overconfident', '--coupling', 'student-attempts', '--llm-config', cfg, '--out', out]);
    expect(r.stderr).toMatch(/× 2 student voices \(student-calibrated, student-overconfident\)/);
    expect(r.stderr).toMatch(/attempts written by the LLM student/);
    expect(r.code).toBe(0);
    const files = readdirSync(join(out, 'traces')).sort();
    expect(files).toEqual(['mini-3day__withholder__s1__voice-student-calibrated.jsonl', 'mini-3day__withholder__s1__voice-student-overconfident.jsonl']);
    const traces = files.map((f) => parseJsonl(readFileSync(join(out, 'traces', f), 'utf8')).events);
    for (const [i, t] of traces.entries()) {
      const start = t[0]!;
      expect(start.type === 'run_start' && [start.scenario.learner.coupling, start.voice]).toEqual(['student-attempts', VOICES[i]]);
      expect(t.some((e) => e.type === 'attempt' && e.student?.grading === 'checked')).toBe(true);
    }
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { voices: string[]; summary: { byTutor: { tutor: string; runs: number }[] } };
    expect(summary.voices).toEqual(VOICES);
    expect(summary.summary.byTutor.map((t) => [t.tutor, t.runs])).toEqual(VOICES.map((v) => [`withholder · ${v}`, 1]));

    // calibration: the student-attempts runs per student model, and a tracer-decides run apart, labelled.
    const plain = await runWith(miniScenario(), 'withholder', { seed: 1, horizonDays: 2 });
    writeFileSync(join(out, 'traces', 'tracer-decides.jsonl'), toJsonl(plain.events));
    const c = await cli(['calibration', join(out, 'traces')]);
    expect(c.code).toBe(0);
    expect(c.stdout).toMatch(/^tracer-decides runs: the tracer against draws from itself/);
    expect(c.stdout).toMatch(/student-attempts runs: predicted mastery against the LLM student's observed accuracy/);
    for (const v of VOICES) expect(c.stdout).toMatch(new RegExp(`student model ${v.replace('/', '\\/')}: accuracy \\d+\\.\\d%; written attempts: \\d+ checked`));
    expect(c.stdout).toBe(`${formatCalibration(calibrationByMode([...traces, plain.events]))}\n`);

    // The results report: axes per tutor and student model, pass^k across voices.
    const report = buildBenchmarkReport(traces.map((events: TraceEvent[]) => ({ events })));
    expect(report.analyses.byVoice.map((v) => [v.tutor, v.voice, v.runs])).toEqual(VOICES.map((v) => ['withholder', v, 1]));
    expect(report.sections.map((s) => s.id)).toContain('by-voice');
    expect(report.analyses.passK.map((p) => p.over)).toEqual(['voices', 'seeds', 'runs']);
  }, 90_000);

  it('run: student-attempts without an LLM student is refused; --chat-instruction is recorded in run_start', async () => {
    // (the check run and sweep make before anything runs)
    expect(() => learnerParts({ coupling: 'student-attempts', voice: 'templates' })).toThrow(/--coupling student-attempts needs an LLM student: --voice llm --voice-model <model>/);
    expect(learnerParts({ voice: 'templates' })).toEqual({});
    const trace = join(dir, 'chat.jsonl');
    const ok = await cli(['run', '--scenario', MINI_PATH, '--tutor', 'withholder', '--tracer', 'bkt', '--horizon', '1', '--chat-instruction', '--quiet', '--out', trace]);
    expect(ok.code).toBe(0);
    const start = parseJsonl(readFileSync(trace, 'utf8')).events[0]!;
    expect(start.type === 'run_start' && start.scenario.learner.chatInstruction).toBe(true);
  }, 60_000);
});
