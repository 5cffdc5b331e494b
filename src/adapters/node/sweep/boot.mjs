// Worker-thread entry for piscina: registers tsx in this thread (worker threads do not inherit the
// loader of the main thread) and re-exports the TypeScript worker's task function.
import { register } from 'tsx/esm/api';

register();
const mod = await import(new URL('./worker.ts', import.meta.url).href);
export default mod.default;
