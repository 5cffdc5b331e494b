import type { Command } from 'commander';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { calibrationByMode, type CalibrationByMode, type CalibrationReport, type TraceEvent } from '../../core/index';
import { readTraceFile } from '../../adapters/node/files';

function expand(paths: string[]): string[] {
  const files = paths.flatMap((p) => (statSync(p).isDirectory() ? readdirSync(p).filter((n) => n.endsWith('.jsonl')).sort().map((n) => join(p, n)) : [p]));
  // A FIFO or device named *.jsonl would be waited on for ever: refused.
  for (const f of files) if (!statSync(f).isFile()) throw new Error(`${f} is not a regular file (a FIFO, socket or device): refused rather than waiting on it`);
  return files;
}

const f4 = (x: number | null) => (x === null ? 'n/a' : x.toFixed(4));

function reportLines(r: CalibrationReport, indent = '  '): string[] {
  return [
    `${indent}${r.runs} runs, ${r.pairs} (run, day) pairs, ${r.attempts} attempts`,
    `${indent}ECE ${f4(r.ece)}  Brier ${f4(r.brier)}`,
    ...r.bins.filter((b) => b.count).map((b) => `${indent}  ${b.lo.toFixed(1)}–${b.hi.toFixed(1)}: predicted ${b.meanPred.toFixed(3)} → observed ${b.meanObs.toFixed(3)}  (${b.count} pairs)`),
  ];
}

/** The calibration of traces as text: each coupling mode apart, labelled for what it measures, and per student model. */
export function formatCalibration(c: CalibrationByMode): string {
  const out: string[] = [];
  const t = c.tracerDecides;
  if (t.runs > 0) {
    out.push('tracer-decides runs: the tracer against draws from itself (every outcome is drawn from its own P(correct); this measures slips, instruction boosts and sampling noise, not how well the learner model tracks a student)');
    out.push(...reportLines(t));
  }
  const s = c.studentAttempts;
  if (s.all.runs > 0) {
    if (out.length) out.push('');
    out.push("student-attempts runs: predicted mastery against the LLM student's observed accuracy (its written attempts, graded by the answer checker; the paper's check)");
    out.push(...reportLines(s.all));
    for (const m of s.byModel) {
      const g = m.grading;
      out.push('', `  student model ${m.model}: accuracy ${m.accuracy === null ? 'n/a' : `${(100 * m.accuracy).toFixed(1)}%`}; written attempts: ${g.checked} checked, ${g.no_answer} without an answer, ${g.malformed} malformed, ${g.copied_disclosed} copies of a disclosed answer and ${g.after_disclosure} wrong after a disclosure (both left out)`);
      out.push(...reportLines(m.report, '    '));
    }
  }
  if (out.length === 0) out.push('0 runs: no trace had a graded attempt');
  return out.join('\n');
}

export function registerCalibration(program: Command): void {
  program
    .command('calibration')
    .description(
      "Calibration of simulated learners: (run, day) predicted vs observed accuracy of the learner's own attempts (ECE, Brier, reliability bins), for each coupling mode apart: " +
        "tracer-decides runs (the tracer against draws from itself) and student-attempts runs (predicted mastery against the LLM student's observed accuracy, per student model). docs/learning-model.md, \"Coupling\".",
    )
    .argument('<traces...>', 'trace files or directories of .jsonl traces')
    .option('--include-all', 'also count copied answers and guesses')
    .option('--json', 'print JSON: { tracerDecides, studentAttempts: { all, byModel } }')
    .action((paths: string[], o: { includeAll?: boolean; json?: boolean }) => {
      const files = expand(paths);
      if (files.length === 0) throw new Error('no .jsonl traces found');
      // The same run found twice (a trace and its judged copy) counts once, as in `report`: the copy with more events.
      const byRun = new Map<string, { file: string; events: TraceEvent[] }>();
      for (const f of files) {
        const events = readTraceFile(f).events;
        const s = events[0];
        const key = s?.type === 'run_start' ? JSON.stringify([s.runId, s.tutor, s.voice ?? null, s.tracer.name]) : f;
        const prev = byRun.get(key);
        if (prev) console.error(`warning: ${prev.file} and ${f} hold the same run; counted once (${events.length > prev.events.length ? f : prev.file}, more events)`);
        if (!prev || events.length > prev.events.length) byRun.set(key, { file: f, events });
      }
      const r = calibrationByMode(
        [...byRun.values()].map((x) => x.events),
        !!o.includeAll,
      );
      console.log(o.json ? JSON.stringify(r, null, 2) : formatCalibration(r));
    });
}
