/**
 * `npm run cli -- …`: runs the bundled CLI (dist-cli/, `npm run build:cli`) when it is there and
 * no source file in it is newer than the bundle; otherwise runs the sources through tsx, as the
 * CLI always ran, and says so on stderr. So a fresh clone needs no build step (it is about a
 * second slower to start), and an edited source file is never run from a stale bundle.
 * Figures: docs/measurements/cli-startup.md.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bundle = join(root, 'dist-cli', 'main.mjs');

/** Why the bundle cannot be used (missing, or a source file in it changed after its build started), or null when it can. */
function stale() {
  let built;
  let inputs;
  try {
    statSync(bundle);
    ({ startedMs: built, inputs } = JSON.parse(readFileSync(join(root, 'dist-cli', 'inputs.json'), 'utf8')));
  } catch {
    return 'dist-cli/ is not built';
  }
  for (const f of inputs) {
    let m;
    try {
      m = statSync(join(root, f)).mtimeMs;
    } catch {
      return `${f} is gone since dist-cli/ was built`;
    }
    if (m > built) return `${f} changed since dist-cli/ was built`;
  }
  return null;
}

const why = stale();
if (why === null) await import(pathToFileURL(bundle).href);
else {
  process.stderr.write(`educlaw: running from the sources with tsx (${why}; \`npm run build:cli\` starts faster)\n`);
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src/cli/main.ts')).href);
}
