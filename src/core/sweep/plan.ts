/**
 * The job list of a sweep: seed lists as people type them, and every scenario × seed as a run
 * record. Pure; how the jobs are executed is the adapters' business.
 */
import type { Scenario } from '../scenario/schema';
import { runIdOf, runRecord, type RunRecord, type RunRecordInput } from '../engine/record';

export interface SweepJob {
  /** Position in the sweep (scenario-major, then seed). */
  index: number;
  runId: string;
  /** The run, as data: what a worker (a thread, a page slot, a queue job) hands to executeRun. */
  record: RunRecord;
}

/** What every run of a sweep shares: the tutor and its config, the voice, and the overrides (learner model, ability, days, coupling, chat instruction). */
export type SweepBase = Pick<RunRecordInput, 'tutor' | 'voice' | 'tracer' | 'ability' | 'horizonDays' | 'coupling' | 'chatInstruction'>;

/** Parses "42", "1,2,3", "1-5" or "1-3,10" into a list of distinct seeds in the order given. */
export function parseSeedList(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!m) throw new Error(`seeds: "${part}" is not a seed or a range like 1-5`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new Error(`seeds: range "${part}" runs backwards`);
    if (b - a > 10_000) throw new Error(`seeds: range "${part}" is too long`);
    for (let s = a; s <= b; s++) {
      if (s > 2 ** 32 - 1) throw new Error(`seeds: ${s} is above 2^32-1`);
      if (!out.includes(s)) out.push(s);
    }
  }
  if (out.length === 0) throw new Error('seeds: the list is empty');
  return out;
}

/** Every scenario × seed as run records; `seeds` null runs each scenario with its own seed. Scenario ids must be unique. */
export function planSweep(scenarios: readonly { scenario: Scenario; source: string }[], base: SweepBase, seeds: readonly number[] | null): SweepJob[] {
  const seen = new Map<string, string>();
  for (const { scenario, source } of scenarios) {
    const prev = seen.get(scenario.id);
    if (prev !== undefined) throw new Error(`two scenarios have the id "${scenario.id}" (${prev} and ${source}); run ids would collide`);
    seen.set(scenario.id, source);
  }
  const jobs: SweepJob[] = [];
  for (const { scenario, source } of scenarios) {
    for (const seed of seeds ?? [scenario.seed]) {
      const record = runRecord({ ...base, scenario, source, seed });
      jobs.push({ index: jobs.length, runId: runIdOf(record), record });
    }
  }
  return jobs;
}
