/**
 * --kt-runtime on the commands that run AKT (run, sweep, worker, personas, serve-mcp, kt eval):
 * which ONNX Runtime computes the learner model (adapters/node/akt.ts). The option sets
 * EDUCLAW_KT_RUNTIME before the command's action, so the sweep's worker threads and any child
 * process read the same choice; the variable alone works too. A bad value is an error before
 * anything runs.
 */
import type { Command } from 'commander';
import { KT_RUNTIME_ENV, parseKtRuntime } from '../../adapters/node/akt';

export function addKtRuntimeOption(cmd: Command): Command {
  return cmd
    .option('--kt-runtime <runtime>', `ONNX Runtime for the AKT learner: native (onnxruntime-node, CPU), wasm (onnxruntime-web, as in the page) or auto: native when it loads, else wasm, announced on stderr (default: $${KT_RUNTIME_ENV}, else auto); recorded in the trace`)
    .hook('preAction', (_self, action) => {
      const v = action.opts<{ ktRuntime?: string }>().ktRuntime;
      if (v !== undefined) {
        parseKtRuntime(v, '--kt-runtime');
        process.env[KT_RUNTIME_ENV] = v;
      } else parseKtRuntime(process.env[KT_RUNTIME_ENV], KT_RUNTIME_ENV);
    });
}
