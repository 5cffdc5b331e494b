/**
 * The ability knob against the EduClaw-Bench paper's pre-tutor probe accuracies (0.19 / 0.34 / 0.53
 * for low / average / high ability): the day-0 probe solve rate of the library's learners by
 * ability, per tracer (one-day runs of the silent tutor; the day-0 probe comes before any tutoring).
 *
 *   npx tsx scripts/ability-levels.ts [--seeds 1-10] [--schedule after-school]
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenarioFile } from '../src/adapters/node/files';
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { TRACER_NAMES, executeRun, meanCi95, runRecord } from '../src/core/index';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const [lo, hi] = arg('--seeds', '1-10').split('-').map(Number) as [number, number];
const schedule = arg('--schedule', 'after-school');
const files = readdirSync('scenarios').filter((f) => f.endsWith(`--${schedule}.yaml`)).sort();
const env = nodeRunEnv();
const PAPER: Record<string, number> = { low: 0.19, average: 0.34, high: 0.53 };
console.log(`Day-0 probe solve rate by ability: ${files.length} scenarios (${schedule}) × seeds ${lo}-${hi}; mean [95% CI]\n`);
console.log('| tracer | ability | solve rate (P) | graded share | paper |\n|---|---|---|---|---|');
for (const tracer of TRACER_NAMES) {
  for (const ability of ['low', 'average', 'high'] as const) {
    const p: number[] = [];
    const g: number[] = [];
    for (const f of files) {
      for (let seed = lo; seed <= hi; seed++) {
        const scenario = loadScenarioFile(join('scenarios', f));
        scenario.learner.tracer = tracer;
        scenario.learner.ability = ability;
        const res = await executeRun(runRecord({ scenario, source: f, tutor: { name: 'silent', config: {} }, seed, horizonDays: 1 }), env);
        const day0 = res.events.find((e) => e.type === 'probe' && e.day === 0);
        if (day0?.type === 'probe') {
          p.push(day0.solveRate);
          g.push(day0.gradedRate);
        }
      }
    }
    const f = (xs: number[]) => {
      const c = meanCi95(xs);
      return `${c.mean.toFixed(3)} [${c.lo!.toFixed(3)}, ${c.hi!.toFixed(3)}]`;
    };
    console.log(`| ${tracer} | ${ability} | ${f(p)} | ${f(g)} | ${PAPER[ability]} |`);
  }
}
