/**
 * The simulated learner: knowledge (a KnowledgeTracer over the learner's history), behaviour (the
 * persona's parameters) and voice. How tutoring reaches learning is explicit here and documented
 * in docs/learning-model.md:
 *  1. practice: every graded attempt the learner works out enters the history, and the tracer's
 *     belief follows it;
 *  2. instruction: content the tutor posts on a skill (provide_content) closes a fraction of the
 *     gap to certain success on the learner's next attempts at that skill;
 *  3. disclosure: an answer the tutor reveals may be copied; a copied answer is graded correct in
 *     the LMS but is not evidence of knowledge and never enters the history.
 * Two opt-ins change channels 1 and 2, each recorded in run_start's scenario:
 *  - learner.coupling "student-attempts": the attempt is written by an LLM student conditioned on
 *    the tracer's belief and graded by the answer checker (student-attempts.ts); the graded outcome
 *    is the evidence (a correct attempt at an item whose answer the tutor disclosed is a copy);
 *  - learner.chatInstruction: a chat message giving a step or hint of a working item counts as
 *    instruction like a hint (chat-instruction.ts).
 * Persona habits sit on top without opening another channel: a guess (persona.guessProb) is
 * graded but is not evidence, like a copied answer; a slip (persona.carelessness) turns a
 * worked-out success into a wrong submission while the history keeps the worked-out success;
 * content the learner does not read (persona.readsContentProb) gives no instruction boost.
 */
import type { Item } from '../course/types';
import type { ContentKind } from '../lms/state';
import type { Persona } from '../scenario/schema';
import type { Interaction, KnowledgeTracer } from './kt/types';
import type { Rng } from '../rng';
import { DisclosureWindow } from '../leakage/detect';
import { SimError, errorMessage } from '../errors';
import { gradeAttempt, type StudentAttemptRecord, type WrittenAttempt } from './student-attempts';
import { chatInstructionMatch } from './chat-instruction';

/** Fraction of the gap to certain success that one piece of instruction closes, by kind. */
export const INSTRUCTION_BOOST: Readonly<Record<ContentKind, number>> = {
  worked_example: 0.3,
  explanation: 0.2,
  hint: 0.15,
};
/** How many of the next attempts at the skill a piece of instruction helps. */
export const INSTRUCTION_USES = 3;

export interface AttemptOutcome {
  p: number;
  boost: number;
  source: 'own' | 'disclosed' | 'guess';
  response: string;
  correct: boolean;
  evidence: boolean;
  /** Worked out correctly but submitted wrong (carelessness). */
  slip?: boolean;
  /** Coupling "student-attempts": how the LLM student's written attempt was graded. */
  student?: StudentAttemptRecord;
}

/** Coupling "student-attempts": writes the attempt, given the P(correct) the student is told (knowledge with instruction). */
export type WriteAttempt = (pWithInstruction: number) => Promise<WrittenAttempt>;

export interface LearnerOptions {
  /** Chat messages that give a step or hint of a working item count as instruction (opt-in). */
  chatInstruction?: boolean;
}

export class Learner {
  readonly persona: Persona;
  readonly history: Interaction[];
  readonly warmupLength: number;
  readonly #tracer: KnowledgeTracer;
  readonly #rngAttempt: Rng;
  /** skill -> active instruction boost */
  readonly boosts = new Map<number, { beta: number; uses: number }>();
  /** Items whose answer the tutor revealed while the learner was working on them. */
  readonly disclosed = new Set<string>();
  /** What the learner would copy for each disclosed item (the detector's copy: a response the checker accepts). */
  readonly copies = new Map<string, string>();
  /** The disclosure detector's window over the tutor texts read so far (answers split across messages). */
  readonly #disclosures = new DisclosureWindow();
  consecutiveFailures = 0;
  /** Frustration in [0, 1] (persona affect parameters; see src/core/learner/affect.ts). */
  frustration = 0;

  readonly #chatInstruction: boolean;

  constructor(persona: Persona, tracer: KnowledgeTracer, warmup: readonly Interaction[], rngAttempt: Rng, opts: LearnerOptions = {}) {
    this.persona = persona;
    this.#chatInstruction = opts.chatInstruction ?? false;
    this.#tracer = tracer;
    this.history = [...warmup];
    this.warmupLength = warmup.length;
    this.#rngAttempt = rngAttempt;
  }

  get tracer(): KnowledgeTracer {
    return this.#tracer;
  }

