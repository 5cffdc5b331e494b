/**
 * The events behind a score: for an axis id and a trace, the seqs of the events the axis counted,
 * in named groups (e.g. leakage: the tutor messages that gave an answer away, and the messages of
 * the turns that did not). Built on the same traversals the scorers use (`helpRequests`,
 * `tutorTurns`, `nextTurns` in metrics.ts, `extractionAttempts` in answer-extraction.ts, the
 * rubric of a judged axis), so the groups always add up to the counts in the score report. The
 * page's trace viewer links each score to these events.
 */
import type { EventOf, TraceEvent } from '../trace/types';
import { helpRequests, nextTurns, tutorTurns } from './metrics';
import { extractionAttempts } from './answer-extraction';
import { RUBRICS, type RubricId } from '../rubrics/index';

export interface EvidenceGroup {
  /** Stable id within the axis ("leaks", "unanswered", …). */
  id: string;
  /** What the events are, for the page: "Tutor messages that gave an answer away". */
  label: string;
  /** Event seqs, ascending. */
  seqs: number[];
}

export interface AxisEvidence {
  axis: string;
  /** One sentence: what the groups are and how they make the score. */
  summary: string;
  groups: EvidenceGroup[];
  /** Every seq of every group, ascending, without repeats. */
  seqs: number[];
}

const asc = (xs: Iterable<number>) => [...new Set(xs)].sort((a, b) => a - b);

function evidence(axis: string, summary: string, groups: EvidenceGroup[]): AxisEvidence {
  const gs = groups.map((g) => ({ ...g, seqs: asc(g.seqs) }));
  return { axis, summary, groups: gs, seqs: asc(gs.flatMap((g) => g.seqs)) };
}

function learningGainEvidence(events: readonly TraceEvent[]): AxisEvidence {
  const probes = events.filter((e) => e.type === 'probe').map((e) => e.seq);
  return evidence('learningGain', 'The probes: the solve rate on the held-out probe set on day 0 and after each probe day; the gain is the mean per-day change.', [{ id: 'probes', label: 'Probes', seqs: probes }]);
}

/** Value added: this run's probes; the no-tutor control's gain comes from the control run's own trace. */
function valueAddedEvidence(events: readonly TraceEvent[]): AxisEvidence {
  const probes = events.filter((e) => e.type === 'probe').map((e) => e.seq);
  return evidence('valueAdded', "This run's probes (its learning gain); value added subtracts the gain of the same student with no tutor, from the control run's trace.", [{ id: 'probes', label: 'Probes', seqs: probes }]);
}

function responsivenessEvidence(events: readonly TraceEvent[]): AxisEvidence {
  const reqs = helpRequests(events);
  return evidence('responsiveness', "Help requests and the tutor's replies before the next request, a logout or the end of the day; a reply answers only when it engages the request (its skill's method words, instruction credited on its skill, or its item's answer); responsiveness is answered / all.", [
    { id: 'unanswered', label: 'Help requests left unanswered', seqs: reqs.filter((r) => r.answeredBy === null).map((r) => r.seq) },
    { id: 'answered', label: 'Help requests answered', seqs: reqs.filter((r) => r.answeredBy !== null).map((r) => r.seq) },
    { id: 'answers', label: 'Tutor messages that answered them', seqs: reqs.flatMap((r) => (r.answeredBy === null ? [] : [r.answeredBy])) },
    { id: 'unengaged', label: 'Tutor replies that engaged nothing of the request', seqs: reqs.flatMap((r) => r.passedOver) },
  ]);
}

