// The worker side of scripts/bench/worker-history.ts: an AKT tracer on onnxruntime-web wasm behind
// postMessage, fed as the page's tracer worker is (HistoryReceiver), or the whole history (reset).
import { parentPort } from 'node:worker_threads';
import { loadNodeAkt } from '../../../src/adapters/node/akt';
import { HistoryReceiver } from '../../../src/adapters/browser/history-sync';
import { errorMessage, type Interaction, type Query } from '../../../src/core/index';

const { tracer } = await loadNodeAkt(undefined, false, 'wasm');
const receiver = new HistoryReceiver();
parentPort!.on('message', (m: { base: number; rows: Interaction[]; queries: Query[]; reset?: boolean }) => {
  const history = m.reset ? m.rows : receiver.apply(m.base, m.rows);
  tracer.predict(history, m.queries).then(
    (p) => parentPort!.postMessage(p),
    (e: unknown) => parentPort!.postMessage({ error: errorMessage(e) }),
  );
});
parentPort!.postMessage('ready');
