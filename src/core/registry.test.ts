import { describe, expect, it } from 'vitest';
import { AUTOMATED_TUTORS, CONTROL_TUTOR, DEFAULT_TRACER, REFERENCE_TUTORS, SimError, TRACERS, TRACER_NAMES, isTracerName, loadPersonaSeeds, scenarioJsonSchema, tracerDeclaration, tutorEntry } from './index';

describe('the tracer declarations', () => {
  it('names each tracer once, with a label and a description, and the default among them', () => {
    expect(new Set(TRACER_NAMES).size).toBe(TRACERS.length);
    for (const t of TRACERS) {
      expect(t.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(t.label.length).toBeGreaterThan(0);
      expect(t.description.length).toBeGreaterThan(0);
    }
    expect(isTracerName(DEFAULT_TRACER)).toBe(true);
  });

  it('is what the scenario schema reads: its default, its description, its check', () => {
    const learner = (scenarioJsonSchema() as { properties: { learner: { properties: { tracer: { default: string; description: string } } } } }).properties.learner.properties.tracer;
    expect(learner.default).toBe(DEFAULT_TRACER);
    for (const t of TRACERS) expect(learner.description).toContain(`"${t.name}" (${t.description})`);
  });

  it('gives every declared tracer ability buckets in the persona seeds (a run without them stops)', async () => {
    const seeds = await loadPersonaSeeds();
    for (const t of TRACER_NAMES) expect(Object.keys(seeds.ability), t).toContain(t);
  });

  it('refuses an unknown name with UNKNOWN_TRACER naming the tracers there are', () => {
    expect(isTracerName('dkt')).toBe(false);
    expect(() => tracerDeclaration('dkt')).toThrow(SimError);
    expect(() => tracerDeclaration('dkt')).toThrow(`unknown tracer "dkt" (tracers: ${TRACER_NAMES.join(', ')})`);
    expect(tracerDeclaration('bkt').label).toBe('BKT (ablation)');
  });
});

describe('the reference tutors', () => {
  it('are registered tutors a program can drive, the no-tutor control first and only', () => {
    for (const t of REFERENCE_TUTORS) {
      expect(tutorEntry(t.name).name).toBe(t.name);
      expect(AUTOMATED_TUTORS).toContain(t.name);
    }
    expect(REFERENCE_TUTORS.filter((t) => t.control).map((t) => t.name)).toEqual([CONTROL_TUTOR]);
    expect(REFERENCE_TUTORS[0]!.name).toBe(CONTROL_TUTOR);
    expect(new Set(REFERENCE_TUTORS.map((t) => t.label)).size).toBe(REFERENCE_TUTORS.length);
  });
});
