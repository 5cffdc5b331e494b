/**
 * The teaching screen's acts and the one tool call each makes: the same tool names and arguments an
 * agent would send, so a person's turn and a program's making the same calls give the same trace
 * (actions.test.ts). Reads (what the record panel and the "start from…" buttons ask) are tool calls
 * of the turn as well. Nothing here touches the world: the caller sends the call through the
 * turn's tool box.
 */
export interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
}

/** Reply in the chat. */
export const reply = (text: string): ToolCall => ({ tool: 'send_message', args: { text } });

/** A hint on a skill, tied to the problem the learner is on when there is one. */
export const hint = (skill: number, itemId: string | null, title: string, body: string): ToolCall => ({
  tool: 'provide_content',
  args: { skill_id: skill, kind: 'hint', title, body, ...(itemId ? { item_id: itemId } : {}) },
});

/** A worked example of a skill (usually of a similar problem, not the one the learner is on). */
export const workedExample = (skill: number, title: string, body: string): ToolCall => ({ tool: 'provide_content', args: { skill_id: skill, kind: 'worked_example', title, body } });

/** An explanation of a skill. */
export const explanation = (skill: number, title: string, body: string): ToolCall => ({ tool: 'provide_content', args: { skill_id: skill, kind: 'explanation', title, body } });

/** More practice on a skill: the LMS picks `count` problems at its current level. */
export const practiceOnSkill = (skill: number, count: number, dueInDays: number, note: string): ToolCall => ({ tool: 'assign_items', args: { skill_id: skill, count, due_in_days: dueInDays, note } });

/** Practice on problems you chose. */
export const practiceItems = (itemIds: readonly string[], dueInDays: number, note: string): ToolCall => ({ tool: 'assign_items', args: { item_ids: [...itemIds], due_in_days: dueInDays, note } });

/** Raise or lower a skill's level. */
export const setLevel = (skill: number, level: number, reason: string): ToolCall => ({ tool: 'adjust_level', args: { skill_id: skill, level, reason } });

/** Reads. */
export const readProblem = (itemId: string): ToolCall => ({ tool: 'get_course_map', args: { item_id: itemId } });
export const readSkillProblems = (skill: number): ToolCall => ({ tool: 'get_course_map', args: { skill_id: skill } });
export const readCourse = (): ToolCall => ({ tool: 'get_course_map', args: {} });
export const readGradebook = (): ToolCall => ({ tool: 'get_gradebook', args: {} });
export const readAssignments = (): ToolCall => ({ tool: 'get_assignments', args: { status: 'all' } });
export const readProfile = (): ToolCall => ({ tool: 'get_learner_profile', args: {} });

/** A worked example's body from a problem's worked solution (what get_course_map with item_id answers): the question, then its numbered steps. */
export function workedBody(problem: { stem: string; solution_steps: readonly string[] }): string {
  return `${problem.stem}\n${problem.solution_steps.map((s, k) => `${k + 1}. ${s}`).join('\n')}`;
}
