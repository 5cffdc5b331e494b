/**
 * The run record: a run described as data. Everything needed to build and execute a run is here
 * except the environment's dependencies (tracer factory, persona seeds, LLM clients, storage),
 * which `executeRun` takes separately (engine/execute.ts). Every caller (the Lab, the Sweep view,
 * the CLI, sweep workers, reports, tests) builds one of these and hands it to `executeRun`.
 *
 * A record never holds a key: an LLM part names its provider and model, and the environment
 * turns that into a client.
 */
import { z } from 'zod';
import { COUPLING_MODES, ScenarioSchema, WAKE_EVENTS, type Scenario } from '../scenario/schema';
import type { RunStartEvent, TraceEvent } from '../trace/types';
import { SimError } from '../errors';
import { TUTORS } from '../registry';
import type { TutorEntry } from '../tutors/types';

export const ABILITY_LEVELS = ['low', 'average', 'high'] as const;

/** How the learner's free-text replies are written: fixed templates, or an LLM role-playing the persona. */
export const VoiceSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('templates') }).strict(),
  z.object({ kind: z.literal('llm'), provider: z.string().min(1), model: z.string().min(1) }).strict(),
]);
export type VoiceSpec = z.infer<typeof VoiceSpecSchema>;

export const RunRecordSchema = z
  .object({
    /** The scenario as parsed (overrides below are applied on top of it). */
    scenario: ScenarioSchema,
    /** Where the scenario came from (a file path, "built-in", a library id), for reports. */
    source: z.string().default('built-in'),
    /** Registered tutor name and its config (validated by the tutor entry's own schema). */
    tutor: z.object({ name: z.string().min(1), config: z.record(z.string(), z.unknown()).default({}) }).strict(),
    /** Overrides the scenario's learner model ("akt", "bkt"). */
    tracer: z.string().min(1).optional(),
    /** Overrides the scenario's ability level. */
    ability: z.enum(ABILITY_LEVELS).optional(),
    /** Overrides the scenario's seed. */
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
    /** Overrides the scenario's horizon (probe days past it are dropped). */
    horizonDays: z.number().int().min(1).max(60).optional(),
    /** Overrides the events that wake the tutor (the Play view's wake rule; docs/play.md). */
    wakeOn: z.array(z.enum(WAKE_EVENTS)).min(1).optional(),
    voice: VoiceSpecSchema.default({ kind: 'templates' }),
    /**
     * Overrides the scenario's coupling (learner.coupling): who decides a graded attempt. Recorded
     * in run_start's scenario only when it differs from the scenario's (absent = tracer-decides).
     */
    coupling: z.enum(COUPLING_MODES).optional(),
    /** Overrides the scenario's opt-in chat-instruction rule (learner.chatInstruction; absent = off). */
    chatInstruction: z.boolean().optional(),
    /**
     * A field run's participant (a real student's anonymous code, docs/classroom.md): it ends the run
     * id ("…__p-<code>"), so that every participant of a study has a run id of their own.
     */
    participant: z.string().regex(/^[A-Z0-9]{4,12}$/, 'a participant code: 4 to 12 capital letters and digits').optional(),
  })
  .strict();
export type RunRecord = z.infer<typeof RunRecordSchema>;
export type RunRecordInput = z.input<typeof RunRecordSchema>;

/** Validates a run record (from a form, a file, a queue job); errors name the field. */
export function runRecord(input: unknown): RunRecord {
  const r = RunRecordSchema.safeParse(input);
  if (!r.success) throw new SimError('RUN_INVALID', `run record: ${r.error.issues.map((i) => `${i.path.join('.') || 'record'}: ${i.message}`).join('; ')}`);
  return r.data;
}

/**
 * A run id: "<scenario>__<tutor>__s<seed>", where `tutor` is the tutor's run name (tutorRunName),
 * and for an LLM student voice "__<voice>" after it (voiceRunName), so that the runs of several
 * student models of one benchmark get different run ids and trace files. The template voice adds
 * nothing: built-in tutors' run ids (and the pinned traces) never change. A field run (a real
 * student) ends it with "__p-<participant code>": one run id per participant of a study.
 */
export function runIdFor(scenarioId: string, tutor: string, seed: number, voice: string | null = null, participant: string | null = null): string {
  return `${scenarioId}__${tutor}__s${seed}${voice ? `__${voice}` : ''}${participant ? `__p-${participant}` : ''}`;
}

/** The voice's part of a run id: null for the templates; "voice-<model>" for an LLM voice, the model made file-name safe as in LLM tutor labels (the provider is not in it). */
export function voiceRunName(voice: VoiceSpec): string | null {
  if (voice.kind !== 'llm') return null;
  const model = voice.model.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'model';
  return `voice-${model}`;
}

