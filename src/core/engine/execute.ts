/**
 * The one way to build and run a run: `executeRun(record, env)`. The record (engine/record.ts) says
 * what to run; the environment says how to get what a run needs (the knowledge tracer by name, the
 * persona seeds, model clients by provider and model). Every caller goes through here: the Lab and
 * the Sweep view, `cli run` and `cli sweep`, the sweep workers, the report scripts, the tests.
 *
 *   const res = await executeRun(runRecord({ scenario, tutor: { name: 'planner', config: {} }, seed: 1 }), env, { onEvent });
 *
 * With `resume` (the events stored so far), the run is rebuilt from the record, replays the stored
 * events (checked one by one; recorded model replies are reused, never asked again) and continues
 * live: the resumed trace equals the trace of an uninterrupted run.
 *
 * A tutor played by a person (needs "human") is not driven here: `openRun` gives its session, and
 * the caller holds its turns (`replayRecordedTurns` first, when resuming).
 */
import { Rng } from '../rng';
import type { LlmClient, ModelRole } from '../llm/types';
import { SimError } from '../errors';
import { TUTORS } from '../registry';
import { TraceRecorder } from '../trace/recorder';
import type { TraceEvent } from '../trace/types';
import type { Tutor, TutorEntry } from '../tutors/types';
import type { KnowledgeTracer } from '../learner/kt/types';
import type { PersonaSeedFile } from '../learner/seeds';
import { LlmVoice } from '../learner/llm-voice';
import { LlmStudent } from '../learner/student-attempts';
import { SimulatedLearner, type SimulatedLearnerOptions } from '../learner/simulated';
import type { LearnerAgent } from '../learner/port';
import { effectiveScenario, runIdFor, tutorRunName, voiceRunName, type RunRecord } from './record';
import { Session, type RunResult } from './session';
import { ReplayLlm, resumePoint } from './replay';
import { ReplayHttp } from '../tutors/external/http';
import type { HttpTransport } from '../tutors/external/transport';

/** A model a run needs: which provider and model, for which role. */
export interface LlmRef {
  provider: string;
  model: string;
  role: Exclude<ModelRole, 'judge'>;
}

/** What a run needs from where it runs (page, CLI, worker, test). */
export interface RunEnv {
  /** The knowledge tracer by name ("akt", "bkt"); an unknown name is an error, never a substitute. */
  tracer(name: string): Promise<KnowledgeTracer>;
  personaSeeds(): Promise<PersonaSeedFile>;
  /** A model client (keys stay inside it). Needed only by LLM tutors and the LLM voice. */
  llm?(ref: LlmRef): LlmClient;
  /** Tutor registry (default: the built-in TUTORS). */
  tutors?: ReadonlyMap<string, TutorEntry>;
  /** The HTTP transport to external agents (tutors that need "http"; docs/bring-your-own-tutor.md). */
  http?: HttpTransport;
  /**
   * The learner agent (default: the simulated learner). An environment where a real student
   * works (a classroom) supplies the agent that carries that student's actions into the session.
   */
  learner?: (o: SimulatedLearnerOptions) => LearnerAgent;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Every event as it is recorded; `replayed` marks the stored events a resumed run replays. */
  onEvent?: (e: TraceEvent, replayed: boolean) => void;
  /** The events stored so far: resume the run (see resumePoint for what is replayed). */
  resume?: readonly TraceEvent[];
}

export interface OpenRun {
  session: Session;
  entry: TutorEntry;
  /** The automated tutor, or null for a tutor played by a person. */
  tutor: Tutor | null;
  /** A resumed run: the stored events it replays (the rest is live). */
  replay: readonly TraceEvent[] | null;
}

export function tutorEntryIn(tutors: ReadonlyMap<string, TutorEntry>, name: string): TutorEntry {
  const t = tutors.get(name);
  if (!t) throw new SimError('UNKNOWN_TUTOR', `unknown tutor "${name}" (available: ${[...tutors.keys()].join(', ')})`);
  return t;
}

