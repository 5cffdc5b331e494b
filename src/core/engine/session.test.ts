import { describe, expect, it } from 'vitest';
import { defaultScenario, miniScenario, runWith } from '../../testing/fixtures';
import { toJsonl, parseJsonl, scoreTrace, type Tutor, type TraceEvent, type KnowledgeTracer } from '../index';
import { loadBktTracer } from '../index';

const eventsOf = <K extends TraceEvent['type']>(ev: TraceEvent[], type: K) => ev.filter((e): e is Extract<TraceEvent, { type: K }> => e.type === type);

describe('a run (executeRun over a session)', () => {
  it('gives a byte-identical trace for the same scenario, tutor and seed, and a different one for another seed', async () => {
    const s = miniScenario();
    const a = toJsonl((await runWith(s, 'planner', { seed: 11 })).events);
    const b = toJsonl((await runWith(s, 'planner', { seed: 11 })).events);
    const c = toJsonl((await runWith(s, 'planner', { seed: 12 })).events);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(toJsonl(parseJsonl(a).events)).toBe(a);
  });

  it('records the whole run: start with config, probes every day, attempts, mastery, end reason', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const ev = res.events;
    expect(ev[0]!.type).toBe('run_start');
    expect(ev[ev.length - 1]).toMatchObject({ type: 'run_end', reason: 'horizon_reached', days: 3 });
    expect(eventsOf(ev, 'probe').map((p) => p.day)).toEqual([0, 1, 2, 3]);
    expect(eventsOf(ev, 'attempt').length).toBeGreaterThan(5);
    expect(eventsOf(ev, 'mastery').length).toBeGreaterThan(5);
    // The belief: over the course's skills right after each worked-out answer, over all skills just before each end_of_day.
    const start = ev[0]!;
    if (start.type !== 'run_start') throw new Error('no run_start');
    for (const m of eventsOf(ev, 'mastery')) {
      const prev = ev[m.seq - 1]!;
      const next = ev[m.seq + 1]!;
      if (prev.type === 'attempt' && prev.evidence) expect([m.scope, m.skills]).toEqual(['course', start.scenario.course.skills]);
      else expect([next.type === 'lms_event' && next.kind, m.scope, m.skills.length]).toEqual(['end_of_day', 'all', start.tracer.nSkills]);
    }
    expect(eventsOf(ev, 'wake').length).toBe(eventsOf(ev, 'turn_end').length);
    ev.forEach((e, i) => expect(e.seq).toBe(i));
    for (let i = 1; i < ev.length; i++) expect(ev[i]!.t).toBeGreaterThanOrEqual(ev[i - 1]!.t);
  });

  it('probes do not change the tracer history; a copied answer is graded right and enters the history as not solved', async () => {
    const res = await runWith(miniScenario(), 'answer-giver');
    const attempts = eventsOf(res.events, 'attempt');
    const copied = attempts.filter((a) => a.source === 'disclosed');
    expect(copied.length).toBeGreaterThan(0);
    for (const a of copied) {
      expect(a).toMatchObject({ correct: true, evidence: true });
      // The belief after the copy: the tracer read a failure on the skill (BKT: P(know) falls or stays at its floor).
      const next = res.events[a.seq + 1]!;
      expect(next.type).toBe('mastery');
      const before = [...res.events.slice(0, a.seq)].reverse().find((e) => e.type === 'mastery');
      const at = (m: TraceEvent) => (m.type === 'mastery' ? m.values[m.skills.indexOf(a.skill)]! : NaN);
      if (before) expect(at(next)).toBeLessThanOrEqual(at(before) + 1e-9);
    }
    for (const a of attempts.filter((x) => x.source === 'own')) expect(a.evidence).toBe(true);
  });

  it('returns malformed and illegal tool calls to the tutor as errors, traces them, and keeps running', async () => {
    const seen: unknown[] = [];
    const clumsy: Tutor = {
      async onWake(ctx) {
        seen.push(ctx.tools.call('assign_items', { item_ids: 'not-a-list' }));
        seen.push(ctx.tools.call('teleport', {}));
        ctx.tools.call('send_message', { text: 'hello' });
        seen.push(ctx.tools.call('stay_silent', {}));
      },
    };
    const res = await runWith(miniScenario(), clumsy);
    expect(res.reason).toBe('horizon_reached');
    expect(seen.slice(0, 3)).toEqual([
      { ok: false, error: { code: 'INVALID_ARGS', message: expect.stringContaining('item_ids') } },
      { ok: false, error: { code: 'UNKNOWN_TOOL', message: expect.stringContaining('teleport') } },
      { ok: false, error: { code: 'ILLEGAL', message: expect.stringContaining('stay_silent') } },
    ]);
    const calls = eventsOf(res.events, 'tool_call');
    expect(calls.some((c) => c.tool === 'teleport' && !c.result.ok)).toBe(true);
    expect(scoreTrace(res.events).details.toolErrors).toBeGreaterThan(0);
  });

  it('stops cleanly with tutor_error when a tutor throws, keeping everything recorded', async () => {
    let n = 0;
    const flaky: Tutor = {
      async onWake(ctx) {
        if (++n === 5) throw new Error('boom');
        ctx.tools.call('stay_silent', {});
      },
    };
    const res = await runWith(miniScenario(), flaky);
    expect(res.reason).toBe('tutor_error');
    const end = res.events[res.events.length - 1]!;
    expect(end).toMatchObject({ type: 'run_end', reason: 'tutor_error', message: 'boom' });
    expect(eventsOf(res.events, 'error')[0]).toMatchObject({ code: 'TUTOR_ERROR', message: 'boom' });
    expect(eventsOf(res.events, 'turn_end')).toHaveLength(4);
  });

  it('ends with tracer_error when the knowledge tracer fails', async () => {
    const real = await loadBktTracer();
    let calls = 0;
    const failing: KnowledgeTracer = { info: real.info, predict: (h, q) => (++calls > 20 ? Promise.reject(new Error('model file missing')) : real.predict(h, q)) };
    const res = await runWith(miniScenario(), 'planner', { env: { tracer: async () => failing } });
    expect(res.reason).toBe('tracer_error');
    expect(res.events[res.events.length - 1]).toMatchObject({ type: 'run_end', reason: 'tracer_error', message: expect.stringContaining('model file missing') });
  });

  it('can be cancelled', async () => {
    const ac = new AbortController();
    const res = await runWith(miniScenario(), 'planner', { signal: ac.signal, onEvent: (e) => e.type === 'attempt' && ac.abort() });
    expect(res.reason).toBe('aborted');
  });

  it('reference tutors separate on the deterministic axes (default scenario, seeds 1-3)', async () => {
    const s = defaultScenario();
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const rows: Record<string, ReturnType<typeof scoreTrace>[]> = {};
    for (const t of ['answer-giver', 'withholder', 'planner']) {
      rows[t] = [];
      for (const seed of [1, 2, 3]) rows[t]!.push(scoreTrace((await runWith(s, t, { seed })).events));
    }
    const ag = rows['answer-giver']!, wh = rows['withholder']!, pl = rows['planner']!;
    expect(mean(ag.map((r) => r.leakage!))).toBeGreaterThan(0.5);
    expect(mean(ag.map((r) => r.responsiveness!))).toBeGreaterThan(0.95);
    for (const r of wh) expect(r.leakage).toBe(0);
    for (let i = 0; i < 3; i++) expect(pl[i]!.learningGain!).toBeGreaterThan(ag[i]!.learningGain!);
    expect(mean(wh.map((r) => r.independence!))).toBeGreaterThan(mean(ag.map((r) => r.independence!)));
  });
});
