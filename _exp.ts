import { loadScenarioFile } from './src/adapters/node/files';
import { nodeRunEnv } from './src/adapters/node/run-env';
import { executeRun, runRecord, scoreTrace } from './src/core/index';
const env = nodeRunEnv();
const tutors = process.argv[2]!.split(',');
for (const sc of ['steady-worker', 'confused-productive']) for (const seed of [1, 2]) {
  const line: string[] = [];
  for (const tutor of tutors) {
    const scenario = loadScenarioFile(`scenarios/${sc}--after-school.yaml`);
    scenario.learner.tracer = process.argv[3] ?? 'akt';
    const res = await executeRun(runRecord({ scenario, source: 'x', tutor: { name: tutor, config: {} }, seed }), env);
    const pr = res.events.filter((e) => e.type === 'probe') as any[];
    const att = res.events.filter((e) => e.type === 'attempt') as any[];
    const own = att.filter((a) => a.source === 'own');
    line.push(`${tutor}: ${(scoreTrace(res.events).learningGain! * 100).toFixed(2)} [${(pr[0].solveRate * 100).toFixed(0)}→${(pr[pr.length - 1].solveRate * 100).toFixed(0)}] n=${own.length} acc=${(own.filter((a) => a.correct).length / own.length).toFixed(2)}`);
  }
  console.log(sc.slice(0, 12), seed, line.join(' | '));
}
