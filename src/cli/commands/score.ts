import type { Command } from 'commander';
import { formatAxisTable, scoreTrace, warningLines, type ScoreReport } from '../../core/index';
import { readTraceFile } from '../../adapters/node/files';

export function registerScore(program: Command): void {
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
          warnings: r.warnings ?? [],
        }));
        console.log(JSON.stringify(out.length === 1 ? out[0] : out, null, 2));
      } else {
        console.log(formatAxisTable(reports));
      }
      for (const r of reports) for (const line of warningLines(r)) console.error(line);
    });
}
