import { Option, type Command } from 'commander';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { AUTOMATED_TUTORS, formatSweepSummary, parseSeedList, type AbilityLevel } from '../../core/index';
import { expandScenarioPaths } from '../../adapters/node/scenario-paths';
import { runNodeSweep } from '../../adapters/node/sweep/run-sweep';
import { progressBar } from '../progress';
import { onStopSignals } from '../signals';
import { int } from './common';
import { addLlmOptions, llmRecordParts, type LlmCliOptions } from './llm-options';

interface SweepCliOptions extends LlmCliOptions {
  scenarios: string[];
  tutor: string;
  seeds?: string;
  jobs?: number;
  out: string;
  tracer?: string;
  ability?: AbilityLevel;
  horizon?: number;
  resume?: boolean;
  quiet?: boolean;
}

export function registerSweep(program: Command): void {
  const cmd = program
    .command('sweep')
    .description('Run one tutor over every scenario × seed in parallel worker threads; write one trace per run (appended as it runs) and a summary (per scenario and overall, mean and 95% interval over seeds).\n\nCtrl-C (or SIGTERM, SIGHUP) stops the sweep: runs in flight keep their partial traces, and the same command with --resume continues it. The exit code is 3 when any run failed or did not reach its horizon.')
    .requiredOption('--scenarios <paths...>', 'scenario files, directories, or patterns like "scenarios/*--after-school.yaml"')
    .addOption(new Option('--tutor <name>', 'tutor').choices([...AUTOMATED_TUTORS]).makeOptionMandatory())
    .option('--seeds <list>', "seeds, e.g. 42 or 1,2,3 or 1-5 (default: each scenario's own seed)")
    .option('--jobs <n>', 'worker threads (default: the number of CPUs)', int('--jobs'))
    .requiredOption('--out <dir>', 'output directory: traces/<runId>.jsonl, summary.txt, summary.json, timing.json')
    .option('--tracer <name>', "knowledge tracer for every run (default: each scenario's)")
    .addOption(new Option('--ability <level>', "ability level for every run (default: each scenario's)").choices(['low', 'average', 'high']))
    .option('--horizon <days>', "days per run (default: each scenario's)", int('--horizon'))
    .option('--resume', 'continue the sweep in --out (give the same options): keep complete traces, resume partial ones, run missing ones')
    .option('--quiet', 'no progress bar and no table on stdout');
  addLlmOptions(cmd).action(async (o: SweepCliOptions) => {
    const files = expandScenarioPaths(o.scenarios);
    const seeds = o.seeds ? parseSeedList(o.seeds) : null;
    const threads = Math.max(1, o.jobs ?? availableParallelism());
    const llm = llmRecordParts(o.tutor, o);
    const total = files.length * (seeds?.length ?? 1);
    const bar = o.quiet ? null : progressBar(total);
    if (!o.quiet) console.error(`sweep: ${o.tutor} over ${files.length} scenario${files.length === 1 ? '' : 's'} × ${seeds ? `${seeds.length} seed${seeds.length === 1 ? '' : 's'}` : 'their own seeds'} = ${total} runs on ${Math.min(threads, total)} thread${threads === 1 ? '' : 's'}${o.resume ? ' (resuming)' : ''}`);
    // A stop signal cancels the runs in flight; their traces stay partial and `sweep --resume` continues them.
    const ac = new AbortController();
    const off = onStopSignals(() => ac.abort());
    let res;
    try {
      res = await runNodeSweep({
        files,
        base: {
          tutor: { name: o.tutor, config: llm.tutorConfig },
          voice: llm.voice,
          ...(o.tracer ? { tracer: o.tracer } : {}),
          ...(o.ability ? { ability: o.ability } : {}),
          ...(o.horizon !== undefined ? { horizonDays: o.horizon } : {}),
        },
        seeds,
        threads,
        outDir: resolve(o.out),
        ...(o.resume ? { resume: true } : {}),
        llmConfig: o.llmConfig ?? [],
        signal: ac.signal,
        onResult: (r, done) => bar?.tick(done, r.error ? `FAILED ${r.job.runId}: ${r.error}` : `${r.job.runId}${r.skipped ? ' (complete, kept)' : r.replayed ? ` (resumed after ${r.replayed} events)` : ''}`),
      });
    } finally {
      off();
    }
    bar?.end();
    if (!o.quiet) {
      console.log(formatSweepSummary(res.summary));
      const ran = res.results.filter((r) => !r.skipped);
      const ms = ran.map((r) => r.ms);
      const kept = res.results.length - ran.length;
      console.log(`\nwall time ${(res.wallMs / 1000).toFixed(1)} s for ${ms.length} runs on ${Math.min(threads, Math.max(1, ms.length))} threads${ms.length ? `; per run ${(ms.reduce((a, b) => a + b, 0) / ms.length / 1000).toFixed(2)} s mean` : ''}${kept ? `; ${kept} complete runs kept from the earlier sweep` : ''}`);
      console.log(`wrote ${o.out}/traces/ (${res.runs.length} of ${res.results.length} runs finished), summary.txt, summary.json, timing.json`);
    }
    for (const r of res.results) if (r.error) console.error(`error: ${r.job.runId}: ${r.error}`);
    if (ac.signal.aborted) console.error(`stopped; continue with: npm run cli -- sweep ${process.argv.slice(3).filter((a) => a !== '--resume').join(' ')} --resume`);
    if (res.summary.failed.length) process.exitCode = 3;
  });
}
