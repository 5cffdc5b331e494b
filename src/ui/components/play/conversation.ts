/**
 * The teaching screen's model, as pure functions of a played run's trace: the conversation with
 * the learner (their messages, help requests and attempts, your replies, content, practice and
 * level changes, logins and homework, in plain language), the problem the learner is on with their
 * attempts, the sentence for what woke you, and what happened while you skipped ahead.
 *
 * Fair play: only what an agent could see or read through the LMS is used (messages, graded
 * answers, logins and logouts, homework and deadlines, its own tool calls); never probes, the
 * learner model's P(correct) or mastery, how an attempt was produced, or the persona. The
 * instructor's view (recorded) is the one exception, and it is not built here.
 */
import { helpRequests, SKIP_REASON, type EventOf, type Item, type TraceEvent, type WakeEventKind } from '../../../core/index';
import { clock, count, courseDay, dayTitle, dueText, levelText, logoutText, quote, skillName, solvedText, when } from './words';

/** One line of the conversation. `seq` is the trace event it comes from (a link into the trace viewer). */
export type Entry =
  | { kind: 'day'; seq: number; t: number; day: number; text: string }
  | { kind: 'note'; seq: number; t: number; tone: 'plain' | 'good' | 'bad'; text: string; itemIds?: string[] }
  | { kind: 'learner'; seq: number; t: number; text: string; help: boolean; itemId: string | null; answered: boolean | null }
  | { kind: 'attempt'; seq: number; t: number; itemId: string; response: string; correct: boolean; attemptNo: number }
  | { kind: 'tutor'; seq: number; t: number; turn: number; text: string; tool: 'send_message' }
  | { kind: 'content'; seq: number; t: number; turn: number; tool: 'provide_content'; contentKind: string; title: string; body: string; skill: number; itemId: string | null }
  | { kind: 'action'; seq: number; t: number; turn: number; tool: 'assign_items' | 'adjust_level'; text: string; itemIds?: string[] }
  | { kind: 'skipped'; seq: number; t: number; text: string };

export interface RunFacts {
  learner: string;
  horizon: number;
  items: ReadonlyMap<string, Item>;
}

/** The learner's name, the horizon and the course's items from run_start. */
export function runFacts(events: readonly TraceEvent[]): RunFacts | null {
  const s = events[0];
  if (s?.type !== 'run_start') return null;
  return { learner: s.scenario.learner.name || 'The learner', horizon: s.scenario.horizonDays, items: new Map(s.itemBank.items.map((i) => [i.id, i])) };
}

/** Assignments as they stand after some events: their items, due time and the items solved. */
export class AssignmentBook {
  readonly #a = new Map<string, { itemIds: string[]; dueAt: number | null; source: 'homework' | 'tutor'; postedAt: number; solved: Set<string> }>();

  see(e: TraceEvent): void {
    if (e.type === 'lms_event' && e.kind === 'homework_posted') {
      const d = e.detail ?? {};
      this.#a.set(String(d.assignmentId), { itemIds: (d.itemIds as string[] | undefined) ?? [], dueAt: typeof d.dueAt === 'number' ? d.dueAt : null, source: 'homework', postedAt: e.t, solved: new Set() });
    } else if (e.type === 'tool_call' && e.tool === 'assign_items' && e.result.ok) {
      const v = e.result.value as { assignment_id: string; item_ids: string[]; due: { day: number; minute_of_day: number } };
      this.#a.set(v.assignment_id, { itemIds: v.item_ids, dueAt: (v.due.day - 1) * 1440 + v.due.minute_of_day, source: 'tutor', postedAt: e.t, solved: new Set() });
    } else if (e.type === 'attempt' && e.assignmentId && e.correct) this.#a.get(e.assignmentId)?.solved.add(e.itemId);
  }

  get(id: string) {
    return this.#a.get(id);
  }

  /** "homework of Monday" or "your practice of Tuesday". */
  label(id: string): string {
    const a = this.#a.get(id);
    if (!a) return 'an assignment';
    return `${a.source === 'homework' ? 'the homework' : 'your practice'} of ${when(a.postedAt).split(' ')[0]}`;
  }

  /** "1 of 3 solved". */
  progress(id: string): string {
    const a = this.#a.get(id);
    return a ? solvedText(a.solved.size, a.itemIds.length) : '';
  }
}

