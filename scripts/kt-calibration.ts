/**
 * Writes public/data/calibration.json, shown in the app's Calibration view: AKT and BKT on the
 * held-out students of a data set fold (AUC, accuracy, ECE, Brier, reliability bins).
 *
 *   npm run calibration:real -- [--data ../shared/data/assist2009_pid] [--fold 1]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { runKtEval } from '../src/cli/commands/kt';
import { DEFAULT_AKT_DIR } from '../src/adapters/node/akt';
import { TRACER_NAMES } from '../src/core/index';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const data = arg('--data', resolve('../shared/data/assist2009_pid'));
const fold = Number(arg('--fold', '1'));
const tracers = [];
for (const tracer of TRACER_NAMES) {
  const r = await runKtEval({ data, fold, tracer, model: DEFAULT_AKT_DIR, batch: 32 });
  console.log(`${tracer}: AUC ${r.auc.toFixed(4)} ACC ${r.acc.toFixed(4)} ECE ${r.ece.toFixed(4)} Brier ${r.brier.toFixed(4)} (${r.rows} rows)`);
  const { seconds: _s, data: _d, fold: _f, ...rest } = r;
  tracers.push(rest);
}
// Keep the simulated-run section written by `npm run calibration:sim`.
const previous = existsSync('public/data/calibration.json') ? (JSON.parse(readFileSync('public/data/calibration.json', 'utf8')) as { simulated?: unknown }) : {};
const out = {
  command: `npm run cli -- kt eval --data <${basename(data)}> --fold ${fold} --tracer akt|bkt`,
  data: basename(data),
  fold,
  reference: { source: 'EduClaw-Bench (Lee et al. 2026)', ece: 0.049, brier: 0.033 },
  tracers,
  ...(previous.simulated ? { simulated: previous.simulated } : {}),
};
writeFileSync('public/data/calibration.json', JSON.stringify(out, null, 1) + '\n');
console.log('wrote public/data/calibration.json');
