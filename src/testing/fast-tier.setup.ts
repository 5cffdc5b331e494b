/**
 * Setup of `npm run test:fast` (vitest.fast.config.ts), run in every test worker before its test
 * file: the fast tier is in-process, so starting a subprocess (the CLI through tsx, redis-server,
 * python) fails the test at once with what to do, instead of slowing the inner loop down quietly.
 * `npm test` runs the same files without this guard.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as Record<string, unknown>;

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = (command: unknown) => {
    throw new Error(
      `The fast tier runs in-process, and this test started a subprocess (child_process.${name} ${JSON.stringify(String(command))}). ` +
        'Move its file to the integration tier: add its path, with why, to INTEGRATION in vitest.fast.config.ts (npm test still runs it).',
    );
  };
}
// ES module imports of node:child_process read the patched functions too.
syncBuiltinESMExports();
