import type { Command } from 'commander';
import { formatAxisTable, scoreTrace, warningLines, type ScoreReport, type TraceEvent } from '../../core/index';
import { readTraceFile } from '../../adapters/node/files';
import { isZip, zippedTraces } from './zip-traces';

export function registerScore(program: Command): void {
  program
    .command('score')
    .description('Score traces on the deterministic axes (judged axes stay "unscored" until judged).')
    .argument('<traces...>', 'trace files (JSONL), or zips with traces/*.jsonl (a page benchmark, a classroom study export)')
    .option('--json', 'print one JSON object per trace (a JSON array when several)')
    .action((files: string[], o: { json?: boolean }) => {
      // A zip (a study export, a page benchmark) stands for the traces in it.
      type Source = { file: string; read: () => { events: TraceEvent[]; complete: boolean | null } };
      const sources = files.flatMap<Source>((f) => (isZip(f) ? zippedTraces(f).map((z) => ({ file: z.file, read: () => ({ events: z.read().events, complete: null }) })) : [{ file: f, read: () => readTraceFile(f) }]));
      if (sources.length === 0) throw new Error(`no traces in ${files.join(', ')}`);
      const reports: ScoreReport[] = sources.map(({ file, read }) => {
        const t = read();
        const complete = t.complete ?? t.events.at(-1)?.type === 'run_end';
        if (!complete) console.error(`warning: ${file} has no run_end event (the run was cut short); scoring what it holds`);
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
          warnings: r.warnings ?? [],
        }));
        console.log(JSON.stringify(out.length === 1 ? out[0] : out, null, 2));
      } else {
        console.log(formatAxisTable(reports));
      }
      for (const r of reports) for (const line of warningLines(r)) console.error(line);
    });
}
