import { Option, type Command } from 'commander';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { TUTORS, formatSweepSummary, parseSeedList, type AbilityLevel } from '../../core/index';
import { expandScenarioPaths } from '../../adapters/node/scenario-paths';
import { runNodeSweep } from '../../adapters/node/sweep/run-sweep';
import { progressBar } from '../progress';
import { int } from './common';

export function registerSweep(program: Command): void {
  program
    .command('sweep')
    .description('Run one tutor over every scenario × seed in parallel worker threads; write one trace per run and a summary (per scenario and overall, mean and 95% interval over seeds).')
    .requiredOption('--scenarios <paths...>', 'scenario files, directories, or patterns like "scenarios/*--after-school.yaml"')
    .addOption(new Option('--tutor <name>', 'tutor').choices([...TUTORS.keys()]).makeOptionMandatory())
    .option('--seeds <list>', "seeds, e.g. 42 or 1,2,3 or 1-5 (default: each scenario's own seed)")
    .option('--jobs <n>', 'worker threads (default: the number of CPUs)', int('--jobs'))
    .requiredOption('--out <dir>', 'output directory: traces/<runId>.jsonl, summary.txt, summary.json, timing.json')
    .option('--tracer <name>', "knowledge tracer for every run (default: each scenario's)")
    .addOption(new Option('--ability <level>', "ability level for every run (default: each scenario's)").choices(['low', 'average', 'high']))
    .option('--quiet', 'no progress bar and no table on stdout')
    .action(async (o: { scenarios: string[]; tutor: string; seeds?: string; jobs?: number; out: string; tracer?: string; ability?: AbilityLevel; quiet?: boolean }) => {
      const files = expandScenarioPaths(o.scenarios);
      const seeds = o.seeds ? parseSeedList(o.seeds) : null;
      const threads = Math.max(1, o.jobs ?? availableParallelism());
      const total = files.length * (seeds?.length ?? 1);
      const bar = o.quiet ? null : progressBar(total);
      if (!o.quiet) console.error(`sweep: ${o.tutor} over ${files.length} scenario${files.length === 1 ? '' : 's'} × ${seeds ? `${seeds.length} seed${seeds.length === 1 ? '' : 's'}` : 'their own seeds'} = ${total} runs on ${Math.min(threads, total)} thread${threads === 1 ? '' : 's'}`);
      const res = await runNodeSweep({
        files,
        tutor: o.tutor,
        seeds,
        threads,
        outDir: resolve(o.out),
        ...(o.tracer ? { tracer: o.tracer } : {}),
        ...(o.ability ? { ability: o.ability } : {}),
        onResult: (r, done) => bar?.tick(done, r.error ? `FAILED ${r.job.runId}: ${r.error}` : r.job.runId),
      });
      bar?.end();
      if (!o.quiet) {
        console.log(formatSweepSummary(res.summary));
        const ms = res.results.map((r) => r.ms);
        console.log(`\nwall time ${(res.wallMs / 1000).toFixed(1)} s for ${ms.length} runs on ${Math.min(threads, total)} threads; per run ${(ms.reduce((a, b) => a + b, 0) / ms.length / 1000).toFixed(2)} s mean`);
        console.log(`wrote ${o.out}/traces/ (${res.runs.length} traces), summary.txt, summary.json, timing.json`);
      }
      for (const r of res.results) if (r.error) console.error(`error: ${r.job.runId}: ${r.error}`);
      if (res.summary.failed.length) process.exitCode = 3;
    });
}
