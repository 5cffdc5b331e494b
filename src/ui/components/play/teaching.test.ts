import { describe, expect, it } from 'vitest';
import { PlayDriver, PLAY_WAKE_ON, SKIP_REASON, TUTORS, executeRun, openRun, runRecord, scoreTrace, toJsonl, type EventOf, type RunEnv, type TraceEvent, type Turn, type Tutor } from '../../../core/index';
import { bktEnv, customEntry, miniScenario, onBkt } from '../../../testing/fixtures';
import { hint, practiceItems, practiceOnSkill, readGradebook, readProblem, readSkillProblems, reply, setLevel, workedBody, workedExample, type ToolCall } from './actions';
import { conversation, currentProblem, digestOf, skippedSpan, wakeSentence } from './conversation';
import { assignmentCards, courseSkills, daysText, gradebookView, profileView, weakestFirst } from './record';
import { finishPreview, gainThrough, moments, valueAdded, yardstickRecord } from './debrief';
import { clock, dueText, when } from './words';

const record = (tutor: string, config: Record<string, unknown> = {}) => runRecord({ scenario: onBkt(miniScenario()), tutor: { name: tutor, config }, seed: 9, wakeOn: [...PLAY_WAKE_ON] });
const anonymous = (events: readonly TraceEvent[]) => toJsonl(events).split('\n').slice(1).join('\n');

/**
 * A teacher's way of teaching with the teaching screen's acts, turn by turn: on a help request a
 * hint on the problem, a worked example of a similar problem from its worked solution, and a
 * reply; on a login practice on the weakest skill and chosen problems, and a level change.
 */
function teach(turn: Pick<Turn, 'wake' | 'tools'>, events: () => readonly TraceEvent[]): 'end' | 'silent' {
  const call = (c: ToolCall) => turn.tools.call(c.tool, c.args);
  const w = turn.wake;
  if (w.reason === 'help_request') {
    const on = currentProblem(events());
    const itemId = on?.itemId ?? (w.payload.item_id as string);
    const problem = call(readProblem(itemId));
    if (!problem.ok) throw new Error('the problem could not be read');
    const p = problem.value as { skill_id: number; hints: string[] };
    call(hint(p.skill_id, itemId, 'A hint', p.hints[0]!));
    const list = call(readSkillProblems(p.skill_id));
    const similar = (list.ok ? (list.value as { skills: { items: { item_id: string }[] }[] }).skills[0]!.items : []).find((i) => i.item_id !== itemId)!;
    const solution = call(readProblem(similar.item_id));
    if (solution.ok) call(workedExample(p.skill_id, 'A similar problem, worked', workedBody(solution.value as { stem: string; solution_steps: string[] })));
    call(reply('Look at the worked example, then tell me your first step.'));
    return 'end';
  }
  if (w.reason === 'login') {
    const gb = call(readGradebook());
    const weakest = weakestFirst(gradebookView(gb.ok ? gb.value : {}).skills)[0]!;
    call(practiceOnSkill(weakest.skill, 2, 1, 'More of these'));
    const list = call(readSkillProblems(weakest.skill));
    const items = courseSkills(list.ok ? list.value : {})[0]!.items!;
    call(practiceItems([items[items.length - 1]!.itemId], 2, 'A harder one'));
    call(setLevel(weakest.skill, 1, 'start easier'));
    return 'end';
  }
  return 'silent';
}

async function playByHand(env: RunEnv) {
  const run = await openRun(record('human', { name: 'Ms Rivera' }), env);
  const play = new PlayDriver(run.session);
  let turn = await play.start();
  while (turn) turn = teach(turn, () => run.session.events) === 'silent' ? await play.staySilent() : await play.endTurn();
  return run.session.result();
}

