/**
 * Engine versions: traces an older engine wrote stay first-class (the library keeps them, the CLI
 * re-scores them offline). The fixture is the engine-1 pinned trace of mini-3day × planner × seed 1
 * on BKT, written by the last engine-1 commit (its SHA-256 is that pin's). Engine 2 read the
 * belief over the course's skills after each answer; engine 3 changed the learner (memory,
 * instruction checked for substance, students per persona × schedule), so old traces are kept and
 * re-scored, not reproduced (docs/trace-format.md#engine-version).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION, calibration, digestRun, executeRun, parseJsonl, runRecord, runSignals, scoreTrace, summarizeRun, type EventOf, type TraceEvent } from '../index';
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

  it('an engine-1 trace still scores, summarises, digests and calibrates under engine 3', () => {
    expect(scoreTrace(old).runId).toBe((old[0] as EventOf<'run_start'>).runId);
    expect(summarizeRun(old, 'mini-3day.yaml')).toBeDefined();
    expect(digestRun({ events: old }).tutor).toBe('planner');
    expect(calibration([old], true)).toBeDefined();
    expect(runSignals(old)).toBeDefined();
  });

  it('engine 3 (and 4) records what each piece of instruction did (lms_event instruction), and its belief scopes stay those of engine 2', async () => {
    expect(ENGINE_VERSION).toBe('educlaw-lab-engine-5');
    const now = (await runWith(miniScenario(), 'planner', { seed: 1 })).events;
    const notes = now.filter((e) => e.type === 'lms_event' && e.kind === 'instruction');
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.some((e) => e.type === 'lms_event' && e.detail?.credited === true)).toBe(true);
    const ms = masteryOf(now);
    for (const m of ms) expect(m.scope).toBe(atDayEnd(now, m) ? 'all' : 'course');
  });

  it('an engine-1 trace is not resumed by engine 2: a clear error naming both versions', async () => {
    const cut = old.slice(0, Math.floor(old.length / 2));
    const record = runRecord({ scenario: (old[0] as EventOf<'run_start'>).scenario, tutor: { name: 'planner', config: {} } });
    await expect(executeRun(record, bktEnv(), { resume: cut })).rejects.toMatchObject({ code: 'RESUME_DIVERGED', message: expect.stringMatching(/educlaw-lab-engine-1.*educlaw-lab-engine-5/) });
  });
});
