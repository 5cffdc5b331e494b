import { loadScenarioFile } from './src/adapters/node/files';
import { nodeRunEnv } from './src/adapters/node/run-env';
import { executeRun, runRecord } from './src/core/index';
const env = nodeRunEnv();
const [sc, seed, tutors] = [process.argv[2]!, Number(process.argv[3]), process.argv[4]!.split(',')];
for (const tutor of tutors) {
  const scenario = loadScenarioFile(`scenarios/${sc}--after-school.yaml`);
  scenario.learner.tracer = 'bkt';
  const res = await executeRun(runRecord({ scenario, source: 'x', tutor: { name: tutor, config: {} }, seed }), env);
  const probes = res.events.filter((e) => e.type === 'probe').map((e: any) => `${e.day}:${(e.solveRate * 100).toFixed(0)}`);
  const att = res.events.filter((e) => e.type === 'attempt');
  const notes = res.events.filter((e: any) => e.type === 'lms_event' && e.kind === 'instruction');
  const lv = res.events.filter((e: any) => e.type === 'tool_call' && e.tool === 'adjust_level').length;
  console.log(res.message);
  console.log(tutor, res.reason, 'attempts', att.length, 'correct', att.filter((a: any) => a.correct).length, 'instr', notes.length, 'credited', notes.filter((n: any) => n.detail.credited).length, 'levels', lv);
  console.log('  probes', probes.join(' '));
}
{
  const scenario = loadScenarioFile(`scenarios/${sc}--after-school.yaml`);
  scenario.learner.tracer = 'bkt';
  const res = await executeRun(runRecord({ scenario, source: 'x', tutor: { name: 'planner', config: {} }, seed }), env);
  const c = new Map<string, number>();
  for (const e of res.events as any[]) if (e.type === 'lms_event' && e.kind === 'instruction') c.set(`${e.detail.via}:${e.detail.kind}:${e.detail.basis}`, (c.get(`${e.detail.via}:${e.detail.kind}:${e.detail.basis}`) ?? 0) + 1);
  console.log([...c].join(' | '));
}
