/**
 * What the learner did, counted from a trace: sessions, active minutes, attempts by source, help
 * requests, extraction attempts, give-ups, assignments, and the pre-tutor probe. These describe the
 * persona's behaviour in a run (they are not tutor scores); the persona table in docs/personas.md
 * is built from them (`npm run cli -- personas`).
 */
import type { TraceEvent } from '../trace/types';
import { EXTRACTION_HELP_TEMPLATES } from '../scenario/extraction-attempts';

export interface LearnerActivity {
  /** Days the run covered (run_end days, else the horizon). */
  days: number;
  sessions: number;
  /** Days with at least one login. */
  activeDays: number;
  /** Minutes online: sum over sessions of logout time − login time. */
  activeMinutes: number;
  attempts: number;
  /** Attempts by source, and slips among own attempts. */
  own: number;
  copied: number;
  guesses: number;
  slips: number;
  correct: number;
  /** Help requests (learner messages from the help templates). */
  helpRequests: number;
  /** Help requests by template id. */
  helpByTemplate: Record<string, number>;
  /** Help requests with an extraction template, and injection messages. */
  extractionRequests: number;
  injections: number;
  /** Free-text learner replies (not help requests, not injections). */
  replies: number;
  giveUps: number;
  /** Give-ups caused by frustration rather than a failure streak. */
  frustrationGiveUps: number;
  /** Sessions by how they ended (block_end, gave_up, no_work, session_done, end_of_day). */
  endings: Record<string, number>;
  homeworkPosted: number;
  /** "Assignment due" reminders (two hours before an open assignment is due). */
  dueReminders: number;
  assignmentsCompleted: number;
  assignmentsMissed: number;
  /** Tutor wakes by reason (the LMS events that woke the tutor). */
  wakes: Record<string, number>;
  /** Day-0 probe (before any tutoring): expected share correct, and from knowledge alone. */
  preTutorSolveRate: number | null;
  preTutorKnowledgeRate: number | null;
  /** Last probe's solve rate. */
  finalSolveRate: number | null;
}

export function learnerActivity(events: readonly TraceEvent[]): LearnerActivity {
  const start = events[0];
  const end = events[events.length - 1];
  const a: LearnerActivity = {
    days: end?.type === 'run_end' ? end.days : start?.type === 'run_start' ? start.scenario.horizonDays : 0,
    sessions: 0,
    activeDays: 0,
    activeMinutes: 0,
    attempts: 0,
    own: 0,
    copied: 0,
    guesses: 0,
    slips: 0,
    correct: 0,
    helpRequests: 0,
    helpByTemplate: {},
    extractionRequests: 0,
    injections: 0,
    replies: 0,
    giveUps: 0,
    frustrationGiveUps: 0,
    endings: {},
    homeworkPosted: 0,
    dueReminders: 0,
    assignmentsCompleted: 0,
    assignmentsMissed: 0,
    wakes: {},
    preTutorSolveRate: null,
    preTutorKnowledgeRate: null,
    finalSolveRate: null,
  };
  let loginAt: number | null = null;
  const loginDays = new Set<number>();
  for (const e of events) {
    switch (e.type) {
      case 'lms_event':
        if (e.kind === 'login') {
          a.sessions++;
          loginDays.add(e.day);
          loginAt = e.t;
        } else if (e.kind === 'logout') {
          if (loginAt !== null) a.activeMinutes += e.t - loginAt;
          loginAt = null;
          const why = String((e.detail as { why?: unknown } | undefined)?.why ?? 'unknown');
          a.endings[why] = (a.endings[why] ?? 0) + 1;
        } else if (e.kind === 'give_up') {
          a.giveUps++;
          if ((e.detail as { cause?: unknown } | undefined)?.cause === 'frustration') a.frustrationGiveUps++;
        } else if (e.kind === 'homework_posted') a.homeworkPosted++;
        else if (e.kind === 'assignment_due') a.dueReminders++;
        else if (e.kind === 'assignment_completed') a.assignmentsCompleted++;
        else if (e.kind === 'assignment_missed') a.assignmentsMissed++;
        break;
      case 'attempt':
        a.attempts++;
        if (e.correct) a.correct++;
        if (e.source === 'own') a.own++;
        else if (e.source === 'disclosed') a.copied++;
        else if (e.source === 'guess') a.guesses++;
        if (e.slip) a.slips++;
        break;
      case 'message':
        if (e.from !== 'learner') break;
        if (e.help !== undefined) {
          a.helpRequests++;
          a.helpByTemplate[e.help] = (a.helpByTemplate[e.help] ?? 0) + 1;
          if (EXTRACTION_HELP_TEMPLATES.includes(e.help)) a.extractionRequests++;
        } else if (e.injection !== undefined) a.injections++;
        else a.replies++;
        break;
      case 'wake':
        a.wakes[e.reason] = (a.wakes[e.reason] ?? 0) + 1;
        break;
      case 'probe':
        if (e.day === 0) {
          a.preTutorSolveRate = e.solveRate;
          a.preTutorKnowledgeRate = e.knowledgeRate ?? e.solveRate;
        }
        a.finalSolveRate = e.solveRate;
        break;
      default:
        break;
    }
  }
  a.activeDays = loginDays.size;
  return a;
}
