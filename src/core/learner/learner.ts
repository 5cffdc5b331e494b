/**
 * The simulated learner's knowledge and how tutoring reaches it (docs/learning-model.md). Three
 * channels, and only these:
 *  1. practice: every attempt the learner works out is practice. The knowledge tracer, over the
 *     history of worked-out outcomes and with its generative calibration (rollout.ts: a logit shift
 *     so that rollouts match held-out students, and the learner's own ability, a logit offset fitted
 *     on its persona seed's warm-up and shrunk by its reliability), says what the learner can do
 *     right after practising; memory
 *     (memory.ts, ACT-R with spacing-dependent decay) lowers it over the time since, so idle days
 *     cost and spaced practice is retained better than massed practice.
 *  2. instruction: content or chat that carries a skill's method (instruction.ts decides; content-
 *     free, restated, off-skill or repeated text earns nothing) has two effects, both bounded:
 *     - scaffold: on the next SCAFFOLD_USES attempts at the skill the same day, the chance of
 *       success closes SCAFFOLD[kind] of the gap to certain success. This is performance, not
 *       learning: the history records what the learner would have done without it (the same random
 *       draw against the unscaffolded probability), so a scaffolded success never becomes
 *       evidence of knowledge;
 *     - learning: LEARN[kind]·(1 − P) logits on the skill (P: the learner's knowledge at its next
 *       use of the skill, so novices gain more than experts), at most once per skill per day,
 *       fading as (1 + days)^−LEARN_FADE, all grants on a skill together capped at LEARN_CAP.
 *  3. disclosure: an answer the tutor reveals may be copied; a copied answer is graded correct in
 *     the LMS but is not practice, and it enters the history as not solved: the tracer was fitted
 *     on ASSISTments skill-builder data, where a problem answered after the tutoring showed the
 *     answer (the bottom-out hint) is marked incorrect, so "could not do it unaided" is what such
 *     an attempt means to it. Leaving copies out of the history instead hid exactly the failures a
 *     learner copies to avoid, and the tracer read the cleaner record as more knowledge. A learner
 *     copies less the more they know: copy chance = persona.copyDisclosedProb · (1 − P/2).
 * Persona habits sit on top: a guess (persona.guessProb) is graded but is not practice; a slip
 * (persona.carelessness) turns a worked-out success into a wrong submission while the history keeps
 * the worked-out success. Coupling "student-attempts": the attempt is written by an LLM student
 * conditioned on the learner's chance (knowledge with scaffold) and graded by the answer checker.
 */
import type { Item } from '../course/types';
import type { ContentKind } from '../lms/state';
import type { Persona } from '../scenario/schema';
import { masteryQueries, type Interaction, type KnowledgeTracer, type Query } from './kt/types';
import type { Rng } from '../rng';
import { MINUTES_PER_DAY } from '../clock';
import { DisclosureWindow } from '../leakage/detect';
import { SimError, errorMessage } from '../errors';
import { gradeAttempt, type StudentAttemptRecord, type WrittenAttempt } from './student-attempts';
import { SkillMemory } from './memory';
import { instructionSubstance, type InstructionVerdict, type MethodVocabulary } from './instruction';
import { instructionTokens } from './chat-instruction';
import { generativeShift } from './rollout';

/** Scaffold: fraction of the gap to certain success closed on the next attempts the same day, by kind. */
export const SCAFFOLD: Readonly<Record<ContentKind, number>> = {
  worked_example: 0.3,
  explanation: 0.2,
  hint: 0.15,
};
/** How many of the next attempts at the skill (the same day) a scaffold helps. */
export const SCAFFOLD_USES = 3;
/** Lasting learning from one credited piece of instruction, in logits, times (1 − P). */
export const LEARN: Readonly<Record<ContentKind, number>> = {
  worked_example: 0.4,
  explanation: 0.3,
  hint: 0.15,
};
export const LEARN_CAP = 0.5;
export const LEARN_FADE = 0.5;

