/**
 * The reference tutors, the no-tutor control (silent) and the oracle side by side on one scenario
 * over several seeds, as a Markdown table of deterministic axes (mean and 95% t-interval over
 * seeds) and the planner's paired wins.
 *
 *   npm run report:reference -- [--scenario scenarios/default.yaml] [--seeds 1-10] [--tracer akt|bkt]
 */
import { loadScenarioFile, DEFAULT_SCENARIO_PATH } from '../src/adapters/node/files';
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { executeRun, meanCi95, runRecord, scoreTrace, type ScoreReport } from '../src/core/index';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const path = arg('--scenario', DEFAULT_SCENARIO_PATH);
const [lo, hi] = arg('--seeds', '1-10').split('-').map(Number) as [number, number];
const seeds = Array.from({ length: (hi ?? lo) - lo + 1 }, (_, i) => lo + i);
const scenario = loadScenarioFile(path);
const tracerName = arg('--tracer', '');
if (tracerName) scenario.learner.tracer = tracerName;
const env = nodeRunEnv();
const tutors = ['silent', 'answer-giver', 'withholder', 'planner', 'oracle'];
const rows: Record<string, ScoreReport[]> = {};
const t0 = performance.now();
for (const t of tutors) {
  rows[t] = [];
  for (const seed of seeds) {
    const res = await executeRun(runRecord({ scenario, source: path, tutor: { name: t, config: {} }, seed }), env);
    rows[t]!.push(scoreTrace(res.events));
  }
}
const fmt = (xs: (number | null)[], scale: number, digits: number) => {
  const v = xs.filter((x): x is number => x !== null);
  if (v.length === 0) return 'n/a';
  const c = meanCi95(v);
  const f = (x: number) => (x * scale).toFixed(digits);
  return c.lo === null ? f(c.mean) : `${f(c.mean)} [${f(c.lo)}, ${f(c.hi!)}]`;
};
console.log(`Scenario ${scenario.id} (tracer ${scenario.learner.tracer}), seeds ${seeds[0]}–${seeds[seeds.length - 1]} (n=${seeds.length}); mean [95% CI]\n`);
console.log('| tutor | learning gain (pp/day) | responsiveness (%) | leakage (%) | independence (%) | planner beats it on learning gain |');
console.log('|---|---|---|---|---|---|');
for (const t of tutors) {
  const r = rows[t]!;
  const beats = t === 'planner' ? '—' : `${r.filter((x, i) => rows.planner![i]!.learningGain! > x.learningGain!).length}/${r.length} seeds`;
  console.log(`| ${t} | ${fmt(r.map((x) => x.learningGain), 100, 2)} | ${fmt(r.map((x) => x.responsiveness), 100, 1)} | ${fmt(r.map((x) => x.leakage), 100, 1)} | ${fmt(r.map((x) => x.independence), 100, 1)} | ${beats} |`);
}
console.log(`\n${tutors.length * seeds.length} runs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