  /** P(correct) on the item from knowledge alone (no instruction boost). */
  async pKnow(item: Item): Promise<number> {
    let p: number | undefined;
    try {
      [p] = await this.#tracer.predict(this.history, [{ skill: item.skillId, question: item.questionRef, level: item.level }]);
    } catch (e) {
      throw new SimError('TRACER_FAILED', `tracer ${this.#tracer.info.name} failed: ${errorMessage(e)}`, { cause: e });
    }
    if (p === undefined || !Number.isFinite(p) || p < 0 || p > 1) throw new SimError('TRACER_FAILED', `tracer ${this.#tracer.info.name} returned ${String(p)} for item ${item.id}`);
    return p;
  }

  boostFor(skill: number): number {
    return this.boosts.get(skill)?.beta ?? 0;
  }

  /**
   * Reads a tutor message or content post: notes disclosures of items in `workingOn`, takes
   * instruction (content the learner read; with the chat-instruction opt-in, a chat message
   * (`chat`) that gives a step or hint of a working item, like a hint on its skill).
   */
  receive(text: string, workingOn: readonly Item[], content?: { skill: number; kind: ContentKind }, chat = false): string[] {
    const revealed: string[] = [];
    for (const d of this.#disclosures.read(text, workingOn)) {
      this.disclosed.add(d.itemId);
      this.copies.set(d.itemId, d.copy);
      revealed.push(d.itemId);
    }
    if (content) this.#instruct(content.skill, content.kind);
    if (chat && this.#chatInstruction) {
      const skills = new Set(workingOn.filter((it) => chatInstructionMatch(text, it) !== null).map((it) => it.skillId));
      for (const sk of skills) this.#instruct(sk, 'hint');
    }
    return revealed;
  }

  #instruct(skill: number, kind: ContentKind): void {
    const beta = INSTRUCTION_BOOST[kind];
    const cur = this.boosts.get(skill);
    this.boosts.set(skill, { beta: Math.max(beta, cur?.beta ?? 0), uses: INSTRUCTION_USES });
  }

  /**
   * One graded attempt at an item; `guess`: answer without working it out (persona guessing).
   * `write` (coupling "student-attempts"): the LLM student writes the attempt and the checker
   * grades it, instead of a draw from the tracer; the student decides whether to copy a disclosed
   * answer (the persona's copy draw is not used): a correct attempt at a disclosed item is a copy,
   * and no attempt at it is evidence.
   */
  async attempt(item: Item, opts: { guess?: boolean; write?: WriteAttempt } = {}): Promise<AttemptOutcome> {
    const p = await this.pKnow(item);
    const u = this.#rngAttempt.next();
    const pickWrong = this.#rngAttempt.next();
    const b = this.boosts.get(item.skillId);
    const boost = b?.beta ?? 0;
    if (!opts.write && this.disclosed.has(item.id) && u < this.persona.copyDisclosedProb) {
      this.disclosed.delete(item.id);
      const response = this.copies.get(item.id) ?? item.answer;
      this.copies.delete(item.id);
      return { p, boost, source: 'disclosed', response, correct: true, evidence: false };
    }
    const wrong = item.misconceptions[Math.floor(pickWrong * item.misconceptions.length)] ?? item.misconceptions[0]!;
    if (opts.guess) {
      // A guess does not use knowledge or instruction: right by luck, never evidence.
      const lucky = this.#rngAttempt.next() < this.persona.guessAccuracy;
      return { p, boost, source: 'guess', response: lucky ? item.answer : wrong.answer, correct: lucky, evidence: false };
    }
    if (b) {
      b.uses -= 1;
      if (b.uses <= 0) this.boosts.delete(item.skillId);
    }
    const pEff = p + (1 - p) * boost;
    if (opts.write) {
      const written = await opts.write(pEff);
      const g = gradeAttempt(item, written, this.disclosed.has(item.id));
      if (g.record.grading === 'copied_disclosed') {
        this.disclosed.delete(item.id);
        return { p, boost, source: 'disclosed', response: g.response, correct: true, evidence: false, student: g.record };
      }
      // A wrong attempt at an item whose answer was disclosed: graded wrong, not evidence (gradeAttempt).
      if (!g.evidence) return { p, boost, source: 'own', response: g.response, correct: false, evidence: false, student: g.record };
      this.history.push({ skill: item.skillId, question: item.questionRef, correct: g.correct });
      return { p, boost, source: 'own', response: g.response, correct: g.correct, evidence: true, student: g.record };
    }
    // A fresh draw for the outcome keeps it independent of the copy decision above.
    const correct = this.#rngAttempt.next() < pEff;
    this.history.push({ skill: item.skillId, question: item.questionRef, correct });
    // A slip: worked out right, submitted wrong. The history keeps what the learner worked out.
    const slip = correct && this.persona.carelessness > 0 && this.#rngAttempt.next() < this.persona.carelessness;
    const graded = correct && !slip;
    return { p, boost, source: 'own', response: graded ? item.answer : wrong.answer, correct: graded, evidence: true, ...(slip ? { slip: true } : {}) };
  }
}
