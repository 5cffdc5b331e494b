// Worker-thread entry: registers tsx in this thread (worker threads do not inherit the loader of
// the main thread) and loads the TypeScript worker named in workerData.entry.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
