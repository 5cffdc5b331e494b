/**
 * From a number in the results to the runs behind it: the failing tasks of pass^k with their
 * failed runs, the runs in each failure mode, and the runs of a table's tutor row. Pure functions
 * of the report's analyses and the digests it was built from; BenchmarkResults lays them out and
 * the view that shows the results opens the runs (one in the Lab's trace viewer, several in Runs).
 */
import { scenarioLabel } from '../../../core/index';
import { ALL_RUNS, FAILURE_MODES, attachControls, failureVerdicts, type FailureModeId, type FailureRow, type PassKResult, type ReportTable, type RunDigest, type TrialsOver } from '../../../core/analysis/index';

export interface FailingTask {
  over: TrialsOver;
  tutor: string;
  /** The task as people read it: its scenario by name ("adversarial · after-school · bkt · average · voice templates"). */
  label: string;
  n: number;
  c: number;
  runIds: string[];
}

/** A task key starts with its scenario id (pass-k.ts taskKey): show the scenario by name. */
function taskLabel(task: string, digest: RunDigest | undefined): string {
  if (digest && task.startsWith(digest.scenarioId)) return scenarioLabel(digest.scenarioId) + task.slice(digest.scenarioId.length);
  return task;
}

/** Every task with at least one failed trial, per view of pass^k, tutor by tutor. */
export function failingTasks(passK: readonly PassKResult[], digests: readonly RunDigest[]): FailingTask[] {
  const byId = new Map(digests.map((d) => [d.runId, d]));
  return passK.flatMap((r) => r.tutors.flatMap((t) => t.tasks.filter((x) => x.failed.length > 0).map((x) => ({ over: r.over, tutor: t.tutor, label: taskLabel(x.task, byId.get(x.failed[0]!)), n: x.n, c: x.c, runIds: [...x.failed] }))));
}

export interface ModeRuns {
  tutor: string;
  mode: FailureModeId;
  label: string;
  /** Runs that fail the mode. */
  runIds: string[];
  /** Runs where the mode is decided. */
  decided: number;
}

/**
 * Per tutor (in the order of the report's failure-mode table) and failure mode: the runs that fail
 * it. The digests are paired with their no-tutor controls first, as the report does (value added).
 */
export function failureModeRuns(rows: readonly FailureRow[], digests: readonly RunDigest[]): ModeRuns[] {
  const verdicts = attachControls(digests).map((d) => ({ d, v: failureVerdicts(d) }));
  return rows
    .filter((r) => r.group !== ALL_RUNS)
    .flatMap(({ group: tutor }) =>
      FAILURE_MODES.map((m) => {
        const mine = verdicts.filter((x) => x.d.tutor === tutor);
        const decided = mine.filter((x) => 'failed' in x.v[m.id]);
        return { tutor, mode: m.id, label: m.label, runIds: decided.filter((x) => (x.v[m.id] as { failed: boolean }).failed).map((x) => x.d.runId), decided: decided.length };
      }),
    );
}

/**
 * The runs behind a row of a report table whose rows are tutors (first column "Tutor", each tutor
 * once): the tutor's runs, or every run for the "all runs" row. Null for other tables and rows (a
 * pair of tutors, an axis, a tutor split by voice): they have no single set of runs to open.
 */
export function rowRunsOf(table: ReportTable, digests: readonly RunDigest[]): ((row: readonly string[]) => string[] | null) | null {
  if (table.csvOnly || table.head[0] !== 'Tutor') return null;
  const firsts = table.rows.map((r) => r[0]);
  if (new Set(firsts).size !== firsts.length) return null;
  const byTutor = new Map<string, string[]>();
  for (const d of digests) byTutor.set(d.tutor, [...(byTutor.get(d.tutor) ?? []), d.runId]);
  return (row) => {
    const first = row[0];
    if (first === ALL_RUNS) return digests.map((d) => d.runId);
    return first !== undefined ? (byTutor.get(first) ?? null) : null;
  };
}

/** A drill-down button's words for `n` runs: "Open the run", "Open 3 runs"; `failed` says they are failed trials. */
export function openRunsText(n: number, failed = false): string {
  if (failed) return n === 1 ? 'Open the failed run' : `Open the ${n} failed runs`;
  return n === 1 ? 'Open the run' : `Open ${n} runs`;
}
