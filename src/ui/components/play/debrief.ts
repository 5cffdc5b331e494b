/**
 * The end of a played run: what "Finish" will count against you before it runs, the yardsticks a
 * debrief compares you with, value added over the no-tutor run, and the moments that mattered
 * (help requests answered or missed, answers given away, practice that worked), each with the
 * trace event it points at. Pure functions of traces.
 */
import { REFERENCE_TUTORS, extractionAttempts, gainThrough, helpRequests, lastCheck, tutorTurns, valueAdded, type EventOf, type ReferenceTutorName, type RunRecord, type TraceEvent } from '../../../core/index';
import { AssignmentBook, runFacts } from './conversation';
import { count, quote, skillName, solvedText, when } from './words';

/** The built-in tutors a played run is compared with: the core's reference tutors (`REFERENCE_TUTORS`), no tutor first (the control). */
export const YARDSTICKS: readonly ReferenceTutorName[] = REFERENCE_TUTORS.map((t) => t.name);
export type Yardstick = ReferenceTutorName;

export const YARDSTICK_LABELS = Object.fromEntries(REFERENCE_TUTORS.map((t) => [t.name, { name: t.label, what: t.what }])) as Record<Yardstick, { name: string; what: string }>;

/**
 * The record a yardstick runs on: the played run's record with another tutor, and, for a run its
 * tutor ended, its days played as the horizon (the same learner, seed, learner model, ability and
 * wake rule; everything the learner does before the first tutor action is identical).
 */
export function yardstickRecord(played: RunRecord, tutor: Yardstick, daysPlayed: number | null): RunRecord {
  return { ...played, tutor: { name: tutor, config: {} }, ...(daysPlayed !== null ? { horizonDays: daysPlayed } : {}) };
}

/**
 * Value added by the tutor (the played run's learning gain minus the no-tutor run's, on the same
 * learner and seed, over the same days), and the gain through a day: the core's definitions
 * (core/scoring/value-added.ts), shared with the CLI, sweeps and the results report.
 */
export { gainThrough, lastCheck, valueAdded };

/** What "Finish" will count against you, said before it runs. */
export interface FinishPreview {
  day: number;
  daysLeft: number;
  /** Help requests still waiting for an answer now (they count as unanswered unless you reply before finishing). */
  waiting: { seq: number; text: string }[];
  helpSoFar: number;
  /** Help requests per day so far. */
  helpPerDay: number;
  /** The last daily check of the learner (probe), which "end here" is scored through. */
  lastCheckDay: number;
  /** Whether today's check has been taken already. */
  checkedToday: boolean;
}

export function finishPreview(events: readonly TraceEvent[], day: number, horizon: number): FinishPreview {
  const reqs = helpRequests(events);
  let open: number | null = null;
  for (const e of events) {
    if (e.type === 'message' && e.from === 'learner' && reqs.some((r) => r.seq === e.seq)) open = e.seq;
    else if (e.type === 'message' && e.from === 'tutor') open = null;
    else if (e.type === 'lms_event' && (e.kind === 'logout' || e.kind === 'end_of_day')) open = null;
  }
  const waitingEvent = open === null ? null : events.find((e) => e.seq === open);
  const probes = events.filter((e): e is EventOf<'probe'> => e.type === 'probe');
  const lastCheckDay = Math.max(0, ...probes.map((p) => p.day));
  return {
    day,
    daysLeft: Math.max(0, horizon - day),
    waiting: waitingEvent?.type === 'message' ? [{ seq: waitingEvent.seq, text: waitingEvent.text }] : [],
    helpSoFar: reqs.length,
    helpPerDay: day > 0 ? reqs.length / day : 0,
    lastCheckDay,
    checkedToday: lastCheckDay >= day,
  };
}

/** A moment of the run worth a teacher's look, pointing at its trace event. */
export interface Moment {
  seq: number;
  t: number;
  kind: 'help-answered' | 'help-missed' | 'gave-away' | 'held' | 'practice-worked' | 'practice-missed';
  tone: 'good' | 'bad';
  title: string;
  detail: string;
}

const excerpt = (text: string, n = 140): string => (text.length > n ? `${text.slice(0, n - 1).trimEnd()}…` : text);

/**
 * The moments that mattered: every help request (answered, with your reply, or missed, and
 * whether you had skipped), every turn that gave an answer away (the leakage axis's matches),
 * every attempt to get the answer you held, and every practice you assigned with how much of it
 * the learner solved.
 */
