import type { Interaction } from './kt/types';
import { SimError } from '../errors';

export type AbilityLevel = 'low' | 'average' | 'high';
export const ABILITY_LEVELS: readonly AbilityLevel[] = ['low', 'average', 'high'];

/** The derived persona-seed file (src/core/data/persona-seeds.json). */
export interface PersonaSeedFile {
  version: string;
  count: number;
  ability: Record<string, {
    cutPoints: number[];
    buckets: AbilityLevel[];
    initial: number[];
    measure: string;
    /** Per seed, the learner's own ability as a logit offset (rollout.ts abilityOffset on the seed's warm-up). */
    offsets: number[];
    /** How the offsets were derived (script, calibration, estimator). */
    offsetsProvenance: string;
  }>;
  seeds: { uid: number; n: number; h: string }[];
}

// Base64 without Buffer or atob so the same code runs in Node, pages and workers alike.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!, b = bytes[i + 1] ?? 0, c = bytes[i + 2] ?? 0;
    const n = (a << 16) | (b << 8) | c;
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + (i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '=') + (i + 2 < bytes.length ? B64[n & 63]! : '=');
  }
  return out;
}

function base64ToBytes(s: string): Uint8Array {
  const clean = s.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < clean.length; i += 4) {
    const v = [0, 1, 2, 3].map((k) => (i + k < clean.length ? B64.indexOf(clean[i + k]!) : 0));
    if (v.some((x) => x < 0)) throw new SimError('INTERNAL', 'persona seed: invalid base64');
    const n = (v[0]! << 18) | (v[1]! << 12) | (v[2]! << 6) | v[3]!;
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

/** Packs a history as 4 bytes per row: uint16 question (LE), uint8 skill, uint8 correct. */
export function packHistory(h: readonly Interaction[]): string {
  const bytes = new Uint8Array(h.length * 4);
  h.forEach((it, i) => {
    bytes[4 * i] = it.question & 255;
    bytes[4 * i + 1] = (it.question >> 8) & 255;
    bytes[4 * i + 2] = it.skill;
    bytes[4 * i + 3] = it.correct ? 1 : 0;
  });
  return bytesToBase64(bytes);
}

export function unpackHistory(s: string): Interaction[] {
  const bytes = base64ToBytes(s);
  const out: Interaction[] = [];
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    out.push({ question: bytes[i]! | (bytes[i + 1]! << 8), skill: bytes[i + 2]!, correct: bytes[i + 3] === 1 });
  }
  return out;
}

/**
 * Picks a persona seed of the requested ability level, deterministically from `pick` (an integer
 * from the run's RNG). Buckets come from the named tracer's initial accuracy; `offset` is the
 * seed's own ability for that tracer (a logit offset, docs/learning-model.md).
 */
export function chooseSeed(file: PersonaSeedFile, tracer: string, ability: AbilityLevel, pick: number): { index: number; uid: number; history: Interaction[]; offset: number } {
  const ab = file.ability[tracer];
  if (!ab) throw new SimError('UNKNOWN_TRACER', `persona seeds have no ability buckets for tracer "${tracer}" (have: ${Object.keys(file.ability).join(', ')})`);
  if (!Array.isArray(ab.offsets) || ab.offsets.length !== file.seeds.length) {
    throw new SimError('INTERNAL', `persona seeds: ability.${tracer}.offsets has ${Array.isArray(ab.offsets) ? ab.offsets.length : 'no'} entries for ${file.seeds.length} seeds (derive them: npx tsx scripts/derive/seed-ability.ts)`);
  }
  const candidates: number[] = [];
  ab.buckets.forEach((b, i) => {
    if (b === ability) candidates.push(i);
  });
  if (candidates.length === 0) throw new SimError('INTERNAL', `no persona seed of ability "${ability}"`);
  const index = candidates[((pick % candidates.length) + candidates.length) % candidates.length]!;
  const seed = file.seeds[index]!;
  const offset = ab.offsets[index]!;
  if (!Number.isFinite(offset)) throw new SimError('INTERNAL', `persona seeds: ability.${tracer}.offsets[${index}] is not a number`);
  return { index, uid: seed.uid, history: unpackHistory(seed.h), offset };
}
