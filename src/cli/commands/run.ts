import { Option, type Command } from 'commander';
import { TUTORS, formatAxisTable, loadPersonaSeeds, runEpisode, scoreTrace, tutorEntry } from '../../core/index';
import { DEFAULT_SCENARIO_PATH, loadScenarioFile, writeTraceFile } from '../../adapters/node/files';
import { createNodeTracer } from '../../adapters/node/tracers';
import { int } from './common';

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('Run one tutor on one scenario and write the trace as JSONL.')
    .option('--scenario <file>', 'scenario YAML (default: the built-in scenarios/default.yaml)')
    .addOption(new Option('--tutor <name>', 'tutor').choices([...TUTORS.keys()]).makeOptionMandatory())
    .option('--seed <n>', "seed (default: the scenario's)", int('--seed'))
    .option('--tracer <name>', "knowledge tracer (default: the scenario's)")
    .requiredOption('--out <file>', 'trace file to write (JSONL)')
    .option('--quiet', 'print nothing but errors')
    .action(async (o: { scenario?: string; tutor: string; seed?: number; tracer?: string; out: string; quiet?: boolean }) => {
      const scenario = loadScenarioFile(o.scenario ?? DEFAULT_SCENARIO_PATH);
      if (o.tracer) scenario.learner.tracer = o.tracer;
      const tracer = await createNodeTracer(scenario.learner.tracer);
      const entry = tutorEntry(o.tutor);
      const t0 = performance.now();
      const res = await runEpisode({
        scenario,
        tutor: entry.create({ config: {} }),
        tutorSpec: { name: entry.name, config: {} },
        tracer,
        seeds: await loadPersonaSeeds(),
        ...(o.seed !== undefined ? { seed: o.seed } : {}),
      });
      writeTraceFile(o.out, res.events);
      if (!o.quiet) {
        console.log(`${res.runId}: ${res.reason}, ${res.events.length} events in ${((performance.now() - t0) / 1000).toFixed(2)} s -> ${o.out}`);
        console.log(formatAxisTable([scoreTrace(res.events)]));
      }
      if (res.reason !== 'horizon_reached') process.exitCode = 3;
    });
}
