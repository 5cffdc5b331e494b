/**
 * The knowledge-tracer port. A tracer turns a learner's history of graded interactions into the
 * probability of answering a given next question correctly. Everything the simulated learner
 * knows comes through this one method, so BKT, AKT (ONNX, in a worker) and test doubles are
 * interchangeable.
 */

/** One graded interaction that counts as evidence of knowledge. */
export interface Interaction {
  /** Dataset skill id (ASSISTments 2009: 1..110). */
  skill: number;
  /** Dataset question id the item is linked to (1-based), or 0 when none. */
  question: number;
  correct: boolean;
}

/** A hypothetical next item: P(correct) is asked for it. */
export interface Query {
  skill: number;
  /** Linked real question id (AKT-Rasch uses its difficulty), or 0 for "an average item of the skill". */
  question: number;
  /** Difficulty level 1..3 of the item; tracers without question ids use it (BKT level offsets). 0 = average. */
  level: number;
}

/** What a tracer is, as run_start records it (declared with the trace events, trace/types.ts). */
import type { TracerInfo } from '../../trace/types';
export type { TracerInfo };

export interface LoadProgress {
  /** 0..1 */
  progress: number;
  text: string;
}

export interface PredictOptions {
  /**
   * Queries likely to be asked next over the same history (the item a learner is about to try).
   * A tracer may read them together with `queries` and answer them from memory when they are
   * asked; what predict() returns never depends on them.
   */
  also?: readonly Query[];
}

export interface KnowledgeTracer {
  readonly info: TracerInfo;
  /**
   * P(correct) for each query, given the history (oldest first). Pure: the same history and
   * queries always give the same numbers, whatever `opts` says. Implementations may cache by
   * history prefix.
   */
  predict(history: readonly Interaction[], queries: readonly Query[], opts?: PredictOptions): Promise<number[]>;
}

/** Mastery queries for all skills 1..n: an average-difficulty item of each skill. */
export function masteryQueries(skills: readonly number[]): Query[] {
  return skills.map((skill) => ({ skill, question: 0, level: 0 }));
}
