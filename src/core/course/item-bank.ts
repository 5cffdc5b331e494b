import type { Item, ItemContent, Level } from './types';
import { LEVELS } from './types';
import { GENERATORS } from './generators/index';
import { skillInfo } from './skills';
import { itemKey, itemProblems } from './validate';
import { Rng, hashString } from '../rng';
import { SimError } from '../errors';
import { Lru } from '../lru';

export interface ItemBankSpec {
  skills: readonly number[];
  /** Practice items per skill and level. */
  itemsPerLevel: number;
  /** Held-out probe items per skill (levels cycle 1, 2, 3). */
  probesPerSkill: number;
  /**
   * 2: a second, parallel probe form (`postProbes`: other items of the same skills and levels,
   * held out too) for the last probe (a field study's post-quiz). Absent or 1: one form, and the
   * bank is exactly what it was before forms existed (same items, same hash).
   */
  probeForms?: 1 | 2;
}

export interface ItemBank {
  /** Hash of every item's content: two banks with the same hash are identical. */
  hash: string;
  items: readonly Item[];
  probes: readonly Item[];
  /** The parallel probe form answered at the last probe (present only when built with probeForms 2). */
  postProbes?: readonly Item[];
  get(id: string): Item | undefined;
  practice(skill: number, level: Level): readonly Item[];
}

const MAX_TRIES = 50;

export { itemProblems };

/**
 * The bank cannot be built: a skill's generator ran out of new questions at a level before the
 * course's counts were met (`course.probesPerSkill` while drawing probes, `course.itemsPerLevel`
 * while drawing practice items). Which counts fail depends on the question space of the skill's
 * levels and, near its size, on the seed; `parseScenario` builds the bank of the scenario's seed
 * and reports this at the field.
 */
export class ItemBankShortage extends SimError {
  readonly skill: number;
  readonly level: Level;
  /** What was being drawn: a probe or a practice item (its 1-based number among those of its skill, or of its skill and level). */
  readonly phase: 'probes' | 'practice';
  readonly index: number;
  constructor(skill: number, level: Level, phase: 'probes' | 'practice', index: number, detail: string) {
    const field = phase === 'probes' ? 'course.probesPerSkill' : 'course.itemsPerLevel';
    super(
      'ITEM_BANK',
      `skill ${skill} (${skillInfo(skill)?.name ?? 'unknown skill'}) level ${level}: no valid new ${phase === 'probes' ? 'probe' : 'practice item'} after ${index - 1} (${MAX_TRIES} tries; last problems: ${detail}): the generator's questions at this level are used up; lower ${field} or leave the skill out`,
    );
    this.skill = skill;
    this.level = level;
    this.phase = phase;
    this.index = index;
  }
}

/**
 * A valid item whose key is not in `avoid`. With `allowRepeat`, when the generator's question space
 * is used up, an item whose key is only in `repeatable` (an earlier practice item) is accepted.
 */
function generateValid(skill: number, level: Level, rng: Rng, at: { phase: 'probes' | 'practice'; index: number }, avoid: Set<string>, repeatable?: Set<string>): ItemContent {
  const gen = GENERATORS.get(skill);
  if (!gen) throw new SimError('ITEM_BANK', `no item generator for skill ${skill} (${skillInfo(skill)?.name ?? 'unknown skill'})`);
  let last: string[] = [];
  let fallback: ItemContent | undefined;
  for (let t = 0; t < MAX_TRIES; t++) {
    const c = gen.generate(rng, level);
    last = itemProblems(c);
    const key = itemKey(c);
    if (last.length === 0 && !avoid.has(key)) {
      avoid.add(key);
      repeatable?.add(key);
      return c;
    }
    if (last.length === 0 && repeatable?.has(key) && !fallback) fallback = c;
    if (avoid.has(key)) last = [...last, 'duplicate item'];
  }
  if (fallback) return fallback;
  throw new ItemBankShortage(skill, level, at.phase, at.index, last.join('; '));
}

/**
 * Banks built in this process, by spec and stream seed, most recently used last. A bank is a pure
 * function of the spec and `rng.seed` (buildBank only forks `rng`, never draws from it, and forks
 * depend on the seed alone), so a run with the same course and seed as an earlier one (every run
 * of a sweep's seed: the library's 55 scenarios share their course) reuses it: building one costs
 * tens of milliseconds, a good part of a short AKT run. Banks are frozen, so no run can change
 * one that another run holds.
 */
