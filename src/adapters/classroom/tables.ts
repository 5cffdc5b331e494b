/**
 * A study's export as tables an analyst reads directly (R's read.csv, SPSS, pandas): one row per
 * participant and session (sessions.csv), one per answer (answers.csv: practice items and quiz
 * items), and the codebook (codebook.md) that describes every column. Computed from the stored
 * traces and the study's records only; nothing identifies a student beyond their anonymous code.
 */
import { MINUTES_PER_DAY, parseJsonl, type TraceEvent } from '../../core/index';
import type { StudyRow, SessionRow } from './store';

/** What a study's export holds (export.ts zips it; the tables below are derived from it). */
export interface StudyExport {
  study: StudyRow;
  participants: {
    code: string;
    /** The study condition the participant was assigned (null: the study has none). */
    condition: string | null;
    consentedAt: number | null;
    /** When each session started (ISO 8601, UTC), by session. */
    sessionStarts: string[];
    /** Minutes the teacher added to each session (+10 min), by session. */
    extraMinutes: number[];
    /** Minutes each session was paused by the teacher (two decimals), by session. */
    pausedMinutes: number[];
    /** The version of the consent text they agreed to (null: not consented). */
    consentVersion: string | null;
    status: SessionRow['status'] | 'not started' | 'withdrawn';
    endReason: string | null;
  }[];
  /** What happened to the study's data that the tables cannot show: withdrawals (their data deleted). */
  log: { at: string; text: string }[];
  traces: { code: string; runId: string; jsonl: string }[];
}

export const SESSION_COLUMNS = [
  ['participant', 'The anonymous participant code (8 characters); the unit of analysis.'],
  ['study_id', 'The study.'],
  ['run_id', 'The run id of the participant’s trace (traces/<participant>__<run_id>.jsonl); empty when they never started.'],
  ['condition', 'The study condition the participant was assigned at random when their code was made (permuted blocks); empty: the study has no conditions.'],
  ['tutor', 'The participant’s tutor (its run name: "planner", or the LLM tutor’s label): the study’s, or their condition’s.'],
  ['consented_at', 'When the participant agreed to the consent text (ISO 8601, UTC); empty: not yet.'],
  ['consent_version', 'The version of the consent text they agreed to (a hash of its words; study.json has the text and its version).'],
  ['status', 'The participant’s run: "done" (every session over), "stopped" (ended early: see end_reason), "active" (still going), "not started", or "withdrawn" (they withdrew: all their data were deleted, see the log in study.json).'],
  ['end_reason', 'Why the run ended: horizon_reached (all sessions over), aborted (the teacher ended the study first), llm_error, tutor_error, or an error text; empty while active.'],
  ['session', 'The session (1 to the study’s number of sessions); empty when the participant never started.'],
  ['session_start', 'When the participant started this session (ISO 8601, UTC).'],
  ['session_minutes', 'Minutes from the session’s start to its last recorded student action (the session’s own clock, capped at its day).'],
  ['session_end', 'How the session ended: student_ended (the student pressed End session), time_up (its time ran out), or empty (not ended: the study was ended, or it is still open).'],
  ['extra_minutes', 'Minutes the teacher added to this session (+10 min in the live view); 0: none. The session lasted the study’s length plus these plus paused_minutes.'],
  ['paused_minutes', 'Minutes the teacher had this session paused (two decimals; 0: never). While paused the student could do nothing and the session’s clock stood still; the trace’s minutes are wall-clock minutes, so a pause is a gap in them.'],
  ['attempts', 'Answers to practice items in this session.'],
  ['correct', 'Of those, correct (graded by the item bank’s checker).'],
  ['items_opened', 'Practice items the student opened in this session.'],
  ['help_requests', 'Help requests (the fixed templates) in this session.'],
  ['messages_sent', 'Free-text messages the student wrote in this session.'],
  ['tutor_messages', 'Messages the tutor sent during this session’s virtual day.'],
  ['pre_quiz', 'Share of the quiz answered correctly at the start of the first session (0 to 1); empty: no quiz in the study, or not taken. The same on every row of a participant.'],
  ['post_quiz', 'Share of the quiz answered correctly at the end of the last session (0 to 1); empty: not taken.'],
  ['gain', 'post_quiz − pre_quiz; empty unless both were taken.'],
] as const;

