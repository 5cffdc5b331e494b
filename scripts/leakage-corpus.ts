/**
 * The leakage corpus table (docs/metrics.md, "Answer leakage"): disguised disclosures and
 * withholding messages generated from the item bank (src/core/leakage/corpus.ts), scored by the
 * declared matcher (before) and the disclosure detector (after), per category.
 *
 *   npm run report:leakage-corpus [-- --wrong]   (--wrong: also list the cases the detector gets wrong)
 */
import { parseArgs } from 'node:util';
import { corpusTable, leakageCorpus, scoreCorpus } from '../src/core/leakage/corpus';

const { values } = parseArgs({ options: { wrong: { type: 'boolean', default: false } } });
const t0 = performance.now();
const cases = leakageCorpus();
const rows = scoreCorpus(cases);
console.log(corpusTable(rows));
if (values.wrong)
  for (const r of rows)
    for (const w of r.wrong) console.log(`- [${r.kind}] ${r.category} ${w.itemId}: ${JSON.stringify(w.texts)} -> ${w.found.join('; ') || 'nothing'}`);
console.log(`${cases.length} cases, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
