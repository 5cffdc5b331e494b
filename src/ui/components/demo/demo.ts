/**
 * The first visit's demo: the reference tutors and the no-tutor control on one learner (the
 * built-in scenario, its seed and learner model), and the finding a newcomer should take away,
 * read from their traces: how much each tutor added over no tutor, how much it gave away, and one
 * help request answered by the answer-giver (the answer) and by the hint-giver (a hint). Pure
 * functions of records and traces; the Demo component runs and stores the runs through the run
 * library like any other.
 */
import { REFERENCE_TUTORS, effectiveScenario, helpRequests, runRecord, tutorTurns, type CurvePoint, type EventOf, type ReferenceTutorName, type RunRecord, type Scenario, type TraceEvent } from '../../../core/index';
import { YARDSTICK_LABELS, valueAdded } from '../play/debrief';
import { courseDay } from '../play/words';

/** The demo's tutors: the core's reference tutors (`REFERENCE_TUTORS`), the control first, then from worst to best on docs/reference-tutors.md's table. */
export const DEMO_TUTORS: readonly ReferenceTutorName[] = REFERENCE_TUTORS.map((t) => t.name);
export type DemoTutor = ReferenceTutorName;

export const DEMO_LABELS: Record<DemoTutor, { name: string; what: string }> = YARDSTICK_LABELS;

/** The record of one demo run: the scenario as the Lab would run it, with the tutor's default configuration and the template student voice. */
export function demoRecord(scenario: Scenario, tutor: DemoTutor): RunRecord {
  return runRecord({ scenario, source: 'scenarios/default.yaml', tutor: { name: tutor, config: {} }, voice: { kind: 'templates' } });
}

/** What makes two runs the same experiment: scenario, seed, days, learner model, ability, wake rule, voice and coupling. */
export function setupKey(r: RunRecord): string {
  const s = effectiveScenario(r);
  return JSON.stringify([s.id, s.seed, s.horizonDays, s.learner.tracer, s.learner.ability, s.tutor.wakeOn, r.voice, r.coupling ?? null, r.tutor.name]);
}

/** One tutor's row of the finding. */
export interface DemoRow {
  tutor: DemoTutor;
  /** Learning gain (probe solve rate, mean per-day change; a fraction per day). */
  gain: number | null;
  /** Gain minus the no-tutor run's over the same days; null for the control itself. */
  added: number | null;
  /** Share of tutor turns that gave an answer away (null: no turn with a message). */
  leakage: number | null;
  /** Help requests and how many were answered. */
  help: { asked: number; answered: number };
  /** Probe solve rate on day 0 and on the last day. */
  from: number | null;
  to: number | null;
  curve: readonly CurvePoint[];
}

/** A learner's help request and one tutor's reply to it. */
export interface Exchange {
  tutor: DemoTutor;
  day: number;
  asked: string;
  reply: string;
  /** The reply's trace event (for the trace viewer). */
  seq: number;
  leaked: boolean;
}

export interface Finding {
  rows: DemoRow[];
  /** The tutor with the highest value added (null when nothing could be compared). */
  best: DemoTutor | null;
  /** The same help request answered by the answer-giver (with the answer) and by the hint-giver. */
  contrast: { gave: Exchange; taught: Exchange } | null;
  /** One sentence a newcomer should take away, from the numbers above. */
  headline: string;
}

const curveOf = (events: readonly TraceEvent[]): CurvePoint[] => events.flatMap((e) => (e.type === 'probe' ? [{ day: e.day, solveRate: e.solveRate, gradedRate: e.gradedRate }] : []));

