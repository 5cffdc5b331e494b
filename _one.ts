import { loadScenarioFile } from './src/adapters/node/files';
import { nodeRunEnv } from './src/adapters/node/run-env';
import { executeRun, runRecord, scoreTrace } from './src/core/index';
const env = nodeRunEnv();
for (const tutor of (process.argv[2] ?? 'silent,planner').split(',')) {
  const scenario = loadScenarioFile('scenarios/steady-worker--after-school.yaml');
  scenario.learner.tracer = process.argv[3] ?? 'bkt';
  const t0 = performance.now();
  const res = await executeRun(runRecord({ scenario, source: 'x', tutor: { name: tutor, config: {} }, seed: 1 }), env);
  console.log(tutor, ((performance.now() - t0) / 1000).toFixed(2), 's', res.events.length, 'events', scoreTrace(res.events).learningGain);
}
