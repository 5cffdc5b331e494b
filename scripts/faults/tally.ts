/** Where the fault campaigns put their tallies (one JSON file each), for scripts/faults/run.ts to print. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Tally } from '../../src/testing/fuzz';

/** Not under test-results/: Playwright empties that folder when the XSS corpus starts. */
export const FAULTS_OUT = process.env.FAULTS_OUT ?? join(tmpdir(), 'educlaw-faults');

export function writeTallies(file: string, tallies: Tally[]): void {
  mkdirSync(FAULTS_OUT, { recursive: true });
  writeFileSync(join(FAULTS_OUT, `${file}.json`), JSON.stringify(tallies, null, 2) + '\n');
}

export function newTally(name: string): Tally {
  return { name, tried: 0, completed: 0, clearError: 0, crashed: 0, silentlyWrong: 0, dataLost: 0, counterexamples: [], notes: [] };
}

export function note(t: Tally, kind: 'completed' | 'clearError' | 'crashed' | 'silentlyWrong' | 'dataLost', why = ''): void {
  t.tried++;
  t[kind]++;
  if (kind !== 'completed' && kind !== 'clearError' && t.notes.length < 8) t.notes.push(`${kind}: ${why}`.slice(0, 500));
}

/** A small seeded generator (mulberry32): the campaigns' faults are the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
