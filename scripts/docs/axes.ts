/**
 * `npm run docs:axes`: rewrites the axis list in docs/metrics.md (between `<!-- axes:table -->`
 * and `<!-- /axes:table -->`) from AXES in src/core/scoring/axes.ts. `--check` only says whether
 * it is up to date (exit 1 when stale); `src/core/scoring/axes.test.ts` checks the same.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withAxesSection } from '../../src/core/scoring/axes';

const DOC = fileURLToPath(new URL('../../docs/metrics.md', import.meta.url));
const before = readFileSync(DOC, 'utf8');
const after = withAxesSection(before);
if (process.argv.includes('--check')) {
  console.log(after === before ? 'docs/metrics.md: the axis list is up to date' : 'docs/metrics.md: the axis list is stale; run `npm run docs:axes`');
  if (after !== before) process.exitCode = 1;
} else if (after === before) console.log('docs/metrics.md: the axis list was already up to date');
else {
  writeFileSync(DOC, after);
  console.log('docs/metrics.md: rewrote the axis list from src/core/scoring/axes.ts');
}
