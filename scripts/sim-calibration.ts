/**
 * Adds the calibration of simulated runs to public/data/calibration.json (shown in the app's
 * Calibration view): (run, day) predicted vs observed accuracy over the traces of a sweep.
 *
 *   npm run cli -- sweep --scenarios 'scenarios/*--*.yaml' --tutor planner --seeds 42 --jobs 2 --out runs/planner-akt
 *   (or the traces directory that `npm run bench:sweep -- --tutor planner` prints)
 *   npm run calibration:sim -- runs/planner-akt/traces "the 55 library scenarios, planner, seed 42"
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calibration } from '../src/core/index';
import { readTraceFile } from '../src/adapters/node/files';

const [dir, label] = process.argv.slice(2);
if (!dir || !label) throw new Error('usage: npm run calibration:sim -- <traces dir> "<what the runs are>"');
const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f));
const traces = files.map((f) => readTraceFile(f).events);
const tracers = [...new Set(traces.map((t) => (t[0]?.type === 'run_start' ? `${t[0].tracer.name} ${t[0].tracer.version}` : '?')))];
const r = calibration(traces);
const path = 'public/data/calibration.json';
const file = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
file.simulated = { label, tracers, command: `npm run cli -- calibration <traces of ${label}>`, ...r };
writeFileSync(path, JSON.stringify(file, null, 1) + '\n');
console.log(`${r.runs} runs (${tracers.join(', ')}), ${r.pairs} pairs, ${r.attempts} attempts: ECE ${r.ece?.toFixed(4)}, Brier ${r.brier?.toFixed(4)}; wrote ${path}`);
