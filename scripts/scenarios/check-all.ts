/**
 * `npm run scenarios:check`: every library scenario loads, runs the full horizon with each of the
 * three built-in tutors (answer-giver, withholder, planner) and yields the deterministic axes.
 * Exits 1 when any run falls short. Prints one line per tutor with the overall axis means.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { SWEEP_AXES, libraryEntries, type SweepAxis } from '../../src/core/index';
import { ROOT } from '../../src/adapters/node/files';
import { runNodeSweep } from '../../src/adapters/node/sweep/run-sweep';

const TUTORS = ['answer-giver', 'withholder', 'planner'];
const files = libraryEntries().map((e) => resolve(ROOT, 'scenarios', e.file));
const threads = Number(process.env.JOBS ?? availableParallelism());
let bad = 0;
for (const tutor of TUTORS) {
  const res = await runNodeSweep({ files, base: { tutor: { name: tutor, config: {} } }, seeds: null, threads, outDir: null });
  const problems: string[] = [];
  for (const r of res.results) {
    const s = r.summary;
    if (!s) problems.push(`${r.job.runId}: ${r.error}`);
    else if (s.endReason !== 'horizon_reached') problems.push(`${s.runId}: ended ${s.endReason}`);
    else if (typeof s.axes.learningGain !== 'number') problems.push(`${s.runId}: no learning gain`);
    else if (s.axes.responsiveness === null && s.activity.helpRequests > 0) problems.push(`${s.runId}: help requests but no responsiveness`);
  }
  bad += problems.length;
  const scored = (k: SweepAxis) => res.runs.filter((r) => r.axes[k] !== null).length;
  console.log(
    `${tutor.padEnd(12)} ${res.runs.length}/${files.length} runs reached day 30 in ${(res.wallMs / 1000).toFixed(1)} s; ` +
      SWEEP_AXES.map((a) => `${a.short} ${a.formatStat({ ...res.summary.overall[a.id], lo: null, hi: null })} (${scored(a.id)} runs scored)`).join('; '),
  );
  for (const p of problems) console.error(`  problem: ${p}`);
}
if (bad) {
  console.error(`${bad} problem(s)`);
  process.exitCode = 1;
} else console.log(`all ${files.length} library scenarios ran 30 days with ${TUTORS.join(', ')} and yielded the deterministic axes`);
