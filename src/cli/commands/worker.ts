/**
 * `npm run worker -- --queue redis://host:port --out <shared dir> [--llm-config <file>]`: a worker of
 * a queue-backed sweep (`sweep --queue`). Start any number, on any machines that see the queue and
 * the shared directory; each takes runs from the queue, runs them, and writes their traces there.
 * SIGTERM / Ctrl-C stops it: runs under way keep their partial traces and go back to the queue.
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { DEFAULT_QUEUE_NAME } from '../../adapters/node/queue/names';
import { onStopSignals } from '../signals';
import { int } from './common';
import { addKtRuntimeOption } from './kt-runtime';

interface WorkerCliOptions {
  queue: string;
  queueName: string;
  out: string;
  llmConfig?: string[];
  concurrency: number;
  lockMs: number;
  leaseMs: number;
  maxStalled: number;
  name?: string;
  quiet?: boolean;
  statusPort?: number;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function registerWorker(program: Command): void {
  addKtRuntimeOption(program
    .command('worker'))
    .description(
      'Run the runs of a queue-backed sweep (sweep --queue): take runs from the BullMQ queue, run them, and write their traces to the shared directory (--out: traces/ complete, partial/ under way). ' +
        "A run that fails is retried with backoff from its partial trace; a killed worker's runs are picked up by the others after --lock-ms and resumed. " +
        "The providers' maxConcurrency and maxRequestsPerMinute (from --llm-config) hold across all workers of the queue. Give every worker the same --llm-config.",
    )
    .requiredOption('--queue <url>', 'the Redis of the queue: redis://host:port[/db]')
    .option('--queue-name <name>', 'the queue (as given to sweep --queue-name)', DEFAULT_QUEUE_NAME)
    .requiredOption('--out <dir>', 'the shared directory the sweep collects from (a local path or a network mount: NFS, SMB, a synced folder)')
    .option('--llm-config <file>', 'providers as JSON or YAML (keys from the environment of this machine); repeatable', collect)
    .option('--concurrency <n>', 'runs at once in this worker', int('--concurrency'), 4)
    .option('--lock-ms <ms>', "a run's lock in the queue: a killed worker's runs go to another worker after about this long", int('--lock-ms'), 30_000)
    .option('--lease-ms <ms>', "a provider slot's lease: a killed worker's slots come back after this long", int('--lease-ms'), 30_000)
    .option('--max-stalled <n>', 'times a run may lose its worker before it fails', int('--max-stalled'), 3)
    .option('--name <name>', 'this worker in logs and in timing.json (default host:pid)')
    .option('--quiet', 'no line per run')
    .option('--status-port <port>', "serve the queue's progress as JSON at http://127.0.0.1:<port>/status (what sweep --status prints; Host checked; a loopback page or dashboard may read it)", int('--status-port'))
    .action(async (o: WorkerCliOptions) => {
      const { startQueueWorker } = await import('../../adapters/node/queue/worker');
      const w = startQueueWorker({
        url: o.queue,
        name: o.queueName,
        outDir: resolve(o.out),
        llmConfig: o.llmConfig ?? [],
        concurrency: Math.max(1, o.concurrency),
        lockMs: Math.max(1000, o.lockMs),
        leaseMs: Math.max(500, o.leaseMs),
        maxStalled: o.maxStalled,
        ...(o.name ? { workerName: o.name } : {}),
        log: o.quiet ? () => {} : (line) => console.log(`[${o.name ?? 'worker'}] ${line}`),
      });
      await w.ready();
      const status = o.statusPort !== undefined ? await serveStatus({ url: o.queue, name: o.queueName }, o.statusPort) : null;
      if (status) console.error(`worker ${w.name}: the queue's progress at ${status.url}`);
      console.error(`worker ${w.name}: taking runs from queue ${o.queueName}, ${o.concurrency} at a time; traces in ${o.out}`);
      await new Promise<void>((done) => {
        const off = onStopSignals(() => {
          off();
          status?.close();
          void w.close().then(done);
        });
      });
      console.error(`worker ${w.name}: stopped`);
    });
}

/** GET /status: the queue's counts, runs under way and failed runs (queueStatus) as JSON. */
async function serveStatus(t: { url: string; name: string }, port: number): Promise<{ url: string; close(): void }> {
  const { createServer } = await import('node:http');
  const { queueStatus } = await import('../../adapters/node/queue/sweep');
  const { queueError } = await import('../../adapters/node/queue/connection');
  const { doorRefusal, refuse } = await import('../../adapters/node/local-door');
  let bound = port;
  const server = createServer((req, res) => {
    // Host and Origin checks (DNS rebinding, other sites' pages); a loopback page (a local dashboard) may read it.
    const why = doorRefusal(req, { host: '127.0.0.1', port: bound });
    if (why) return refuse(res, why);
    if (typeof req.headers.origin === 'string') res.setHeader('Access-Control-Allow-Origin', req.headers.origin);
    if (req.method !== 'GET' || !req.url?.startsWith('/status')) return void res.writeHead(404).end();
    queueStatus(t).then(
      (s) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ queue: t.name, ...s })),
      (e: unknown) => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: queueError(e, t.url).message })),
    );
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  bound = addr.port;
  return { url: `http://127.0.0.1:${addr.port}/status`, close: () => server.close() };
}
