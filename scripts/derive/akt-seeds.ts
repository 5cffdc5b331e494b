/**
 * AKT ability buckets and the initial mastery matrix of the persona seeds: for every seed, the
 * AKT belief over all skills after its warm-up history (P(correct) on an average item). Buckets
 * are terciles of the mean belief (the seed's initial probe accuracy over all skills).
 *
 *   npx tsx scripts/derive/akt-seeds.ts [--model public/models/akt]
 *
 * Writes `ability.akt` into src/core/data/persona-seeds.json and the matrix to
 * public/models/akt/initial-mastery.u16 (uint16 little-endian, value/65535, row-major seeds × skills).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { masteryQueries, unpackHistory, type KnowledgeTracer, type PersonaSeedFile } from '../../src/core/index';

export async function initialMastery(tracer: KnowledgeTracer, seeds: PersonaSeedFile): Promise<{ rows: number; cols: number; data: Float32Array }> {
  const cols = tracer.info.nSkills;
  const q = masteryQueries(Array.from({ length: cols }, (_, i) => i + 1));
  const data = new Float32Array(seeds.seeds.length * cols);
  for (let i = 0; i < seeds.seeds.length; i++) data.set(await tracer.predict(unpackHistory(seeds.seeds[i]!.h), q), i * cols);
  return { rows: seeds.seeds.length, cols, data };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadNodeAkt, DEFAULT_AKT_DIR } = await import('../../src/adapters/node/akt');
  const i = process.argv.indexOf('--model');
  const dir = resolve(i > 0 ? process.argv[i + 1]! : DEFAULT_AKT_DIR);
  // Derived data comes from the reference runtime (wasm), as the page computes it.
  const { tracer } = await loadNodeAkt(dir, false, 'wasm');
  const seedsPath = new URL('../../src/core/data/persona-seeds.json', import.meta.url);
  const seeds = JSON.parse(readFileSync(seedsPath, 'utf8')) as PersonaSeedFile & Record<string, unknown>;
  const t0 = performance.now();
  const m = await initialMastery(tracer, seeds);
  const secs = (performance.now() - t0) / 1000;
  const means = Array.from({ length: m.rows }, (_, r) => m.data.subarray(r * m.cols, (r + 1) * m.cols).reduce((a, b) => a + b, 0) / m.cols);
  const sorted = [...means].sort((a, b) => a - b);
  const cut1 = sorted[Math.floor(sorted.length / 3)]!;
  const cut2 = sorted[Math.floor((2 * sorted.length) / 3)]!;
  const bucket = (x: number) => (x < cut1 ? 'low' : x < cut2 ? 'average' : 'high');
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  seeds.ability.akt = {
    measure: `mean AKT P(correct) on an average item over all ${m.cols} skills after the warm-up (${tracer.info.version})`,
    cutPoints: [round(cut1), round(cut2)],
    buckets: means.map(bucket) as ('low' | 'average' | 'high')[],
    initial: means.map(round),
    // New seeds' buckets leave the old offsets meaningless: derived again by seed-ability.ts.
    offsets: [],
    offsetsProvenance: 'not derived: run npx tsx scripts/derive/seed-ability.ts',
  };
  writeFileSync(seedsPath, JSON.stringify(seeds) + '\n');
  const u16 = new Uint16Array(m.data.length);
  m.data.forEach((p, k) => (u16[k] = Math.round(Math.min(Math.max(p, 0), 1) * 65535)));
  writeFileSync(resolve(dir, 'initial-mastery.u16'), Buffer.from(u16.buffer));
  const by = (b: string) => means.filter((x) => bucket(x) === b);
  const avg = (xs: number[]) => xs.reduce((a, c) => a + c, 0) / xs.length;
  console.log(`${m.rows} seeds × ${m.cols} skills in ${secs.toFixed(1)} s; AKT initial accuracy by bucket: ` + ['low', 'average', 'high'].map((b) => `${b} ${avg(by(b)).toFixed(3)} (n=${by(b).length})`).join(', '));
}
