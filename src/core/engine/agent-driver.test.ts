/**
 * AgentDriver under the run runner (how serve-mcp holds its runs): `finished` is the runner's
 * `drive`, settled by whichever driver call sees the run end (the last `next()`, a `stop()`), so
 * the runner's `done` comes with the whole trace in the sink; a resume that diverges rejects it.
 */
import { describe, expect, it } from 'vitest';
import { AgentDriver, MemorySink, mcpTutorConfig, parseJsonl, runRecord, startRun, toJsonl, type RunRecord, type TraceEvent } from '../index';
import { bktEnv, miniScenario, onBkt } from '../../testing/fixtures';
import { teach } from '../../../examples/mcp-client/policy';

const record = (): RunRecord => runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'mcp', config: mcpTutorConfig({ agent: 'driver-test', version: '1', model: '' }) }, seed: 2 });
const stored = (events: readonly TraceEvent[]): TraceEvent[] => parseJsonl(toJsonl(events)).events;

/** Starts the record under the runner with an agent's driver as its drive. */
async function start(sink: MemorySink, o: { resume?: TraceEvent[]; signal?: AbortSignal } = {}) {
  let driver!: AgentDriver;
  const started = await startRun(record(), bktEnv(), {
    sink,
    ...(o.signal ? { signals: [o.signal] } : {}),
    ...(o.resume ? { resume: o.resume } : {}),
    drive: (run) => (driver = new AgentDriver(run.session, run.replay)).finished,
  });
  return { started, driver };
}

/** The agent's turns, as the example MCP client plays them; `turns` of them at most. */
async function play(d: AgentDriver, turns = Infinity): Promise<string> {
  let ev = await d.next();
  for (let n = 0; ev.type === 'wake' && n < turns; n++) {
    const g = teach(ev.wake);
    for (let s = g.next(); !s.done; ) s = g.next(d.call(s.value[0], s.value[1]) as never);
    if (n % 2 === 0) d.endTurn(); // both ways of ending a turn
    ev = await d.next();
  }
  return ev.type;
}

// A driver that never settles `finished` leaves done pending: fail fast rather than at the 60 s default.
const SETTLES = 15_000;

describe('AgentDriver.finished as the runner drive', () => {
  it('a whole run: done comes once the agent has seen run_end, with the sink holding the trace', async () => {
    const sink = new MemorySink();
    const { started, driver } = await start(sink);
    let settled = false;
    void started.done.then(() => (settled = true));
    await play(driver, 2);
    await Promise.resolve();
    expect(settled).toBe(false); // the agent holds the run: nothing ends it but its calls
    expect(await play(driver)).toBe('run_end');
    const out = await started.done;
    expect(out).toMatchObject({ ending: 'complete', reason: 'horizon_reached', keep: 0 });
    expect(await driver.finished).toBe(driver.session.result());
    expect(toJsonl(sink.events)).toBe(toJsonl(out.events));
    expect([sink.began, sink.ended]).toEqual([1, 1]);
  }, SETTLES);

  it('stopped mid-run (the agent went away): partial, its trace ends run_end aborted', async () => {
    const sink = new MemorySink();
    const ac = new AbortController();
    const { started, driver } = await start(sink, { signal: ac.signal });
    await play(driver, 3);
    ac.abort();
    await driver.stop('the agent disconnected');
    const out = await started.done;
    expect(out).toMatchObject({ ending: 'partial', reason: 'aborted' });
    expect(sink.events.at(-1)).toMatchObject({ type: 'run_end', reason: 'aborted' });
    expect(sink.ended).toBe(1);
  }, SETTLES);

  it('a resume that diverges from its stored trace rejects finished and done; the sink is ended and keeps what it held', async () => {
    const whole = new MemorySink();
    const first = await start(whole);
    await play(first.driver);
    const prefix = stored((await first.started.done).events.slice(0, 40));
    const k = prefix.findIndex((e, i) => i > 5 && e.type !== 'run_start');
    prefix[k] = { ...prefix[k]!, t: prefix[k]!.t + 1 } as TraceEvent;
    const sink = new MemorySink(prefix);
    const { started, driver } = await start(sink, { resume: prefix });
    await expect(driver.next()).rejects.toMatchObject({ code: 'RESUME_DIVERGED' });
    await expect(driver.finished).rejects.toMatchObject({ code: 'RESUME_DIVERGED' });
    await expect(started.done).rejects.toMatchObject({ code: 'RESUME_DIVERGED' });
    expect(sink.ended).toBe(1);
    expect(toJsonl(sink.events)).toBe(toJsonl(prefix));
  }, SETTLES);
});