export interface AttemptOutcome {
  p: number;
  boost: number;
  source: 'own' | 'disclosed' | 'guess';
  response: string;
  correct: boolean;
  evidence: boolean;
  /** Worked out correctly but submitted wrong (carelessness). */
  slip?: boolean;
  /** Correct only thanks to a scaffold: the history records the learner's own (wrong) outcome. */
  scaffolded?: boolean;
  /** Coupling "student-attempts": how the LLM student's written attempt was graded. */
  student?: StudentAttemptRecord;
}

/** Coupling "student-attempts": writes the attempt, given the P(correct) the student is told (knowledge with scaffold). */
export type WriteAttempt = (pWithInstruction: number) => Promise<WrittenAttempt>;

/** What one credited or refused piece of instruction did (recorded as an lms_event 'instruction'). */
export interface InstructionEffect extends InstructionVerdict {
  skill: number;
  kind: ContentKind;
  scaffold: number;
  /** A lasting-learning grant was made (its size is settled at the learner's next use of the skill). */
  learn: boolean;
}

const logit = (p: number) => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
};
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const dayOfT = (t: number) => Math.floor(t / MINUTES_PER_DAY);

interface Grant {
  t: number;
  kind: ContentKind;
  /** Logits at grant time; null until settled at the next use of the skill. */
  amount: number | null;
}

export class Learner {
  readonly persona: Persona;
  readonly history: Interaction[];
  readonly warmupLength: number;
  readonly memory = new SkillMemory();
  readonly #tracer: KnowledgeTracer;
  readonly #rngAttempt: Rng;
  readonly #attemptsOn = new Map<number, number>();
  /** The tracer's generative calibration (rollout.ts): a logit shift fitted on held-out students. */
  readonly #shift: number;
  /** The learner's own ability (rollout.ts abilityOffset): a logit offset on every prediction. */
  readonly abilityOffset: number;
  /** skill -> active scaffold (the same day only) */
  readonly scaffolds = new Map<number, { beta: number; uses: number; day: number }>();
  readonly #grants = new Map<number, Grant[]>();
  readonly #learnedDay = new Map<number, number>();
  readonly #credited = new Map<number, Set<string>[]>();
  /** Items whose answer the tutor revealed while the learner was working on them. */
  readonly disclosed = new Set<string>();
  /** What the learner would copy for each disclosed item (the detector's copy: a response the checker accepts). */
  readonly copies = new Map<string, string>();
  /** The disclosure detector's window over the tutor texts read so far (answers split across messages). */
  readonly #disclosures = new DisclosureWindow();
  consecutiveFailures = 0;
  /** Frustration in [0, 1] (persona affect parameters; see src/core/learner/affect.ts). */
  frustration = 0;

  /**
   * `abilityOffset`: the learner's own ability in logits, from its persona seed (seeds.ts
   * chooseSeed; 0 leaves the tracer's reading of the warm-up alone).
   */
  constructor(persona: Persona, tracer: KnowledgeTracer, warmup: readonly Interaction[], rngAttempt: Rng, abilityOffset: number) {
    if (!Number.isFinite(abilityOffset)) throw new SimError('INTERNAL', `learner: ability offset ${String(abilityOffset)} is not a number`);
    this.persona = persona;
    this.abilityOffset = abilityOffset;
    this.#tracer = tracer;
    this.history = [...warmup];
    this.warmupLength = warmup.length;
    this.#rngAttempt = rngAttempt;
    this.#shift = generativeShift(tracer.info.name);
    const times = SkillMemory.warmupTimes(warmup.length);
    warmup.forEach((x, i) => this.memory.practise(x.skill, times[i]!));
  }

  get tracer(): KnowledgeTracer {
    return this.#tracer;
  }