/** Builds the session (and the tutor, when it is automated) for a run record. Nothing runs yet. */
export async function openRun(record: RunRecord, env: RunEnv, opts: RunOptions = {}): Promise<OpenRun> {
  const scenario = effectiveScenario(record);
  const tutors = env.tutors ?? TUTORS;
  const entry = tutorEntryIn(tutors, record.tutor.name);
  const config = entry.parseConfig(record.tutor.config);
  const replay = opts.resume ? resumePoint(opts.resume) : null;
  const llm = (ref: LlmRef): LlmClient => {
    if (!env.llm) throw new SimError('RUN_INVALID', `this run needs a model (${ref.role}: ${ref.provider}/${ref.model}) but no model clients are configured here`);
    const live = env.llm(ref);
    if (live.provider !== ref.provider || live.model !== ref.model) throw new SimError('RUN_INVALID', `the run names ${ref.provider}/${ref.model} for the ${ref.role} but the environment gave ${live.provider}/${live.model}`);
    return replay ? new ReplayLlm(live, replay, ref.role) : live;
  };
  // A resumed run keeps the run id its trace has: traces of LLM tutors written before run ids held
  // harness and model ("…__llm__s1") resume as they are (everything else in run_start is checked).
  const first = replay?.[0];
  const runId = first?.type === 'run_start' ? first.runId : runIdFor(scenario.id, tutorRunName({ name: entry.name, config }, tutors), scenario.seed, voiceRunName(record.voice), record.participant ?? null);
  const http = (): HttpTransport => {
    if (!env.http) throw new SimError('RUN_INVALID', `tutor ${entry.name} talks to an agent over HTTP, but this environment has no HTTP transport`);
    return replay ? new ReplayHttp(env.http, replay) : env.http;
  };
  let tutor: Tutor | null = null;
  if (!entry.needs.includes('human')) {
    const model = entry.model?.(config) ?? null;
    tutor = entry.create({ config, runId, ...(model ? { llm: llm({ ...model, role: 'tutor' }) } : {}), ...(entry.needs.includes('http') ? { http: http() } : {}) });
  }
  // One client for the student role: the voice's replies and (coupling "student-attempts") the
  // attempts share it, so a resumed run answers their recorded calls from one queue, in order.
  const studentLlm = record.voice.kind === 'llm' ? llm({ provider: record.voice.provider, model: record.voice.model, role: 'student' }) : null;
  const voice = studentLlm ? new LlmVoice(studentLlm, { learnerName: scenario.learner.name }) : undefined;
  const studentAttempts = scenario.learner.coupling === 'student-attempts';
  if (studentAttempts && !studentLlm) throw new SimError('RUN_INVALID', `scenario ${scenario.id}: learner.coupling "student-attempts" needs an LLM student voice (the LLM student writes the attempts): choose one (--voice llm --voice-model <model>), or the coupling "tracer-decides"`);
  const attempts = studentAttempts && studentLlm ? new LlmStudent(studentLlm) : undefined;
  const tracer = await env.tracer(scenario.learner.tracer);
  if (scenario.learner.tracer !== tracer.info.name) {
    // Never a silent substitute: the tracer that runs must be the one the scenario names.
    throw new SimError('UNKNOWN_TRACER', `scenario ${scenario.id} asks for tracer "${scenario.learner.tracer}" but "${tracer.info.name}" was given`);
  }
  const root = new Rng(scenario.seed);
  const recorder = new TraceRecorder(replay ? { replay } : {});
  if (opts.onEvent) {
    const on = opts.onEvent;
    const n = replay?.length ?? 0;
    recorder.subscribe((e) => on(e, e.seq < n));
  }
  const learnerOpts: SimulatedLearnerOptions = { scenario, tracer, seeds: await env.personaSeeds(), root, ...(voice ? { voice } : {}), ...(attempts ? { attempts } : {}) };
  const learner = env.learner ? env.learner(learnerOpts) : new SimulatedLearner(learnerOpts);
  const session = new Session({
    runId,
    scenario,
    recorder,
    bankRng: root.fork('bank'),
    learner,
    tutor: { name: entry.name, config },
    tutorRng: root.fork('tutor'),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(entry.needs.includes('oracle') ? { oracle: true } : {}),
  });
  return { session, entry, tutor, replay };
}

/** A run's result, with what its tutor could not be told at the end (an external agent that missed the run_end notice). */
export type DrivenResult = RunResult & { notices?: string[] };

/** Drives an automated tutor through a session: advance, let the tutor act, end the turn, until the run ends; then tells the tutor the run ended (not traced). */
export async function driveTutor(session: Session, tutor: Tutor): Promise<DrivenResult> {
  for (let turn = await session.advance(); turn; turn = await session.advance()) {
    try {
      await tutor.onWake(turn);
      turn.end();
    } catch (e) {
      turn.fail(e);
    }
  }
  const res = session.result();
  if (!tutor.onRunEnd || res.stoppedInReplay) return res;
  let problem: string | null;
  try {
    problem = await tutor.onRunEnd({ runId: res.runId, reason: res.reason, message: res.message, events: res.events });
  } catch (e) {
    problem = e instanceof Error ? e.message : String(e);
  }
  return problem ? { ...res, notices: [problem] } : res;
}

/** Builds and runs (or resumes) a run with an automated tutor, to its end. */
export async function executeRun(record: RunRecord, env: RunEnv, opts: RunOptions = {}): Promise<DrivenResult> {
  const run = await openRun(record, env, opts);
  if (!run.tutor) throw new SimError('TUTOR_NOT_AUTOMATED', `tutor "${run.entry.name}" is played by a person: open the run with openRun and hold its turns`);
  return driveTutor(run.session, run.tutor);
}
