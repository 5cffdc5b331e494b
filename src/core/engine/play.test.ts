import { describe, expect, it } from 'vitest';
import { TUTORS, PlayDriver, PLAY_WAKE_ON, SKIP_REASON, ENDED_BY_TUTOR, digest, executeRun, openRun, parseJsonl, resumePoint, runRecord, scoreTrace, toJsonl, type RunEnv, type TraceEvent, type Turn, type Tutor } from '../index';
import { bktEnv, customEntry, miniScenario, onBkt } from '../../testing/fixtures';

/** One fixed way of teaching, turn by turn, that a person or a program can follow. */
function teach(turn: Pick<Turn, 'wake' | 'tools'>): 'end' | 'silent' {
  const w = turn.wake;
  if (w.reason === 'login') {
    turn.tools.call('get_gradebook', {});
    turn.tools.call('assign_items', { skill_id: 87, count: 2, due_in_days: 1, note: 'Practice' });
    turn.tools.call('adjust_level', { skill_id: 68, level: 1, reason: 'start easier' });
    return 'end';
  }
  if (w.reason === 'help_request') {
    turn.tools.call('provide_content', { skill_id: 87, kind: 'hint', title: 'A hint', body: 'Undo what was done to x, one step at a time.' });
    turn.tools.call('send_message', { text: 'What is your first step? <b>Try</b> it.' });
    return 'end';
  }
  return 'silent';
}

const record = (tutor: string, config: Record<string, unknown> = {}) => runRecord({ scenario: onBkt(miniScenario()), tutor: { name: tutor, config }, seed: 9, wakeOn: [...PLAY_WAKE_ON] });
/** The trace without the tutor's identity (run_start's runId and tutor). */
const anonymous = (events: readonly TraceEvent[]) => toJsonl(events).split('\n').slice(1).join('\n');

async function playByHand(env: RunEnv, stopAfterTurns = Infinity, resume?: readonly TraceEvent[]) {
  const run = await openRun(record('human', { name: 'Ms Rivera' }), env, resume ? { resume } : {});
  expect(run.tutor).toBeNull();
  const play = new PlayDriver(run.session);
  let turn = await play.start(run.replay);
  let n = 0;
  while (turn && n++ < stopAfterTurns) {
    if (teach(turn) === 'silent') turn = await play.staySilent();
    else turn = await play.endTurn();
  }
  return { play, session: run.session };
}