const BANKS = new Lru<string, ItemBank>(8);

/**
 * Builds the practice bank and the held-out probe set for a course, deterministically from the
 * rng's seed; `{ cache: false }` builds it afresh (the tests check that both give the same bank).
 */
export function buildItemBank(spec: ItemBankSpec, rng: Rng, o: { cache?: boolean } = {}): ItemBank {
  if (o.cache === false) return buildBank(spec, rng);
  const key = JSON.stringify([rng.seed, spec.skills, spec.itemsPerLevel, spec.probesPerSkill, ...(spec.probeForms === 2 ? [2] : [])]);
  const hit = BANKS.get(key);
  if (hit) return hit;
  const bank = buildBank(spec, rng);
  BANKS.set(key, bank);
  return bank;
}

/** Freezes an item and every object or array in it. */
function deepFreeze<T>(x: T): T {
  if (x && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

/** The hash of a bank's content: its items and probes (and its parallel post form when it has one). */
export function bankHash(items: readonly Item[], probes: readonly Item[], postProbes?: readonly Item[]): string {
  return hashString(JSON.stringify(postProbes ? [items, probes, postProbes] : [items, probes])).toString(16).padStart(8, '0');
}

function buildBank(spec: ItemBankSpec, rng: Rng): ItemBank {
  const items: Item[] = [];
  const probes: Item[] = [];
  const post: Item[] | undefined = spec.probeForms === 2 ? [] : undefined;
  const bySkillLevel = new Map<string, Item[]>();
  for (const skill of spec.skills) {
    const info = skillInfo(skill);
    if (!info) throw new SimError('UNKNOWN_SKILL', `unknown skill id ${skill}`);
    // Probes first: the held-out set is always distinct and never reappears in practice.
    const seen = new Set<string>();
    const pr = rng.fork(`probes:${skill}`);
    for (let i = 0; i < spec.probesPerSkill; i++) {
      const level = LEVELS[i % 3]!;
      const refs = info.levels[level - 1]?.questions ?? [];
      const c = generateValid(skill, level, pr, { phase: 'probes', index: i + 1 }, seen);
      probes.push({ ...c, id: `p${skill}-${String(i + 1).padStart(2, '0')}`, skillId: skill, level, questionRef: refs.length ? refs[(refs.length - 1 - i) % refs.length]! : 0 });
    }
    if (post) {
      // The parallel form: the same skill and levels, item by item, other questions (held out from practice too).
      const fr = rng.fork(`probes-post:${skill}`);
      for (let i = 0; i < spec.probesPerSkill; i++) {
        const level = LEVELS[i % 3]!;
        const refs = info.levels[level - 1]?.questions ?? [];
        const c = generateValid(skill, level, fr, { phase: 'probes', index: i + 1 }, seen);
        post.push({ ...c, id: `q${skill}-${String(i + 1).padStart(2, '0')}`, skillId: skill, level, questionRef: refs.length ? refs[(refs.length - 1 - i) % refs.length]! : 0 });
      }
    }
    for (const level of LEVELS) {
      const refs = info.levels[level - 1]?.questions ?? [];
      const r = rng.fork(`items:${skill}:${level}`);
      const practiceKeys = new Set<string>();
      const list: Item[] = [];
      for (let i = 0; i < spec.itemsPerLevel; i++) {
        // Practice questions repeat (under new ids) only when the level's question space is used up.
        const c = generateValid(skill, level, r, { phase: 'practice', index: i + 1 }, seen, practiceKeys);
        list.push({ ...c, id: `s${skill}-L${level}-${String(i + 1).padStart(2, '0')}`, skillId: skill, level, questionRef: refs.length ? refs[i % refs.length]! : 0 });
      }
      bySkillLevel.set(`${skill}:${level}`, list);
      items.push(...list);
    }
  }
  const byId = new Map([...items, ...probes, ...(post ?? [])].map((it) => [it.id, it]));
  const hash = bankHash(items, probes, post);
  deepFreeze(items);
  deepFreeze(probes);
  if (post) deepFreeze(post);
  for (const list of bySkillLevel.values()) Object.freeze(list);
  return Object.freeze({
    hash,
    items,
    probes,
    ...(post ? { postProbes: post } : {}),
    get: (id: string) => byId.get(id),
    practice: (skill: number, level: Level) => bySkillLevel.get(`${skill}:${level}`) ?? [],
  });
}
