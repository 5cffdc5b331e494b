/**
 * Coupling "student-attempts" against the scripted server: a sweep whose attempts are written by
 * scripted LLM students (src/testing/scripted-student.ts) behind the scripted OpenAI-compatible
 * server (src/testing/mock-openai-server.ts, started in this process), then the calibration of its
 * traces per student model, exactly as `npm run cli -- calibration <dir>` prints it.
 *
 *   npx tsx scripts/student-calibration.ts [--out runs/student-scripted] [--seeds 1-2] [--horizon 30]
 *       [--scenarios 'scenarios/*--after-school.yaml'] [--tutor withholder --tutor planner]
 *       [--student student-calibrated --student student-overconfident]
 *
 * Two scripted students: "student-calibrated" (right with the stated chance, the conditioning
 * rule taken literally) and "student-overconfident" (right whenever the stated chance is 20% or
 * more); "student-copier" (as calibrated, but it copies an answer the tutor gave) is the third
 * (--student). Their figures show that the check tells the two apart; they say nothing about real LLM
 * students (docs/learning-model.md, "Coupling": the recipe with real models).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { calibrationByMode, parseSeedList, type Item } from '../src/core/index';
import { expandScenarioPaths } from '../src/adapters/node/scenario-paths';
import { loadScenarios, planTutorSweep, runNodeSweep } from '../src/adapters/node/sweep/run-sweep';
import { readTraceFile } from '../src/adapters/node/files';
import { startMockOpenAi } from '../src/testing/mock-openai-server';
import { itemsByStem, scriptedStudentHandler } from '../src/testing/scripted-student';
import { formatCalibration } from '../src/cli/commands/calibration';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'runs/student-scripted' },
    seeds: { type: 'string', default: '1-2' },
    horizon: { type: 'string', default: '30' },
    scenarios: { type: 'string', default: 'scenarios/*--after-school.yaml' },
    tutor: { type: 'string', multiple: true, default: ['withholder', 'planner'] },
    student: { type: 'string', multiple: true, default: ['student-calibrated', 'student-overconfident'] },
  },
});
const out = resolve(values.out!);
const seeds = parseSeedList(values.seeds!);
const horizonDays = Number(values.horizon);
const files = expandScenarioPaths([values.scenarios!]);
const tutors = values.tutor!.map((name) => ({ name, config: {} }));
const voices = values.student!.map((model) => ({ kind: 'llm' as const, provider: 'scripted', model }));
const base = { tracer: 'bkt', horizonDays, coupling: 'student-attempts' as const, voice: voices[0]! };

// The scripted students answer from the item banks of the planned runs (by stem).
const jobs = planTutorSweep(loadScenarios(files), base, tutors, seeds, voices);
const items = new Map<string, Item[]>();
for (const j of jobs) for (const [stem, its] of itemsByStem(j.record)) if (!items.has(stem)) items.set(stem, its);
const srv = await startMockOpenAi(scriptedStudentHandler(items));
mkdirSync(out, { recursive: true });
const cfg = join(out, 'llm-scripted.yaml');
writeFileSync(cfg, `providers:\n  - name: scripted\n    baseURL: ${srv.url}\n    maxConcurrency: 16\n`);
console.error(`student-calibration: ${jobs.length} runs (${tutors.map((t) => t.name).join(', ')} × ${files.length} scenarios × ${voices.length} scripted students (${values.student!.join(', ')}) × seeds ${seeds.join(',')}), BKT, ${horizonDays} days, coupling student-attempts -> ${out}`);
const t0 = performance.now();
const res = await runNodeSweep({ files, base, tutors, voices, seeds, threads: 1, concurrency: 8, outDir: out, llmConfig: [cfg] });
await srv.close();
const failed = res.results.filter((r) => r.error || r.summary?.endReason !== 'horizon_reached');
console.error(`${res.results.length} runs in ${((performance.now() - t0) / 1000).toFixed(0)} s; ${failed.length} did not reach the horizon${failed.length ? `: ${failed.map((r) => `${r.job.runId} (${r.error ?? r.summary?.endReason})`).join(', ')}` : ''}`);
const dir = join(out, 'traces');
const traces = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => readTraceFile(join(dir, f)).events);
console.log(formatCalibration(calibrationByMode(traces)));
console.log(`\n(the same: npm run cli -- calibration ${values.out}/traces)`);
if (failed.length) process.exitCode = 1;
