/**
 * `npm run bench:worker-history [-- --calls 160]`: what sending the learner's history to the
 * tracer worker costs, whole against only the rows added since the last call
 * (src/adapters/browser/history-sync.ts, which the page's kt-client.ts and kt.worker.ts use).
 *
 * Two Node worker threads each hold an AKT tracer on onnxruntime-web wasm (the page's runtime)
 * and answer postMessage calls: one gets the whole history at every call, the other the
 * HistorySender's delta, rebuilt by a HistoryReceiver. Both get the same calls, alternating which
 * goes first: after each answer appended to the history, P(correct) of one item (a new question
 * each call, so no readout is answered from the tracer's memo). Node's postMessage clones with
 * the same V8 serializer as the page's. Prints the median round trip per starting history length;
 * asserts nothing.
 */
import { Worker } from 'node:worker_threads';
import { parseArgs } from 'node:util';
import { HistorySender } from '../../src/adapters/browser/history-sync';
import type { Interaction, Query } from '../../src/core/index';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '160' } } });
const calls = Number(values.calls);
if (!Number.isInteger(calls) || calls < 40) throw new Error(`--calls takes a whole number ≥ 40, not "${values.calls}"`);

const start = async () => {
  const w = new Worker(new URL('./worker-history/worker.mjs', import.meta.url));
  await new Promise((done, fail) => {
    w.once('message', done);
    w.once('error', fail);
  });
  return w;
};
const whole = await start();
const delta = await start();
const call = (w: Worker, m: unknown) =>
  new Promise<unknown>((done, fail) => {
    w.once('message', (r: { error?: string }) => (r && typeof r === 'object' && 'error' in r ? fail(new Error(r.error)) : done(r)));
    w.postMessage(m);
  });
const row = (i: number): Interaction => ({ skill: 1 + ((i * 7) % 110), question: 1 + i * 3, correct: i % 3 > 0 });
const med = (x: number[]) => [...x].sort((a, b) => a - b)[x.length >> 1]!;
console.log(`bench:worker-history: ${calls} calls per history length, AKT on onnxruntime-web wasm in two worker threads, node ${process.version}`);
for (const L0 of [150, 300, 600]) {
  const h = Array.from({ length: L0 }, (_, i) => row(i));
  const sender = new HistorySender();
  const t = { whole: [] as number[], delta: [] as number[] };
  for (let i = 0; i < calls; i++) {
    h.push(row(L0 + i));
    const queries: Query[] = [{ skill: 5, question: 100 + i, level: 0 }];
    const d = sender.delta(h);
    const timed = async (w: Worker, m: unknown) => {
      const t0 = performance.now();
      await call(w, m);
      return performance.now() - t0;
    };
    const runWhole = () => timed(whole, { base: 0, rows: h, queries, reset: true });
    const runDelta = () => timed(delta, { base: d.base, rows: d.rows, queries });
    // Alternate which goes first, so that neither always runs right after the other.
    const [a, b] = i % 2 ? [await runWhole(), await runDelta()] : [await runDelta(), await runWhole()].reverse();
    // The first quarter warms both up (wasm tiers up, the first encodings).
    if (i >= calls / 4) {
      t.whole.push(a!);
      t.delta.push(b!);
    }
  }
  console.log(`history ${L0} → ${L0 + calls} rows: round trip with the whole history ${med(t.whole).toFixed(3)} ms, with the rows added since the last call ${med(t.delta).toFixed(3)} ms (median of ${t.whole.length})`);
}
await whole.terminate();
await delta.terminate();
