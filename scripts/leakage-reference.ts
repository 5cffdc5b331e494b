/**
 * Lab note helper (docs/measurements/leakage-detector.md): the reference tutors on library
 * scenarios (BKT learner), scored by the declared matcher and by the disclosure detector, with
 * the learner's copies. The traces are those of this engine (the learner copies what the detector
 * reports), so copies can differ from traces made before the detector.
 *
 *   npx tsx scripts/leakage-reference.ts [--every 5]   (every 5th library scenario; 1 = all 55)
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../src/adapters/node/files';
import { leakage, libraryEntries, parseScenario, type TraceEvent } from '../src/core/index';
import { onBkt, runWith } from '../src/testing/fixtures';

const { values } = parseArgs({ options: { every: { type: 'string', default: '5' } } });
const every = Number(values.every);
if (!Number.isInteger(every) || every < 1) throw new Error(`--every must be a positive integer, got ${values.every}`);
const entries = libraryEntries().filter((_, i) => i % every === 0);
const t0 = performance.now();
console.log(`| tutor | runs | tutor turns | leaking turns: declared → detector | copies | disclosures by rule |`);
console.log('|---|---:|---:|---:|---:|---|');
for (const tutor of ['answer-giver', 'withholder', 'planner']) {
  let runs = 0, turns = 0, before = 0, after = 0, copies = 0;
  const rules = new Map<string, number>();
  const extra: string[] = [];
  for (const e of entries) {
    const sc = onBkt(parseScenario(readFileSync(resolve(ROOT, 'scenarios', e.file), 'utf8'), e.file));
    const res = await runWith(sc, tutor, { seed: 1 });
    const ev: TraceEvent[] = res.events;
    runs++;
    const b = leakage(ev, { matcher: 'declared', words: true });
    const a = leakage(ev);
    turns += a.detail.tutorTurns;
    before += b.detail.leakingTurns;
    after += a.detail.leakingTurns;
    copies += ev.filter((x) => x.type === 'attempt' && x.source === 'disclosed').length;
    for (const d of a.detail.disclosures ?? []) rules.set(d.rule, (rules.get(d.rule) ?? 0) + 1);
    const bs = new Set(b.detail.leaks.map((l) => l.seq));
    for (const d of a.detail.disclosures ?? []) if (!bs.has(d.seq) && extra.length < 3) extra.push(`${e.id} ${d.itemId}: ${JSON.stringify((ev.find((x) => x.seq === d.seq) as { text?: string })?.text?.slice(0, 160))} → ${JSON.stringify(d.span)}`);
  }
  console.log(`| ${tutor} | ${runs} | ${turns} | ${before} → ${after} | ${copies} | ${[...rules].map(([r, n]) => `${r} ${n}`).join(', ') || '—'} |`);
  for (const x of extra) console.log(`  - only the detector: ${x}`);
}
console.log(`${((performance.now() - t0) / 1000).toFixed(0)} s`);
