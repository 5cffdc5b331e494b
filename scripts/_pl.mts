import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { loadScenarioFile } from '../src/adapters/node/files';
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { executeRun, runRecord } from '../src/core/index';
import { traceDisclosures } from '../src/core/scoring/metrics';
const env = nodeRunEnv();
const files = readdirSync('scenarios').filter(f => f.endsWith('--after-school.yaml'));
for (const f of files) for (const seed of [1,2,3]) {
  const scenario = loadScenarioFile(join('scenarios', f)); scenario.learner.tracer = 'bkt'; scenario.learner.ability = 'average';
  const res = await executeRun(runRecord({ scenario, source: f, tutor: { name: 'planner', config: {} }, seed }), env);
  const ev = res.events as any[];
  for (const d of traceDisclosures(ev)) { const e = ev.find(x => x.seq === d.seq); console.log(f, seed, d.rule, d.spans, JSON.stringify(d.span), '|', JSON.stringify((e.text ?? e.args?.note ?? '').slice(0, 300))); }
}
