/**
 * Deterministic axes, computed from a trace alone (so stored traces re-score offline).
 * Definitions are in docs/metrics.md; each function here implements one of them.
 */
import type { EventOf, TraceEvent, ActionKind } from '../trace/types';
import { ACTION_KINDS } from '../trace/types';
import { revealsAnswer, type MatchOptions } from '../course/answer-forms';
import type { ItemContent } from '../course/types';

/** A score that may be missing: value null means "not scored", with the reason. */
export interface Scored<D = Record<string, unknown>> {
  value: number | null;
  /** Why the value is null, when it is. */
  reason?: string;
  detail: D;
}

export interface CurvePoint {
  day: number;
  /** Expected share of the probe set answered correctly (mean P(correct)). */
  solveRate: number;
  /** Share actually answered correctly in this run's draw. */
  gradedRate: number;
}

/**
 * I. Learning gain: mean per-day Δ solve rate. The solve rate S(d) is the learner's expected
 * accuracy on the held-out probe set after day d (day 0: before any tutoring). With probe days
 * 0 = d0 < d1 < … < dn, the per-day Δ between consecutive probes is
 * (S(d_k) − S(d_{k−1})) / (d_k − d_{k−1}); its mean over the dn days telescopes to
 * (S(dn) − S(d0)) / dn. The graded (sampled) rate is reported beside it.
 */
export function learningGain(events: readonly TraceEvent[]): Scored<{ curve: CurvePoint[]; totalGain: number | null; gradedGainPerDay: number | null; days: number }> {
  const curve = events
    .filter((e): e is EventOf<'probe'> => e.type === 'probe')
    .map((e) => ({ day: e.day, solveRate: e.solveRate, gradedRate: e.gradedRate }))
    .sort((a, b) => a.day - b.day);
  const first = curve[0];
  const last = curve[curve.length - 1];
  if (!first || !last || first.day !== 0 || last.day === 0) {
    return { value: null, reason: 'needs the pre-tutor probe (day 0) and at least one later probe', detail: { curve, totalGain: null, gradedGainPerDay: null, days: 0 } };
  }
  const days = last.day - first.day;
  return {
    value: (last.solveRate - first.solveRate) / days,
    detail: { curve, totalGain: last.solveRate - first.solveRate, gradedGainPerDay: (last.gradedRate - first.gradedRate) / days, days },
  };
}

function helpTexts(events: readonly TraceEvent[]): Set<string> {
  const start = events[0];
  return new Set(start && start.type === 'run_start' ? Object.values(start.helpTemplates) : []);
}

/** A help request and the tutor message that answered it (null: unanswered); see `responsiveness`. */
export interface HelpRequest {
  seq: number;
  answeredBy: number | null;
}

/**
 * The help requests of a run in order, each with the tutor message that answered it: a learner
 * message whose text is exactly one of the run's help templates, answered by the first tutor
 * message before the learner's next help request, logout or the end of the day.
 */
export function helpRequests(events: readonly TraceEvent[]): HelpRequest[] {
  const templates = helpTexts(events);
  const out: HelpRequest[] = [];
  let open: HelpRequest | null = null;
  for (const e of events) {
    if (e.type === 'message' && e.from === 'learner' && templates.has(e.text)) {
      open = { seq: e.seq, answeredBy: null };
      out.push(open);
    } else if (e.type === 'message' && e.from === 'tutor' && open) {
      open.answeredBy = e.seq;
      open = null;
    } else if (e.type === 'lms_event' && (e.kind === 'logout' || e.kind === 'end_of_day')) {
      open = null;
    }
  }
  return out;
}

/**
 * II. Responsiveness: the share of help requests answered. A help request is a learner message
 * whose text is exactly one of the run's help templates; it is answered when a tutor message
 * (send_message or provide_content) follows it before the learner's next help request, logout or
 * the end of the day (`helpRequests`).
 */
export function responsiveness(events: readonly TraceEvent[]): Scored<{ requests: number; answered: number }> {
  const list = helpRequests(events);
  const requests = list.length;
  const answered = list.filter((r) => r.answeredBy !== null).length;
  if (requests === 0) return { value: null, reason: 'the learner made no help requests', detail: { requests, answered } };
  return { value: answered / requests, detail: { requests, answered } };
}

/** The declared answer forms of every item and probe of the run, by item id. */
export function answerFormsOf(events: readonly TraceEvent[]): Map<string, ItemContent['answerForms']> {
  const start = events[0];
  const forms = new Map<string, ItemContent['answerForms']>();
  if (start?.type === 'run_start') for (const it of [...start.itemBank.items, ...start.itemBank.probes]) forms.set(it.id, it.answerForms);
  return forms;
}

/**
 * The leakage matcher's options: the declared forms and their number words (docs/metrics.md).
 * `{ words: false }` is the matcher before number words (digits and phrases only), kept for the
 * before/after comparison (`npm run report:leakage`).
 */
export const LEAK_MATCH: MatchOptions = { words: true };

/** The items of `workingOn` whose declared answer forms `text` contains (the leakage matcher). */
export function leakedItems(text: string, workingOn: readonly string[] | undefined, forms: ReadonlyMap<string, ItemContent['answerForms']>, opts: MatchOptions = LEAK_MATCH): string[] {
  return (workingOn ?? []).filter((id) => {
    const f = forms.get(id);
    return f ? revealsAnswer(text, f, opts) : false;
  });
}

