/**
 * A tutor "played by a person" for engine tests: a registry entry that needs "human" (so openRun
 * hands its turns to the test), the same policy as an automated Tutor (so a hand-driven run can be
 * compared with executeRun byte for byte), and a hand driver that holds each turn across awaits
 * the way a person at a form would. Never imported by app code.
 */
import { z } from 'zod';
import { SimError, TUTORS, runRecord, type RunEnv, type RunRecord, type Scenario, type Session, type ToolResult, type Turn, type Tutor, type TutorEntry, type Wake } from '../core/index';
import { bktEnv, customEntry, miniScenario, onBkt } from './fixtures';

export const PERSON = 'person';
/** The per-turn call limit of the person scenario (small, so TURN_LIMIT turns stay short). */
export const PERSON_LIMIT = 6;

/** The registry entry of a person: needs "human", so openRun gives `tutor: null`. */
export const personEntry: TutorEntry = {
  name: PERSON,
  description: 'a tutor played by a person (a test)',
  needs: ['human'],
  configSchema: z.object({}),
  parseConfig: () => ({}),
  create: () => {
    throw new SimError('INTERNAL', 'a person is never created');
  },
};

/** One tool call of the policy: the name and the arguments, answered with the result. */
export type Step = [name: string, args: unknown];

const pick = <T>(r: ToolResult): T => {
  if (!r.ok) throw new Error(`the policy expected success: ${r.error.code} ${r.error.message}`);
  return r.value as T;
};

/**
 * A fixed policy that uses every tool (five reads, three writes, send_message, stay_silent) and
 * makes illegal, over-limit, malformed and unknown calls on purpose. A generator so the same
 * decisions can be made synchronously (an automated tutor) or across awaits (a person).
 */
export function* personPolicy(wake: Wake): Generator<Step, void, ToolResult> {
  const p = wake.payload;
  if (wake.turn % 7 === 3) {
    // Over the limit: PERSON_LIMIT calls pass, the next ones answer TURN_LIMIT.
    for (let i = 0; i < PERSON_LIMIT + 2; i++) yield ['get_messages', { last_n: 1 + i }];
    return;
  }
  switch (wake.reason) {
    case 'login': {
      yield ['get_learner_profile', {}];
      yield ['get_messages', { last_n: 5 }];
      yield ['send_message', { text: `Welcome back (turn ${wake.turn}). What will you try first?` }];
      return;
    }
    case 'help_request': {
      const item = typeof p.item_id === 'string' ? p.item_id : null;
      if (item) {
        const view = pick<{ skill_id: number; hints: string[] }>(yield ['get_course_map', { item_id: item }]);
        yield ['provide_content', { skill_id: view.skill_id, kind: 'hint', title: 'A hint', body: view.hints[0] ?? 'Look at the first step.', item_id: item }];
      }
      yield ['send_message', { text: 'What is the first step?' }];
      // After an action: ILLEGAL.
      yield ['stay_silent', { reason: 'changed my mind' }];
      return;
    }
    case 'submission_graded': {
      yield ['get_gradebook', { last_n: 3 }];
      const item = String(p.item_id ?? '');
      const view = pick<{ skill_id: number; level: number }>(yield ['get_course_map', { item_id: item }]);
      if (p.correct) {
        yield ['stay_silent', { reason: 'correct' }];
        // After a successful stay_silent: ILLEGAL.
        yield ['send_message', { text: 'well done' }];
      } else yield ['adjust_level', { skill_id: view.skill_id, level: 1, reason: 'a wrong answer' }];
      return;
    }
    case 'end_of_day': {
      yield ['get_assignments', { status: 'all' }];
      // Malformed: INVALID_ARGS.
      yield ['assign_items', { item_ids: 'not-a-list' }];
      const map = pick<{ skills: { skill_id: number }[] }>(yield ['get_course_map', {}]);
      yield ['assign_items', { skill_id: map.skills[wake.day % map.skills.length]!.skill_id, count: 2, due_in_days: 1, note: `day ${wake.day}` }];
      yield ['adjust_level', { skill_id: map.skills[0]!.skill_id, level: 2 }];
      return;
    }
    case 'assignment_due':
    case 'learner_message': {
      if (wake.reason === 'learner_message' && wake.turn % 2 === 1) {
        yield ['stay_silent', { reason: 'let them think' }];
        return;
      }
      // Arguments as a model might write them: text that is not JSON is INVALID_ARGS.
      yield ['send_message', '{"text": "unterminated'];
      yield ['teleport', {}];
      yield ['send_message', { text: wake.reason === 'assignment_due' ? `Assignment ${String(p.assignment_id)} is due soon.` : 'Tell me more.' }];
      return;
    }
    default:
      yield ['stay_silent', { reason: `nothing to do on ${wake.reason}` }];
  }
}

