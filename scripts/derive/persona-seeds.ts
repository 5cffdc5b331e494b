/**
 * Derives persona seeds: warm-up histories of real training-fold students of ASSISTments 2009
 * (test fold held out), packed compactly, and buckets them into low / average / high ability by
 * the BKT tracer's initial accuracy over all 110 skills (tercile cut points).
 * The AKT pipeline adds its own buckets to the same file.
 *
 *   npx tsx scripts/derive/persona-seeds.ts [--data <dir>] [--test-fold 1] [--min 20] [--warmup 200]
 *
 * Writes src/core/data/persona-seeds.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { DATASET_CITATION, DEFAULT_DATA_DIR, readSequences } from './common';
import { BktTracer, type BktParamsFile } from '../../src/core/learner/kt/bkt';
import { masteryQueries, type Interaction } from '../../src/core/learner/kt/types';
import { packHistory } from '../../src/core/learner/seeds';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const dir = arg('--data', DEFAULT_DATA_DIR);
const testFold = arg('--test-fold', '1');
const minLen = Number(arg('--min', '20'));
const warmup = Number(arg('--warmup', '200'));

const students = readSequences(dir).filter((s) => s.fold !== testFold && s.skills.length >= minLen);
const bkt = new BktTracer(JSON.parse(readFileSync(new URL('../../src/core/data/bkt-assist2009.json', import.meta.url), 'utf8')) as BktParamsFile);
const allSkills = Array.from({ length: 110 }, (_, i) => i + 1);
const seeds = students.map((s) => {
  const n = Math.min(warmup, s.skills.length);
  const history: Interaction[] = [];
  for (let i = 0; i < n; i++) history.push({ skill: s.skills[i]!, question: s.questions[i]!, correct: s.responses[i] === 1 });
  const m = bkt.predictSync(history, masteryQueries(allSkills));
  return { uid: s.uid, n, packed: packHistory(history), bktInitial: m.reduce((a, b) => a + b, 0) / m.length };
});
const sorted = seeds.map((s) => s.bktInitial).sort((a, b) => a - b);
const cut1 = sorted[Math.floor(sorted.length / 3)]!;
const cut2 = sorted[Math.floor((2 * sorted.length) / 3)]!;
const bucket = (x: number) => (x < cut1 ? 'low' : x < cut2 ? 'average' : 'high');
const round = (x: number) => Math.round(x * 1e4) / 1e4;
const out = {
  version: `assist2009-seeds-fold${testFold}-1`,
  provenance:
    `Derived by scripts/derive/persona-seeds.ts: the first min(${warmup}, length) KC-level interactions of every training-fold student ` +
    `(test fold ${testFold} held out) with at least ${minLen} interactions. Packed per interaction as uint16 question id, uint8 skill id, uint8 correct, base64.`,
  citation: DATASET_CITATION,
  count: seeds.length,
  ability: {
    bkt: {
      measure: 'mean P(correct) on an average item over all 110 skills after the warm-up (BKT tracer)',
      cutPoints: [round(cut1), round(cut2)],
      buckets: seeds.map((s) => bucket(s.bktInitial)),
      initial: seeds.map((s) => round(s.bktInitial)),
    },
  },
  seeds: seeds.map((s) => ({ uid: s.uid, n: s.n, h: s.packed })),
};
const path = new URL('../../src/core/data/persona-seeds.json', import.meta.url).pathname;
writeFileSync(path, JSON.stringify(out) + '\n');
const byB = (b: string) => seeds.filter((s) => bucket(s.bktInitial) === b).map((s) => s.bktInitial);
const avg = (xs: number[]) => xs.reduce((a, c) => a + c, 0) / xs.length;
console.log(`wrote ${path}: ${seeds.length} seeds, mean warm-up ${avg(seeds.map((s) => s.n)).toFixed(1)}; BKT initial accuracy by bucket: ` +
  ['low', 'average', 'high'].map((b) => `${b} ${avg(byB(b)).toFixed(3)} (n=${byB(b).length})`).join(', '));
