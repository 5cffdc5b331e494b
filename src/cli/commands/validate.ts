import type { Command } from 'commander';
import { ScenarioError } from '../../core/index';
import { loadScenarioFile } from '../../adapters/node/files';

export function registerValidate(program: Command): void {
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
}
