/** Sweep summaries: value added over the sweep's own no-tutor control (attachControls in summary.ts). */
import { describe, expect, it } from 'vitest';
import { attachControls, summarizeSweep, type RunSummary } from './summary';

const run = (tutor: string, seed: number, gain: number | null, p: Partial<RunSummary> = {}): RunSummary =>
  ({
    runId: `S__${tutor}__s${seed}`, scenarioId: 'S', source: 's.yaml', persona: 'p', schedule: 's', ability: 'average', tracer: 'akt', tutor, seed, endReason: 'horizon_reached', events: 1,
    axes: { learningGain: gain, valueAdded: tutor === 'silent' && gain !== null ? 0 : null, responsiveness: null, leakage: null, independence: null, extraction: null },
    actions: { send_message: 0, stay_silent: 0, assign_items: 0, adjust_level: 0, provide_content: 0 },
    activity: {} as RunSummary['activity'],
    ...p,
  }) as RunSummary;

describe('value added in sweep summaries', () => {
  it('pairs each run with the silent run of the same scenario, seed, learner model, ability and voice', () => {
    const out = attachControls([
      run('planner', 1, 0.004),
      run('silent', 1, 0.003),
      run('planner', 2, 0.004), // no control for seed 2
      run('planner', 1, 0.006, { runId: 'S__planner__s1__voice-m' }), // another voice: not this control
      run('planner', 3, 0.004, { endReason: 'aborted' }),
      run('silent', 3, 0.001),
    ]);
    expect(out.map((r) => r.axes.valueAdded)).toEqual([expect.closeTo(0.001, 12), 0, null, null, null, 0]);
  });
  it('the summary aggregates value added over seeds like any sweep axis', () => {
    const s = summarizeSweep([run('planner', 1, 0.004), run('silent', 1, 0.003), run('planner', 2, 0.005), run('silent', 2, 0.002)]);
    const planner = s.byTutor!.find((t) => t.tutor === 'planner')!;
    expect(planner.overall.valueAdded.mean).toBeCloseTo(0.002, 12);
    expect(planner.overall.valueAdded.n).toBe(2);
  });
});