describe('playing the tutor', () => {
  it('a person and a program making the same calls give the same trace, apart from who the tutor is', async () => {
    const env = bktEnv();
    const { session } = await playByHand(env);
    const byHand = session.result();
    expect(byHand.reason).toBe('horizon_reached');
    const start = byHand.events[0]!;
    expect(start.type === 'run_start' && start.tutor).toEqual({ name: 'human', config: { name: 'Ms Rivera' } });
    expect(start.type === 'run_start' && start.scenario.tutor.wakeOn).not.toContain('submission_graded');
    const program: Tutor = {
      async onWake(turn) {
        if (teach(turn) === 'silent') turn.tools.call('stay_silent', { reason: 'the tutor chose to stay silent' });
      },
    };
    const auto = await executeRun(record('custom'), { ...env, tutors: new Map([...TUTORS, ['custom', customEntry(program)]]) });
    expect(anonymous(byHand.events)).toBe(anonymous(auto.events));
    // Every action kind and a silence are in it; no graded answer woke the tutor.
    const tools = new Set(byHand.events.flatMap((e) => (e.type === 'tool_call' && e.result.ok ? [e.tool] : [])));
    for (const t of ['assign_items', 'adjust_level', 'provide_content', 'send_message', 'stay_silent']) expect(tools).toContain(t);
    expect(byHand.events.some((e) => e.type === 'wake' && e.reason === 'submission_graded')).toBe(false);
    expect(byHand.events.some((e) => e.type === 'attempt')).toBe(true);
  });

  it('skipping to tomorrow answers each skipped wake with a recorded silence while the learner goes on', async () => {
    const run = await openRun(record('human'), bktEnv());
    const play = new PlayDriver(run.session);
    let turn = await play.start();
    expect(turn!.wake.day).toBe(1);
    turn = await play.skipToDay(3);
    expect(turn!.wake.day).toBe(3);
    const skipped = run.session.events.filter((e) => e.type === 'tool_call' && e.tool === 'stay_silent');
    expect(skipped.length).toBeGreaterThan(2);
    for (const s of skipped) expect(s.type === 'tool_call' && s.args).toEqual({ reason: SKIP_REASON(3) });
    // The learner worked meanwhile, and the next turn's digest says what happened since the last one.
    const lastEnd = run.session.events.filter((e) => e.type === 'turn_end').pop()!;
    const wake = run.session.events.filter((e) => e.type === 'wake').pop()!;
    expect(digest(run.session.events, lastEnd.seq + 1, wake.seq).map((l) => l.kind)).toContain('login');
    await play.finish();
    expect(run.session.result().reason).toBe('horizon_reached');
  });

  it('the instructor\'s view is recorded, and a played run resumed from its stored events continues where the person was', async () => {
    const env = bktEnv();
    const first = await openRun(record('human'), env);
    const play = new PlayDriver(first.session);
    let turn = await play.start();
    turn!.recordInstructorView(true);
    turn!.tools.call('get_learner_profile', {});
    turn = await play.endTurn();
    turn = await play.endTurn();
    turn!.tools.call('send_message', { text: 'Hello!' });
    // The page goes away here, inside a turn. Resume from what was stored:
    const stored = [...first.session.events];
    expect(stored.some((e) => e.type === 'lms_event' && e.kind === 'instructor_view' && e.detail?.on === true)).toBe(true);
    const again = await openRun(record('human'), env, { resume: stored });
    const play2 = new PlayDriver(again.session);
    const open = await play2.start(again.replay);
    expect(open!.wake.turn).toBe(turn!.wake.turn);
    expect(open!.status.calls).toBe(1);
    expect(toJsonl(again.session.events)).toBe(toJsonl(stored));
    // Both continue the same way and end with the same trace.
    for (const [p] of [[play], [play2]] as const) {
      await p.endTurn();
      await p.finish();
    }
    expect(toJsonl(again.session.result().events)).toBe(toJsonl(first.session.result().events));
  });

  it('ending the run here ends it after this turn, declared in the trace with the days played, and it scores on those days', async () => {
    const run = await openRun(record('human'), bktEnv());
    const play = new PlayDriver(run.session);
    let turn = await play.start();
    turn = await play.skipToDay(2);
    expect(turn!.wake.day).toBe(2);
    turn!.tools.call('send_message', { text: 'That is all for now: well done.' });
    const lastTurn = turn!.wake.turn;
    expect(await play.endHere()).toBeNull();
    expect(play.ended).toBe(true);
    const res = run.session.result();
    expect(res.reason).toBe('ended_by_tutor');
    expect(res.message).toBe(ENDED_BY_TUTOR(2));
    const events = res.events;
    const end = events[events.length - 1]!;
    expect(end).toMatchObject({ type: 'run_end', reason: 'ended_by_tutor', days: 2 });
    // The last turn ended as it stood (with its action), and nothing happened after it: no learner reply, no later wake.
    const endOfTurn = events.findIndex((e) => e.type === 'turn_end' && e.turn === lastTurn);
    expect(events[endOfTurn]).toMatchObject({ actions: 1, implicitSilence: false });
    expect(endOfTurn).toBe(events.length - 2);
    // The trace reads back as a valid, complete trace.
    expect(parseJsonl(toJsonl(events)).complete).toBe(true);
    // Scored as a complete run of the days played: the learning gain runs over the probes taken by then.
    const report = scoreTrace(events);
    expect(report).toMatchObject({ complete: true, endReason: 'ended_by_tutor', days: 2 });
    const probes = events.filter((e) => e.type === 'probe');
    const last = probes[probes.length - 1]!;
    expect(last.type === 'probe' && last.day).toBeLessThanOrEqual(2);
    if (last.type === 'probe' && probes[0]!.type === 'probe') expect(report.learningGain).toBeCloseTo((last.solveRate - probes[0]!.solveRate) / last.day, 12);
    // A run its tutor ended is complete: there is nothing to resume.
    expect(() => resumePoint(events)).toThrow(/its tutor ended it on day 2/);
  });

  it('the run can only be ended during a turn', async () => {
    const run = await openRun(record('human'), bktEnv());
    const play = new PlayDriver(run.session);
    await play.start();
    await play.finish();
    expect(() => run.session.endAfterTurn('late')).toThrow(/only during one of its turns/);
    await expect(play.endHere()).rejects.toThrow(/no turn is open/);
    expect(run.session.result().reason).toBe('horizon_reached');
  });
});