describe('the teaching screen', () => {
  it("a teacher's acts and a program making the same calls give the same trace, apart from who the tutor is", async () => {
    const env = bktEnv();
    const byHand = await playByHand(env);
    // The program sees the events as the page does (collected as they are recorded).
    const live: TraceEvent[] = [];
    const program: Tutor = {
      async onWake(turn) {
        if (teach(turn, () => live) === 'silent') turn.tools.call('stay_silent', { reason: 'the tutor chose to stay silent' });
      },
    };
    const again = await executeRun(record('custom'), { ...env, tutors: new Map([...TUTORS, ['custom', customEntry(program)]]) }, { onEvent: (e) => void live.push(e) });
    expect(anonymous(byHand.events)).toBe(anonymous(again.events));
    const tools = new Set(byHand.events.flatMap((e) => (e.type === 'tool_call' && e.result.ok ? [e.tool] : [])));
    for (const t of ['provide_content', 'send_message', 'assign_items', 'adjust_level', 'get_course_map', 'get_gradebook', 'stay_silent']) expect(tools).toContain(t);
    const kinds = new Set(byHand.events.flatMap((e) => (e.type === 'tool_call' && e.tool === 'provide_content' && e.result.ok ? [(e.args as { kind: string }).kind] : [])));
    expect([...kinds].sort()).toEqual(['hint', 'worked_example']);
  });

  it('the conversation says what happened in plain words, with no hidden state, raw ids or minutes of the day', async () => {
    const res = await playByHand(bktEnv());
    const entries = conversation(res.events);
    const kinds = new Set(entries.map((e) => e.kind));
    for (const k of ['day', 'note', 'learner', 'attempt', 'tutor', 'content', 'action']) expect(kinds).toContain(k);
    const help = entries.filter((e) => e.kind === 'learner' && e.help);
    expect(help.length).toBeGreaterThan(0);
    expect(help.every((e) => e.kind === 'learner' && e.answered === true)).toBe(true);
    const texts = entries.flatMap((e) => ('text' in e ? [e.text] : []));
    expect(texts.some((t) => /^Homework posted: 3 problems \(.+\), due Monday 9 pm \(today\)$/.test(t))).toBe(true);
    expect(texts.some((t) => /^You assigned 2 problems \(.+\), due Tuesday 9 pm \(tomorrow\)$/.test(t))).toBe(true);
    // No ids, no minutes of the day, no probes or learner-model numbers in anything a teacher reads.
    for (const t of texts.filter((x) => !help.some((h) => 'text' in h && h.text === x))) {
      expect(t).not.toMatch(/\bs\d+-L\d-\d+\b|minute|\bA\d+\b|probe|mastery|P\(correct\)/);
    }
  });

  it('at a help request the problem the learner is on is known without a read, with their attempts and words', async () => {
    const run = await openRun(record('human'), bktEnv());
    const play = new PlayDriver(run.session);
    let turn = await play.start();
    while (turn && turn.wake.reason !== 'help_request') turn = await play.staySilent();
    expect(turn).not.toBeNull();
    const events = run.session.events;
    const p = currentProblem(events)!;
    expect(p.itemId).toBe(turn!.wake.payload.item_id);
    expect(p.online).toBe(true);
    expect(p.said.at(-1)).toMatchObject({ help: true, text: turn!.wake.payload.message });
    const sentence = wakeSentence(turn!.wake, 'Test Learner', events);
    expect(sentence).toBe(`Test Learner asks for help: “${String(turn!.wake.payload.message).trim()}”`);
    expect(sentence).not.toMatch(/\.”\.|\."\./);
    expect(turn!.status.calls).toBe(0);
    await play.finish();
  });

  it('after a skip, the digest says what happened meanwhile: logins, work, unanswered help and missed deadlines', async () => {
    const run = await openRun(record('human'), bktEnv());
    const play = new PlayDriver(run.session);
    await play.start();
    const turn = await play.skipToDay(3);
    expect(turn!.wake.day).toBe(3);
    const events = run.session.events;
    const wakeIdx = events.length - 1;
    expect(events[wakeIdx]!.type).toBe('wake');
    const span = skippedSpan(events, wakeIdx)!;
    expect(span).not.toBeNull();
    const d = digestOf(events, span.from, span.to);
    expect(d.logins).toBeGreaterThanOrEqual(2);
    expect(d.answered).toBeGreaterThan(0);
    expect(d.unanswered.length).toBe(events.slice(span.from, span.to).filter((e) => e.type === 'message' && e.from === 'learner' && e.help).length);
    const missed = events.slice(span.from, span.to).filter((e) => e.type === 'lms_event' && e.kind === 'assignment_missed').length;
    expect(d.missed.length).toBe(missed);
    for (const m of d.missed) expect(m.text).toMatch(/, due (Monday|Tuesday|Wednesday) 9 pm: \d of \d solved$/);
    // Every skipped wake is a recorded silence, shown once in the conversation.
    expect(conversation(events).filter((e) => e.kind === 'skipped').map((e) => 'text' in e && e.text)).toEqual(['You skipped ahead to Wednesday, day 3']);
    expect(events.filter((e) => e.type === 'tool_call' && e.tool === 'stay_silent').every((e) => e.type === 'tool_call' && (e.args as { reason: string }).reason === SKIP_REASON(3))).toBe(true);
    await play.finish();
  });

  it('Finish says what will count against you, and ending here is scored on the days played', async () => {
    const run = await openRun(record('human'), bktEnv());
    const play = new PlayDriver(run.session);
    let turn = await play.start();
    while (turn && turn.wake.reason !== 'help_request') turn = await play.staySilent();
    const f = finishPreview(run.session.events, turn!.wake.day, 3);
    expect(f.waiting).toHaveLength(1);
    expect(f.waiting[0]!.text).toBe(turn!.wake.payload.message);
    expect(f.daysLeft).toBe(3 - turn!.wake.day);
    expect(f.helpSoFar).toBeGreaterThanOrEqual(1);
    // A reply answers it: nothing waits any more.
    turn!.tools.call(reply('Let us look at it together.').tool, reply('Let us look at it together.').args);
    expect(finishPreview(run.session.events, turn!.wake.day, 3).waiting).toHaveLength(0);
    await play.endHere();
    const report = scoreTrace(run.session.result().events);
    expect(report.endReason).toBe('ended_by_tutor');
    expect(report.days).toBe(turn!.wake.day);
    expect(report.learningGain).toBe(gainThrough(report.curve, f.lastCheckDay));
  });

  it('the debrief compares on the same days and names the moments that mattered, each with its event', async () => {
    // Value added: played minus no tutor, over the same days.
    const played = [{ day: 0, solveRate: 0.4, gradedRate: 0.4 }, { day: 1, solveRate: 0.45, gradedRate: 0.5 }, { day: 2, solveRate: 0.5, gradedRate: 0.5 }];
    const silent = [{ day: 0, solveRate: 0.4, gradedRate: 0.4 }, { day: 1, solveRate: 0.42, gradedRate: 0.4 }, { day: 2, solveRate: 0.44, gradedRate: 0.4 }, { day: 3, solveRate: 0.9, gradedRate: 0.9 }];
    const v = valueAdded(played, silent);
    expect(v.through).toBe(2);
    expect(v.played).toBeCloseTo(0.05, 12);
    expect(v.silent).toBeCloseTo(0.02, 12);
    expect(v.added).toBeCloseTo(0.03, 12);
    expect(valueAdded(played, []).added).toBeNull();
    const rec = record('human');
    expect(yardstickRecord(rec, 'silent', 2)).toEqual({ ...rec, tutor: { name: 'silent', config: {} }, horizonDays: 2 });
    expect(yardstickRecord(rec, 'planner', null).horizonDays).toBe(rec.horizonDays);

    // An answer-giver's run has answered help and answers given away; a silent one missed help.
    const env = bktEnv();
    const giver = await executeRun(record('answer-giver'), env);
    const m = moments(giver.events);
    expect(m.some((x) => x.kind === 'help-answered')).toBe(true);
    const leaks = m.filter((x) => x.kind === 'gave-away');
    expect(leaks.length).toBe(scoreTrace(giver.events).details.leakage.leakingTurns);
    for (const x of m) expect(giver.events.find((e) => e.seq === x.seq)).toBeDefined();
    const quiet = await executeRun(record('silent'), env);
    const missed = moments(quiet.events).filter((x) => x.kind === 'help-missed');
    expect(missed.length).toBe(scoreTrace(quiet.events).details.responsiveness.requests);
    // A reply that takes up nothing of the problem ("Good question! Keep going!") is named as such.
    const echo = await executeRun(record('echo-responder'), env);
    const unengaged = moments(echo.events).filter((x) => x.kind === 'help-missed' && x.title.includes('did not take up the problem'));
    expect(unengaged.length).toBeGreaterThan(0);
    expect(unengaged.length).toBe(scoreTrace(echo.events).details.responsiveness.repliedUnengaged);
    expect(unengaged[0]!.detail).toContain('You: “Good question!');
    // Practice you assigned says how much of it was solved.
    const byHand = await playByHand(env);
    const practice = moments(byHand.events).filter((x) => x.kind.startsWith('practice'));
    expect(practice.length).toBe(byHand.events.filter((e) => e.type === 'tool_call' && e.tool === 'assign_items' && e.result.ok).length);
    for (const p of practice) expect(p.title).toMatch(/: \d+ of \d+ solved$/);
  });

  it('reads in a teacher’s words: weekday and time, "done: 2 of 3 solved", skills with recent results', () => {
    expect(clock(21 * 60)).toBe('9 pm');
    expect(clock(16 * 60 + 5)).toBe('4:05 pm');
    expect(clock(0)).toBe('12 am');
    expect(clock(12 * 60)).toBe('12 pm');
    expect(when(1440 + 21 * 60)).toBe('Tuesday 9 pm');
    expect(dueText(1440 + 21 * 60, 1440 + 600)).toBe('due Tuesday 9 pm (today)');
    expect(dueText(2 * 1440 + 21 * 60, 1440 + 600)).toBe('due Wednesday 9 pm (tomorrow)');
    expect(dueText(5 * 1440 + 21 * 60, 1440)).toBe('due Saturday 9 pm');
    const cards = assignmentCards(
      {
        assignments: [
          { assignment_id: 'A1', source: 'homework', status: 'completed', posted_day: 1, due: { day: 1, minute_of_day: 1260 }, note: '', items: [{ item_id: 'a', attempts: 1, solved: true, done: true }, { item_id: 'b', attempts: 2, solved: false, done: true }, { item_id: 'c', attempts: 1, solved: true, done: true }] },
          { assignment_id: 'A2', source: 'tutor', status: 'missed', posted_day: 2, due: { day: 3, minute_of_day: 1260 }, note: 'Practice', items: [{ item_id: 'd', attempts: 0, solved: false, done: false }] },
        ],
      },
      1440 + 600,
    );
    expect(cards.map((c) => [c.title, c.statusText, c.due])).toEqual([
      ['Homework of Monday', 'done: 2 of 3 solved', 'due Monday 9 pm'],
      ['Your practice of Tuesday', 'missed: 0 of 1 solved', 'due Wednesday 9 pm (tomorrow)'],
    ]);
    expect(cards[0]!.items.map((i) => i.state)).toEqual(['solved', 'out of tries', 'solved']);
    const gb = gradebookView({ per_skill: [{ skill_id: 68, name: 'Integers', attempts: 4, correct: 3, accuracy: 0.75, last_5: [1, 0, 1, 1] }, { skill_id: 87, name: 'Equations', attempts: 2, correct: 0, accuracy: 0, last_5: [0, 0] }], recent_attempts: [{ day: 2, item_id: 'x', response: '5', correct: false, attempt: 1 }] });
    expect(gb.skills.map((s) => s.text)).toEqual(['3 of 4 right', '0 of 2 right']);
    expect(weakestFirst(gb.skills).map((s) => s.skill)).toEqual([87, 68]);
    expect(gb.recent[0]!.day).toBe('Tuesday');
    expect(daysText(['mon', 'tue', 'wed', 'thu', 'fri'])).toBe('Monday to Friday');
    expect(daysText(['sat'])).toBe('Saturday');
    expect(daysText(['mon', 'wed'])).toBe('Monday and Wednesday');
    const prof = profileView({ name: 'Sam', online: false, last_login: { day: 2, minute_of_day: 16 * 60 + 4 }, study_schedule: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '16:00', minutes: 60 }], levels: [{ skill_id: 68, name: 'Integers', level: 1 }] });
    expect(prof).toEqual({ name: 'Sam', online: 'not online', lastLogin: 'last logged in Tuesday 4:04 pm', schedule: ['Monday to Friday at 4 pm, 60 minutes'], levels: [{ skill: 68, name: 'Integers', level: 'level 1 (easiest)' }] });
  });

  it('the conversation shows a missed deadline and a completed assignment with what was solved', async () => {
    const quiet = await executeRun(record('silent'), bktEnv());
    const notes = conversation(quiet.events).flatMap((e) => (e.kind === 'note' ? [e.text] : []));
    const ends = quiet.events.filter((e): e is EventOf<'lms_event'> => e.type === 'lms_event' && (e.kind === 'assignment_missed' || e.kind === 'assignment_completed'));
    expect(ends.length).toBeGreaterThan(0);
    for (const e of ends) expect(notes.some((n) => (e.kind === 'assignment_missed' ? /^The homework of \w+day was missed: \d of \d solved by the deadline$/ : /^The homework of \w+day is done: \d of \d solved$/).test(n))).toBe(true);
  });

  it('a yardstick on the days played is the same student: its first days equal those of the full-length run', async () => {
    const env = bktEnv();
    const full = await executeRun(record('silent'), env);
    const short = await executeRun(yardstickRecord(record('silent'), 'silent', 2), env);
    const day2 = (events: readonly TraceEvent[]) => toJsonl(events.filter((e) => e.type !== 'run_start' && e.type !== 'run_end' && e.t < 2 * 1440));
    expect(short.events.at(-1)).toMatchObject({ type: 'run_end', reason: 'horizon_reached', days: 2 });
    expect(day2(short.events)).toBe(day2(full.events));
    expect(short.events.filter((e) => e.type === 'probe').map((e) => e.type === 'probe' && e.day)).toEqual([0, 1, 2]);
  });
});
