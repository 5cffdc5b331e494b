/**
 * The scripted chat-completions server of `npm run bench:llm`, in its own process (so that its
 * work does not share the sweep's event loop): every reply comes after a fixed delay. Started by
 * scripts/bench/llm.ts with fork(); sends { url } when listening, and answers "stats" with the
 * number of requests, the most that were in flight at once, the mean in flight (from
 * the first request to the last reply) and the share of
 * its lifetime its event loop was busy; "reset" starts the counts afresh.
 */
import { performance } from 'node:perf_hooks';
import { policyReply, startMockOpenAi } from '../../src/testing/mock-openai-server';

const delayMs = Number(process.env.BENCH_DELAY_MS ?? 50);
let inFlight = 0;
let peak = 0;
let requests = 0;
// Time-weighted calls in flight (the integral of inFlight over time) from the first request on.
let area = 0;
let last = 0;
let first: number | null = null;
const step = () => {
  const now = performance.now();
  area += inFlight * (now - last);
  last = now;
};
const srv = await startMockOpenAi(async (body) => {
  requests++;
  step();
  first ??= last;
  inFlight++;
  peak = Math.max(peak, inFlight);
  await new Promise((r) => setTimeout(r, delayMs));
  step();
  inFlight--;
  // Tool-call ids from the conversation (not the request counter): the same run gets the same replies whatever the interleaving.
  const r = policyReply(body);
  return r.kind === 'chat' && r.toolCalls ? { ...r, toolCalls: r.toolCalls.map((c, i) => ({ ...c, id: `call_${body.messages.length}_${i}` })) } : r;
});
process.on('message', (m) => {
  if (m === 'stats') process.send!({ requests, peak, meanInFlight: first === null ? 0 : area / (last - first), busy: performance.eventLoopUtilization().utilization });
  if (m === 'close') void srv.close().then(() => process.exit(0));
  // A fresh count (bench:scale measures several sweeps against one server).
  if (m === 'reset') {
    requests = 0;
    peak = 0;
    area = 0;
    first = null;
  }
});
process.send!({ url: srv.url });
