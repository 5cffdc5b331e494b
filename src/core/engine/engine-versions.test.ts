/**
 * Engine versions: traces an older engine wrote stay first-class (the library keeps them, the CLI
 * re-scores them offline). The fixture is the engine-1 pinned trace of mini-3day × planner × seed 1
 * on BKT, written by the last engine-1 commit (its SHA-256 is that pin's); engine 2 reads the
 * belief over the course's skills after each answer and over all skills at each day's end, and
 * otherwise runs exactly the same (docs/trace-format.md#engine-version).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION, calibration, digestRun, executeRun, parseJsonl, runRecord, runSignals, scoreTrace, summarizeRun, toJsonl, type EventOf, type TraceEvent } from '../index';
import { bktEnv, miniScenario, runWith } from '../../testing/fixtures';

const FIXTURE = fileURLToPath(new URL('../../testing/traces/engine-1--mini-3day--planner--s1--bkt.jsonl', import.meta.url));
/** The pin of bkt/mini-3day/planner/s1 under educlaw-lab-engine-1 (scripts/pins/trace-pins.json before engine 2). */
const ENGINE_1_PIN = '6fe89b792dcf922d13b99a2374370c49bedfa44c2d1dbf84dd4f1b454050445f';

const text = readFileSync(FIXTURE, 'utf8');
const old = parseJsonl(text, 'engine-1.jsonl').events;
const masteryOf = (events: readonly TraceEvent[]) => events.filter((e): e is EventOf<'mastery'> => e.type === 'mastery');
/** A mastery event taken at the end of a day: the next event is that day's end_of_day. */
const atDayEnd = (events: readonly TraceEvent[], m: EventOf<'mastery'>) => {
  const next = events[m.seq + 1];
  return next?.type === 'lms_event' && next.kind === 'end_of_day';
};

describe('engine versions', () => {
  it('the fixture is the engine-1 pinned trace, and reads strictly', () => {
    expect(createHash('sha256').update(text).digest('hex')).toBe(ENGINE_1_PIN);
    const start = old[0]!;
    expect(start.type === 'run_start' && start.engine).toBe('educlaw-lab-engine-1');
    const ms = masteryOf(old);
    expect(ms.length).toBeGreaterThan(10);
    for (const m of ms) expect([m.scope, m.skills.length]).toEqual(['all', 110]);
  });

  it('engine 2 gives the engine-1 trace with the belief read over the course after each answer, all skills at day ends', async () => {
    expect(ENGINE_VERSION).toBe('educlaw-lab-engine-2');
    const now = (await runWith(miniScenario(), 'planner', { seed: 1 })).events;
    const start = old[0] as EventOf<'run_start'>;
    const course = start.scenario.course.skills;
    // Engine 1's trace with each per-answer snapshot cut to the course's skills.
    const expected = old.map((e): TraceEvent => {
      if (e.type === 'run_start') return { ...e, engine: ENGINE_VERSION };
      if (e.type !== 'mastery' || atDayEnd(old, e)) return e;
      return { ...e, scope: 'course', skills: [...course], values: course.map((s) => e.values[e.skills.indexOf(s)]!) };
    });
    expect(toJsonl(now)).toBe(toJsonl(expected));
    const ms = masteryOf(now);
    expect(ms.filter((m) => m.scope === 'all').length).toBe(3); // one per day end
    for (const m of ms) expect(m.scope).toBe(atDayEnd(now, m) ? 'all' : 'course');
    expect(ms.filter((m) => m.scope === 'all').every((m) => m.skills.length === 110)).toBe(true);
  });

  it('an engine-1 trace scores, summarises, digests and calibrates as the same run under engine 2', async () => {
    const now = (await runWith(miniScenario(), 'planner', { seed: 1 })).events;
    expect(scoreTrace(old)).toEqual(scoreTrace(now));
    expect(summarizeRun(old, 'mini-3day.yaml')).toEqual(summarizeRun(now, 'mini-3day.yaml'));
    // the digest names the engine (the rest is the same run, and the same student: a seed on both engines)
    const { engine: e1, ...d1 } = digestRun({ events: old });
    const { engine: e2, ...d2 } = digestRun({ events: now });
    expect([e1, e2]).toEqual(['educlaw-lab-engine-1', ENGINE_VERSION]);
    expect(d1).toEqual(d2);
    expect(calibration([old], true)).toEqual(calibration([now], true));
    expect(runSignals(old)).toEqual(runSignals(now));
  });

  it('an engine-1 trace is not resumed by engine 2: a clear error naming both versions', async () => {
    const cut = old.slice(0, Math.floor(old.length / 2));
    const record = runRecord({ scenario: (old[0] as EventOf<'run_start'>).scenario, tutor: { name: 'planner', config: {} } });
    await expect(executeRun(record, bktEnv(), { resume: cut })).rejects.toMatchObject({ code: 'RESUME_DIVERGED', message: expect.stringMatching(/educlaw-lab-engine-1.*educlaw-lab-engine-2/) });
  });
});
