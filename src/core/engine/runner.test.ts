/**
 * The run runner: a sink gets exactly the live events (a resumed run's stored part is never
 * appended again), one stop ends the run whoever asks for it (a host's signal, the sink's failed
 * write), the sink is ended whatever happens, and the ending is told apart (complete, partial,
 * unchanged).
 */
import { describe, expect, it } from 'vitest';
import { executeRun, runRecord, toJsonl, parseJsonl, type RunRecord, type TraceEvent } from '../index';
import { bktEnv, miniScenario, onBkt } from '../../testing/fixtures';
import { personEntry } from '../../testing/person';
import { MemorySink, SinkFailure, outsideStop, runEnding, runRun, startRun, type RunSink } from './runner';
import { resumePoint } from './replay';

const record = (tutor = 'planner'): RunRecord => runRecord({ scenario: onBkt(miniScenario()), tutor: { name: tutor, config: {} }, seed: 3 });
const stored = (events: readonly TraceEvent[]): TraceEvent[] => parseJsonl(toJsonl(events)).events;

describe('runRun', () => {
  it('a new run: the sink holds the whole trace, the same as executeRun gives', async () => {
    const ref = await executeRun(record(), bktEnv());
    const sink = new MemorySink();
    const r = await runRun(record(), bktEnv(), { sink });
    expect(toJsonl(sink.events)).toBe(toJsonl(ref.events));
    expect(toJsonl(r.events)).toBe(toJsonl(ref.events));
    expect(r).toMatchObject({ ending: 'complete', keep: 0, reason: 'horizon_reached' });
    expect([sink.began, sink.ended]).toEqual([1, 1]);
  });

  it('a resume: begin is told what is kept, only live events are appended, and the store ends as the uninterrupted trace', async () => {
    const ref = (await executeRun(record(), bktEnv())).events;
    // A cut the resume keeps whole: from the middle on, the first that does not end in a tutor
    // message whose tool call was not stored (resumePoint drops such a half call; replay.test.ts).
    let cut = Math.floor(ref.length / 2);
    while (resumePoint(ref.slice(0, cut)).length !== cut) cut++;
    const prefix = stored(ref.slice(0, cut));
    const sink = new MemorySink(prefix);
    let appended = 0;
    const counting: RunSink = { begin: (k, s) => sink.begin(k, s), append: (e) => (appended++, sink.append(e)), end: () => sink.end() };
    const seen: [number, boolean][] = [];
    const r = await runRun(record(), bktEnv(), { sink: counting, resume: prefix, observe: (e, replayed) => seen.push([e.seq, replayed]) });
    expect(r.keep).toBe(cut);
    expect(appended).toBe(ref.length - cut);
    expect(toJsonl(sink.events)).toBe(toJsonl(ref));
    // observe sees every event, replayed ones marked, before the sink.
    expect(seen.length).toBe(ref.length);
    expect(seen.filter(([, rep]) => rep).length).toBe(cut);
  });

  it("a host's signal stops the run: partial, resumable to the uninterrupted trace", async () => {
    const ref = (await executeRun(record(), bktEnv())).events;
    const ac = new AbortController();
    const sink = new MemorySink();
    let n = 0;
    const r = await runRun(record(), bktEnv(), { sink, signals: [undefined, ac.signal], observe: () => ++n === 40 && ac.abort() });
    expect(r.reason).toBe('aborted');
    expect(runEnding(r)).toBe('partial');
    expect(r.ending).toBe('partial');
    const again = await runRun(record(), bktEnv(), { sink, resume: stored(sink.events) });
    expect(again.ending).toBe('complete');
    expect(toJsonl(sink.events)).toBe(toJsonl(ref));
  });

  it('a signal aborted before the start stops a resumed run while replaying: unchanged', async () => {
    const ref = (await executeRun(record(), bktEnv())).events;
    const prefix = stored(ref.slice(0, 60));
    const ac = new AbortController();
    ac.abort();
    const sink = new MemorySink(prefix);
    const r = await runRun(record(), bktEnv(), { sink, resume: prefix, signals: [ac.signal] });
    expect(r.stoppedInReplay).toBe(true);
    expect(r.ending).toBe('unchanged');
    expect(sink.events.length).toBe(60);
  });

  it("the sink's failed write stops the run and is thrown as a SinkFailure with the run's result", async () => {
    const boom = new Error('quota exceeded');
    const kept: TraceEvent[] = [];
    let stop: ((c: unknown) => void) | null = null;
    let failed = false;
    const sink: RunSink = {
      stops: true,
      begin: (_k, s) => void (stop = s),
      append: (e) => {
        if (failed) return;
        kept.push(e);
        if (e.seq === 30) {
          failed = true;
          // An asynchronous write's failure, told later.
          queueMicrotask(() => stop!(boom));
        }
      },
      end: () => {
        if (failed) throw boom;
      },
    };
    const err = await runRun(record(), bktEnv(), { sink }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SinkFailure);
    const f = err as SinkFailure;
    expect(f.cause).toBe(boom);
    expect(f.result?.reason).toBe('aborted');
    expect(kept.length).toBe(31);
  });

  it('a sink whose append throws fails the run, and is still ended', async () => {
    let ended = 0;
    const sink: RunSink = {
      begin: () => {},
      append: (e) => {
        if (e.seq >= 10) throw new Error('disk full'); // every write from here on, as a full disk
      },
      end: () => void ended++,
    };
    await expect(runRun(record(), bktEnv(), { sink })).rejects.toThrow(/disk full/);
    expect(ended).toBe(1);
  });

  it("a run that cannot be built is refused by startRun, after ending the sink; a person's tutor needs a drive", async () => {
    const sink = new MemorySink();
    await expect(startRun(runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'nobody', config: {} } }), bktEnv(), { sink })).rejects.toThrow(/unknown tutor "nobody"/);
    expect(sink.ended).toBe(1);
    const env = bktEnv({ tutors: new Map([[personEntry.name, personEntry]]) });
    await expect(startRun(record(personEntry.name), env, { sink })).rejects.toMatchObject({ code: 'TUTOR_NOT_AUTOMATED' });
    expect(sink.ended).toBe(2);
  });

  it('the listeners it put on the signals are taken off at the end', async () => {
    const ac = new AbortController();
    const added: unknown[] = [];
    const removed: unknown[] = [];
    const sig = ac.signal;
    const add = sig.addEventListener.bind(sig);
    const rm = sig.removeEventListener.bind(sig);
    sig.addEventListener = ((t: string, l: EventListener, o?: AddEventListenerOptions) => (added.push(l), add(t, l, o))) as typeof sig.addEventListener;
    sig.removeEventListener = ((t: string, l: EventListener) => (removed.push(l), rm(t, l))) as typeof sig.removeEventListener;
    await runRun(record(), bktEnv(), { signals: [sig] });
    expect(added.length).toBe(1);
    expect(removed).toEqual(added);
  });

  it('outsideStop: the stops a resume may get past', () => {
    expect(outsideStop('aborted', [])).toBe(true);
    expect(outsideStop('llm_error', ['llm'])).toBe(true);
    expect(outsideStop('tutor_error', ['http'])).toBe(true);
    expect(outsideStop('tutor_error', [])).toBe(false);
    expect(outsideStop('internal_error', ['http'])).toBe(false);
    expect(runEnding({ reason: 'ended_by_tutor', stoppedInReplay: false })).toBe('complete');
  });
});
