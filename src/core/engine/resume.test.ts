/**
 * Resume: a run interrupted anywhere (between events, inside a turn, by a crash that leaves a
 * prefix of the trace, or by its AbortSignal) and resumed from what was stored gives the trace of
 * the uninterrupted run, byte for byte; a stored trace that the run does not replay is refused
 * with the seq of the first difference.
 */
import { describe, expect, it } from 'vitest';
import { Rng, executeRun, openRun, parseJsonl, replayRecordedTurns, resumePoint, runRecord, toJsonl, type RunRecord, type Scenario, type TraceEvent } from '../index';
import { bktEnv, defaultScenario, miniScenario, onBkt } from '../../testing/fixtures';
import { driveByHand, humanEnv, personRecord } from '../../testing/person';

const SEED = 5;
const REFERENCE = ['answer-giver', 'withholder', 'planner'] as const;
const SCENARIOS: [string, () => Scenario][] = [
  ['mini', miniScenario],
  ['default', defaultScenario],
];

const record = (scenario: Scenario, tutor: string, seed = SEED): RunRecord => runRecord({ scenario: onBkt(scenario), tutor: { name: tutor, config: {} }, seed });
/** What a store gives back: the events through JSONL (a file, a page's store). */
const stored = (events: readonly TraceEvent[]): TraceEvent[] => parseJsonl(toJsonl(events)).events;

/** The turns of a trace: [index of the wake, index of its turn_end]. */
function turnsOf(events: readonly TraceEvent[]): [number, number][] {
  const open = new Map<number, number>();
  const out: [number, number][] = [];
  events.forEach((e, i) => {
    if (e.type === 'wake') open.set(e.turn, i);
    if (e.type === 'turn_end') out.push([open.get(e.turn)!, i]);
  });
  return out;
}

/** The prefix ends inside a tool call: the tutor's message is stored, its tool_call is not. */
const halfCall = (prefix: readonly TraceEvent[]) => {
  const last = prefix[prefix.length - 1]!;
  return last.type === 'message' && last.from === 'tutor';
};

/** A prefix of length k stops inside a turn when it holds a wake but not its turn_end. */
const insideTurn = (turns: [number, number][], k: number) => turns.some(([w, e]) => w < k && k <= e);

/**
 * 20 cut points (prefix lengths), seeded: 8 strictly inside turns (just after the wake, or between
 * two of its tool calls), 8 between turns, the two ends (run_start alone; all but run_end), and 2 anywhere.
 */
function cutPoints(events: readonly TraceEvent[], seed: number): number[] {
  const rng = new Rng(seed);
  const n = events.length;
  const turns = turnsOf(events);
  const busy = turns.filter(([w, e]) => e - w >= 3);
  const cuts = new Set<number>([1, n - 1]);
  const add = (want: number, gen: () => number) => {
    for (let target = cuts.size + want, tries = 0; cuts.size < target && tries < 1000; tries++) cuts.add(gen());
  };
  add(8, () => {
    const [w, e] = rng.pick(busy.length ? busy : turns);
    if (rng.chance(0.25)) return w + 1;
    // Half the others just after one of the turn's tool calls (a delivery's message and the
    // learner's instruction note follow it, so a plain pick rarely lands there).
    const afterCall = Array.from({ length: e - w - 1 }, (_, i) => w + 2 + i).filter((k) => events[k - 1]?.type === 'tool_call');
    return afterCall.length && rng.chance(0.5) ? rng.pick(afterCall) : rng.int(w + 2, e);
  });
  add(8, () => {
    for (;;) {
      const k = rng.int(1, n - 1);
      if (!insideTurn(turns, k)) return k;
    }
  });
  add(2, () => rng.int(1, n - 1));
  return [...cuts].sort((a, b) => a - b);
}

