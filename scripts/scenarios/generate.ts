/**
 * Writes the 55 library scenarios (11 personas × 5 schedules) to scenarios/<persona>--<schedule>.yaml.
 *
 *   npm run scenarios            # (re)write the files
 *   npm run scenarios -- --check # exit 1 when a file is missing or differs from what the code renders
 *
 * The files are what users read and edit; the personas and schedules they come from are in
 * src/core/scenario/personas.ts and schedules.ts. Every file is validated after writing.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { libraryEntries, parseLibraryId, parseScenario, renderLibraryScenario } from '../../src/core/index';
import { ROOT } from '../../src/adapters/node/files';

const check = process.argv.includes('--check');
const dir = resolve(ROOT, 'scenarios');
let written = 0;
let stale = 0;
for (const e of libraryEntries()) {
  const path = resolve(dir, e.file);
  const text = renderLibraryScenario(e.persona, e.schedule);
  parseScenario(text, `scenarios/${e.file}`); // throws with file, field and line if the code renders something invalid
  const same = existsSync(path) && readFileSync(path, 'utf8') === text;
  if (same) continue;
  if (check) {
    console.error(`${existsSync(path) ? 'differs' : 'missing'}: scenarios/${e.file}`);
    stale++;
  } else {
    writeFileSync(path, text);
    written++;
  }
}
const known = new Set(libraryEntries().map((e) => e.file));
const orphans = readdirSync(dir).filter((f) => f.includes('--') && f.endsWith('.yaml') && !known.has(f) && !parseLibraryId(f));
for (const f of orphans) console.error(`not from the library (left alone): scenarios/${f}`);
if (check) {
  if (stale) {
    console.error(`${stale} library file(s) out of date: run \`npm run scenarios\``);
    process.exitCode = 1;
  } else console.log(`all ${known.size} library scenarios are up to date`);
} else console.log(`wrote ${written} of ${known.size} library scenarios to scenarios/ (${known.size - written} already up to date)`);