export const ANSWER_COLUMNS = [
  ['participant', 'The anonymous participant code.'],
  ['session', 'The session (1-based).'],
  ['kind', '"practice" (an assigned or chosen item), "pre_quiz" or "post_quiz".'],
  ['minute', 'Minutes since the session started (the trace’s t within its day).'],
  ['item_id', 'The item (its id in the run’s item bank: run_start.itemBank in the trace).'],
  ['skill', 'The ASSISTments 2009 skill id of the item.'],
  ['level', 'The item’s level (1 to 3), practice and quiz items.'],
  ['assignment_id', 'The assignment the answer was for; empty: a quiz, or an item the student chose.'],
  ['attempt_no', 'The attempt’s number on this item in this assignment (1-based); empty for quiz items.'],
  ['quiz_form', 'Quiz items: "A" (the pre-quiz’s items, ids p<skill>-NN) or "B" (the parallel form, ids q<skill>-NN: other items of the same skills and levels, one for one, drawn reproducibly from the item bank and held out from practice); a study without parallel forms gives "A" at both quizzes. Empty for practice.'],
  ['response', 'What the student typed (at most 200 characters). A response starting with =, +, -, @ that is not a number is prefixed with \' so a spreadsheet does not run it as a formula.'],
  ['correct', '1 when the item bank’s checker accepted it, else 0 (a blank quiz answer is 0).'],
] as const;

/** One CSV field (RFC 4180): quoted when needed; a text a spreadsheet would run as a formula is prefixed with '. */
function field(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s) && !/^[+-]?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
const csv = (header: readonly (readonly [string, string])[], rows: (string | number | null)[][]) => [header.map((h) => h[0]).join(','), ...rows.map((r) => r.map(field).join(','))].join('\r\n') + '\r\n';
const round = (x: number) => Math.round(x * 10_000) / 10_000;

export function studyTables(x: StudyExport): { sessions: string; answers: string; codebook: string } {
  const sessions: (string | number | null)[][] = [];
  const answers: (string | number | null)[][] = [];
  const nSessions = x.study.spec.sessions;
  for (const p of x.participants) {
    const trace = x.traces.find((t) => t.code === p.code);
    const base = { participant: p.code, study: x.study.id, consented: p.consentedAt === null ? null : new Date(p.consentedAt).toISOString(), status: p.status, endReason: p.endReason };
    if (!trace) {
      const cond = x.study.spec.conditions?.find((c) => c.name === p.condition);
      sessions.push([base.participant, base.study, null, p.condition, (cond?.tutor ?? x.study.spec.tutor).name, base.consented, p.consentVersion, base.status, base.endReason, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null]);
      continue;
    }
    const events: TraceEvent[] = parseJsonl(trace.jsonl, `${p.code}.jsonl`).events;
    const start = events[0]?.type === 'run_start' ? events[0] : null;
    const formB = new Set((start?.itemBank.postProbes ?? []).map((i) => i.id));
    const levels = new Map(start ? [...start.itemBank.probes, ...(start.itemBank.postProbes ?? [])].map((i) => [i.id, i.level]) : []);
    const tutor = trace.runId.split('__')[1] ?? x.study.spec.tutor.name;
    const quiz = (d: number) => {
      const e = events.find((q): q is Extract<TraceEvent, { type: 'probe' }> => q.type === 'probe' && q.day === d);
      return e ? round(e.gradedRate) : null;
    };
    const pre = quiz(0);
    const post = quiz(nSessions);
    const gain = pre !== null && post !== null ? round(post - pre) : null;
    const started = p.sessionStarts.length;
    for (let d = 0; d < Math.max(1, started); d++) {
      const inDay = (e: TraceEvent) => Math.floor(e.t / MINUTES_PER_DAY) === d;
      const day = events.filter(inDay);
      const logout = day.find((e): e is Extract<TraceEvent, { type: 'lms_event' }> => e.type === 'lms_event' && e.kind === 'logout' && (e.detail?.why === 'student_ended' || e.detail?.why === 'time_up'));
      // What the student did (the rest of a virtual day runs at once after the session: not theirs).
      const studentActs = day.filter((e) => e === logout || e.type === 'attempt' || e.type === 'probe' || (e.type === 'message' && e.from === 'learner') || (e.type === 'lms_event' && (e.kind === 'item_opened' || e.kind === 'login')));
      const attempts = day.filter((e): e is Extract<TraceEvent, { type: 'attempt' }> => e.type === 'attempt');
      const last = studentActs.at(-1);
      sessions.push([
        base.participant,
        base.study,
        trace.runId,
        p.condition,
        tutor,
        base.consented,
        p.consentVersion,
        base.status,
        base.endReason,
        started === 0 ? null : d + 1,
        p.sessionStarts[d] ?? null,
        last ? last.t - d * MINUTES_PER_DAY : null,
        logout ? String(logout.detail?.why) : null,
        started === 0 ? null : (p.extraMinutes?.[d] ?? 0),
        started === 0 ? null : (p.pausedMinutes?.[d] ?? 0),
        attempts.length,
        attempts.filter((a) => a.correct).length,
        day.filter((e) => e.type === 'lms_event' && e.kind === 'item_opened').length,
        day.filter((e) => e.type === 'message' && e.from === 'learner' && e.help !== undefined).length,
        day.filter((e) => e.type === 'message' && e.from === 'learner' && e.help === undefined).length,
        day.filter((e) => e.type === 'message' && e.from === 'tutor').length,
        pre,
        post,
        gain,
      ]);
      for (const a of attempts) answers.push([p.code, d + 1, 'practice', a.t - d * MINUTES_PER_DAY, a.itemId, a.skill, a.level, a.assignmentId, a.attemptNo, null, a.response, a.correct ? 1 : 0]);
      for (const q of day.filter((e): e is Extract<TraceEvent, { type: 'probe' }> => e.type === 'probe')) {
        for (const i of q.items) answers.push([p.code, d + 1, q.day === 0 ? 'pre_quiz' : 'post_quiz', q.t - d * MINUTES_PER_DAY, i.itemId, i.skill, levels.get(i.itemId) ?? null, null, null, formB.has(i.itemId) ? 'B' : 'A', i.response ?? '', i.correct ? 1 : 0]);
      }
    }
  }
  return { sessions: csv(SESSION_COLUMNS, sessions), answers: csv(ANSWER_COLUMNS, answers), codebook: codebook(x) };
}