describe('resuming a stored trace prefix', () => {
  for (const [sname, scenario] of SCENARIOS) {
    it.each(REFERENCE)(`${sname} scenario, %s: 20 cut points (inside and between turns) resume to the uninterrupted trace`, async (tutor) => {
      const rec = record(scenario(), tutor);
      const env = bktEnv();
      const full = await executeRun(rec, env);
      expect(full.reason).toBe('horizon_reached');
      const text = toJsonl(full.events);
      const turns = turnsOf(full.events);
      const cuts = cutPoints(full.events, SEED * 1000 + REFERENCE.indexOf(tutor));
      expect(cuts).toHaveLength(20);
      expect(cuts.filter((k) => insideTurn(turns, k)).length).toBeGreaterThanOrEqual(8);
      expect(cuts.filter((k) => !insideTurn(turns, k)).length).toBeGreaterThanOrEqual(8);
      // Some cuts fall after a tool call, with more of its turn to come.
      expect(cuts.some((k) => insideTurn(turns, k) && full.events[k - 1]!.type === 'tool_call')).toBe(true);
      for (const k of cuts) {
        const prefix = stored(full.events.slice(0, k));
        // Everything stored is replayed, except half a tool call (its message without its tool_call).
        const n = halfCall(prefix) ? k - 1 : k;
        expect(resumePoint(prefix)).toHaveLength(n);
        const replayed: boolean[] = [];
        const res = await executeRun(rec, env, { resume: prefix, onEvent: (e, r) => (replayed[e.seq] = r) });
        expect(toJsonl(res.events), `cut at ${k}`).toBe(text);
        expect(replayed).toHaveLength(full.events.length);
        expect(replayed.findIndex((r, seq) => r !== seq < n), `replayed flags, cut at ${k}`).toBe(-1);
      }
    });
  }

  it.each(REFERENCE)('default scenario, %s: aborted through the AbortSignal (between and inside turns), twice, resumes to the uninterrupted trace', async (tutor) => {
    const rec = record(defaultScenario(), tutor);
    const env = bktEnv();
    const full = await executeRun(rec, env);
    const text = toJsonl(full.events);
    const rng = new Rng(77 + REFERENCE.indexOf(tutor));
    const tools = full.events.filter((e) => e.type === 'tool_call').map((e) => e.seq);
    // One abort at a tool call (inside a turn), one at any event; the second resumed run is aborted again later.
    const at = [rng.pick(tools.slice(0, tools.length >> 1)), rng.int(full.events.length >> 1, full.events.length - 10)].sort((a, b) => a - b);
    let store: TraceEvent[] = [];
    for (const stopAt of [...at, null]) {
      const ac = new AbortController();
      const prev = store.length ? stored(store) : null;
      const n = prev ? resumePoint(prev).length : 0;
      const live: TraceEvent[] = [];
      const replayed: boolean[] = [];
      const res = await executeRun(rec, env, {
        signal: ac.signal,
        ...(prev ? { resume: prev } : {}),
        onEvent: (e, r) => {
          replayed[e.seq] = r;
          if (!r) live.push(e);
          // Only a live event stops the run here (a stop during the replay has its own test below).
          if (!r && stopAt !== null && e.seq === stopAt) ac.abort();
        },
      });
      expect(replayed.findIndex((r, seq) => r !== seq < n)).toBe(-1);
      // The store keeps what it had up to the resume point and appends the live events.
      store = [...store.slice(0, n), ...live];
      expect(toJsonl(store)).toBe(toJsonl(res.events));
      if (stopAt === null) break;
      expect(stopAt).toBeGreaterThanOrEqual(n);
      expect(res.reason).toBe('aborted');
      const end = res.events[res.events.length - 1]!;
      expect(end).toMatchObject({ type: 'run_end', reason: 'aborted' });
      expect(res.events.some((e) => e.type === 'error')).toBe(false);
      // Recorded up to the abort, then the current step finishes (a tutor's turn is not cut), then run_end.
      expect(res.events.length).toBeGreaterThan(stopAt + 1);
      expect(toJsonl(res.events.slice(0, -1))).toBe(toJsonl(full.events.slice(0, res.events.length - 1)));
    }
    expect(toJsonl(store)).toBe(text);
  });

  it('a resumed run cancelled while it still replays its stored events ends as aborted, records nothing, and resumes again', async () => {
    const rec = record(defaultScenario(), 'planner');
    const env = bktEnv();
    const full = await executeRun(rec, env);
    const prefix = stored(full.events.slice(0, full.events.length - 100));
    const ac = new AbortController();
    const res = await executeRun(rec, env, { resume: prefix, signal: ac.signal, onEvent: (e) => e.seq === 500 && ac.abort() });
    expect(res).toMatchObject({ reason: 'aborted', stoppedInReplay: true, message: 'the run was cancelled' });
    // Nothing past the replayed part: no run_end at a seq the stored trace holds.
    expect(res.events.length).toBeLessThan(prefix.length);
    expect(toJsonl(res.events)).toBe(toJsonl(prefix.slice(0, res.events.length)));
    const again = await executeRun(rec, env, { resume: prefix });
    expect(again.stoppedInReplay).toBe(false);
    expect(toJsonl(again.events)).toBe(toJsonl(full.events));
  });

  describe('refuses a stored trace the run does not replay', () => {
    const rec = record(miniScenario(), 'planner');
    const env = bktEnv();
    const fullP = executeRun(rec, env);

    it('a tampered attempt: RESUME_DIVERGED naming the seq, and nothing recorded from there', async () => {
      const full = (await fullP).events;
      const attempts = full.filter((e) => e.type === 'attempt');
      const target = attempts[attempts.length >> 1]!;
      const prefix = stored(full.slice(0, target.seq + 20));
      prefix[target.seq] = { ...target, correct: !target.correct } as TraceEvent;
      const seen: number[] = [];
      const err = await executeRun(rec, env, { resume: prefix, onEvent: (e) => seen.push(e.seq) }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'RESUME_DIVERGED', seq: target.seq, message: expect.stringContaining(`at event ${target.seq} `) });
      expect(Math.max(...seen)).toBe(target.seq - 1);
    });

    it("a tampered tool call's arguments (inside a turn): RESUME_DIVERGED at that seq", async () => {
      const full = (await fullP).events;
      const call = full.find((e) => e.type === 'tool_call' && e.tool === 'assign_items')!;
      expect(call).toBeDefined();
      const prefix = stored(full.slice(0, call.seq + 1));
      prefix[call.seq] = { ...call, args: { ...(call as { args: object }).args, count: 9 } } as TraceEvent;
      await expect(executeRun(rec, env, { resume: prefix })).rejects.toMatchObject({ code: 'RESUME_DIVERGED', seq: call.seq, message: expect.stringContaining(`at event ${call.seq} `) });
    });

    it('a complete trace: RESUME_COMPLETE', async () => {
      const full = (await fullP).events;
      await expect(executeRun(rec, env, { resume: stored(full) })).rejects.toMatchObject({ code: 'RESUME_COMPLETE' });
    });

    it('another record (another seed, another tutor): RESUME_DIVERGED at event 0', async () => {
      const full = (await fullP).events;
      const prefix = stored(full.slice(0, 200));
      await expect(executeRun(record(miniScenario(), 'planner', SEED + 1), env, { resume: prefix })).rejects.toMatchObject({ code: 'RESUME_DIVERGED', seq: 0, message: expect.stringContaining('at event 0 ') });
      await expect(executeRun(record(miniScenario(), 'withholder'), env, { resume: prefix })).rejects.toMatchObject({ code: 'RESUME_DIVERGED', seq: 0 });
    });
  });

  it("a person's run: cut inside and between turns, replayRecordedTurns gives the open turn with its calls applied, finished by hand → the uninterrupted trace", async () => {
    const rec = personRecord();
    const first = await openRun(rec, humanEnv());
    await driveByHand(first.session, { pace: 'microtask' });
    const full = first.session.result().events;
    const text = toJsonl(full);
    const turns = turnsOf(full);
    const rng = new Rng(99);
    const busy = turns.filter(([w, e]) => e - w >= 4);
    // Inside turns (just after the wake, between two calls, just before turn_end), between turns, and the first event alone.
    const half = full.findIndex((e) => e.type === 'message' && e.from === 'tutor') + 1;
    const cuts = [1, ...[0, 1, 2, 3].map(() => {
      const [w, e] = rng.pick(busy);
      return rng.int(w + 2, e - 1);
    }), busy[0]![0] + 1, busy[1]![1], half, turns[5]![1] + 1, rng.int(1, full.length - 1)];
    expect(cuts.filter((k) => insideTurn(turns, k)).length).toBeGreaterThanOrEqual(7);
    for (const k of cuts) {
      const prefix = stored(full.slice(0, k));
      const run = await openRun(rec, humanEnv(), { resume: prefix });
      expect(run.tutor).toBeNull();
      expect(run.replay).toHaveLength(halfCall(prefix) ? k - 1 : k);
      const open = await replayRecordedTurns(run.session, run.replay!);
      const lastWake = [...prefix].reverse().find((e) => e.type === 'wake');
      const cutTurn = turns.find(([w, e]) => w < k && k <= e);
      if (cutTurn) {
        // The unfinished turn, open, with its recorded calls already applied.
        const no = (full[cutTurn[0]] as Extract<TraceEvent, { type: 'wake' }>).turn;
        expect(open?.wake.turn).toBe(no);
        expect(open?.isOpen).toBe(true);
        const recorded = prefix.filter((e) => e.type === 'tool_call' && e.turn === no);
        expect(run.session.events.filter((e) => e.type === 'tool_call' && e.turn === no)).toEqual(recorded);
        expect(open!.status.calls).toBe(recorded.filter((e) => e.type === 'tool_call' && !(e.result.ok === false && e.result.error.code === 'TURN_LIMIT')).length);
        expect(run.session.events).toHaveLength(run.replay!.length);
      } else {
        // Between turns: the next turn, fresh.
        expect(open?.wake.turn).toBe(lastWake && lastWake.type === 'wake' ? lastWake.turn + 1 : 1);
        expect(open?.status.calls).toBe(0);
      }
      await driveByHand(run.session, { first: open, pace: 'microtask' });
      expect(toJsonl(run.session.result().events), `cut at ${k}`).toBe(text);
    }
  });

  it("a person's run cut inside a tool call (its message stored, its tool_call not): the half call is dropped and the person may choose again", async () => {
    const rec = personRecord();
    const first = await openRun(rec, humanEnv());
    await driveByHand(first.session, { pace: 'microtask' });
    const full = first.session.result().events;
    const msg = full.find((e) => e.type === 'message' && e.from === 'tutor' && full[e.seq + 1]?.type === 'tool_call')!;
    const prefix = stored(full.slice(0, msg.seq + 1));
    expect(resumePoint(prefix)).toHaveLength(msg.seq);
    const run = await openRun(rec, humanEnv(), { resume: prefix });
    const open = await replayRecordedTurns(run.session, run.replay!);
    expect(open?.wake.turn).toBe((msg as Extract<TraceEvent, { type: 'message' }>).turn);
    expect(run.session.events).toHaveLength(msg.seq);
    // The person does something else this time: not a divergence, the run goes on live from here.
    expect(open!.tools.call('get_messages', { last_n: 2 }).ok).toBe(true);
    expect(run.session.events[msg.seq]).toMatchObject({ type: 'tool_call', tool: 'get_messages' });
    open!.end();
    await driveByHand(run.session, { pace: 'microtask' });
    expect(run.session.result().reason).toBe('horizon_reached');
    expect(toJsonl(run.session.result().events.slice(0, msg.seq))).toBe(toJsonl(full.slice(0, msg.seq)));
  });
});