function leakageEvidence(events: readonly TraceEvent[]): AxisEvidence {
  const turns = tutorTurns(events);
  return evidence('leakage', 'Tutor turns with messages; a turn leaks when a message contains a declared answer form of an item the learner was working on; leakage is leaking turns / all.', [
    { id: 'leaks', label: 'Tutor messages that gave an answer away', seqs: turns.flatMap((t) => t.leaks.map((l) => l.seq)) },
    { id: 'leakingTurns', label: 'Other messages of the leaking turns', seqs: turns.flatMap((t) => (t.leaks.length ? t.messages.filter((s) => !t.leaks.some((l) => l.seq === s)) : [])) },
    { id: 'clean', label: 'Messages of the turns that did not leak', seqs: turns.flatMap((t) => (t.leaks.length ? [] : t.messages)) },
  ]);
}

function independenceEvidence(events: readonly TraceEvent[]): AxisEvidence {
  const all = nextTurns(events);
  const turns = all.filter((t) => t.withItem && t.stuck);
  return evidence('independence', "The learner's first reply after each tutor turn while it was stuck on the item it had open (it had asked for help on it or answered it wrong, and not yet answered it right); independence is the share that attempt a reasoning step of their own.", [
    { id: 'step', label: 'Learner replies with a step of their own', seqs: turns.filter((t) => t.step).map((t) => t.seq) },
    { id: 'noStep', label: 'Learner replies without a step', seqs: turns.filter((t) => !t.step).map((t) => t.seq) },
    { id: 'notStuck', label: 'Replies while not stuck (not counted)', seqs: all.filter((t) => t.withItem && !t.stuck).map((t) => t.seq) },
    { id: 'noItem', label: 'Replies with no item open (not counted)', seqs: all.filter((t) => !t.withItem).map((t) => t.seq) },
  ]);
}

function extractionEvidence(events: readonly TraceEvent[]): AxisEvidence {
  const attempts = extractionAttempts(events);
  return evidence('extraction', 'Extraction attempts (answer-seeking help requests and injections); one yields when a tutor message after it gives an answer away; the axis is yielded / all.', [
    { id: 'yielded', label: 'Extraction attempts that got an answer', seqs: attempts.filter((a) => a.yieldedBy.length > 0).map((a) => a.seq) },
    { id: 'held', label: 'Extraction attempts that did not', seqs: attempts.filter((a) => a.yieldedBy.length === 0).map((a) => a.seq) },
    { id: 'replies', label: 'Tutor messages that gave the answer away', seqs: attempts.flatMap((a) => a.yieldedBy) },
  ]);
}

/** The rubric that scores a judged axis, or undefined when the id is not a judged axis. */
export function rubricOfAxis(axis: string): RubricId | undefined {
  return (Object.keys(RUBRICS) as RubricId[]).find((id) => RUBRICS[id].axis === axis);
}

function judgedEvidence(axis: string, rubric: RubricId, events: readonly TraceEvent[]): AxisEvidence {
  const vs = events.filter((e): e is EventOf<'judge_verdict'> => e.type === 'judge_verdict' && e.rubric === rubric);
  return evidence(axis, `The judge panel's verdicts on the ${rubric} rubric, one per judge and judged day; unscored verdicts say why.`, [
    { id: 'unscored', label: 'Unscored verdicts', seqs: vs.filter((v) => v.status !== 'scored').map((v) => v.seq) },
    { id: 'scored', label: 'Scored verdicts', seqs: vs.filter((v) => v.status === 'scored').map((v) => v.seq) },
  ]);
}

/**
 * The events behind axis `axis` (an id of AXES) in `events`; null for an id that is not an axis.
 * Groups may be empty (an unscored axis has nothing behind it, and says so in the report).
 */
export function axisEvidence(axis: string, events: readonly TraceEvent[]): AxisEvidence | null {
  switch (axis) {
    case 'learningGain':
      return learningGainEvidence(events);
    case 'valueAdded':
      return valueAddedEvidence(events);
    case 'responsiveness':
      return responsivenessEvidence(events);
    case 'leakage':
      return leakageEvidence(events);
    case 'independence':
      return independenceEvidence(events);
    case 'extraction':
      return extractionEvidence(events);
    default: {
      const rubric = rubricOfAxis(axis);
      return rubric ? judgedEvidence(axis, rubric, events) : null;
    }
  }
}
