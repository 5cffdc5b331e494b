#!/usr/bin/env node
/**
 * EduClaw Lab command line: the same core as the page, with files instead of IndexedDB.
 *
 *   npm run cli -- run [--scenario <file>] --tutor <name> --seed <n> --out <trace.jsonl>
 *   npm run cli -- score <trace.jsonl...> [--json]
 *   npm run cli -- validate <scenario files...>
 *   npm run cli -- schema [--out scenarios/scenario.schema.json]
 */
import { Command, Option } from 'commander';
import { writeFileSync } from 'node:fs';
import {
  TUTORS,
  formatAxisTable,
  loadPersonaSeeds,
  runEpisode,
  scenarioJsonSchema,
  scoreTrace,
  tutorEntry,
  ScenarioError,
  type ScoreReport,
} from '../core/index';
import { DEFAULT_SCENARIO_PATH, loadScenarioFile, readTraceFile, writeTraceFile } from '../adapters/node/files';
import { createNodeTracer } from '../adapters/node/tracers';

const program = new Command();
program.name('educlaw').description('EduClaw Lab: run tutors against a simulated learner for 30 virtual days, and score the traces.').showHelpAfterError();

const int = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${v}"`);
  return n;
};

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

program
  .command('score')
  .description('Score traces on the deterministic axes (judged axes stay "unscored" until judged).')
  .argument('<traces...>', 'trace files (JSONL)')
  .option('--json', 'print one JSON object per trace (a JSON array when several)')
  .action((files: string[], o: { json?: boolean }) => {
    const reports: ScoreReport[] = files.map((f) => {
      const t = readTraceFile(f);
      if (!t.complete) console.error(`warning: ${f} has no run_end event (the run was cut short); scoring what it holds`);
      return scoreTrace(t.events);
    });
    if (o.json) {
      const out = reports.map((r) => ({
        runId: r.runId,
        scenarioId: r.scenarioId,
        tutor: r.tutor,
        seed: r.seed,
        complete: r.complete,
        endReason: r.endReason,
        learningGain: r.learningGain,
        responsiveness: r.responsiveness,
        leakage: r.leakage,
        independence: r.independence,
        actions: r.actions,
        dailySolveRate: r.dailySolveRate,
        judged: r.judged,
        details: r.details,
      }));
      console.log(JSON.stringify(out.length === 1 ? out[0] : out, null, 2));
    } else {
      console.log(formatAxisTable(reports));
    }
  });

program
  .command('validate')
  .description('Validate scenario files; exits non-zero and names file, field and line for each problem.')
  .argument('<files...>', 'scenario YAML files')
  .action((files: string[]) => {
    let bad = 0;
    for (const f of files) {
      try {
        const s = loadScenarioFile(f);
        console.log(`ok  ${f} (${s.id})`);
      } catch (e) {
        bad++;
        console.error(e instanceof ScenarioError ? e.message : `${f}: ${(e as Error).message}`);
      }
    }
    if (bad) {
      console.error(`${bad} of ${files.length} scenario file${files.length === 1 ? '' : 's'} invalid`);
      process.exitCode = 1;
    }
  });

program
  .command('schema')
  .description('Write the scenario JSON Schema (for editors).')
  .option('--out <file>', 'output file', 'scenarios/scenario.schema.json')
  .action((o: { out: string }) => {
    writeFileSync(o.out, JSON.stringify(scenarioJsonSchema(), null, 2) + '\n');
    console.log(`wrote ${o.out}`);
  });

program.parseAsync(process.argv).catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