function row(tutor: DemoTutor, events: readonly TraceEvent[], control: readonly CurvePoint[] | null): DemoRow {
  const curve = curveOf(events);
  const v = valueAdded(curve, control ?? []);
  const turns = tutorTurns(events);
  const help = helpRequests(events);
  const first = curve.find((p) => p.day === 0) ?? null;
  const last = curve.length ? curve.reduce((a, b) => (b.day > a.day ? b : a)) : null;
  return {
    tutor,
    gain: v.played,
    added: control && tutor !== 'silent' ? v.added : null,
    leakage: turns.length ? turns.filter((t) => t.leaks.length > 0).length / turns.length : null,
    help: { asked: help.length, answered: help.filter((h) => h.answeredBy !== null).length },
    from: first?.solveRate ?? null,
    to: last?.solveRate ?? null,
    curve,
  };
}

function exchange(tutor: DemoTutor, events: readonly TraceEvent[], want: (leaked: boolean) => boolean, same?: { t: number; text: string }): Exchange | null {
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  const leaks = new Set(tutorTurns(events).flatMap((t) => t.leaks.map((l) => l.seq)));
  for (const h of helpRequests(events)) {
    if (h.answeredBy === null) continue;
    const ask = bySeq.get(h.seq) as EventOf<'message'>;
    const reply = bySeq.get(h.answeredBy) as EventOf<'message'>;
    if (same && (ask.t !== same.t || ask.text !== same.text)) continue;
    const leaked = leaks.has(reply.seq);
    if (!want(leaked)) continue;
    return { tutor, day: courseDay(ask.t), asked: ask.text, reply: reply.text, seq: reply.seq, leaked };
  }
  return null;
}

/**
 * The finding from the four runs' traces (any may be missing while they run: its row is left out).
 * The contrast is the first help request the answer-giver answered with the answer, and the
 * hint-giver's reply to the same request (same time and words; the learner is the same until the
 * tutors first differ), else the hint-giver's first reply that gave nothing away.
 */
export function finding(traces: Partial<Record<DemoTutor, readonly TraceEvent[]>>): Finding {
  const control = traces.silent ? curveOf(traces.silent) : null;
  const rows = DEMO_TUTORS.flatMap((t) => (traces[t] ? [row(t, traces[t], control)] : []));
  const scored = rows.filter((r) => r.added !== null);
  const best = scored.length ? scored.reduce((a, b) => (b.added! > a.added! ? b : a)).tutor : null;
  let contrast: Finding['contrast'] = null;
  const gave = traces['answer-giver'] ? exchange('answer-giver', traces['answer-giver'], (l) => l) : null;
  if (gave && traces.withholder) {
    const ask = traces['answer-giver']!.find((e) => e.type === 'message' && e.text === gave.asked && e.from === 'learner');
    const taught = (ask ? exchange('withholder', traces.withholder, (l) => !l, { t: ask.t, text: gave.asked }) : null) ?? exchange('withholder', traces.withholder, (l) => !l);
    if (taught) contrast = { gave, taught };
  }
  return { rows, best, contrast, headline: headline(rows, best) };
}

const pp = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)} pp/day`;

function headline(rows: readonly DemoRow[], best: DemoTutor | null): string {
  const by = new Map(rows.map((r) => [r.tutor, r]));
  const ag = by.get('answer-giver');
  const b = best ? by.get(best) : undefined;
  if (!by.get('silent') || !ag || !b || b.added === null || ag.added === null) return 'The finding appears once the no-tutor run and the tutors have finished.';
  const leak = ag.leakage === null ? '' : `, gave the answer away in ${(ag.leakage * 100).toFixed(0)}% of its turns`;
  const agSays = ag.added <= 0 ? 'added nothing over no tutor' : b.tutor === 'answer-giver' ? 'added the most' : `added less than the ${DEMO_LABELS[b.tutor].name.toLowerCase()}`;
  const bestSays = b.tutor === 'answer-giver' ? '' : ` The ${DEMO_LABELS[b.tutor].name.toLowerCase()} added ${pp(b.added)} over the same student with no tutor.`;
  return `The answer-giver answered ${ag.help.answered} of ${ag.help.asked} help requests${leak}, and ${agSays} (${pp(ag.added)}).${bestSays}`;
}
