import type { Command } from 'commander';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { calibration } from '../../core/index';
import { readTraceFile } from '../../adapters/node/files';

function expand(paths: string[]): string[] {
  return paths.flatMap((p) => (statSync(p).isDirectory() ? readdirSync(p).filter((n) => n.endsWith('.jsonl')).map((n) => join(p, n)) : [p]));
}

export function registerCalibration(program: Command): void {
  program
    .command('calibration')
    .description("Calibration of simulated learners: (run, day) predicted vs observed accuracy of the learner's own attempts (ECE, Brier, reliability bins).")
    .argument('<traces...>', 'trace files or directories of .jsonl traces')
    .option('--include-all', 'also count copied answers and guesses')
    .option('--json', 'print JSON')
    .action((paths: string[], o: { includeAll?: boolean; json?: boolean }) => {
      const files = expand(paths);
      if (files.length === 0) throw new Error('no .jsonl traces found');
      const r = calibration(files.map((f) => readTraceFile(f).events), !!o.includeAll);
      if (o.json) {
        console.log(JSON.stringify(r, null, 2));
        return;
      }
      console.log(`${r.runs} runs, ${r.pairs} (run, day) pairs, ${r.attempts} attempts`);
      console.log(`ECE ${r.ece === null ? 'n/a' : r.ece.toFixed(4)}  Brier ${r.brier === null ? 'n/a' : r.brier.toFixed(4)}`);
      for (const b of r.bins) if (b.count) console.log(`  ${b.lo.toFixed(1)}–${b.hi.toFixed(1)}: predicted ${b.meanPred.toFixed(3)} → observed ${b.meanObs.toFixed(3)}  (${b.count} pairs)`);
    });
}
