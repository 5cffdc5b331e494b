// A tracer worker for scripts/bench/worker-history.ts: registers tsx in this thread (worker
// threads do not inherit the main thread's loader) and loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./worker.ts', import.meta.url).href);
