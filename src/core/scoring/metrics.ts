/**
 * Deterministic axes, computed from a trace alone (so stored traces re-score offline).
 * Definitions are in docs/metrics.md; each function here implements one of them.
 */
import type { EventOf, TraceEvent, ActionKind } from '../trace/types';
import { ACTION_KINDS } from '../trace/types';
import { revealsAnswer, type MatchOptions } from '../course/answer-forms';
import type { Item, ItemContent } from '../course/types';
import { DisclosureWindow } from '../leakage/detect';
import { MethodVocabulary, instructionSubstance, methodWordsIn } from '../learner/instruction';
import { skillInfo } from '../course/skills';
import { dayOf, type SimMinutes } from '../clock/index';

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

/** Why a tutor message answers a help request (see `helpRequests`). */
export type HelpEngagement = 'method' | 'instruction' | 'disclosure';

/** A help request and the tutor message that answered it (null: unanswered); see `responsiveness`. */
export interface HelpRequest {
  seq: number;
  /** The item the learner asked about (the message's itemId; null when it names none). */
  itemId: string | null;
  /** The first tutor message of the window that engages the request; null: unanswered. */
  answeredBy: number | null;
  /** How answeredBy engages it (absent when unanswered). */
  engagement?: HelpEngagement;
  /** The window's tutor messages that did not engage it (before answeredBy, or all of them when unanswered). */
  passedOver: number[];
}

/**
 * What the responsiveness rule reads of a run, worked out once: the items by id, the method
 * vocabulary of the bank's skills (the instruction check's, src/core/learner/instruction.ts, with
 * the course catalogue's skill names) and, on demand, the disclosures.
 */
class EngagementCheck {
  readonly #items: Map<string, Item>;
  readonly #vocab: MethodVocabulary;
  readonly #events: readonly TraceEvent[];
  #disclosed: Map<number, Set<string>> | null;

  constructor(events: readonly TraceEvent[], known?: readonly TraceDisclosure[]) {
    this.#events = events;
    this.#items = itemsOf(events);
    const start = events[0];
    this.#vocab = new MethodVocabulary(start?.type === 'run_start' ? start.itemBank.items : [], (s) => skillInfo(s)?.name ?? `skill ${s}`);
    this.#disclosed = known ? disclosedBySeq(known) : null;
  }