export function moments(events: readonly TraceEvent[]): Moment[] {
  const facts = runFacts(events);
  if (!facts) return [];
  const name = facts.learner;
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  const out: Moment[] = [];
  const skippedTurns = new Set(events.flatMap((e) => (e.type === 'tool_call' && e.tool === 'stay_silent' && String((e.args as { reason?: unknown } | null)?.reason ?? '').startsWith('skipped:') ? [e.turn] : [])));
  const wakeOf = new Map<number, number>(); // help request seq -> turn that it woke
  for (const e of events) if (e.type === 'wake' && e.ref !== null) wakeOf.set(e.ref, e.turn);
  for (const h of helpRequests(events)) {
    const e = bySeq.get(h.seq) as EventOf<'message'>;
    const about = e.itemId ? facts.items.get(e.itemId) : undefined;
    const on = about ? ` on a ${skillName(about.skillId)} problem` : '';
    if (h.answeredBy !== null) {
      const reply = bySeq.get(h.answeredBy) as EventOf<'message'>;
      out.push({ seq: h.seq, t: e.t, kind: 'help-answered', tone: 'good', title: `${when(e.t)}: you answered ${name}'s help request${on}`, detail: `${name}: ${quote(e.text)} You: ${quote(excerpt(reply.text))}` });
    } else if (h.passedOver.length > 0) {
      // You replied, with nothing of the problem: no method of its skill, no hint of it (the responsiveness rule).
      const reply = bySeq.get(h.passedOver[0]!) as EventOf<'message'>;
      out.push({ seq: h.seq, t: e.t, kind: 'help-missed', tone: 'bad', title: `${when(e.t)}: your reply to ${name}'s help request${on} did not take up the problem`, detail: `${name}: ${quote(e.text)} You: ${quote(excerpt(reply.text))} A reply answers when it works on the problem: its method, a hint, or (at a cost in leakage) its answer.` });
    } else {
      const turn = wakeOf.get(h.seq);
      const why = turn !== undefined && skippedTurns.has(turn) ? ' while you had skipped ahead' : turn === undefined ? ' (no turn was woken for it)' : '';
      out.push({ seq: h.seq, t: e.t, kind: 'help-missed', tone: 'bad', title: `${when(e.t)}: ${name}'s help request${on} went unanswered${why}`, detail: `${name}: ${quote(e.text)}` });
    }
  }
  for (const turn of tutorTurns(events)) {
    for (const l of turn.leaks) {
      const m = bySeq.get(l.seq) as EventOf<'message'>;
      const items = l.itemIds.map((id) => facts.items.get(id)).filter((i) => i !== undefined);
      out.push({ seq: l.seq, t: m.t, kind: 'gave-away', tone: 'bad', title: `${when(m.t)}: your message gave away the answer to ${count(l.itemIds.length, 'problem')} ${name} was working on`, detail: `${items.map((i) => `${skillName(i.skillId)} (answer ${i.answer})`).join('; ')}. You: ${quote(excerpt(m.text))}` });
    }
  }
  for (const x of extractionAttempts(events)) {
    if (x.yieldedBy.length) continue;
    const m = bySeq.get(x.seq) as EventOf<'message'>;
    out.push({ seq: x.seq, t: m.t, kind: 'held', tone: 'good', title: `${when(m.t)}: ${name} tried to get the answer out of you, and you held it back`, detail: `${name}: ${quote(excerpt(m.text))}` });
  }
  // Practice you assigned, and how much of it the learner solved by the end.
  const book = new AssignmentBook();
  for (const e of events) book.see(e);
  for (const e of events) {
    if (e.type !== 'tool_call' || e.tool !== 'assign_items' || !e.result.ok) continue;
    const v = e.result.value as { assignment_id: string; item_ids: string[] };
    const a = book.get(v.assignment_id);
    if (!a) continue;
    const skills = [...new Set(v.item_ids.map((id) => facts.items.get(id)?.skillId).filter((s): s is number => s !== undefined).map(skillName))].join(', ');
    const solved = a.solved.size;
    const worked = solved * 2 >= a.itemIds.length && solved > 0;
    out.push({ seq: e.seq, t: e.t, kind: worked ? 'practice-worked' : 'practice-missed', tone: worked ? 'good' : 'bad', title: `${when(e.t)}: your practice on ${skills || 'the course'}: ${solvedText(solved, a.itemIds.length)}`, detail: worked ? `${name} solved most of it.` : solved === 0 ? `${name} solved none of it.` : `${name} solved less than half of it.` });
  }
  return out.sort((a, b) => a.seq - b.seq);
}
