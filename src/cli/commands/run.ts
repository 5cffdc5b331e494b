import { Option, type Command } from 'commander';
import { TUTORS, formatAxisTable, loadPersonaSeeds, runEpisode, scoreTrace, tutorEntry } from '../../core/index';
import { DEFAULT_SCENARIO_PATH, loadScenarioFile, writeTraceFile } from '../../adapters/node/files';
import { createNodeTracer } from '../../adapters/node/tracers';
import { int } from './common';
import { addLlmOptions, llmSetup, type LlmCliOptions } from './llm-options';

export function registerRun(program: Command): void {
  const cmd = program
    .command('run')
    .description('Run one tutor on one scenario and write the trace as JSONL.')
    .option('--scenario <file>', 'scenario YAML (default: the built-in scenarios/default.yaml)')
    .addOption(new Option('--tutor <name>', 'tutor').choices([...TUTORS.keys()]).makeOptionMandatory())
    .option('--seed <n>', "seed (default: the scenario's)", int('--seed'))
    .option('--tracer <name>', "knowledge tracer (default: the scenario's)")
    .requiredOption('--out <file>', 'trace file to write (JSONL)')
    .option('--quiet', 'print nothing but errors');
  addLlmOptions(cmd).action(async (o: { scenario?: string; tutor: string; seed?: number; tracer?: string; out: string; quiet?: boolean } & LlmCliOptions) => {
      const scenario = loadScenarioFile(o.scenario ?? DEFAULT_SCENARIO_PATH);
      const llm = llmSetup(o.tutor, o, scenario.learner.name);
      // Ctrl-C stops an LLM run cleanly: the trace so far is written with reason "aborted".
      const ac = new AbortController();
      const onSigint = () => ac.abort();
      process.once('SIGINT', onSigint);
      if (o.tracer) scenario.learner.tracer = o.tracer;
      const tracer = await createNodeTracer(scenario.learner.tracer);
      const entry = tutorEntry(o.tutor);
      const t0 = performance.now();
      const res = await runEpisode({
        scenario,
        tutor: entry.create({ config: llm.tutorConfig ?? {}, ...(llm.tutorClient ? { llm: llm.tutorClient } : {}) }),
        tutorSpec: { name: entry.name, config: llm.tutorConfig ?? {} },
        tracer,
        seeds: await loadPersonaSeeds(),
        ...(o.seed !== undefined ? { seed: o.seed } : {}),
        ...(llm.voice ? { voice: llm.voice } : {}),
        signal: ac.signal,
      });
      process.off('SIGINT', onSigint);
      writeTraceFile(o.out, res.events);
      if (!o.quiet) {
        console.log(`${res.runId}: ${res.reason}, ${res.events.length} events in ${((performance.now() - t0) / 1000).toFixed(2)} s -> ${o.out}`);
        console.log(formatAxisTable([scoreTrace(res.events)]));
        const end = res.events.find((e) => e.type === 'run_end');
        if (res.reason !== 'horizon_reached' && end?.type === 'run_end') console.error(`stopped: ${res.reason}: ${end.message ?? ''}`);
      }
      if (res.reason !== 'horizon_reached') process.exitCode = 3;
    });
}
