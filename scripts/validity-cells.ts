/**
 * The command line both paired suites read (scripts/validity.ts, scripts/redteam.ts): tracer,
 * seeds, schedule and the library's scenarios of that schedule.
 */
import { readdirSync } from 'node:fs';

export const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};

export function validityCells() {
  const tracer = arg('--tracer', 'akt');
  const [lo, hi] = arg('--seeds', '1-3').split('-').map(Number) as [number, number];
  if (!Number.isInteger(lo) || (hi !== undefined && (!Number.isInteger(hi) || hi < lo))) throw new Error(`--seeds must be n or n-m (got ${arg('--seeds', '1-3')})`);
  const seeds = Array.from({ length: (hi ?? lo) - lo + 1 }, (_, i) => lo + i);
  const schedule = arg('--schedule', 'after-school');
  const only = arg('--scenarios', '');
  const files = readdirSync('scenarios')
    .filter((f) => f.endsWith(`--${schedule}.yaml`) && (!only || only.split(',').some((o) => f.startsWith(o))))
    .sort();
  if (files.length === 0) throw new Error(`no library scenario of schedule ${schedule}${only ? ` starting with ${only}` : ''} in scenarios/`);
  return { tracer, seeds, schedule, files };
}
