/** Benchmark specs and plans: several student models, and the coupling and chat-instruction options (recorded in each run's run_start). */
import { describe, expect, it } from 'vitest';
import { benchmarkSpec, effectiveScenario, planBenchmark } from '../index';
import { miniScenario } from '../../testing/fixtures';

const scenarios = new Map([['mini-3day', { scenario: miniScenario(), source: 'scenarios/fixtures/mini-3day.yaml' }]]);
const llm = (model: string) => ({ kind: 'llm' as const, provider: 'p', model });

describe('benchmarks with several student models', () => {
  it('plans every tutor × scenario × voice × seed, with distinct run ids per student model', () => {
    const spec = benchmarkSpec({ name: 'b', tutors: [{ name: 'withholder' }], scenarios: ['mini-3day'], voices: [llm('a'), llm('b'), llm('c')], seeds: [1, 2] });
    const jobs = planBenchmark(spec, scenarios);
    expect(jobs.map((j) => [j.voice, j.runId])).toEqual(
      ['a', 'b', 'c'].flatMap((m) => [1, 2].map((s) => [`llm:p/${m}`, `mini-3day__withholder__s${s}__voice-${m}`])),
    );
    // No coupling given: each scenario's own (absent: tracer-decides), and nothing added to the scenario.
    expect(jobs.every((j) => effectiveScenario(j.record).learner.coupling === undefined)).toBe(true);
  });

  it('coupling and chat instruction apply to every run; student-attempts with the template voice is refused', () => {
    const spec = benchmarkSpec({ name: 'b', tutors: [{ name: 'withholder' }], scenarios: ['mini-3day'], voices: [llm('a'), llm('b')], seeds: [1], coupling: 'student-attempts', chatInstruction: true });
    const jobs = planBenchmark(spec, scenarios);
    expect(jobs.map((j) => [effectiveScenario(j.record).learner.coupling, effectiveScenario(j.record).learner.chatInstruction])).toEqual([
      ['student-attempts', true],
      ['student-attempts', true],
    ]);
    expect(() => benchmarkSpec({ name: 'b', tutors: [{ name: 'withholder' }], scenarios: ['mini-3day'], voices: [{ kind: 'templates' }, llm('a')], seeds: [1], coupling: 'student-attempts' })).toThrow(/voices: coupling "student-attempts" needs LLM student voices only/);
  });
});
