/**
 * The example agent's way of teaching: a fixed policy over the wake it is given, written as a
 * generator of tool calls that receives each call's result. It uses every LMS tool (the five reads,
 * the three writes, send_message and stay_silent) and makes one malformed call, to show how errors
 * come back. Standalone: no import from the simulator, only the wire format
 * (docs/bring-your-own-tutor.md). The repo's tests run this same policy as a built-in tutor and
 * check that both give the same trace.
 */

/** The wake as wait_for_event gives it (the `wake` field). */
export interface Wake {
  turn: number;
  reason: string;
  day: number;
  horizon_days: number;
  t: number;
  clock: string;
  text: string;
  payload: Record<string, unknown>;
}

/** A tool's answer: {"ok":true,"value":…} or {"ok":false,"error":{"code","message"}}. */
export type ToolResult = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

/** One step: a tool name and its arguments. */
export type Call = [name: string, args: Record<string, unknown>];

const value = <T>(r: ToolResult): T | null => (r.ok ? (r.value as T) : null);

export function* teach(w: Wake): Generator<Call, void, ToolResult> {
  const p = w.payload;
  switch (w.reason) {
    case 'login': {
      yield ['get_learner_profile', {}];
      yield ['get_messages', { last_n: 5 }];
      yield ['send_message', { text: `Welcome back! It is ${w.clock}. Which problem will you start with?` }];
      return;
    }
    case 'help_request': {
      const item = typeof p.item_id === 'string' ? p.item_id : null;
      if (item) {
        const view = value<{ skill_id: number; hints: string[] }>(yield ['get_course_map', { item_id: item }]);
        if (view) yield ['provide_content', { skill_id: view.skill_id, kind: 'hint', title: 'A hint', body: view.hints[0] ?? 'Look at the first step.', item_id: item }];
      }
      yield ['send_message', { text: 'What is the first step you would try?' }];
      return;
    }
    case 'submission_graded': {
      yield ['get_gradebook', { last_n: 3 }];
      if (p.correct) {
        yield ['stay_silent', { reason: 'a correct answer: let them keep going' }];
        return;
      }
      const view = value<{ skill_id: number }>(yield ['get_course_map', { item_id: String(p.item_id ?? '') }]);
      if (view) yield ['adjust_level', { skill_id: view.skill_id, level: 1, reason: 'a wrong answer' }];
      return;
    }
    case 'end_of_day': {
      yield ['get_assignments', { status: 'all' }];
      // Malformed on purpose: the LMS answers INVALID_ARGS, and the agent carries on.
      yield ['assign_items', { item_ids: 'not-a-list' }];
      const map = value<{ skills: { skill_id: number }[] }>(yield ['get_course_map', {}]);
      const skills = map?.skills ?? [];
      if (skills.length) yield ['assign_items', { skill_id: skills[w.day % skills.length]!.skill_id, count: 2, due_in_days: 1, note: `Practice for day ${w.day + 1}` }];
      return;
    }
    case 'learner_message':
      yield ['send_message', { text: 'Tell me how you worked it out.' }];
      return;
    default:
      yield ['stay_silent', { reason: `nothing to do on ${w.reason}` }];
  }
}