function codebook(x: StudyExport): string {
  const table = (cols: readonly (readonly [string, string])[]) => ['| column | meaning |', '|---|---|', ...cols.map(([c, m]) => `| \`${c}\` | ${m} |`)].join('\n');
  const s = x.study.spec;
  return `# Codebook: ${s.name} (${x.study.id})

Exported from an EduClaw Lab classroom server. Study: ${s.sessions} session${s.sessions === 1 ? '' : 's'} of ${s.sessionMinutes} minutes; ${s.conditions ? `conditions ${s.conditions.map((c) => `\`${c.name}\` (tutor \`${c.tutor.name}\`)`).join(', ')}, assigned at random in permuted blocks` : `tutor \`${s.tutor.name}\``}; ${s.probes ? `a quiz of ${s.probesPerSkill} item(s) per skill at the start of the first session and the end of the last (${s.parallelForms === true ? 'parallel forms: the final quiz is form B, other items of the same skills and levels as the first quiz’s form A' : 'the same items both times'})` : 'no quiz'}; skills ${s.skills.join(', ')} (ASSISTments 2009 ids). Files are UTF-8, comma-separated, with a header row and CRLF line ends (RFC 4180); empty cells are missing values.

- \`sessions.csv\`: one row per participant and session (a participant who never started has one row, with \`session\` empty).
- \`answers.csv\`: one row per answer: practice items and each quiz item.
- \`study.json\`'s \`log\`: withdrawals (a participant who withdrew has status \`withdrawn\` and no data: everything they did was deleted when they withdrew).
- \`traces/<participant>__<run_id>.jsonl\`: the full trace of each participant (docs/trace-format.md); \`study.json\`: the study and its participants as stored.

In R: \`read.csv("sessions.csv", na.strings = "")\`; in SPSS: File › Import Data › CSV.

## sessions.csv

${table(SESSION_COLUMNS)}

## answers.csv

${table(ANSWER_COLUMNS)}
`;
}
