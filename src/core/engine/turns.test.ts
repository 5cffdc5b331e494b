/**
 * A session driven turn by turn from a test, the way a person at a form would: openRun with a
 * tutor that needs "human" gives no tutor, and the test holds each turn across awaits. The same
 * policy as an automated tutor (registered under the same name, so run_start is identical) must
 * give the same trace byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { executeRun, openRun, toJsonl, TOOL_NAMES, type TraceEvent, type Turn } from '../index';
import { PERSON_LIMIT, driveByHand, humanEnv, personRecord, scriptedEnv } from '../../testing/person';

const calls = (ev: readonly TraceEvent[]) => ev.filter((e): e is Extract<TraceEvent, { type: 'tool_call' }> => e.type === 'tool_call');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('a session driven turn by turn from a test', () => {
  it('uses every tool (with illegal, over-limit and malformed calls) and gives the same trace as the scripted twin', async () => {
    const run = await openRun(personRecord(), humanEnv());
    expect(run.tutor).toBeNull();
    expect(run.entry.needs).toEqual(['human']);
    await driveByHand(run.session);
    const byHand = run.session.result();
    expect(byHand.reason).toBe('horizon_reached');

    const tc = calls(byHand.events);
    // Every tool, each at least once successfully.
    expect(TOOL_NAMES).toHaveLength(10);
    for (const name of TOOL_NAMES) expect(tc.some((c) => c.tool === name && c.result.ok), name).toBe(true);
    const codes = new Set(tc.flatMap((c) => (c.result.ok ? [] : [c.result.error.code])));
    for (const code of ['ILLEGAL', 'TURN_LIMIT', 'INVALID_ARGS', 'UNKNOWN_TOOL']) expect(codes.has(code as never), code).toBe(true);
    // stay_silent after an action, and an action after stay_silent, are both ILLEGAL.
    expect(tc.some((c) => c.tool === 'stay_silent' && !c.result.ok && c.result.error.code === 'ILLEGAL')).toBe(true);
    expect(tc.some((c) => c.tool === 'send_message' && !c.result.ok && c.result.error.code === 'ILLEGAL' && /stay_silent this turn/.test(c.result.error.message))).toBe(true);
    // A malformed argument text as a model would send it is traced as sent.
    expect(tc.some((c) => c.args === '{"text": "unterminated' && !c.result.ok && c.result.error.code === 'INVALID_ARGS')).toBe(true);
    // Over the limit: exactly PERSON_LIMIT calls ran; the two after it answered TURN_LIMIT.
    const limited = [...new Set(tc.filter((c) => !c.result.ok && c.result.error.code === 'TURN_LIMIT').map((c) => c.turn))];
    expect(limited.length).toBeGreaterThan(0);
    for (const t of limited) {
      const inTurn = tc.filter((c) => c.turn === t);
      expect(inTurn).toHaveLength(PERSON_LIMIT + 2);
      expect(inTurn.slice(PERSON_LIMIT).every((c) => !c.result.ok && c.result.error.code === 'TURN_LIMIT' && c.kind === 'unknown')).toBe(true);
    }
    expect(byHand.events.filter((e) => e.type === 'wake').length).toBe(byHand.events.filter((e) => e.type === 'turn_end').length);

    const scripted = await executeRun(personRecord(), scriptedEnv());
    expect(scripted.runId).toBe(byHand.runId);
    expect(toJsonl(scripted.events)).toBe(toJsonl(byHand.events));
  });

  it('a person cannot be driven by executeRun', async () => {
    await expect(executeRun(personRecord(), humanEnv())).rejects.toMatchObject({ code: 'TUTOR_NOT_AUTOMATED' });
  });

  it('holds a turn: advance() refuses (TURN_OPEN), the world does not move, status counts, calls after end() throw (TURN_CLOSED)', async () => {
    const { session } = await openRun(personRecord(), humanEnv());
    const turn = (await session.advance()) as Turn;
    expect(turn).not.toBeNull();
    expect(session.openTurn).toBe(turn);
    expect(session.events[session.events.length - 1]).toMatchObject({ type: 'wake', turn: 1 });
    expect(turn.status).toEqual({ calls: 0, remaining: PERSON_LIMIT, actions: 0, silent: false, open: true });

    await expect(session.advance()).rejects.toMatchObject({ code: 'TURN_OPEN' });
    // Nothing moves while the turn is held: no event, no clock.
    const n = session.events.length;
    const now = session.now;
    await sleep(50);
    expect(session.events.length).toBe(n);
    expect(session.now).toBe(now);

    expect(turn.tools.call('get_learner_profile', {}).ok).toBe(true);
    expect(turn.status).toEqual({ calls: 1, remaining: PERSON_LIMIT - 1, actions: 0, silent: false, open: true });
    expect(turn.tools.call('assign_items', { item_ids: 'x' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGS' } });
    expect(turn.status).toMatchObject({ calls: 2, remaining: PERSON_LIMIT - 2, actions: 0 });
    expect(turn.tools.call('send_message', { text: 'hello' }).ok).toBe(true);
    const sent = session.events.length;
    expect(turn.status).toEqual({ calls: 3, remaining: PERSON_LIMIT - 3, actions: 1, silent: false, open: true });
    expect(turn.tools.call('stay_silent', {})).toMatchObject({ ok: false, error: { code: 'ILLEGAL' } });
    expect(turn.status).toMatchObject({ calls: 4, actions: 1, silent: false });
    expect(turn.tools.call('get_messages', {}).ok).toBe(true);
    expect(turn.tools.call('get_gradebook', {}).ok).toBe(true);
    expect(turn.status).toMatchObject({ calls: PERSON_LIMIT, remaining: 0 });
    expect(turn.tools.call('get_messages', {})).toMatchObject({ ok: false, error: { code: 'TURN_LIMIT' } });
    expect(turn.status).toEqual({ calls: PERSON_LIMIT, remaining: 0, actions: 1, silent: false, open: true });
    // Each call was traced at once, still with nothing else in between.
    // (send_message records the tutor's message, then its tool_call.)
    expect(session.events.slice(n).map((e) => e.type)).toEqual([...Array(2).fill('tool_call'), 'message', ...Array(PERSON_LIMIT - 1).fill('tool_call')]);
    expect(session.events[sent - 2]).toMatchObject({ type: 'message', from: 'tutor', text: 'hello' });

    turn.end();
    expect(turn.status.open).toBe(false);
    expect(session.openTurn).toBeNull();
    expect(() => turn.tools.call('get_messages', {})).toThrow(expect.objectContaining({ code: 'TURN_CLOSED' }));
    expect(() => turn.end()).toThrow(expect.objectContaining({ code: 'TURN_CLOSED' }));
    expect(session.events.length).toBe(n + PERSON_LIMIT + 2);

    // The world moves again: turn_end, then on to the next wake.
    const next = (await session.advance()) as Turn;
    expect(next.wake.turn).toBe(2);
    const te = session.events.find((e) => e.type === 'turn_end' && e.turn === 1);
    expect(te).toMatchObject({ actions: 1, implicitSilence: false });
    expect(next.tools.call('stay_silent', { reason: 'resting' }).ok).toBe(true);
    expect(next.status).toMatchObject({ calls: 1, actions: 1, silent: true });
    expect(next.tools.call('send_message', { text: 'x' })).toMatchObject({ ok: false, error: { code: 'ILLEGAL' } });
    expect(next.status).toMatchObject({ calls: 2, actions: 1, silent: true });
    next.end();
    // A turn with no action is implicit silence.
    const third = (await session.advance()) as Turn;
    third.end();
    const fourth = await session.advance();
    expect(session.events.find((e) => e.type === 'turn_end' && e.turn === 3)).toMatchObject({ actions: 0, implicitSilence: true });
    fourth?.end();
  });
});
