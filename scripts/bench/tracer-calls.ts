/**
 * `npm run bench:tracer-calls [-- --scenario scenarios/fast-careless--after-school.yaml
 * --tutor withholder --seed 42 --kt-runtime wasm|native --rounds 3]`: what one 30-day AKT run
 * asks of the learner model. Counts and times the backend's calls (encode, append, readout by
 * number of candidates) and prints the tracer's counters (readouts answered from its memo
 * among them), for two variants of the same run in one process, alternating round by round
 * after a warm-up run: the tracer as it runs, and the tracer over the same backend declared not
 * separable, so the belief after an answer reads only the course's skills (PredictOptions.also
 * is ignored: the run as it was before the hint). Both give the same trace (akt.test.ts).
 * Prints figures; asserts nothing.
 */
import { parseArgs } from 'node:util';
import { executeRun, runRecord } from '../../src/core/index';
import { AktTracer, type AktBackend } from '../../src/core/learner/kt/akt';
import { loadScenarioFile } from '../../src/adapters/node/files';
import { nodeRunEnv } from '../../src/adapters/node/run-env';
import { loadNodeAktBackend, parseKtRuntime } from '../../src/adapters/node/akt';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'scenarios/fast-careless--after-school.yaml' },
    tutor: { type: 'string', default: 'withholder' },
    seed: { type: 'string', default: '42' },
    'kt-runtime': { type: 'string', default: 'wasm' },
    rounds: { type: 'string', default: '3' },
  },
});
const seed = Number(values.seed);
if (!Number.isInteger(seed)) throw new Error(`--seed takes a whole number, not "${values.seed}"`);
const runtime = parseKtRuntime(values['kt-runtime']!, '--kt-runtime');
if (runtime === 'auto') throw new Error('--kt-runtime takes native or wasm');

const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds takes a whole number ≥ 1, not "${values.rounds}"`);

const loaded = await loadNodeAktBackend(undefined, false, runtime);
const b = loaded.backend;
type Stat = { calls: number; ms: number; sizes: Map<number, number> };
type Stats = Record<'encode' | 'append' | 'readout', Stat> & { sets: Set<string> };
const fresh = (): Stats => ({ encode: { calls: 0, ms: 0, sizes: new Map() }, append: { calls: 0, ms: 0, sizes: new Map() }, readout: { calls: 0, ms: 0, sizes: new Map() }, sets: new Set() });
/** The backend with its calls counted and timed into `stats`; `separable` as the variant says. */
const instrumented = (stats: Stats, separable: boolean): AktBackend => {
  const note = (k: 'encode' | 'append' | 'readout', n: number, t0: number) => {
    const s = stats[k];
    s.calls++;
    s.ms += performance.now() - t0;
    s.sizes.set(n, (s.sizes.get(n) ?? 0) + 1);
  };
  return {
    encode: async (s, q, r) => {
      const t0 = performance.now();
      const c = await b.encode(s, q, r);
      note('encode', s.length, t0);
      return c;
    },
    ...(b.append
      ? {
          append: async (c, s, q, r) => {
            const t0 = performance.now();
            const next = await b.append!(c, s, q, r);
            note('append', 1, t0);
            return next;
          },
        }
      : {}),
    readout: async (c, l, cs, cq) => {
      const t0 = performance.now();
      const out = await b.readout(c, l, cs, cq);
      note('readout', cs.length, t0);
      stats.sets.add(`${cs.join(',')}|${cq.join(',')}`);
      return out;
    },
    ...(b.recycle ? { recycle: b.recycle } : {}),
    separable,
  };
};
const scenario = loadScenarioFile(values.scenario!);
const record = runRecord({ scenario, source: values.scenario!, tutor: { name: values.tutor!, config: {} }, seed });
const run = async (separable: boolean) => {
  const stats = fresh();
  const tracer = new AktTracer(instrumented(stats, separable), loaded.meta);
  const t0 = performance.now();
  const res = await executeRun(record, { ...nodeRunEnv({ ktRuntime: runtime }), tracer: async () => tracer });
  return { ms: performance.now() - t0, events: res.events.length, reason: res.reason, stats, counters: { ...tracer.counters } };
};
const variants = [
  { name: 'as the tracer runs', separable: b.separable === true },
  { name: 'no hint (readouts taken as not separable)', separable: false },
];
await run(variants[0]!.separable); // warm-up: the runtime compiles and allocates on its first run
const results = variants.map(() => [] as Awaited<ReturnType<typeof run>>[]);
for (let i = 0; i < rounds; i++) {
  const order = i % 2 ? [1, 0] : [0, 1];
  for (const k of order) results[k]!.push(await run(variants[k]!.separable));
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
console.log(`${values.scenario} · ${values.tutor} · seed ${seed} · AKT on ${runtime} (its readouts ${b.separable ? '' : 'not '}separable) · ${rounds} round(s), the two variants alternating`);
variants.forEach((v, k) => {
  const rs = results[k]!;
  const last = rs.at(-1)!;
  console.log(`\n${v.name}: run ${median(rs.map((r) => r.ms)).toFixed(0)} ms (median), ${last.events} events, ${last.reason}`);
  for (const key of ['encode', 'append', 'readout'] as const) {
    const s = last.stats[key];
    const sizes = [...s.sizes].sort((x, y) => x[0] - y[0]).map(([n, c]) => `${n}: ${c}`).join(', ');
    console.log(`  ${key.padEnd(8)} ${String(s.calls).padStart(5)} calls ${median(rs.map((r) => r.stats[key].ms)).toFixed(1).padStart(8)} ms (median)  (${key === 'readout' ? 'candidates' : 'rows'}: ${sizes})`);
  }
  console.log(`  distinct candidate sets read: ${last.stats.sets.size}`);
  console.log('  tracer counters:', JSON.stringify(last.counters));
});
if (variants[0]!.separable) {
  const ratio = median(results[0]!.map((r, i) => r.stats.readout.ms / results[1]![i]!.stats.readout.ms));
  console.log(`\nreadout time, with the hint / without: ${ratio.toFixed(2)} (median over rounds)`);
}
await b.release();
