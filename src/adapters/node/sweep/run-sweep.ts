/**
 * A sweep from files: loads and validates every scenario first (all problems reported together,
 * with file, field and line), plans scenario × seed jobs, runs them in worker threads, and
 * optionally writes <out>/traces/<runId>.jsonl, <out>/summary.json and <out>/summary.txt.
 * summary.json and summary.txt depend only on the inputs (no wall-clock times); timings go to
 * <out>/timing.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ScenarioError, formatSweepSummary, planSweep, summarizeSweep, type AbilityLevel, type RunSummary, type Scenario, type SweepJob, type SweepSummary } from '../../../core/index';
import { loadScenarioFile } from '../files';
import { runJobs, type JobResult } from './pool';

export interface NodeSweepOptions {
  files: readonly string[];
  tutor: string;
  /** null: each scenario's own seed. */
  seeds: readonly number[] | null;
  threads: number;
  /** Output directory; null writes nothing (summaries only). */
  outDir: string | null;
  /** Overrides applied to every scenario. */
  tracer?: string;
  ability?: AbilityLevel;
  horizonDays?: number;
  onResult?: (r: JobResult, done: number, total: number) => void;
}

export interface NodeSweepResult {
  jobs: SweepJob[];
  results: JobResult[];
  runs: RunSummary[];
  summary: SweepSummary;
  wallMs: number;
}

export function loadScenarios(files: readonly string[]): { scenario: Scenario; source: string }[] {
  const out: { scenario: Scenario; source: string }[] = [];
  const problems: string[] = [];
  for (const f of files) {
    try {
      out.push({ scenario: loadScenarioFile(f), source: relative(process.cwd(), f) || f });
    } catch (e) {
      problems.push(e instanceof ScenarioError ? e.message : `${f}: ${(e as Error).message}`);
    }
  }
  if (problems.length) throw new Error(`${problems.length} scenario file${problems.length === 1 ? '' : 's'} invalid; nothing was run:\n${problems.join('\n')}`);
  return out;
}

export async function runNodeSweep(o: NodeSweepOptions): Promise<NodeSweepResult> {
  const loaded = loadScenarios(o.files).map(({ scenario, source }) => {
    const s = structuredClone(scenario);
    if (o.tracer) s.learner.tracer = o.tracer;
    if (o.ability) s.learner.ability = o.ability;
    if (o.horizonDays !== undefined) {
      s.horizonDays = o.horizonDays;
      if (Array.isArray(s.probes.days)) s.probes.days = s.probes.days.filter((d) => d <= o.horizonDays!);
    }
    return { scenario: s, source };
  });
  const jobs = planSweep(loaded, o.tutor, o.seeds);
  const traceDir = o.outDir ? join(o.outDir, 'traces') : null;
  if (traceDir) mkdirSync(traceDir, { recursive: true });
  const t0 = performance.now();
  const results = await runJobs(jobs, { threads: o.threads, traceDir, ...(o.onResult ? { onResult: o.onResult } : {}) });
  const wallMs = performance.now() - t0;
  const runs = results.flatMap((r) => (r.summary ? [r.summary] : []));
  const summary = summarizeSweep(runs);
  for (const r of results) if (!r.summary) summary.failed.push({ runId: r.job.runId, endReason: null });
  if (o.outDir) {
    const errors = results.filter((r) => r.error).map((r) => ({ runId: r.job.runId, error: r.error }));
    writeFileSync(join(o.outDir, 'summary.json'), JSON.stringify({ tutor: o.tutor, seeds: o.seeds, scenarios: loaded.map((l) => l.source), summary, runs, errors }, null, 2) + '\n');
    writeFileSync(join(o.outDir, 'summary.txt'), formatSweepSummary(summary) + '\n');
    writeFileSync(join(o.outDir, 'timing.json'), JSON.stringify({ threads: o.threads, wallMs: Math.round(wallMs), runs: results.map((r) => ({ runId: r.job.runId, ms: Math.round(r.ms) })) }, null, 2) + '\n');
  }
  return { jobs, results, runs, summary, wallMs };
}
