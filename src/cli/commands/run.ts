import { Option, type Command } from 'commander';
import { AUTOMATED_TUTORS, TRACER_NAMES, formatAxisTable, outsideStop, recordFromTrace, runRecord, runRun, scoreTrace, tutorEntry, warningLines, type RunOutcome, type RunRecord, type TraceEvent } from '../../core/index';
import { DEFAULT_SCENARIO_PATH, loadScenarioFile } from '../../adapters/node/files';
import { nodeRunEnv } from '../../adapters/node/run-env';
import { TraceAppender, resumeFile } from '../../adapters/node/trace-file';
import { flagList, givenOptionsExcept, int } from './common';
import { addLlmOptions, learnerParts, llmRecordParts, type LlmCliOptions } from './llm-options';
import { addAgentOptions, agentTutorConfigs, hasAgentOptions, type AgentCliOptions } from './agent-options';
import { onStopSignals } from '../signals';
import { addKtRuntimeOption } from './kt-runtime';
import { ktRuntimeChoice, resumeKtRuntime } from '../../adapters/node/akt';

interface RunCliOptions extends LlmCliOptions, AgentCliOptions {
  scenario?: string;
  tutor?: string;
  seed?: number;
  tracer?: string;
  horizon?: number;
  out?: string;
  resume?: string;
  quiet?: boolean;
}

/** The options that go with --resume (attribute names): keys for the model provider, the AKT runtime (checked against the trace's), quiet. */
const WITH_RESUME = ['resume', 'llmConfig', 'ktRuntime', 'quiet'] as const;

export function registerRun(program: Command): void {
  const cmd = program
    .command('run')
    .usage('--tutor <name> --out <trace.jsonl> [options]\n       educlaw run --resume <trace.jsonl> [--llm-config <file>] [--quiet]')
    .description('Run one tutor on one scenario, writing the trace as JSONL while it runs; or resume an interrupted run from its trace.\n\nCtrl-C (or SIGTERM, SIGHUP) stops a run cleanly: the trace ends with run_end "aborted" and --resume continues it. A run killed outright (its last line cut short) resumes too. The resumed trace is byte for byte the one an uninterrupted run writes.')
    .option('--scenario <file>', 'scenario YAML (default: the built-in scenarios/default.yaml)')
    .addOption(new Option('--tutor <name>', 'tutor; required unless --resume').choices([...AUTOMATED_TUTORS]))
    .option('--seed <n>', "seed (default: the scenario's)", int('--seed'))
    .addOption(new Option('--tracer <name>', "knowledge tracer (default: the scenario's)").choices([...TRACER_NAMES]))
    .option('--horizon <days>', "days to run (default: the scenario's)", int('--horizon'))
    .option('--out <file>', 'trace file to write, JSONL appended event by event; required unless --resume')
    .option('--resume <trace>', 'resume the stopped or killed run in this trace file, appending to it; tutor, scenario and settings come from the trace (an LLM run needs its --llm-config again)')
    .option('--quiet', 'print nothing but errors');
  addAgentOptions(addLlmOptions(addKtRuntimeOption(cmd))).action(async (o: RunCliOptions, command: Command) => {
    let record: RunRecord;
    let path: string;
    let stored: TraceEvent[] | undefined;
    let keepBytes = 0;
    if (o.resume) {
      // Every other option of this command describes the run, which the trace fixes (read from the command's option table).
      const given = givenOptionsExcept(command, WITH_RESUME);
      if (given.length) throw new Error(`--resume takes the run from the trace: give no ${given.join(', ')} (only ${flagList(WITH_RESUME.filter((k) => k !== 'resume'))} go with --resume)`);
      path = o.resume;
      const f = resumeFile(path);
      record = recordFromTrace(f.stored, path);
      stored = f.stored;
      keepBytes = f.keepBytes;
      if (!o.quiet) console.error(`resuming ${path}: replaying ${f.keep} of ${f.stored.length} stored events${f.cutLine ? ' (a last line cut short was dropped)' : ''}`);
    } else {
      if (!o.tutor) throw new Error("required option '--tutor <name>' not specified");
      if (!o.out) throw new Error("required option '--out <file>' not specified");
      path = o.out;
      const scenario = loadScenarioFile(o.scenario ?? DEFAULT_SCENARIO_PATH);
      const llm = llmRecordParts(o.tutor, o);
      // An agent behind a URL (--tutor http): its hello gives the name, version and model the trace records.
      const isAgent = o.tutor === 'http';
      if (!isAgent && hasAgentOptions(o)) throw new Error(`the --agent-* options are for --tutor http (${o.tutor} is not an agent behind a URL)`);
      const tutorConfig = isAgent ? { ...(await agentTutorConfigs(o))[0]! } : llm.tutorConfig;
      record = runRecord({
        scenario,
        source: o.scenario ?? 'scenarios/default.yaml',
        tutor: { name: o.tutor, config: tutorConfig },
        voice: llm.voice,
        ...learnerParts(o),
        ...(o.seed !== undefined ? { seed: o.seed } : {}),
        ...(o.tracer ? { tracer: o.tracer } : {}),
        ...(o.horizon !== undefined ? { horizonDays: o.horizon } : {}),
      });
    }
    // A resumed AKT run continues on the runtime its trace was computed on (adapters/node/akt.ts).
    const ktRuntime = stored ? resumeKtRuntime(stored[0] as Parameters<typeof resumeKtRuntime>[0], ktRuntimeChoice()) : undefined;
    const env = nodeRunEnv({ llmConfig: o.llmConfig ?? [], ...(ktRuntime ? { ktRuntime } : {}) });
    // Ctrl-C, SIGTERM or SIGHUP stop the run cleanly: the trace so far ends with reason "aborted" and can be resumed.
    const ac = new AbortController();
    const off = onStopSignals(() => ac.abort());
    const t0 = performance.now();
    let res: RunOutcome;
    try {
      res = await runRun(record, env, { sink: new TraceAppender(path, keepBytes), resume: stored ?? null, signals: [ac.signal] });
    } finally {
      off();
    }
    const report = scoreTrace(res.events);
    // A set-up that is broken but still scores (a tutor that never acted, tool calls as text) is said on stderr, --quiet or not.
    for (const line of warningLines(report)) console.error(line);
    for (const n of res.notices ?? []) console.error(`note: ${n}`);
    if (!o.quiet) {
      console.log(`${res.runId}: ${res.reason}, ${res.events.length} events in ${((performance.now() - t0) / 1000).toFixed(2)} s -> ${path}`);
      console.log(formatAxisTable([report]));
      if (res.ending === 'unchanged') console.error(`stopped while replaying the stored events (${res.reason}: ${res.message ?? ''}); ${path} is unchanged\nresume with: npm run cli -- run --resume ${path}`);
      else if (res.ending === 'partial') console.error(`stopped: ${res.reason}: ${res.message ?? ''}${outsideStop(res.reason, tutorEntry(record.tutor.name).needs) ? `\nresume with: npm run cli -- run --resume ${path}` : ''}`);
    }
    if (res.ending !== 'complete') process.exitCode = 3;
  });
}