const skillsOf = (ids: readonly string[], items: ReadonlyMap<string, Item>): string => {
  const names = [...new Set(ids.map((id) => items.get(id)?.skillId).filter((s): s is number => s !== undefined).map(skillName))];
  return names.length ? ` (${names.join(', ')})` : '';
};

/**
 * The conversation up to (not including) event `toSeq`, in order. Graded answers, messages,
 * logins and homework as the LMS shows a teacher; your own calls as what you did. Reads are not
 * part of it (they change nothing), nor are the silences of a skip, which show as one line.
 */
export function conversation(events: readonly TraceEvent[], toSeq = events.length): Entry[] {
  const facts = runFacts(events);
  if (!facts) return [];
  const name = facts.learner;
  const answered = new Map(helpRequests(events).map((h) => [h.seq, h.answeredBy !== null && h.answeredBy < toSeq]));
  const book = new AssignmentBook();
  const out: Entry[] = [];
  let skipNoted: string | null = null;
  for (const e of events.slice(0, toSeq)) {
    book.see(e);
    const base = { seq: e.seq, t: e.t };
    if (e.type === 'lms_event') {
      const d = e.detail ?? {};
      switch (e.kind) {
        case 'day_start':
          out.push({ kind: 'day', ...base, day: e.day, text: dayTitle(e.day) });
          break;
        case 'login':
          out.push({ kind: 'note', ...base, tone: 'plain', text: `${name} logged in` });
          break;
        case 'logout':
          if (d.why !== 'end_of_day') out.push({ kind: 'note', ...base, tone: 'plain', text: logoutText(name, d.why) });
          break;
        case 'homework_posted': {
          const ids = (d.itemIds as string[] | undefined) ?? [];
          out.push({ kind: 'note', ...base, tone: 'plain', text: `Homework posted: ${count(ids.length, 'problem')}${skillsOf(ids, facts.items)}, ${typeof d.dueAt === 'number' ? dueText(d.dueAt, e.t) : 'no due time'}`, itemIds: ids });
          break;
        }
        case 'assignment_due':
          out.push({ kind: 'note', ...base, tone: 'bad', text: `Reminder: ${book.label(String(d.assignmentId))} is due at ${typeof d.dueAt === 'number' ? clock(d.dueAt) : 'the due time'} and not finished (${book.progress(String(d.assignmentId))})` });
          break;
        case 'assignment_completed':
          out.push({ kind: 'note', ...base, tone: 'good', text: `${capital(book.label(String(d.assignmentId)))} is done: ${book.progress(String(d.assignmentId))}` });
          break;
        case 'assignment_missed':
          out.push({ kind: 'note', ...base, tone: 'bad', text: `${capital(book.label(String(d.assignmentId)))} was missed: ${book.progress(String(d.assignmentId))} by the deadline` });
          break;
        case 'give_up':
          out.push({ kind: 'note', ...base, tone: 'bad', text: `${name} gave up after ${count(Number(d.failures ?? 0), 'wrong answer')} in a row` });
          break;
        case 'instructor_view':
          out.push({ kind: 'note', ...base, tone: 'plain', text: `You switched the instructor's view ${d.on ? 'on' : 'off'} (recorded)` });
          break;
      }
    } else if (e.type === 'message' && e.from === 'learner') {
      const help = answered.has(e.seq);
      out.push({ kind: 'learner', ...base, text: e.text, help, itemId: e.itemId ?? null, answered: help ? answered.get(e.seq)! : null });
    } else if (e.type === 'attempt') {
      out.push({ kind: 'attempt', ...base, itemId: e.itemId, response: e.response, correct: e.correct, attemptNo: e.attemptNo });
    } else if (e.type === 'tool_call' && e.result.ok) {
      const a = (e.args ?? {}) as Record<string, unknown>;
      if (e.tool === 'send_message') out.push({ kind: 'tutor', ...base, turn: e.turn, tool: 'send_message', text: String(a.text ?? '') });
      else if (e.tool === 'provide_content')
        out.push({ kind: 'content', ...base, turn: e.turn, tool: 'provide_content', contentKind: String(a.kind), title: String(a.title ?? ''), body: String(a.body ?? ''), skill: Number(a.skill_id), itemId: typeof a.item_id === 'string' ? a.item_id : null });
      else if (e.tool === 'assign_items') {
        const v = e.result.value as { item_ids: string[]; due: { day: number; minute_of_day: number } };
        const due = (v.due.day - 1) * 1440 + v.due.minute_of_day;
        out.push({ kind: 'action', ...base, turn: e.turn, tool: 'assign_items', text: `You assigned ${count(v.item_ids.length, 'problem')}${skillsOf(v.item_ids, facts.items)}, ${dueText(due, e.t)}`, itemIds: v.item_ids });
      } else if (e.tool === 'adjust_level') {
        const v = e.result.value as { skill_id: number; level: number; level_before: number; changed: boolean };
        out.push({ kind: 'action', ...base, turn: e.turn, tool: 'adjust_level', text: v.changed ? `You set ${skillName(v.skill_id)} to ${levelText(v.level)} (it was level ${v.level_before})` : `${skillName(v.skill_id)} stays at ${levelText(v.level)}` });
      } else if (e.tool === 'stay_silent') {
        const reason = String(a.reason ?? '');
        if (reason.startsWith('skipped:')) {
          if (skipNoted !== reason) out.push({ kind: 'skipped', ...base, text: skipText(reason) });
          skipNoted = reason;
          continue;
        }
      }
      if (e.tool !== 'stay_silent') skipNoted = null;
    }
  }
  return out;
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function skipText(reason: string): string {
  const m = /day (\d+)$/.exec(reason);
  if (reason === SKIP_REASON(Number.POSITIVE_INFINITY) || !m) return 'You let the remaining days run out with no tutor';
  return `You skipped ahead to ${dayTitle(Number(m[1]))}`;
}

/** What woke you, in a sentence (the wake's payload as a teacher reads it; no ids, no doubled punctuation). */
export function wakeSentence(wake: { reason: WakeEventKind; t: number; payload: Record<string, unknown> }, name: string, events: readonly TraceEvent[]): string {
  const p = wake.payload;
  switch (wake.reason) {
    case 'login':
      return `${name} just logged in.`;
    case 'logout':
      return `${logoutText(name, p.why)}.`;
    case 'help_request':
      return `${name} asks for help: ${quote(String(p.message ?? ''))}`;
    case 'learner_message':
      return `${name} wrote: ${quote(String(p.message ?? ''))}`;
    case 'submission_graded':
      return `${name} answered ${quote(String(p.response ?? ''))}: ${p.correct ? 'right' : 'wrong'}.`;
    case 'assignment_due': {
      const book = new AssignmentBook();
      for (const e of events) book.see(e);
      const id = String(p.assignment_id ?? '');
      return `${capital(book.label(id))} is due in ${minutesText(Number(p.due_in_minutes ?? 0))} and is not finished (${book.progress(id)}).`;
    }
    case 'assignment_missed': {
      const book = new AssignmentBook();
      for (const e of events) book.see(e);
      const id = String(p.assignment_id ?? '');
      return `${name} missed the deadline of ${book.label(id)} (${book.progress(id)}).`;
    }
    case 'end_of_day':
      return `The day is ending (${dayTitle(courseDay(wake.t))}).`;
    default:
      return `Something happened: ${String(wake.reason).replace(/_/g, ' ')}.`;
  }
}

function minutesText(m: number): string {
  if (m >= 60) return m % 60 === 0 ? count(m / 60, 'hour') : `${Math.floor(m / 60)} h ${m % 60} min`;
  return count(m, 'minute');
}

/** The problem the learner is on (or was on last), as an agent knows it: from their help requests, messages and graded answers. */
export interface CurrentProblem {
  itemId: string;
  /** Still logged in since they last worked on it. */
  online: boolean;
  solved: boolean;
  attempts: { seq: number; t: number; response: string; correct: boolean; attemptNo: number }[];
  /** What they wrote about it (help requests and messages). */
  said: { seq: number; t: number; text: string; help: boolean }[];
}

export function currentProblem(events: readonly TraceEvent[], toSeq = events.length): CurrentProblem | null {
  let id: string | null = null;
  let online = false;
  for (const e of events.slice(0, toSeq)) {
    if (e.type === 'lms_event' && e.kind === 'login') online = true;
    else if (e.type === 'lms_event' && e.kind === 'logout') online = false;
    else if (e.type === 'attempt') id = e.itemId;
    else if (e.type === 'message' && e.from === 'learner' && e.itemId) id = e.itemId;
  }
  if (id === null) return null;
  const mine = events.slice(0, toSeq);
  const attempts = mine.filter((e): e is EventOf<'attempt'> => e.type === 'attempt' && e.itemId === id).map((e) => ({ seq: e.seq, t: e.t, response: e.response, correct: e.correct, attemptNo: e.attemptNo }));
  const said = mine.filter((e): e is EventOf<'message'> => e.type === 'message' && e.from === 'learner' && e.itemId === id).map((e) => ({ seq: e.seq, t: e.t, text: e.text, help: e.help !== undefined }));
  return { itemId: id, online, solved: attempts.some((a) => a.correct), attempts, said };
}

/** What happened during a stretch of time you skipped: a digest a teacher reads at a glance. */
export interface Digest {
  from: number;
  to: number;
  logins: number;
  answered: number;
  right: number;
  /** Help requests nobody answered; `open`: still waiting for you (the learner has not logged out or asked again since). */
  unanswered: { seq: number; t: number; text: string; open: boolean }[];
  /** Deadlines missed, with what was solved. */
  missed: { seq: number; t: number; text: string }[];
  completed: number;
  messages: { seq: number; t: number; text: string }[];
  gaveUp: number;
}

/**
 * The stretch of a skip that ends at the wake of event index `wakeIdx`: the wakes before it that
 * were answered by a skip's silence, back to the first of them. Null when the last turn was not
 * skipped.
 */
export function skippedSpan(events: readonly TraceEvent[], wakeIdx: number): { from: number; to: number } | null {
  let from: number | null = null;
  let i = wakeIdx - 1;
  for (;;) {
    let w = i;
    while (w >= 0 && events[w]!.type !== 'wake') w--;
    if (w < 0) break;
    const wake = events[w] as EventOf<'wake'>;
    const skipped = events.slice(w, i + 1).some((e) => e.type === 'tool_call' && e.turn === wake.turn && e.tool === 'stay_silent' && String((e.args as { reason?: unknown } | null)?.reason ?? '').startsWith('skipped:'));
    if (!skipped) break;
    from = w;
    i = w - 1;
  }
  return from === null ? null : { from, to: wakeIdx };
}

export function digestOf(events: readonly TraceEvent[], from: number, to: number): Digest {
  const span = events.slice(from, to);
  const unansweredSeqs = new Set(helpRequests(events).filter((h) => h.answeredBy === null || h.answeredBy >= events[to]!.seq).map((h) => h.seq));
  const book = new AssignmentBook();
  for (const e of events.slice(0, from)) book.see(e);
  const d: Digest = { from: events[from]?.t ?? 0, to: events[to]?.t ?? 0, logins: 0, answered: 0, right: 0, unanswered: [], missed: [], completed: 0, messages: [], gaveUp: 0 };
  for (const e of span) {
    book.see(e);
    if (e.type === 'lms_event' && e.kind === 'login') d.logins++;
    else if (e.type === 'attempt') {
      d.answered++;
      if (e.correct) d.right++;
    } else if (e.type === 'message' && e.from === 'learner') {
      if (unansweredSeqs.has(e.seq)) d.unanswered.push({ seq: e.seq, t: e.t, text: e.text, open: true });
      else if (e.help === undefined) d.messages.push({ seq: e.seq, t: e.t, text: e.text });
    } else if (e.type === 'lms_event' && e.kind === 'assignment_missed') {
      const id = String(e.detail?.assignmentId);
      const a = book.get(id);
      d.missed.push({ seq: e.seq, t: e.t, text: `${capital(book.label(id))}, ${a?.dueAt !== null && a?.dueAt !== undefined ? `due ${when(a.dueAt)}` : 'no due time'}: ${book.progress(id)}` });
    } else if (e.type === 'lms_event' && e.kind === 'assignment_completed') d.completed++;
    if ((e.type === 'lms_event' && (e.kind === 'logout' || e.kind === 'end_of_day')) || (e.type === 'message' && e.from === 'learner' && unansweredSeqs.has(e.seq))) {
      // A help request closes when the learner leaves or asks again (as responsiveness counts it).
      for (const u of d.unanswered) if (u.seq !== e.seq) u.open = false;
    }
    else if (e.type === 'lms_event' && e.kind === 'give_up') d.gaveUp++;
  }
  return d;
}
