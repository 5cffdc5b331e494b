/** Traces inside a zip (a page benchmark, a classroom study export: traces/*.jsonl), for `report` and `score`. */
import { readFileSync, statSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { parseJsonl, type TraceEvent } from '../../core/index';

/** A zip file, by its first bytes (PK\x03\x04). */
export function isZip(path: string): boolean {
  try {
    if (statSync(path).isDirectory()) return false;
    const b = readFileSync(path).subarray(0, 4);
    return b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
  } catch {
    return false;
  }
}

/** The traces/*.jsonl of a zipped benchmark, each read when needed. */
export function zippedTraces(zip: string): { file: string; read: () => { events: TraceEvent[]; cutLine: boolean } }[] {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(readFileSync(zip));
  } catch (e) {
    throw new Error(`${zip}: not a readable zip (${(e as Error).message})`);
  }
  return Object.keys(entries)
    .filter((n) => /(^|\/)traces\/[^/]+\.jsonl$/.test(n))
    .sort()
    .map((n) => ({ file: `${zip}:${n}`, read: () => ({ events: parseJsonl(strFromU8(entries[n]!), `${zip}:${n}`).events, cutLine: false }) }));
}