/** One tutor turn with messages: its messages' seqs and the messages that leaked (with the items). */
export interface TutorTurn {
  turn: number;
  messages: number[];
  leaks: { seq: number; itemIds: string[] }[];
}

/** The tutor turns with messages, in order of their first message (messages without a turn are a turn each). */
export function tutorTurns(events: readonly TraceEvent[], opts: MatchOptions = LEAK_MATCH): TutorTurn[] {
  const forms = answerFormsOf(events);
  const turns = new Map<number, TutorTurn>();
  for (const e of events) {
    if (e.type !== 'message' || e.from !== 'tutor') continue;
    const turn = e.turn ?? -e.seq;
    let t = turns.get(turn);
    if (!t) turns.set(turn, (t = { turn, messages: [], leaks: [] }));
    t.messages.push(e.seq);
    const hit = leakedItems(e.text, e.workingOn, forms, opts);
    if (hit.length) t.leaks.push({ seq: e.seq, itemIds: hit });
  }
  return [...turns.values()];
}

/**
 * Answer leakage: the share of tutor turns (the messages of one wake) that contain a declared
 * answer form of an item the learner was working on, matched on token boundaries.
 */
export function leakage(events: readonly TraceEvent[], opts: MatchOptions = LEAK_MATCH): Scored<{ tutorTurns: number; leakingTurns: number; leaks: { seq: number; itemIds: string[] }[] }> {
  const turns = tutorTurns(events, opts);
  const leaks = turns.flatMap((t) => t.leaks).sort((a, b) => a.seq - b.seq);
  const n = turns.length;
  const leakingTurns = turns.filter((t) => t.leaks.length > 0).length;
  if (n === 0) return { value: null, reason: 'the tutor sent no messages', detail: { tutorTurns: n, leakingTurns, leaks } };
  return { value: leakingTurns / n, detail: { tutorTurns: n, leakingTurns, leaks } };
}

/**
 * Reasoning-step patterns (after Fan et al. 2026, independence rubric): an equation, an
 * arithmetic computation, a coefficient–variable term, or a variable in an operator relation.
 * A bare number does not count.
 */
export const STEP_PATTERNS: readonly RegExp[] = [
  /[0-9a-z)]\s*=\s*[-+(]?\s*[0-9a-z]/i,
  /\d+(?:\.\d+)?\s*[-+*/×·÷]\s*\d+(?:\.\d+)?/,
  /\d+(?:\.\d+)?[a-z]\b/i,
  /\b[a-z]\s*[-+*/]\s*[0-9a-z(]/i,
];

export function attemptsStep(text: string): boolean {
  const t = text.replace(/[\u2212]/g, '-');
  return STEP_PATTERNS.some((re) => re.test(t));
}

/** A learner message that directly follows a tutor turn, and whether it attempts a step; see `independence`. */
export interface NextTurn {
  seq: number;
  /** The tutor message it follows (the last one before it). */
  after: number;
  step: boolean;
  /** The learner had an item open when it replied (only these count for independence). */
  withItem: boolean;
}

/** The learner's next turns: the first learner message after a tutor's messages, before the tutor speaks again. */
export function nextTurns(events: readonly TraceEvent[]): NextTurn[] {
  let last: number | null = null;
  const out: NextTurn[] = [];
  for (const e of events) {
    if (e.type !== 'message') continue;
    if (e.from === 'tutor') last = e.seq;
    else if (last !== null) {
      out.push({ seq: e.seq, after: last, step: attemptsStep(e.text), withItem: typeof e.itemId === 'string' && e.itemId !== '' });
      last = null;
    }
  }
  return out;
}

/**
 * Next-turn independence: of the learner turns that directly follow a tutor turn (the first
 * learner message after a tutor's messages, before the tutor speaks again) while the learner had
 * an item open, the share that attempt a reasoning step of their own (`nextTurns`). A reply with
 * no item open ("Okay, thanks!") has no step to take and is not counted (`withoutItem`).
 */
export function independence(events: readonly TraceEvent[]): Scored<{ learnerTurns: number; withStep: number; withoutItem: number }> {
  const all = nextTurns(events);
  const list = all.filter((t) => t.withItem);
  const learnerTurns = list.length;
  const withoutItem = all.length - list.length;
  const withStep = list.filter((t) => t.step).length;
  if (learnerTurns === 0) return { value: null, reason: all.length ? 'no learner turn with an item open followed a tutor message' : 'no learner turn followed a tutor message', detail: { learnerTurns, withStep, withoutItem } };
  return { value: withStep / learnerTurns, detail: { learnerTurns, withStep, withoutItem } };
}

/** Counts of the five observable action kinds (successful calls); turns with no action count as silence. */
export function actionCounts(events: readonly TraceEvent[]): { counts: Record<ActionKind, number>; implicitSilences: number; toolErrors: number; turns: number } {
  const counts = Object.fromEntries(ACTION_KINDS.map((k) => [k, 0])) as Record<ActionKind, number>;
  let implicitSilences = 0;
  let toolErrors = 0;
  let turns = 0;
  for (const e of events) {
    if (e.type === 'tool_call') {
      if (!e.result.ok) toolErrors++;
      else if ((ACTION_KINDS as readonly string[]).includes(e.tool)) counts[e.tool as ActionKind]++;
    } else if (e.type === 'turn_end') {
      turns++;
      if (e.implicitSilence) implicitSilences++;
    }
  }
  counts.stay_silent += implicitSilences;
  return { counts, implicitSilences, toolErrors, turns };
}
