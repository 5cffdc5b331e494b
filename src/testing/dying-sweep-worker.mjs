// A sweep worker for tests (PoolOptions.workerFile) whose thread dies on some jobs, the way a real
// worker dies on a crash: seed 2 calls process.exit(1) (in a worker thread that ends the thread
// only), seed 3 throws from a timer (an uncaught exception). Every other job runs the real worker.
import runTask from '../adapters/node/sweep/boot.mjs';

export default async function dyingTask(task) {
  if (task.record.seed === 2) process.exit(1);
  if (task.record.seed === 3) {
    setTimeout(() => {
      throw new Error('the worker crashed (uncaught, from a timer)');
    }, 0);
    return new Promise(() => {});
  }
  return runTask(task);
}
