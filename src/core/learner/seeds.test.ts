import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { loadPersonaSeeds } from '../data/index';
import { PersonaSchema } from '../scenario/schema';
import type { Item } from '../course/types';
import type { KnowledgeTracer } from './kt/types';
import { Learner } from './learner';
import { chooseSeed, type PersonaSeedFile } from './seeds';
import { miniScenario, runWith } from '../../testing/fixtures';

const logit = (p: number) => Math.log(p / (1 - p));
const mean = (x: readonly number[]) => x.reduce((a, b) => a + b, 0) / x.length;

describe('persona seeds carry their own ability (a logit offset per seed and tracer)', () => {
  it('every seed has a finite offset for both tracers, with provenance; low seeds sit below high ones', async () => {
    const file = await loadPersonaSeeds();
    for (const name of ['akt', 'bkt']) {
      const ab = file.ability[name]!;
      expect(ab.offsets).toHaveLength(file.count);
      expect(ab.offsets.every(Number.isFinite)).toBe(true);
      expect(ab.offsetsProvenance).toMatch(/seed-ability\.ts/);
      const by = (level: string) => mean(ab.offsets.filter((_, i) => ab.buckets[i] === level));
      // The buckets come from the tracer's reading of the warm-up; the offset spreads them further.
      expect(by('high') - by('low'), name).toBeGreaterThan(0.3);
      expect(by('low')).toBeLessThan(by('average'));
      expect(by('average')).toBeLessThan(by('high'));
    }
  });

  it('chooseSeed returns the chosen seed offset, and refuses a file without offsets', async () => {
    const file = await loadPersonaSeeds();
    const pick = chooseSeed(file, 'akt', 'low', 12345);
    expect(pick.offset).toBe(file.ability.akt!.offsets[pick.index]);
    const stripped: PersonaSeedFile = { ...file, ability: { ...file.ability, akt: { ...file.ability.akt!, offsets: [] } } };
    expect(() => chooseSeed(stripped, 'akt', 'low', 12345)).toThrow(/ability\.akt\.offsets has 0 entries for 1792 seeds/);
  });
});

describe('the learner adds its ability offset to every prediction', () => {
  const tracer: KnowledgeTracer = { info: { name: 'test', version: '0', nSkills: 3 }, predict: async (_h, qs) => qs.map(() => 0.5) };
  const persona = PersonaSchema.parse({ name: 'test' });
  const item = { id: 'i1', skillId: 1, level: 1, questionRef: 7, stem: 's', answerKind: 'integer', answer: '1', accepted: [], misconceptions: [{ answer: '2' }] } as unknown as Item;

  it('P(know) = σ(logit P_tracer + shift + offset): 0.5 from the tracer, logit(0.8) of own ability → 0.8', async () => {
    const plain = new Learner(persona, tracer, [], new Rng(1), 0);
    const able = new Learner(persona, tracer, [], new Rng(1), logit(0.8));
    const weak = new Learner(persona, tracer, [], new Rng(1), -logit(0.8));
    expect(await plain.pKnow(item, 0)).toBeCloseTo(0.5, 9);
    expect(await able.pKnow(item, 0)).toBeCloseTo(0.8, 9);
    expect(await weak.pKnow(item, 0)).toBeCloseTo(0.2, 9);
    expect((await able.belief([1, 2], 0))[1]).toBeCloseTo(0.8, 9);
    expect(() => new Learner(persona, tracer, [], new Rng(1), Number.NaN)).toThrow(/ability offset NaN/);
  });
});

describe('a run records its learner offset', () => {
  it('run_start.learner.abilityOffset is the chosen seed offset for the run tracer', async () => {
    const file = await loadPersonaSeeds();
    const start = (await runWith(miniScenario(), 'silent')).events[0]!;
    if (start.type !== 'run_start' || !('seedIndex' in start.learner)) throw new Error('expected a simulated learner');
    expect(start.learner.abilityOffset).toBe(file.ability[start.tracer.name]!.offsets[start.learner.seedIndex]);
  });
});
