/**
 * Benchmarks: tutors × scenarios × student voices × seeds, described as data (a BenchmarkSpec)
 * and planned into run records. The page stores a benchmark as a named object with its jobs
 * (adapters/browser/run-store.ts) and runs them through the run library; the CLI's sweep runs the
 * same records. What a benchmark's results are: src/core/analysis (docs/analyses.md).
 */
import { z } from 'zod';
import type { Scenario } from '../scenario/schema';
import { COUPLING_MODES } from '../scenario/schema';
import { ABILITY_LEVELS, VoiceSpecSchema, runIdOf, runRecord, type RunRecord } from '../engine/record';
import { TUTORS } from '../registry';
import { tutorLabel } from '../trace/tutor-label';
import { SimError } from '../errors';

export const BenchmarkSpecSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    /** Tutors with their configs (an LLM tutor per model × harness). */
    tutors: z.array(z.object({ name: z.string().min(1), config: z.record(z.string(), z.unknown()).default({}) }).strict()).min(1).max(50),
    /** Scenario ids, in the order runs are planned (the scenarios themselves come with the plan). */
    scenarios: z.array(z.string().min(1)).min(1).max(500),
    voices: z.array(VoiceSpecSchema).min(1).max(10).default([{ kind: 'templates' }]),
    seeds: z.array(z.number().int().min(0).max(2 ** 32 - 1)).min(1).max(1000),
    tracer: z.string().min(1).optional(),
    ability: z.enum(ABILITY_LEVELS).optional(),
    horizonDays: z.number().int().min(1).max(60).optional(),
    /** Who decides a graded attempt in every run (learner.coupling; docs/learning-model.md, "Coupling"); absent: each scenario's. */
    coupling: z.enum(COUPLING_MODES).optional(),
    /** The opt-in chat-instruction rule in every run (learner.chatInstruction); absent: each scenario's. */
    chatInstruction: z.boolean().optional(),
  })
  .strict()
  .refine((s) => s.coupling !== 'student-attempts' || s.voices.every((v) => v.kind === 'llm'), { message: 'coupling "student-attempts" needs LLM student voices only (the LLM student writes the attempts): remove the template voice', path: ['voices'] });
export type BenchmarkSpec = z.infer<typeof BenchmarkSpecSchema>;
export type BenchmarkSpecInput = z.input<typeof BenchmarkSpecSchema>;

export interface BenchmarkJob {
  /** Position in the benchmark (tutor-major, then scenario, voice, seed). */
  index: number;
  runId: string;
  record: RunRecord;
  /** Who/what this job is, for tables: the tutor label, the voice. */
  tutor: string;
  voice: string;
}

export function benchmarkSpec(input: unknown): BenchmarkSpec {
  const r = BenchmarkSpecSchema.safeParse(input);
  if (!r.success) throw new SimError('RUN_INVALID', `benchmark: ${r.error.issues.map((i) => `${i.path.join('.') || 'spec'}: ${i.message}`).join('; ')}`);
  return r.data;
}

export const voiceLabel = (v: RunRecord['voice']): string => (v.kind === 'templates' ? 'templates' : `llm:${v.provider}/${v.model}`);

/**
 * Every tutor × scenario × voice × seed as a run record. Each tutor's config is checked by its
 * registry entry; `scenarios` must hold every id the spec names (with where it came from).
 */
export function planBenchmark(spec: BenchmarkSpec, scenarios: ReadonlyMap<string, { scenario: Scenario; source: string }>): BenchmarkJob[] {
  const jobs: BenchmarkJob[] = [];
  for (const t of spec.tutors) {
    const entry = TUTORS.get(t.name);
    if (!entry) throw new SimError('UNKNOWN_TUTOR', `benchmark: unknown tutor "${t.name}"`);
    if (entry.needs.includes('human')) throw new SimError('RUN_INVALID', `benchmark: the ${t.name} tutor is played by a person, not run in a benchmark`);
    const config = entry.parseConfig(t.config);
    for (const id of spec.scenarios) {
      const s = scenarios.get(id);
      if (!s) throw new SimError('RUN_INVALID', `benchmark: scenario "${id}" was not loaded`);
      for (const voice of spec.voices) {
        for (const seed of spec.seeds) {
          const record = runRecord({
            scenario: s.scenario,
            source: s.source,
            tutor: { name: t.name, config },
            voice,
            seed,
            ...(spec.tracer ? { tracer: spec.tracer } : {}),
            ...(spec.ability ? { ability: spec.ability } : {}),
            ...(spec.horizonDays ? { horizonDays: spec.horizonDays } : {}),
            ...(spec.coupling ? { coupling: spec.coupling } : {}),
            ...(spec.chatInstruction !== undefined ? { chatInstruction: spec.chatInstruction } : {}),
          });
          jobs.push({ index: jobs.length, runId: runIdOf(record), record, tutor: tutorLabel({ name: t.name, config }), voice: voiceLabel(voice) });
        }
      }
    }
  }
  return jobs;
}

/** A job needs a model (an LLM tutor or the LLM voice) or an external agent (the http tutor): it waits on the network, not the CPU. */
export const needsModel = (record: RunRecord): boolean => record.voice.kind === 'llm' || (TUTORS.get(record.tutor.name)?.needs.some((n) => n === 'llm' || n === 'http') ?? false);