/**
 * The tutor's part of a run id: its registry name ("planner"), or, for a tutor whose entry has a
 * `runLabel` (the LLM tutor), the label of its config ("llm-reactive-gpt-4.1-mini"), so that two
 * LLM tutors of one sweep (other model or harness) get different run ids and trace files. A name
 * the registry does not know is used as it is.
 */
export function tutorRunName(tutor: { name: string; config?: Record<string, unknown> }, tutors: ReadonlyMap<string, TutorEntry> = TUTORS): string {
  const e = tutors.get(tutor.name);
  return e?.runLabel ? e.runLabel(e.parseConfig(tutor.config ?? {})) : tutor.name;
}

/** The scenario the run actually uses (the one its run_start records): the record's overrides applied. */
export function effectiveScenario(rec: RunRecord): Scenario {
  const s = rec.scenario;
  // A coupling or chat-instruction override equal to what the scenario already means (absent =
  // tracer-decides, off) leaves the scenario as it is, so run_start keeps today's bytes.
  const coupling = rec.coupling !== undefined && rec.coupling !== (s.learner.coupling ?? 'tracer-decides') ? rec.coupling : undefined;
  const chat = rec.chatInstruction !== undefined && rec.chatInstruction !== (s.learner.chatInstruction ?? false) ? rec.chatInstruction : undefined;
  const over = rec.tracer !== undefined || rec.ability !== undefined || rec.seed !== undefined || rec.horizonDays !== undefined || rec.wakeOn !== undefined || coupling !== undefined || chat !== undefined;
  if (!over) return s;
  const out: Scenario = { ...s, learner: { ...s.learner } };
  if (rec.tracer !== undefined) out.learner.tracer = rec.tracer;
  if (coupling !== undefined || chat !== undefined) {
    // In the schema's key order (as a trace's run_start parses back: resume compares JSON text).
    const l = out.learner;
    const c = coupling ?? l.coupling;
    const ci = chat ?? l.chatInstruction;
    out.learner = { name: l.name, ability: l.ability, tracer: l.tracer, ...(c !== undefined ? { coupling: c } : {}), ...(ci !== undefined ? { chatInstruction: ci } : {}), persona: l.persona };
  }
  if (rec.ability !== undefined) out.learner.ability = rec.ability;
  if (rec.seed !== undefined) out.seed = rec.seed;
  if (rec.horizonDays !== undefined) {
    const h = rec.horizonDays;
    out.horizonDays = h;
    if (Array.isArray(s.probes.days)) out.probes = { ...s.probes, days: s.probes.days.filter((d) => d <= h) };
  }
  if (rec.wakeOn !== undefined) out.tutor = { ...s.tutor, wakeOn: WAKE_EVENTS.filter((w) => rec.wakeOn!.includes(w)) };
  return out;
}

/** The run id a record's run records in its run_start (executeRun computes it the same way). */
export const runIdOf = (rec: RunRecord, tutors: ReadonlyMap<string, TutorEntry> = TUTORS): string => {
  const s = effectiveScenario(rec);
  return runIdFor(s.id, tutorRunName(rec.tutor, tutors), s.seed, voiceRunName(rec.voice), rec.participant ?? null);
};

/**
 * The record a trace was made from, read back from its run_start (the scenario there is the
 * effective one, so no overrides are needed). The voice is recorded as "llm:<provider>/<model>";
 * provider names never contain "/" (the provider settings refuse them).
 */
export function recordFromTrace(events: readonly TraceEvent[], source = 'trace'): RunRecord {
  const start = events[0] as RunStartEvent | undefined;
  if (!start || start.type !== 'run_start') throw new SimError('TRACE_INVALID', `${source}: a trace starts with run_start`);
  let voice: VoiceSpec = { kind: 'templates' };
  if (start.voice !== undefined) {
    const m = /^llm:([^/]+)\/(.+)$/.exec(start.voice);
    if (!m) throw new SimError('TRACE_INVALID', `${source}: run_start.voice "${start.voice}" is not "llm:<provider>/<model>"`);
    voice = { kind: 'llm', provider: m[1]!, model: m[2]! };
  }
  const learner = start.learner as { kind?: unknown; participant?: unknown };
  // A field trace's participant ends its run id only when it was recorded so (exports made before that keep theirs).
  const participant = learner.kind === 'real' && typeof learner.participant === 'string' && start.runId.endsWith(`__p-${learner.participant}`) ? learner.participant : undefined;
  return runRecord({ scenario: start.scenario, source, tutor: { name: start.tutor.name, config: start.tutor.config ?? {} }, voice, ...(participant ? { participant } : {}) });
}
