/** The Benchmark form includes the no-tutor control by default, once, on the same students as the tutors. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { BenchmarkState } from './benchmark.svelte';
import { RunLibrary } from './library.svelte';
import { RunStore } from '../../adapters/browser/run-store';
import { bktPool, leases } from '../../testing/page-library';

const blank = () => new BenchmarkState(new RunLibrary({ store: new RunStore(`bench-control-${Math.random()}`), tracers: bktPool(), leases: leases('tab-1') }));
const form = () => {
  const bm = blank();
  bm.tutors = ['withholder'];
  bm.includeBuiltIn = false;
  bm.toggle('adversarial', 'after-school', true);
  bm.toggle('disengaged', 'weekend-warrior', true);
  bm.seedsText = '1,2';
  return bm;
};

describe('the benchmark form and the no-tutor control', () => {
  it("opens on a first benchmark: the reference tutors and the no-tutor control on the built-in student (the Lab's and the demo's), 3 seeds", () => {
    const bm = blank();
    expect(bm.tutorSpecs.map((t) => t.name)).toEqual(['answer-giver', 'withholder', 'planner', 'silent']);
    expect(bm.includeBuiltIn).toBe(true);
    expect(bm.selected).toEqual([]);
    expect(bm.plannedRuns).toBe(12);
    const spec = bm.spec();
    expect(spec.scenarios).toEqual(['default-prealgebra-after-school']);
    expect(spec.seeds).toEqual([1, 2, 3]);
    // With grid scenarios: the built-in one first, then the grid's.
    bm.toggle('gamer', 'homework-only', true);
    expect(bm.scenarioCount).toBe(2);
    expect(bm.spec().scenarios).toEqual(['default-prealgebra-after-school', 'gamer--homework-only']);
    bm.includeBuiltIn = false;
    expect(bm.spec().scenarios).toEqual(['gamer--homework-only']);
    bm.toggle('gamer', 'homework-only', false);
    expect(() => bm.spec()).toThrow(/choose at least one scenario/);
  });

  it('adds the silent tutor on the same scenarios, seeds and voices unless unticked, and never twice', () => {
    const bm = form();
    expect(bm.includeControl).toBe(true);
    expect(bm.tutorSpecs.map((t) => t.name)).toEqual(['withholder', 'silent']);
    expect(bm.plannedRuns).toBe(8);
    expect(bm.controlRuns).toBe(4);
    const spec = bm.spec();
    expect(spec.tutors.map((t) => t.name)).toEqual(['withholder', 'silent']);
    expect(spec.name).toBe('withholder + silent × 2 scenarios × seeds 1,2');

    // Chosen as a tutor too: run once.
    bm.toggleTutor('silent', true);
    expect(bm.tutorSpecs.map((t) => t.name)).toEqual(['withholder', 'silent']);
    expect(bm.plannedRuns).toBe(8);
    expect(bm.addsControl).toBe(false);
    bm.toggleTutor('silent', false);

    // Unticked: the tutors alone, as before.
    bm.includeControl = false;
    expect(bm.tutorSpecs.map((t) => t.name)).toEqual(['withholder']);
    expect(bm.plannedRuns).toBe(4);
    expect(bm.controlRuns).toBe(0);

    // The oracle (the steady-learning reference): off by default, once when ticked.
    expect(bm.includeReference).toBe(false);
    bm.includeReference = true;
    expect(bm.tutorSpecs.map((t) => t.name)).toEqual(['withholder', 'oracle']);
    expect(bm.plannedRuns).toBe(8);
    bm.includeControl = true;
    expect(bm.tutorSpecs.map((t) => t.name)).toEqual(['withholder', 'silent', 'oracle']);
    expect(bm.plannedRuns).toBe(12);
    bm.includeReference = false;

    // No tutor chosen: the control alone is not a benchmark.
    bm.includeControl = true;
    bm.toggleTutor('withholder', false);
    expect(bm.tutorSpecs).toEqual([]);
    expect(() => bm.spec()).toThrow(/choose at least one tutor/);
  });
});
