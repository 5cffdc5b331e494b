import { Option, type Command } from 'commander';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { AUTOMATED_TUTORS, TRACER_NAMES, formatSweepSummary, parseSeedList, tutorLabel, warningLines, type AbilityLevel } from '../../core/index';
import { expandScenarioPaths } from '../../adapters/node/scenario-paths';
import { DEFAULT_LLM_CONCURRENCY, needsModelClient, runNodeSweep } from '../../adapters/node/sweep/run-sweep';
import { progressBar } from '../progress';
import { onStopSignals } from '../signals';
import { int } from './common';
import { addLlmOptions, collectTutor, learnerParts, sweepTutors, type SweepLlmCliOptions } from './llm-options';
import { addAgentOptions, agentTutorConfigs, hasAgentOptions, type AgentCliOptions } from './agent-options';
import { addQueueSweepOptions, queueStatusCommand, runQueuedSweep, type QueueSweepCliOptions } from './sweep-queue';
import { addKtRuntimeOption } from './kt-runtime';

interface SweepCliOptions extends SweepLlmCliOptions, AgentCliOptions, QueueSweepCliOptions {
  scenarios: string[];
  tutor: string[];
  seeds?: string;
  jobs?: number;
  concurrency: number;
  out: string;
  tracer?: string;
  ability?: AbilityLevel;
  horizon?: number;
  resume?: boolean;
  quiet?: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const positive = (name: string) => (v: string): number => {
  const n = int(name)(v);
  if (n < 1) throw new Error(`${name} must be at least 1, got "${v}"`);
  return n;
};

export function registerSweep(program: Command): void {
  const cmd = program
    .command('sweep')
    .description(
      'Run tutors over every scenario × seed; write one trace per run (appended as it runs) and a summary (per tutor: per scenario and overall, mean and 95% interval over seeds).\n\n' +
        'Several tutors make a benchmark: --tutor is repeatable, and an LLM tutor runs once per --model × --harness (e.g. --tutor planner --tutor llm --model a --model b --harness reactive --harness notes: 5 tutors). ' +
        'Built-in tutors with the template voice are CPU-bound and run in worker threads (--jobs); runs that wait on a model (an LLM tutor, or --voice llm) run as async runs in this process, --concurrency at once, under one limit per provider (its maxConcurrency, and maxRequestsPerMinute if set) shared by all of them.\n\n' +
        'Ctrl-C (or SIGTERM, SIGHUP) stops the sweep: runs in flight keep their partial traces, and the same command with --resume continues it. The exit code is 3 when any run failed or did not reach its horizon.',
    )
    .option('--scenarios <paths...>', 'scenario files, directories, or patterns like "scenarios/*--after-school.yaml"')
    .addOption(new Option('--tutor <name>', `tutor; repeatable (choices: ${AUTOMATED_TUTORS.join(', ')})`).argParser(collectTutor))
    .option('--seeds <list>', "seeds, e.g. 42 or 1,2,3 or 1-5 (default: each scenario's own seed)")
    .option('--jobs <n>', 'worker threads for CPU-bound runs (built-in tutors, template voice; default: the number of CPUs)', int('--jobs'))
    .option('--concurrency <n>', `runs that wait on a model (LLM tutor or voice) at once, as async runs in this process; the provider's maxConcurrency bounds their calls in flight`, positive('--concurrency'), DEFAULT_LLM_CONCURRENCY)
    .option('--out <dir>', 'output directory: traces/<runId>.jsonl, summary.txt, summary.json, timing.json')
    .addOption(new Option('--tracer <name>', "knowledge tracer for every run (default: each scenario's)").choices([...TRACER_NAMES]))
    .addOption(new Option('--ability <level>', "ability level for every run (default: each scenario's)").choices(['low', 'average', 'high']))
    .option('--horizon <days>', "days per run (default: each scenario's)", int('--horizon'))
    .option('--resume', 'continue the sweep in --out (give the same options): keep complete traces, resume partial ones, run missing ones')
    .option('--quiet', 'no progress bar and no table on stdout');
  addQueueSweepOptions(addAgentOptions(addLlmOptions(addKtRuntimeOption(cmd), { repeatable: true }), { repeatable: true })).action(async (o: SweepCliOptions) => {
    // --status reads a queue-backed sweep's progress and needs nothing else; every other sweep needs these three.
    if (o.status) return queueStatusCommand(o);
    for (const flags of ['--scenarios <paths...>', '--tutor <name>', '--out <dir>']) {
      const opt = cmd.options.find((x) => x.flags === flags)!;
      if (cmd.getOptionValue(opt.attributeName()) === undefined) cmd.error(`error: required option '${flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' });
    }
    const files = expandScenarioPaths(o.scenarios);
    const seeds = o.seeds ? parseSeedList(o.seeds) : null;
    const threads = Math.max(1, o.jobs ?? availableParallelism());
    const planned = sweepTutors(o.tutor, o);
    const { voices } = planned;
    const learner = learnerParts(o);
    // An agent behind a URL (--tutor http): one tutor per --agent-url, named by its hello.
    if (!o.tutor.includes('http') && hasAgentOptions(o)) throw new Error('the --agent-* options are for --tutor http');
    const agents = o.tutor.includes('http') ? await agentTutorConfigs(o) : [];
    const tutors = planned.tutors.flatMap((t) => (t.name === 'http' ? agents.map((config) => ({ name: 'http', config: { ...config } as Record<string, unknown> })) : [t]));
    const perTutor = files.length * (seeds?.length ?? 1);
    const total = tutors.length * voices.length * perTutor;
    const modelRuns = tutors.reduce((n, t) => n + voices.filter((voice) => needsModelClient({ tutor: t, voice })).length, 0) * perTutor;
    const cpuRuns = total - modelRuns;
    const base = {
      voice: voices[0]!,
      ...learner,
      ...(o.tracer ? { tracer: o.tracer } : {}),
      ...(o.ability ? { ability: o.ability } : {}),
      ...(o.horizon !== undefined ? { horizonDays: o.horizon } : {}),
    };
    // --queue: enqueue the runs for workers on any machine (npm run worker), wait, collect the summary.
    if (o.queue) return runQueuedSweep(o, { files, base, tutors, voices, seeds, total });
    const bar = o.quiet ? null : progressBar(total);
    if (!o.quiet) {
      const how = [...(cpuRuns ? [`${plural(cpuRuns, 'run')} on ${plural(Math.min(threads, cpuRuns), 'thread')}`] : []), ...(modelRuns ? [`${plural(modelRuns, 'LLM run')} ${Math.min(o.concurrency, modelRuns)} at a time`] : [])].join(', ');
      const studentPart = voices.length > 1 ? ` × ${plural(voices.length, 'student voice')} (${voices.map((v) => (v.kind === 'llm' ? v.model : 'templates')).join(', ')})` : '';
      const mode = learner.coupling === 'student-attempts' ? ', attempts written by the LLM student (coupling student-attempts)' : '';
      console.error(`sweep: ${tutors.map((t) => tutorLabel(t)).join(', ')} over ${plural(files.length, 'scenario')}${studentPart} × ${seeds ? plural(seeds.length, 'seed') : 'their own seeds'} = ${plural(total, 'run')}: ${how}${mode}${o.resume ? ' (resuming)' : ''}`);
    }
    // A stop signal cancels the runs in flight; their traces stay partial and `sweep --resume` continues them.
    const ac = new AbortController();
    const off = onStopSignals(() => ac.abort());
    let res;
    try {
      res = await runNodeSweep({
        files,
        base,
        tutors,
        voices,
        seeds,
        threads,
        concurrency: o.concurrency,
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
      const ranModel = ran.filter((r) => needsModelClient(r.job.record)).length;
      const ranCpu = ran.length - ranModel;
      const where = [...(ranCpu ? [`${ranCpu} on ${plural(Math.min(threads, ranCpu), 'thread')}`] : []), ...(ranModel ? [`${ranModel} LLM runs ${Math.min(o.concurrency, ranModel)} at a time`] : [])].join(', ');
      console.log(`\nwall time ${(res.wallMs / 1000).toFixed(1)} s for ${plural(ms.length, 'run')}${where ? ` (${where})` : ''}${ms.length ? `; per run ${(ms.reduce((a, b) => a + b, 0) / ms.length / 1000).toFixed(2)} s mean` : ''}${kept ? `; ${kept} complete runs kept from the earlier sweep` : ''}`);
      console.log(`wrote ${o.out}/traces/ (${res.runs.length} of ${res.results.length} runs finished), summary.txt, summary.json, timing.json`);
    }
    for (const r of res.runs) for (const line of warningLines(r)) console.error(line);
    for (const r of res.results) if (r.error) console.error(`error: ${r.job.runId}: ${r.error}`);
    if (ac.signal.aborted) console.error(`stopped; continue with: npm run cli -- sweep ${process.argv.slice(3).filter((a) => a !== '--resume').join(' ')} --resume`);
    if (res.summary.failed.length) process.exitCode = 3;
  });
}
