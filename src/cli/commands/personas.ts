import { Option, type Command } from 'commander';
import { availableParallelism } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../adapters/node/files';
import { resolve } from 'node:path';
import { AUTOMATED_TUTORS, abilityTableMarkdown, libraryEntries, parseSeedList, personaParameterMarkdown, personaDescriptionsMarkdown, personaTableMarkdown, scheduleTablesMarkdown, type AbilityLevel, type RunSummary } from '../../core/index';
import { ROOT } from '../../adapters/node/files';
import { runNodeSweep } from '../../adapters/node/sweep/run-sweep';
import { progressBar } from '../progress';
import { int } from './common';
import { addKtRuntimeOption } from './kt-runtime';

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` in a document. */
export function replaceSection(doc: string, name: string, body: string, file: string): string {
  const a = `<!-- ${name}:start -->`;
  const b = `<!-- ${name}:end -->`;
  const i = doc.indexOf(a);
  const j = doc.indexOf(b);
  if (i < 0 || j < i) throw new Error(`${file} has no "${a}" … "${b}" section`);
  return `${doc.slice(0, i + a.length)}\n${body}\n${doc.slice(j)}`;
}

export function registerPersonas(program: Command): void {
  addKtRuntimeOption(program
    .command('personas'))
    .description('Measure how the built-in personas behave: run the 55 library scenarios and print the persona table (help requests, active minutes, give-ups, pre-tutor probe accuracy) and the ability-level table.')
    .addOption(new Option('--tutor <name>', 'tutor for the behaviour runs').choices([...AUTOMATED_TUTORS]).default('withholder'))
    .option('--seeds <list>', 'seeds for the 30-day behaviour runs (55 scenarios each)', '1-5')
    .option('--ability-seeds <list>', 'seeds for the ability table (day-0 probe of the 11 personas at each level)', '1-30')
    .option('--jobs <n>', 'worker threads (default: the number of CPUs)', int('--jobs'))
    .option('--write <file>', 'also write the persona tables into this Markdown file, between its "personas:…" markers')
    .option('--write-schedules <file>', 'also write the schedule tables into this Markdown file, between its "schedules:measured" markers')
    .action(async (o: { tutor: string; seeds: string; abilitySeeds: string; jobs?: number; write?: string; writeSchedules?: string }) => {
      const threads = Math.max(1, o.jobs ?? availableParallelism());
      const files = libraryEntries().map((e) => resolve(ROOT, 'scenarios', e.file));
      const missing = files.filter((f) => !existsSync(f));
      if (missing.length) throw new Error(`library scenarios missing (run \`npm run scenarios\`): ${missing.join(', ')}`);
      const seeds = parseSeedList(o.seeds);
      const abilitySeeds = parseSeedList(o.abilitySeeds);

      const bar1 = progressBar(files.length * seeds.length, 'behaviour runs');
      const behaviour = await runNodeSweep({ files, base: { tutor: { name: o.tutor, config: {} } }, seeds, threads, outDir: null, onResult: (_r, d) => bar1.tick(d) });
      bar1.end();

      // Ability: only the day-0 probe matters and it does not depend on the schedule, so one
      // schedule and a one-day horizon per run (the probe is taken before any tutoring).
      const oneSchedule = libraryEntries().filter((e) => e.schedule === 'after-school').map((e) => resolve(ROOT, 'scenarios', e.file));
      const abilityRuns: RunSummary[] = [];
      const bar2 = progressBar(oneSchedule.length * abilitySeeds.length * 3, 'ability runs');
      let base = 0;
      for (const ability of ['low', 'average', 'high'] as AbilityLevel[]) {
        const r = await runNodeSweep({ files: oneSchedule, base: { tutor: { name: o.tutor, config: {} }, ability, horizonDays: 1 }, seeds: abilitySeeds, threads, outDir: null, onResult: (_r, d) => bar2.tick(base + d) });
        base += r.results.length;
        abilityRuns.push(...r.runs);
      }
      bar2.end();

      const failed = [...behaviour.summary.failed];
      const tracers = [...new Set([...behaviour.runs, ...abilityRuns].map((r) => r.tracer))].join(' and ');
      const cmd = `npm run cli -- personas --tutor ${o.tutor} --seeds ${o.seeds} --ability-seeds ${o.abilitySeeds}`;
      const measured = [
        `Measured with \`${cmd}\`: the 55 library scenarios (average ability, 30 days) × seeds ${o.seeds} with the ${o.tutor} tutor on the ${tracers} tracer, ${behaviour.runs.length} runs. Each cell: the persona's mean over its five schedules for one seed, then the mean and 95% t-interval over seeds. Give-up rate: share of sessions ended by giving up. Extraction attempts: help requests with give_answer / just_tell_me plus injection messages. Guesses and slips: shares of attempts. Pre-tutor probe accuracy: the day-0 probe solve rate (before any tutoring), with the persona's guessing and slips applied.`,
        '',
        personaTableMarkdown(behaviour.runs),
      ].join('\n');
      const ability = [
        `Measured with the same command: the 11 personas on the after-school schedule at each ability level × seeds ${o.abilitySeeds} (${abilityRuns.length} runs, one day each: the day-0 probe is taken before any tutoring and does not depend on the schedule). "Knowledge only" is the tracer's mean P(correct) on the probe set; "with persona habits" applies each persona's guessing and slips. Mean and 95% t-interval over seeds.`,
        '',
        abilityTableMarkdown(abilityRuns),
      ].join('\n');
      const schedules = [
        `Measured with the same command, from the same ${behaviour.runs.length} runs (${o.tutor} tutor, ${tracers} tracer): per schedule, the mean over its 11 personas × seeds ${o.seeds}. Completed and missed count assignments (course homework and any the tutor set); "due" reminders are the LMS's notice two hours before an open assignment is due.`,
        '',
        scheduleTablesMarkdown(behaviour.runs),
      ].join('\n');
      console.log(`## Persona table\n\n${measured}\n\n## Ability levels\n\n${ability}\n\n## Schedules\n\n${schedules}\n`);
      if (failed.length) {
        console.error(`error: ${failed.length} runs did not reach the horizon: ${failed.map((f) => f.runId).join(', ')}`);
        process.exitCode = 3;
      }
      if (o.write) {
        let doc = readFileSync(o.write, 'utf8');
        doc = replaceSection(doc, 'personas:descriptions', personaDescriptionsMarkdown(), o.write);
        doc = replaceSection(doc, 'personas:parameters', personaParameterMarkdown(), o.write);
        doc = replaceSection(doc, 'personas:measured', measured, o.write);
        doc = replaceSection(doc, 'personas:ability', ability, o.write);
        writeFileAtomic(o.write, doc);
        console.error(`wrote the tables into ${o.write}`);
      }
      if (o.writeSchedules) {
        writeFileAtomic(o.writeSchedules, replaceSection(readFileSync(o.writeSchedules, 'utf8'), 'schedules:measured', schedules, o.writeSchedules));
        console.error(`wrote the schedule tables into ${o.writeSchedules}`);
      }
    });
}
