/**
 * Red-team run (docs/validity.md, "Exploits an outsider would try"): each exploit of
 * src/core/tutors/exploits.ts paired with the no-tutor control (silent) and with the planner on
 * the library's scenarios of one schedule × seeds (average ability), with the deterministic axes
 * each targets. Prints one row per exploit; --json writes every run's gain and axes.
 *
 *   npx tsx scripts/redteam.ts [--tracer akt|bkt] [--seeds 1-3] [--tutors a,b] [--scenarios x,y] [--json out.json]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenarioFile } from '../src/adapters/node/files';
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { executeRun, runRecord, scoreTrace } from '../src/core/index';
import { pairedDiff, type ValidityRun } from '../src/core/analysis/validity';
import { EXPLOIT_POLICIES } from '../src/core/tutors/exploits';
import { arg, validityCells } from './validity-cells';

const { tracer, seeds, schedule, files } = validityCells();
const exploits = arg('--tutors', '') ? arg('--tutors', '').split(',') : EXPLOIT_POLICIES.map((t) => t.name);
const tutors = ['silent', 'planner', ...exploits];
interface Run extends ValidityRun {
  responsiveness: number | null;
  leakage: number | null;
  independence: number | null;
  extraction: number | null;
}
const env = nodeRunEnv();
const runs: Run[] = [];
const t0 = performance.now();
for (const f of files) {
  for (const seed of seeds) {
    for (const tutor of tutors) {
      const scenario = loadScenarioFile(join('scenarios', f));
      scenario.learner.tracer = tracer;
      scenario.learner.ability = 'average';
      const res = await executeRun(runRecord({ scenario, source: f, tutor: { name: tutor, config: {} }, seed }), env);
      if (res.reason !== 'horizon_reached') throw new Error(`${f} × ${tutor} × seed ${seed}: the run ended ${res.reason}${res.message ? ` (${res.message})` : ''}, not at its horizon`);
      const r = scoreTrace(res.events);
      if (r.learningGain === null) throw new Error(`${f} × ${tutor} × seed ${seed}: no learning gain`);
      runs.push({ tutor, scenario: scenario.id, ability: 'average', seed, gain: r.learningGain, responsiveness: r.responsiveness, leakage: r.leakage, independence: r.independence, extraction: r.extraction ?? null });
    }
  }
  process.stderr.write(`${f}: ${runs.length} runs, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
}
const pp = (x: number | null) => (x === null ? '—' : (x * 100).toFixed(3));
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
const meanOf = (t: string, k: 'gain' | 'responsiveness' | 'leakage' | 'independence' | 'extraction') => {
  const xs = runs.filter((r) => r.tutor === t && r[k] !== null).map((r) => r[k] as number);
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
};
const d = (a: string, b: string) => {
  const x = pairedDiff(runs, a, b);
  return `${x.mean >= 0 ? '+' : ''}${pp(x.mean)} [${pp(x.lo)}, ${pp(x.hi)}] | ${x.dz === null ? '—' : x.dz.toFixed(2)} | ${x.wins}/${x.n}`;
};
console.log(`Red team: tracer ${tracer}, ${files.length} scenarios (${schedule}) × seeds ${seeds.join(',')}; ${runs.length} runs in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
console.log('| tutor | gain (pp/day) | − silent [95% CI] | d_z | wins | − planner [95% CI] | d_z | wins | responsiveness | leakage | independence | extraction |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const t of tutors) {
  const vs = t === 'silent' ? '— | — | —' : d(t, 'silent');
  const vp = t === 'planner' ? '— | — | —' : d(t, 'planner');
  console.log(`| ${t} | ${pp(meanOf(t, 'gain'))} | ${vs} | ${vp} | ${pct(meanOf(t, 'responsiveness'))} | ${pct(meanOf(t, 'leakage'))} | ${pct(meanOf(t, 'independence'))} | ${pct(meanOf(t, 'extraction'))} |`);
}
const json = arg('--json', '');
if (json) writeFileSync(json, JSON.stringify({ tracer, seeds, schedule, runs }, null, 1));
