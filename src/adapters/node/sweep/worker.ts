/**
 * A sweep worker thread: runs one episode per request with the same core as `cli run` and
 * replies with the run's summary. The tracer and the persona seeds are loaded once per thread.
 */
import { parentPort } from 'node:worker_threads';
import { errorMessage, loadPersonaSeeds, runEpisode, summarizeRun, tutorEntry, type KnowledgeTracer, type PersonaSeedFile } from '../../../core/index';
import { createNodeTracer } from '../tracers';
import { writeTraceFile } from '../files';
import type { SweepReply, SweepRequest } from './protocol';

const port = parentPort;
if (!port) throw new Error('sweep worker: not in a worker thread');
const tracers = new Map<string, Promise<KnowledgeTracer>>();
let seeds: Promise<PersonaSeedFile> | null = null;

async function run(req: SweepRequest): Promise<SweepReply> {
  const name = req.scenario.learner.tracer;
  if (!tracers.has(name)) tracers.set(name, createNodeTracer(name));
  const tracer = await tracers.get(name)!;
  seeds ??= loadPersonaSeeds();
  const entry = tutorEntry(req.tutor);
  const t0 = performance.now();
  const res = await runEpisode({
    scenario: req.scenario,
    tutor: entry.create({ config: {} }),
    tutorSpec: { name: entry.name, config: {} },
    tracer,
    seeds: await seeds,
    seed: req.seed,
  });
  const ms = performance.now() - t0;
  if (req.tracePath) writeTraceFile(req.tracePath, res.events);
  return { type: 'done', index: req.index, summary: summarizeRun(res.events, req.source), ms };
}

port.on('message', (req: SweepRequest) => {
  run(req).then(
    (reply) => port.postMessage(reply),
    (e: unknown) => port.postMessage({ type: 'error', index: req.index, message: errorMessage(e) } satisfies SweepReply),
  );
});
