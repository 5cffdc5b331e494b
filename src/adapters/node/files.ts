/** File I/O for the CLI: scenarios, traces (JSONL) and the package's own paths. */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScenario, parseJsonl, toJsonl, type Scenario, type ParsedTrace, type TraceEvent } from '../../core/index';

/** Repository root (where package.json, scenarios/ and public/ live). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const DEFAULT_SCENARIO_PATH = resolve(ROOT, 'scenarios/default.yaml');

export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read scenario ${path}: ${(e as Error).message}`);
  }
  return parseScenario(text, path);
}

export function readTraceFile(path: string): ParsedTrace {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read trace ${path}: ${(e as Error).message}`);
  }
  return parseJsonl(text, path);
}

export function writeTraceFile(path: string, events: readonly TraceEvent[]): void {
  mkdirSync(dirname(resolve(path)), { recursive: true });
  writeFileSync(path, toJsonl(events));
}
