import type { Command } from 'commander';
import { scenarioJsonSchema } from '../../core/index';
import { writeFileAtomic } from '../../adapters/node/files';

export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description('Write the scenario JSON Schema (for editors).')
    .option('--out <file>', 'output file', 'scenarios/scenario.schema.json')
    .action((o: { out: string }) => {
      writeFileAtomic(o.out, JSON.stringify(scenarioJsonSchema(), null, 2) + '\n');
      console.log(`wrote ${o.out}`);
    });
}