  async #predict(queries: Query[]): Promise<number[]> {
    let ps: number[];
    try {
      ps = await this.#tracer.predict(this.history, queries);
    } catch (e) {
      throw new SimError('TRACER_FAILED', `tracer ${this.#tracer.info.name} failed: ${errorMessage(e)}`, { cause: e });
    }
    ps.forEach((p, i) => {
      if (p === undefined || !Number.isFinite(p) || p < 0 || p > 1) throw new SimError('TRACER_FAILED', `tracer ${this.#tracer.info.name} returned ${String(p)} for skill ${queries[i]!.skill}`);
    });
    return ps;
  }

  /** The tracer's P adjusted for memory and lasting instruction at time t. */
  #know(skill: number, pTracer: number, t: number): number {
    const base = logit(pTracer) + this.#shift + this.abilityOffset - this.memory.drop(skill, t);
    return sigmoid(base + this.#lasting(skill, base, t));
  }

  #lasting(skill: number, baseLogit: number, t: number): number {
    const grants = this.#grants.get(skill);
    if (!grants) return 0;
    let sum = 0;
    for (const g of grants) {
      // Settled against the knowledge at the first use after the grant (novices gain more).
      if (g.amount === null) g.amount = LEARN[g.kind] * (1 - sigmoid(baseLogit));
      const days = Math.max(0, t - g.t) / MINUTES_PER_DAY;
      sum += g.amount * Math.pow(1 + days, -LEARN_FADE);
    }
    return Math.min(LEARN_CAP, sum);
  }

  /** P(correct) on the item from knowledge alone (no scaffold) at time t. */
  async pKnow(item: Item, t: number): Promise<number> {
    const [p] = await this.#predict([{ skill: item.skillId, question: item.questionRef, level: item.level }]);
    return this.#know(item.skillId, p!, t);
  }

  /** P(correct) of each query at time t (probes). */
  async pKnowMany(queries: Query[], t: number): Promise<number[]> {
    const ps = await this.#predict(queries);
    return ps.map((p, i) => this.#know(queries[i]!.skill, p, t));
  }

  /** P(correct) on an average item of each skill at time t (the belief the trace records). */
  async belief(skills: readonly number[], t: number, also?: Query[]): Promise<number[]> {
    let ps: number[];
    try {
      ps = await this.#tracer.predict(this.history, masteryQueries(skills), also ? { also } : undefined);
    } catch (e) {
      throw new SimError('TRACER_FAILED', `tracer ${this.#tracer.info.name} failed: ${errorMessage(e)}`, { cause: e });
    }
    return ps.map((p, i) => this.#know(skills[i]!, p, t));
  }

  scaffoldFor(skill: number, t: number): number {
    const s = this.scaffolds.get(skill);
    return s && s.day === dayOfT(t) ? s.beta : 0;
  }

  /** Notes disclosures of items in `workingOn` in a text read at minute `t` (the window spans that day's texts); returns the ids revealed. */
  receive(text: string, workingOn: readonly Item[], t: number): string[] {
    const revealed: string[] = [];
    for (const d of this.#disclosures.read(text, workingOn, dayOfT(t))) {
      this.disclosed.add(d.itemId);
      this.copies.set(d.itemId, d.copy);
      revealed.push(d.itemId);
    }
    return revealed;
  }

  /** Instruction on a skill, read at t: checked for substance, then scaffold and lasting learning. */
  instruct(text: string, skill: number, kind: ContentKind, t: number, vocab: MethodVocabulary): InstructionEffect {
    const earlier = this.#credited.get(skill) ?? [];
    const v = instructionSubstance(text, skill, vocab, earlier);
    if (!v.credited) return { ...v, skill, kind, scaffold: 0, learn: false };
    earlier.push(new Set(instructionTokens(text)));
    this.#credited.set(skill, earlier);
    const day = dayOfT(t);
    const cur = this.scaffolds.get(skill);
    const beta = Math.max(SCAFFOLD[kind], cur && cur.day === day ? cur.beta : 0);
    this.scaffolds.set(skill, { beta, uses: SCAFFOLD_USES, day });
    const learn = this.#learnedDay.get(skill) !== day;
    if (learn) {
      this.#learnedDay.set(skill, day);
      const g = this.#grants.get(skill) ?? [];
      g.push({ t, kind, amount: null });
      this.#grants.set(skill, g);
    }
    return { ...v, skill, kind, scaffold: beta, learn };
  }

  /** Chance that the learner copies a disclosed answer rather than work it out, given P(know). */
  copyChance(pKnow: number): number {
    return this.persona.copyDisclosedProb * (1 - pKnow / 2);
  }

  /**
   * One graded attempt at an item at time t; `guess`: answer without working it out (persona
   * guessing). `write` (coupling "student-attempts"): the LLM student writes the attempt and the
   * checker grades it; the student decides whether to copy a disclosed answer.
   */
  async attempt(item: Item, t: number, opts: { guess?: boolean; write?: WriteAttempt } = {}): Promise<AttemptOutcome> {
    const p = await this.pKnow(item, t);
    // Common random numbers: the k-th attempt at a skill draws from its own stream, so the same
    // student under two tutors meets the same luck on the same attempt (paired comparisons).
    const k = this.#attemptsOn.get(item.skillId) ?? 0;
    this.#attemptsOn.set(item.skillId, k + 1);
    const rng = this.#rngAttempt.fork(`skill:${item.skillId}:${k}`);
    const u = rng.next();
    const pickWrong = rng.next();
    const s = this.scaffolds.get(item.skillId);
    const boost = s && s.day === dayOfT(t) ? s.beta : 0;
    if (!opts.write && this.disclosed.has(item.id) && u < this.copyChance(p)) {
      this.disclosed.delete(item.id);
      const response = this.copies.get(item.id) ?? item.answer;
      this.copies.delete(item.id);
      // In the history as not solved (ASSISTments: an answer shown is a problem marked incorrect; header, 3).
      this.history.push({ skill: item.skillId, question: item.questionRef, correct: false });
      return { p, boost, source: 'disclosed', response, correct: true, evidence: true };
    }
    const wrong = item.misconceptions[Math.floor(pickWrong * item.misconceptions.length)] ?? item.misconceptions[0]!;
    if (opts.guess) {
      // A guess does not use knowledge or instruction: right by luck, never evidence.
      const lucky = rng.next() < this.persona.guessAccuracy;
      return { p, boost, source: 'guess', response: lucky ? item.answer : wrong.answer, correct: lucky, evidence: false };
    }
    if (s && boost > 0) {
      s.uses -= 1;
      if (s.uses <= 0) this.scaffolds.delete(item.skillId);
    }
    const pEff = p + (1 - p) * boost;
    this.memory.practise(item.skillId, t);
    if (opts.write) {
      const written = await opts.write(pEff);
      const g = gradeAttempt(item, written, this.disclosed.has(item.id));
      // After a disclosure, whatever the student wrote is in the history as not solved (header, 3).
      this.history.push({ skill: item.skillId, question: item.questionRef, correct: g.evidence ? g.correct : false });
      if (g.record.grading === 'copied_disclosed') {
        this.disclosed.delete(item.id);
        return { p, boost, source: 'disclosed', response: g.response, correct: true, evidence: true, student: g.record };
      }
      return { p, boost, source: 'own', response: g.response, correct: g.evidence ? g.correct : false, evidence: true, student: g.record };
    }
    // One draw decides both what the learner does with the scaffold and what it would have done
    // without it (common random numbers): the history keeps the latter.
    const draw = rng.next();
    const correct = draw < pEff;
    const own = draw < p;
    this.history.push({ skill: item.skillId, question: item.questionRef, correct: own });
    // A slip: worked out right, submitted wrong. The history keeps what the learner worked out.
    const slip = correct && this.persona.carelessness > 0 && rng.next() < this.persona.carelessness;
    const graded = correct && !slip;
    return { p, boost, source: 'own', response: graded ? item.answer : wrong.answer, correct: graded, evidence: true, ...(slip ? { slip: true } : {}), ...(correct && !own ? { scaffolded: true } : {}) };
  }
}
