import { join } from 'node:path';
import { loadScenarioFile } from '../src/adapters/node/files';
import { nodeRunEnv } from '../src/adapters/node/run-env';
import { executeRun, runRecord } from '../src/core/index';
import { traceDisclosures, tutorTexts } from '../src/core/scoring/metrics';
const env = nodeRunEnv();
const f = 'gamer--after-school.yaml', seed = 1;
const scenario = loadScenarioFile(join('scenarios', f)); scenario.learner.tracer = 'bkt'; scenario.learner.ability = 'average';
const res = await executeRun(runRecord({ scenario, source: f, tutor: { name: 'planner', config: {} }, seed }), env);
const ev = res.events as any[];
const items = new Map<string, any>(); for (const it of [...ev[0].itemBank.items, ...ev[0].itemBank.probes]) items.set(it.id, it);
const tt = tutorTexts(ev);
for (const d of traceDisclosures(ev)) { const i = tt.findIndex(x => x.seq === d.seq); console.log(JSON.stringify(d), items.get(d.itemId).stem, items.get(d.itemId).answer); for (const x of tt.slice(Math.max(0, i - d.spans), i + 1)) console.log('   >', x.t, JSON.stringify(x.text), x.itemIds); }
