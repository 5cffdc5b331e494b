import type { Interaction, KnowledgeTracer, Query, TracerInfo } from './types';

/** Per-skill Bayesian Knowledge Tracing parameters (Corbett & Anderson 1995), no forgetting. */
export interface BktSkillParams {
  /** P(L0): known before any practice. */
  init: number;
  /** P(T): learns at each practice opportunity. */
  learn: number;
  /** P(S): slips when known. */
  slip: number;
  /** P(G): guesses when not known. */
  guess: number;
}

export interface BktParamsFile {
  version: string;
  /** skill id (string) -> params */
  skills: Record<string, BktSkillParams>;
  /** skill id -> logit offset per level [level1, level2, level3] relative to the skill's average item. */
  levelOffsets: Record<string, [number, number, number]>;
  /** Used for skills with no fitted parameters. */
  defaults: BktSkillParams;
  nSkills: number;
  /**
   * Learner-level prior (individualised P(L0), after Pardos & Heffernan 2010): every skill's
   * initial P(known) is shifted on the logit scale by `weight` × (the learner's shrunk overall
   * accuracy logit − the population's). weight 0 is plain per-skill BKT.
   */
  learnerPrior: { weight: number; populationRate: number; shrinkage: number };
}

export const logit = (p: number): number => Math.log(p / (1 - p));
export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
const clampP = (p: number): number => Math.min(Math.max(p, 1e-6), 1 - 1e-6);

/** P(correct) on an average item given P(known). */
export function bktCorrect(pKnown: number, p: BktSkillParams): number {
  return pKnown * (1 - p.slip) + (1 - pKnown) * p.guess;
}

/**
 * Emission probabilities for an item whose difficulty differs from the skill's average item by
 * `offset` on the logit scale: P(correct | known) and P(correct | not known) both shift by it.
 */
export function emissions(p: BktSkillParams, offset: number): { known: number; unknown: number } {
  if (offset === 0) return { known: 1 - p.slip, unknown: p.guess };
  return { known: sigmoid(logit(clampP(1 - p.slip)) + offset), unknown: sigmoid(logit(clampP(p.guess)) + offset) };
}

/** Posterior P(known) after observing one response (on an item of the given offset), then the learning transition. */
export function bktUpdate(pKnown: number, correct: boolean, p: BktSkillParams, offset = 0): number {
  const e = emissions(p, offset);
  const num = correct ? pKnown * e.known : pKnown * (1 - e.known);
  const den = correct ? pKnown * e.known + (1 - pKnown) * e.unknown : pKnown * (1 - e.known) + (1 - pKnown) * (1 - e.unknown);
  const post = den > 0 ? num / den : pKnown;
  return post + (1 - post) * p.learn;
}

/** Logit shift of every skill's P(L0) for a learner with this history. */
export function learnerShift(history: readonly Interaction[], prior: BktParamsFile['learnerPrior']): number {
  const { weight, populationRate, shrinkage } = prior;
  if (weight === 0 || history.length === 0) return 0;
  let c = 0;
  for (const it of history) if (it.correct) c++;
  const rate = (c + shrinkage * populationRate) / (history.length + shrinkage);
  return weight * (logit(rate) - logit(populationRate));
}

/**
 * BKT tracer: each skill's P(known) folds over that skill's responses, starting from a P(L0)
 * shifted by the learner-level prior (the only link between skills). It folds over the whole
 * history per call: histories are a few thousand rows at most, so no cache is needed.
 * An item's level shifts both emission probabilities on the logit scale by the offset derived
 * from real questions' correct rates (scripts/derive/question-levels.ts).
 */
export class BktTracer implements KnowledgeTracer {
  readonly info: TracerInfo;
  readonly #params: BktParamsFile;
  readonly #questionLevel: ReadonlyMap<number, number>;

  /**
   * @param questionLevel real question id -> difficulty level (1..3) where known; an observed
   *   answer on such a question is weighed with that level's emissions (a miss on a hard item is
   *   weaker evidence of not knowing). Unknown questions count as average items.
   */
  constructor(params: BktParamsFile, questionLevel: ReadonlyMap<number, number> = new Map()) {
    this.#params = params;
    this.#questionLevel = questionLevel;
    this.info = { name: 'bkt', version: params.version, nSkills: params.nSkills };
  }

  #offset(skill: number, level: number): number {
    return level >= 1 ? (this.#params.levelOffsets[String(skill)]?.[level - 1] ?? 0) : 0;
  }

  paramsFor(skill: number): BktSkillParams {
    return this.#params.skills[String(skill)] ?? this.#params.defaults;
  }

  /** P(known) per seen skill, and the initial P(known) of any skill for this learner. */
  knownAfter(history: readonly Interaction[]): { known: Map<number, number>; init: (skill: number) => number } {
    const shift = learnerShift(history, this.#params.learnerPrior);
    const init = (skill: number): number => {
      const p0 = this.paramsFor(skill).init;
      return shift === 0 ? p0 : sigmoid(logit(clampP(p0)) + shift);
    };
    const known = new Map<number, number>();
    for (const it of history) {
      const before = known.get(it.skill) ?? init(it.skill);
      const off = this.#offset(it.skill, this.#questionLevel.get(it.question) ?? 0);
      known.set(it.skill, bktUpdate(before, it.correct, this.paramsFor(it.skill), off));
    }
    return { known, init };
  }

  predictSync(history: readonly Interaction[], queries: readonly Query[]): number[] {
    const { known, init } = this.knownAfter(history);
    return queries.map((q) => {
      const k = known.get(q.skill) ?? init(q.skill);
      const e = emissions(this.paramsFor(q.skill), this.#offset(q.skill, q.level));
      return k * e.known + (1 - k) * e.unknown;
    });
  }

  predict(history: readonly Interaction[], queries: readonly Query[]): Promise<number[]> {
    return Promise.resolve(this.predictSync(history, queries));
  }
}