/** The policy as an automated tutor. */
export const scriptedPerson: Tutor = {
  async onWake(ctx) {
    const g = personPolicy(ctx.wake);
    for (let s = g.next(); !s.done; ) s = g.next(ctx.tools.call(s.value[0], s.value[1]));
  },
};

/** How a person's pauses are simulated: a macrotask (timers and I/O may run in between) or a microtask (fast). */
export type Pace = 'macrotask' | 'microtask';
const pause = (pace: Pace) => (pace === 'macrotask' ? new Promise<void>((r) => setTimeout(r, 0)) : Promise.resolve());

/** The tool calls (name, args, result) the session's trace recorded in a turn so far. */
export function recordedCalls(session: Session, turn: number): { tool: string; args: unknown; result: ToolResult }[] {
  return session.events.flatMap((e) => (e.type === 'tool_call' && e.turn === turn ? [{ tool: e.tool, args: e.args, result: e.result }] : []));
}

/**
 * Plays the policy on an open turn, one call per macrotask (the session must not move meanwhile),
 * then ends it. `recorded`: calls already made in this turn (re-issued by replayRecordedTurns);
 * the policy's first steps must be exactly those, and get their recorded results.
 */
export async function playTurn(turn: Turn, recorded: readonly { tool: string; args: unknown; result: ToolResult }[] = [], pace: Pace = 'macrotask'): Promise<void> {
  const g = personPolicy(turn.wake);
  let s = g.next();
  for (let i = 0; !s.done; i++) {
    const [name, args] = s.value;
    const r = recorded[i];
    if (r) {
      if (r.tool !== name || JSON.stringify(r.args) !== JSON.stringify(args ?? {})) throw new Error(`turn ${turn.wake.turn}: call ${i} was ${r.tool} ${JSON.stringify(r.args)}, the policy makes ${name} ${JSON.stringify(args)}`);
      s = g.next(r.result);
      continue;
    }
    await pause(pace);
    s = g.next(turn.tools.call(name, args));
  }
  await pause(pace);
  turn.end();
}

/**
 * Drives a session by hand to its end, holding each turn across a pause before every call.
 * `first`: an open turn to finish first (from replayRecordedTurns, its recorded calls already applied).
 */
export async function driveByHand(session: Session, opts: { first?: Turn | null; pace?: Pace } = {}): Promise<void> {
  const pace = opts.pace ?? 'macrotask';
  if (opts.first) await playTurn(opts.first, recordedCalls(session, opts.first.wake.turn), pace);
  for (let turn = await session.advance(); turn; turn = await session.advance()) await playTurn(turn, [], pace);
}

/** The mini scenario on BKT with a small per-turn call limit. */
export function personScenario(base: Scenario = miniScenario()): Scenario {
  const s = onBkt(base);
  return { ...s, tutor: { ...s.tutor, maxToolCallsPerTurn: PERSON_LIMIT } };
}

/** The record of a person's run (the same record runs the scripted twin). */
export function personRecord(scenario: Scenario = personScenario(), seed?: number): RunRecord {
  return runRecord({ scenario, tutor: { name: PERSON, config: {} }, ...(seed !== undefined ? { seed } : {}) });
}

/** The environment where "person" is played by a person. */
export const humanEnv = (): RunEnv => bktEnv({ tutors: new Map([...TUTORS, [PERSON, personEntry]]) });
/** The environment where "person" is the scripted twin (same name, needs []): the same run_start. */
export const scriptedEnv = (): RunEnv => bktEnv({ tutors: new Map([...TUTORS, [PERSON, customEntry(scriptedPerson, PERSON)]]) });