  /** The skills a request is about: its item's; with no known item, those of the items the message was sent over; with none, every skill of the bank. */
  skills(itemId: string | null, workingOn: readonly string[] | undefined): number[] {
    const it = itemId ? this.#items.get(itemId) : undefined;
    if (it) return [it.skillId];
    const open = [...new Set((workingOn ?? []).flatMap((id) => (this.#items.has(id) ? [this.#items.get(id)!.skillId] : [])))];
    return open.length ? open : this.#vocab.skills();
  }

  /** How tutor message `seq` (text `text`) engages a request about `itemId` on `skills`, or null. */
  engages(seq: number, text: string, itemId: string | null, skills: readonly number[]): HelpEngagement | null {
    if (skills.some((sk) => methodWordsIn(text, sk, this.#vocab).length > 0)) return 'method';
    if (skills.some((sk) => instructionSubstance(text, sk, this.#vocab).credited)) return 'instruction';
    this.#disclosed ??= disclosedBySeq(traceDisclosures(this.#events));
    const d = this.#disclosed.get(seq);
    if (d && (itemId === null ? d.size > 0 : d.has(itemId))) return 'disclosure';
    return null;
  }
}

function disclosedBySeq(ds: readonly TraceDisclosure[]): Map<number, Set<string>> {
  const m = new Map<number, Set<string>>();
  for (const d of ds) (m.get(d.seq) ?? m.set(d.seq, new Set()).get(d.seq)!).add(d.itemId);
  return m;
}

/**
 * The help requests of a run in order, each with the tutor message that answered it. A help
 * request is a learner message whose text is exactly one of the run's help templates; its window
 * runs to the learner's next help request, logout or the end of the day. It is answered by the
 * first tutor message (chat or content) in the window that engages it, about the item asked about
 * (skill S, item X):
 *   - method: the message uses a word of S's method vocabulary (the instruction check's: words of
 *     the skill's worked solutions and hints that its problems do not use and at most half the
 *     course's skills share: "opposite", "sign", "parentheses", "both sides", "decimal");
 *   - instruction: the instruction check credits it on S (`instructionSubstance`, without the
 *     repeat rule: a hint given again still answers), e.g. a rung of the item's hint ladder;
 *   - disclosure: it discloses X's answer (the detector): an answer, a bad one (leakage counts it).
 * Encouragement, "Good question!", the problem restated, or anything about no skill of the request
 * does not answer it. `known`: the detector's disclosures when the caller has them (scoreTrace).
 */
export function helpRequests(events: readonly TraceEvent[], known?: readonly TraceDisclosure[]): HelpRequest[] {
  const templates = helpTexts(events);
  const out: HelpRequest[] = [];
  let check: EngagementCheck | null = null;
  let open: HelpRequest | null = null;
  for (const e of events) {
    if (e.type === 'message' && e.from === 'learner' && templates.has(e.text)) {
      open = { seq: e.seq, itemId: typeof e.itemId === 'string' && e.itemId !== '' ? e.itemId : null, answeredBy: null, passedOver: [] };
      out.push(open);
    } else if (e.type === 'message' && e.from === 'tutor' && open) {
      check ??= new EngagementCheck(events, known);
      const how = check.engages(e.seq, e.text, open.itemId, check.skills(open.itemId, e.workingOn));
      if (how) {
        open.answeredBy = e.seq;
        open.engagement = how;
        open = null;
      } else open.passedOver.push(e.seq);
    } else if (e.type === 'lms_event' && (e.kind === 'logout' || e.kind === 'end_of_day')) {
      open = null;
    }
  }
  return out;
}

/**
 * II. Responsiveness: the share of help requests answered. A help request is a learner message
 * whose text is exactly one of the run's help templates; it is answered when a tutor message
 * (send_message or provide_content) that engages it (its skill's method, instruction credited on
 * its skill, or its item's answer; `helpRequests`) follows it before the learner's next help
 * request, logout or the end of the day. A reply that engages nothing ("Good question! Keep
 * going!") does not answer it (`passedOver`, counted in the detail as `unengaged`).
 */
export function responsiveness(events: readonly TraceEvent[], known?: readonly TraceDisclosure[]): Scored<{ requests: number; answered: number; repliedUnengaged: number }> {
  const list = helpRequests(events, known);
  const requests = list.length;
  const answered = list.filter((r) => r.answeredBy !== null).length;
  // Requests left unanswered although the tutor replied (with something that engaged nothing).
  const repliedUnengaged = list.filter((r) => r.answeredBy === null && r.passedOver.length > 0).length;
  if (requests === 0) return { value: null, reason: 'the learner made no help requests', detail: { requests, answered, repliedUnengaged } };
  return { value: answered / requests, detail: { requests, answered, repliedUnengaged } };
}

/** The declared answer forms of every item and probe of the run, by item id. */
export function answerFormsOf(events: readonly TraceEvent[]): Map<string, ItemContent['answerForms']> {
  const start = events[0];
  const forms = new Map<string, ItemContent['answerForms']>();
  if (start?.type === 'run_start') for (const it of [...start.itemBank.items, ...start.itemBank.probes, ...(start.itemBank.postProbes ?? [])]) forms.set(it.id, it.answerForms);
  return forms;
}

/**
 * Which matcher leakage uses. The default is the disclosure detector (src/core/leakage/detect.ts):
 * a text discloses an item's answer when a student could copy from it something the answer
 * checker accepts, with context that clears innocent numbers. `{ matcher: 'declared' }` is the
 * matcher before it (declared forms on token boundaries, plus number words with `words`), kept
 * for the before/after tables (`npm run report:leakage`, `npm run report:leakage-corpus`).
 */
export type LeakOptions = { matcher?: 'detector' } | ({ matcher: 'declared' } & MatchOptions);
export const LEAK_MATCH: LeakOptions = { matcher: 'detector' };

/** The items of `workingOn` whose declared answer forms `text` contains (the declared matcher, kept for comparisons). */
export function leakedItems(text: string, workingOn: readonly string[] | undefined, forms: ReadonlyMap<string, ItemContent['answerForms']>, opts: MatchOptions = { words: true }): string[] {
  return (workingOn ?? []).filter((id) => {
    const f = forms.get(id);
    return f ? revealsAnswer(text, f, opts) : false;
  });
}

/** One tutor-visible text of a run: a message (chat or content) or an assignment note. */
export interface TutorText {
  seq: number;
  turn: number;
  channel: 'send_message' | 'provide_content' | 'assign_items_note';
  text: string;
  /** When it was sent (the disclosure window spans that day's texts). */
  t: number;
  /** The items it is checked against: being worked on, assigned in its turn, linked (content), or opened before the tutor's next turn. */
  itemIds: string[];
}

/** One disclosure found in a run (detector): the text, the item, the span and what a student copies. */
export interface TraceDisclosure {
  seq: number;
  turn: number;
  channel: TutorText['channel'];
  itemId: string;
  span: string;
  copy: string;
  rule: string;
  /** How many earlier tutor texts the disclosure needed (an answer split across messages); 0: this text alone. */
  spans: number;
}

/**
 * Every text of the run the learner can read from the tutor, in order, with the items each is
 * checked against: the items being worked on when it was sent (the message's workingOn), the
 * items the tutor assigned in the same turn, the item a content post is linked to, and the items
 * the learner opens (attempts) before the tutor's next turn. Assignment notes are texts too.
 */
export function tutorTexts(events: readonly TraceEvent[]): TutorText[] {
  const out: TutorText[] = [];
  const assignedInTurn = new Map<number, Set<string>>();
  let lastWorking: string[] = [];
  for (const e of events) {
    if (e.type === 'tool_call' && e.result.ok && e.tool === 'assign_items') {
      const ids = ((e.result.value as { item_ids?: unknown })?.item_ids ?? []) as string[];
      const set = assignedInTurn.get(e.turn) ?? new Set<string>();
      for (const id of ids) set.add(id);
      assignedInTurn.set(e.turn, set);
      const note = (e.args as { note?: unknown })?.note;
      if (typeof note === 'string' && note.trim()) out.push({ seq: e.seq, t: e.t, turn: e.turn, channel: 'assign_items_note', text: note, itemIds: [...new Set([...ids, ...lastWorking])] });
    } else if (e.type === 'tool_call' && e.result.ok && e.tool === 'provide_content') {
      const a = e.args as { item_id?: unknown; title?: unknown; body?: unknown };
      if (typeof a.item_id === 'string') {
        const text = `${String(a.title)}\n\n${String(a.body)}`;
        for (let k = out.length - 1; k >= 0; k--) {
          const x = out[k]!;
          if (x.turn !== e.turn) break;
          if (x.channel === 'provide_content' && x.text === text && !x.itemIds.includes(a.item_id)) {
            x.itemIds.push(a.item_id);
            break;
          }
        }
      }
    } else if (e.type === 'message' && e.from === 'tutor') {
      lastWorking = e.workingOn ?? [];
      out.push({ seq: e.seq, t: e.t, turn: e.turn ?? -e.seq, channel: e.via ?? 'send_message', text: e.text, itemIds: [...lastWorking] });
    }
  }
  // Items assigned in the same turn, and items opened before the tutor's next turn.
  const opened = new Map<number, Set<string>>(); // index of the text -> items attempted after it, before the next wake
  let pending: number[] = [];
  let k = 0;
  for (const e of events) {
    while (k < out.length && out[k]!.seq <= e.seq) pending.push(k++);
    if (e.type === 'wake') pending = [];
    else if (e.type === 'attempt') for (const i of pending) (opened.get(i) ?? opened.set(i, new Set()).get(i)!).add(e.itemId);
  }
  out.forEach((x, i) => {
    for (const id of [...(assignedInTurn.get(x.turn) ?? []), ...(opened.get(i) ?? [])]) if (!x.itemIds.includes(id)) x.itemIds.push(id);
  });
  return out;
}

/** The run's items (practice and probes) by id. */
function itemsOf(events: readonly TraceEvent[]): Map<string, Item> {
  const start = events[0];
  const m = new Map<string, Item>();
  if (start?.type === 'run_start') for (const it of [...start.itemBank.items, ...start.itemBank.probes, ...(start.itemBank.postProbes ?? [])]) m.set(it.id, it);
  return m;
}

/** Every disclosure in the run's tutor texts (the detector, with a window across consecutive texts). */
export function traceDisclosures(events: readonly TraceEvent[]): TraceDisclosure[] {
  const items = itemsOf(events);
  const textWindow = new DisclosureWindow();
  const out: TraceDisclosure[] = [];
  for (const x of tutorTexts(events)) {
    const its = x.itemIds.map((id) => items.get(id)).filter((it): it is Item => it !== undefined);
    for (const d of textWindow.read(x.text, its, dayOf(x.t as SimMinutes))) out.push({ seq: x.seq, turn: x.turn, channel: x.channel, itemId: d.itemId, span: d.span, copy: d.copy, rule: d.rule, spans: d.spans });
  }
  return out;
}

/** One tutor turn with texts: its texts' seqs and the texts that leaked (with the items). */
export interface TutorTurn {
  turn: number;
  messages: number[];
  leaks: { seq: number; itemIds: string[] }[];
}

/** The tutor turns with texts (messages and assignment notes), in order of their first text (messages without a turn are a turn each). */
export function tutorTurns(events: readonly TraceEvent[], opts: LeakOptions = LEAK_MATCH, disclosures?: readonly TraceDisclosure[]): TutorTurn[] {
  const turns = new Map<number, TutorTurn>();
  const texts = tutorTexts(events);
  const bySeq = new Map<number, string[]>();
  if (opts.matcher === 'declared') {
    const forms = answerFormsOf(events);
    for (const e of events) {
      if (e.type !== 'message' || e.from !== 'tutor') continue;
      const hit = leakedItems(e.text, e.workingOn, forms, opts);
      if (hit.length) bySeq.set(e.seq, hit);
    }
  } else {
    for (const d of disclosures ?? traceDisclosures(events)) {
      const l = bySeq.get(d.seq) ?? [];
      if (!l.includes(d.itemId)) l.push(d.itemId);
      bySeq.set(d.seq, l);
    }
  }
  for (const x of texts) {
    if (opts.matcher === 'declared' && x.channel === 'assign_items_note') continue;
    let t = turns.get(x.turn);
    if (!t) turns.set(x.turn, (t = { turn: x.turn, messages: [], leaks: [] }));
    t.messages.push(x.seq);
    const hit = bySeq.get(x.seq);
    if (hit) t.leaks.push({ seq: x.seq, itemIds: hit });
  }
  return [...turns.values()];
}

/**
 * Answer leakage: the share of tutor turns (the texts of one wake: messages, content, assignment
 * notes) in which a text discloses the answer of an item the learner is working on, was assigned
 * in that turn, or opens before the tutor's next turn (the disclosure detector; docs/metrics.md).
 */
export function leakage(events: readonly TraceEvent[], opts: LeakOptions = LEAK_MATCH): Scored<{ tutorTurns: number; leakingTurns: number; leaks: { seq: number; itemIds: string[] }[]; disclosures?: TraceDisclosure[] }> {
  const disclosures = opts.matcher === 'declared' ? undefined : traceDisclosures(events);
  const turns = tutorTurns(events, opts, disclosures);
  const leaks = turns.flatMap((t) => t.leaks).sort((a, b) => a.seq - b.seq);
  const n = turns.length;
  const leakingTurns = turns.filter((t) => t.leaks.length > 0).length;
  const detail = { tutorTurns: n, leakingTurns, leaks, ...(disclosures ? { disclosures } : {}) };
  if (n === 0) return { value: null, reason: 'the tutor sent no messages', detail };
  return { value: leakingTurns / n, detail };
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
  /** The learner had an item open when it replied. */
  withItem: boolean;
  /**
   * The learner was stuck on that item when the tutor spoke: since its last login it had asked for
   * help on it or answered it wrong, and had not answered it right since (only these count for
   * independence).
   */
  stuck: boolean;
}

/**
 * The learner's next turns: the first learner message after a tutor's messages, before the tutor
 * speaks again, with whether the learner was stuck on its item when the tutor's last message came
 * (a help request about it or a wrong answer to it since the learner's last login, and no right
 * answer to it since).
 */
export function nextTurns(events: readonly TraceEvent[]): NextTurn[] {
  const templates = helpTexts(events);
  const stuckOn = new Set<string>();
  let last: number | null = null;
  let stuckAtLast = new Set<string>();
  const out: NextTurn[] = [];
  for (const e of events) {
    if (e.type === 'lms_event' && (e.kind === 'login' || e.kind === 'logout' || e.kind === 'end_of_day')) stuckOn.clear();
    else if (e.type === 'attempt') {
      if (e.correct) stuckOn.delete(e.itemId);
      else stuckOn.add(e.itemId);
    }
    if (e.type !== 'message') continue;
    if (e.from === 'tutor') {
      last = e.seq;
      stuckAtLast = new Set(stuckOn);
    } else {
      const itemId = typeof e.itemId === 'string' && e.itemId !== '' ? e.itemId : null;
      if (last !== null) {
        out.push({ seq: e.seq, after: last, step: attemptsStep(e.text), withItem: itemId !== null, stuck: itemId !== null && stuckAtLast.has(itemId) });
        last = null;
      }
      if (itemId !== null && (templates.has(e.text) || e.help !== undefined)) stuckOn.add(itemId);
    }
  }
  return out;
}

/**
 * Next-turn independence: of the learner turns that directly follow a tutor turn (the first
 * learner message after a tutor's messages, before the tutor speaks again) while the learner was
 * stuck on the item it had open (`nextTurns`: it had asked for help on it or answered it wrong
 * this session, and not yet answered it right), the share that attempt a reasoning step of their
 * own. Only those turns count: a tutor who speaks only when the learner is doing well (right after
 * a correct answer, when its P(know) is high) would otherwise win the axis without teaching
 * (docs/validity.md, `selective-prompter`). A reply with no item open ("Okay, thanks!") has no
 * step to take (`withoutItem`); replies with an item open but not stuck are `notStuck`.
 */
export function independence(events: readonly TraceEvent[]): Scored<{ learnerTurns: number; withStep: number; withoutItem: number; notStuck: number }> {
  const all = nextTurns(events);
  const list = all.filter((t) => t.withItem && t.stuck);
  const learnerTurns = list.length;
  const withoutItem = all.filter((t) => !t.withItem).length;
  const notStuck = all.filter((t) => t.withItem && !t.stuck).length;
  const withStep = list.filter((t) => t.step).length;
  if (learnerTurns === 0) {
    const reason = all.length === 0 ? 'no learner turn followed a tutor message' : notStuck === 0 ? 'no learner turn with an item open followed a tutor message' : 'no learner turn followed a tutor message while the learner was stuck (after a help request or a wrong answer)';
    return { value: null, reason, detail: { learnerTurns, withStep, withoutItem, notStuck } };
  }
  return { value: withStep / learnerTurns, detail: { learnerTurns, withStep, withoutItem, notStuck } };
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
