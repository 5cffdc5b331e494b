/**
 * The tutor's tools: five read endpoints, three write endpoints, and the message channel
 * (send_message, stay_silent). Every tool has a zod argument schema; its JSON Schema is exactly
 * what an LLM tutor sees as the function's parameters. A tool never throws at the caller: bad
 * arguments or illegal requests come back as a structured error (ToolResult { ok: false }).
 */
import { z } from 'zod';
import type { LmsState, ContentKind } from './state';
import { CONTENT_KINDS } from './state';
import type { Level } from '../course/types';
import type { ActionKind, ToolErrorCode, ToolKind, ToolResult } from '../trace/types';
import { MINUTES_PER_DAY, dayOf } from '../clock';

export class ToolError extends Error {
  readonly code: ToolErrorCode;
  constructor(code: ToolErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** What a tool run may ask the engine to do besides changing LMS state. */
export interface ToolEffects {
  /** A tutor message or content post went out to the learner. */
  delivered(message: { text: string; via: 'send_message' | 'provide_content'; content?: { skill: number; kind: ContentKind; itemId: string | null; title: string } }): void;
  /** A tutor's assignment with a note was posted (the learner reads the note with the assignment). */
  assigned?(assignmentId: string): void;
}

export interface ToolContext {
  lms: LmsState;
  now: number;
  maxAttemptsPerItem: number;
  learnerName: string;
  schedule: { days: string[]; start: string; minutes: number }[];
  effects: ToolEffects;
}

export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string;
  kind: ToolKind;
  description: string;
  args: S;
  /**
   * Properties of which the call must give one (the run checks "exactly one"): written into the
   * JSON Schema as `anyOf` of `required`, so that schema-constrained decoding cannot produce `{}`.
   */
  requireOneOf?: readonly string[];
  run(args: z.infer<S>, ctx: ToolContext): unknown;
}

const def = <S extends z.ZodType>(d: ToolDef<S>): ToolDef<S> => d;

const skillId = z.number().int().describe('A skill id from get_course_map.');
const level = z.union([z.literal(1), z.literal(2), z.literal(3)]).describe('Difficulty level: 1 easiest, 3 hardest.');

function requireSkill(ctx: ToolContext, id: number): void {
  if (!ctx.lms.skills.includes(id)) throw new ToolError('NOT_FOUND', `skill ${id} is not in this course (skills: ${ctx.lms.skills.join(', ')})`);
}

function itemSummary(ctx: ToolContext, id: string) {
  const it = ctx.lms.practiceItem(id)!;
  return { item_id: it.id, skill_id: it.skillId, level: it.level, stem: it.stem };
}

export const TOOLS = [
  def({
    name: 'get_learner_profile',
    kind: 'read',
    description: "Read the learner's profile: name, whether they are online, when they last logged in, their study schedule, and the current difficulty level of each skill.",
    args: z.object({}).strict(),
    run: (_a, ctx) => ({
      name: ctx.learnerName,
      online: ctx.lms.learnerOnline,
      last_login: ctx.lms.lastLoginAt === null ? null : { day: dayOf(ctx.lms.lastLoginAt as never) + 1, minute_of_day: ctx.lms.lastLoginAt % MINUTES_PER_DAY },
      study_schedule: ctx.schedule,
      levels: ctx.lms.skills.map((s) => ({ skill_id: s, name: ctx.lms.skillName(s), level: ctx.lms.levels.get(s) })),
    }),
  }),
  def({
    name: 'get_course_map',
    kind: 'read',
    description:
      'Read the course map. With no arguments: every skill with its name, current level and item counts. With skill_id: also that skill\'s items (id, level, question). With item_id: that one item in full, including its answer key, worked solution steps and hints (teacher view).',
    args: z.object({ skill_id: skillId.optional(), item_id: z.string().optional().describe('An item id, e.g. "s87-L2-03".') }).strict(),
    run: (a, ctx) => {
      if (a.item_id !== undefined) {
        const it = ctx.lms.practiceItem(a.item_id);
        if (!it) throw new ToolError('NOT_FOUND', `no item "${a.item_id}" in this course`);
        return { item_id: it.id, skill_id: it.skillId, skill: ctx.lms.skillName(it.skillId), level: it.level, stem: it.stem, answer: it.answer, answer_kind: it.answerKind, accepted: it.accepted, ...(it.choices ? { choices: it.choices } : {}), ...(it.format ? { format: it.format } : {}), answer_forms: it.answerForms, solution_steps: it.steps, hints: it.hints, common_wrong_answers: it.misconceptions };
      }
      if (a.skill_id !== undefined) requireSkill(ctx, a.skill_id);
      const skills = a.skill_id !== undefined ? [a.skill_id] : ctx.lms.skills;
      return {
        skills: skills.map((s) => {
          const items = ctx.lms.bank.items.filter((i) => i.skillId === s);
          return {
            skill_id: s,
            name: ctx.lms.skillName(s),
            current_level: ctx.lms.levels.get(s),
            items_per_level: { 1: items.filter((i) => i.level === 1).length, 2: items.filter((i) => i.level === 2).length, 3: items.filter((i) => i.level === 3).length },
            ...(a.skill_id !== undefined ? { items: items.map((i) => itemSummary(ctx, i.id)) } : {}),
          };
        }),
      };
    },
  }),
  def({
    name: 'get_gradebook',
    kind: 'read',
    description: "Read the gradebook: per-skill attempts and accuracy, and the most recent graded attempts (newest last). Optionally only one skill.",
    args: z.object({ skill_id: skillId.optional(), last_n: z.number().int().min(1).max(100).default(10).describe('How many recent attempts to list.') }).strict(),
    run: (a, ctx) => {
      if (a.skill_id !== undefined) requireSkill(ctx, a.skill_id);
      const rows = ctx.lms.gradebook.filter((g) => a.skill_id === undefined || g.skill === a.skill_id);
      const skills = a.skill_id !== undefined ? [a.skill_id] : ctx.lms.skills;
      return {
        per_skill: skills.map((s) => {
          const r = rows.filter((g) => g.skill === s);
          const c = r.filter((g) => g.correct).length;
          return { skill_id: s, name: ctx.lms.skillName(s), attempts: r.length, correct: c, accuracy: r.length ? Math.round((c / r.length) * 1000) / 1000 : null, last_5: r.slice(-5).map((g) => (g.correct ? 1 : 0)) };
        }),
        recent_attempts: rows.slice(-a.last_n).map((g) => ({ day: dayOf(g.at as never) + 1, item_id: g.itemId, skill_id: g.skill, level: g.level, assignment_id: g.assignmentId, attempt: g.attemptNo, response: g.response, correct: g.correct })),
      };
    },
  }),
  def({
    name: 'get_assignments',
    kind: 'read',
    description: 'Read assignments (course homework and yours) with their items, due time and status, and how far the learner got on each item.',
    args: z.object({ status: z.enum(['open', 'completed', 'missed', 'all']).default('open') }).strict(),
    run: (a, ctx) => ({
      assignments: ctx.lms.assignments
        .filter((x) => a.status === 'all' || x.status === a.status)
        .map((x) => ({
          assignment_id: x.id,
          source: x.source,
          status: x.status,
          posted_day: dayOf(x.postedAt as never) + 1,
          due: x.dueAt === null ? null : { day: dayOf(x.dueAt as never) + 1, minute_of_day: x.dueAt % MINUTES_PER_DAY },
          note: x.note,
          items: x.itemIds.map((id) => {
            const tries = ctx.lms.attemptsOn(x.id, id);
            return { item_id: id, attempts: tries.length, solved: tries.some((g) => g.correct), done: ctx.lms.itemDone(x.id, id, ctx.maxAttemptsPerItem) };
          }),
        })),
    }),
  }),
  def({
    name: 'get_messages',
    kind: 'read',
    description: 'Read the message channel with the learner (both directions, newest last), including content you posted.',
    args: z.object({ last_n: z.number().int().min(1).max(200).default(20) }).strict(),
    run: (a, ctx) => ({
      messages: ctx.lms.messages.slice(-a.last_n).map((m) => ({ day: dayOf(m.at as never) + 1, minute_of_day: m.at % MINUTES_PER_DAY, from: m.from, text: m.text, ...(m.content ? { content: { skill_id: m.content.skill, kind: m.content.kind, item_id: m.content.itemId, title: m.content.title } } : {}) })),
    }),
  }),
  def({
    name: 'assign_items',
    kind: 'write',
    description:
      'Assign practice to the learner. Give either item_ids (specific items from get_course_map) or skill_id with count (the LMS picks unattempted items of that skill at its current level). The assignment is due due_in_days days from today at 21:00.',
    args: z
      .object({
        item_ids: z.array(z.string()).min(1).max(10).optional(),
        skill_id: skillId.optional(),
        count: z.number().int().min(1).max(10).optional(),
        due_in_days: z.number().int().min(0).max(7).default(1),
        note: z.string().max(500).default(''),
      })
      .strict(),
    requireOneOf: ['item_ids', 'skill_id'],
    run: (a, ctx) => {
      if ((a.item_ids === undefined) === (a.skill_id === undefined)) throw new ToolError('INVALID_ARGS', 'give exactly one of item_ids or skill_id');
      let ids: string[];
      if (a.item_ids) {
        for (const id of a.item_ids) if (!ctx.lms.practiceItem(id)) throw new ToolError('NOT_FOUND', `no item "${id}" in this course`);
        ids = [...new Set(a.item_ids)];
      } else {
        requireSkill(ctx, a.skill_id!);
        const lvl = ctx.lms.levels.get(a.skill_id!) as Level;
        const count = a.count ?? 3;
        const pool = ctx.lms.bank.practice(a.skill_id!, lvl);
        const tries = (id: string) => ctx.lms.gradebook.filter((g) => g.itemId === id).length;
        const assigned = new Set(ctx.lms.openAssignments().flatMap((x) => x.itemIds));
        ids = pool
          .filter((i) => !assigned.has(i.id))
          .map((i, k) => ({ id: i.id, n: tries(i.id), k }))
          .sort((x, y) => x.n - y.n || x.k - y.k)
          .slice(0, count)
          .map((x) => x.id);
        if (ids.length === 0) throw new ToolError('ILLEGAL', `every level-${lvl} item of skill ${a.skill_id} is already assigned`);
      }
      const due = (dayOf(ctx.now as never) + a.due_in_days) * MINUTES_PER_DAY + 21 * 60;
      if (due <= ctx.now) throw new ToolError('ILLEGAL', 'the due time (21:00 today) has passed; use due_in_days >= 1');
      const asg = ctx.lms.addAssignment({ itemIds: ids, source: 'tutor', postedAt: ctx.now, dueAt: due, note: a.note });
      if (a.note.trim()) ctx.effects.assigned?.(asg.id);
      return { assignment_id: asg.id, item_ids: ids, due: { day: dayOf(due as never) + 1, minute_of_day: 21 * 60 } };
    },
  }),
  def({
    name: 'adjust_level',
    kind: 'write',
    description: "Set the difficulty level (1–3) of a skill for this learner. Course homework and skill-based assignments use it from now on.",
    args: z.object({ skill_id: skillId, level, reason: z.string().max(500).default('') }).strict(),
    run: (a, ctx) => {
      requireSkill(ctx, a.skill_id);
      const before = ctx.lms.levels.get(a.skill_id);
      ctx.lms.levels.set(a.skill_id, a.level as Level);
      return { skill_id: a.skill_id, level_before: before, level: a.level, changed: before !== a.level };
    },
  }),
  def({
    name: 'provide_content',
    kind: 'write',
    description:
      'Post learning content to the learner on one skill: an explanation, a worked example, or a hint, optionally tied to an item. The learner reads it when online.',
    args: z
      .object({
        skill_id: skillId,
        kind: z.enum(CONTENT_KINDS),
        title: z.string().min(1).max(200),
        body: z.string().min(1).max(4000),
        item_id: z.string().optional(),
      })
      .strict(),
    run: (a, ctx) => {
      requireSkill(ctx, a.skill_id);
      if (a.item_id !== undefined) {
        const it = ctx.lms.practiceItem(a.item_id);
        if (!it) throw new ToolError('NOT_FOUND', `no item "${a.item_id}" in this course`);
        if (it.skillId !== a.skill_id) throw new ToolError('ILLEGAL', `item ${a.item_id} belongs to skill ${it.skillId}, not ${a.skill_id}`);
      }
      ctx.effects.delivered({ text: `${a.title}\n\n${a.body}`, via: 'provide_content', content: { skill: a.skill_id, kind: a.kind, itemId: a.item_id ?? null, title: a.title } });
      return { posted: true, learner_online: ctx.lms.learnerOnline };
    },
  }),
  def({
    name: 'send_message',
    kind: 'message',
    description: 'Send a chat message to the learner. They see it at once if online, otherwise at their next login.',
    args: z.object({ text: z.string().min(1).max(4000) }).strict(),
    run: (a, ctx) => {
      ctx.effects.delivered({ text: a.text, via: 'send_message' });
      return { sent: true, learner_online: ctx.lms.learnerOnline };
    },
  }),
  def({
    name: 'stay_silent',
    kind: 'message',
    description: 'Choose not to act on this event. Ends your turn; use it instead of any other action, not with one.',
    args: z.object({ reason: z.string().max(500).default('') }).strict(),
    run: () => ({ silent: true }),
  }),
] as const;

export type ToolName = (typeof TOOLS)[number]['name'];
export const TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.name);
const BY_NAME = new Map<string, ToolDef>(TOOLS.map((t) => [t.name, t as unknown as ToolDef]));

export function toolByName(name: string): ToolDef | undefined {
  return BY_NAME.get(name);
}

/** The action kind of a tool, or null for reads. */
export function actionKindOf(name: string): ActionKind | null {
  const t = BY_NAME.get(name);
  if (!t || t.kind === 'read') return null;
  return name as ActionKind;
}

/**
 * The JSON Schema zod writes, made portable across providers' schema converters (issue 35): an
 * integer's ±Number.MAX_SAFE_INTEGER bounds (zod's default for .int(), which no tool means) are
 * dropped, and a union of integer constants (adjust_level's level) is written
 * `{"type":"integer","enum":[…]}` rather than `anyOf` of `const`, which Gemini's converter refuses.
 * Validation is unchanged: the zod schemas check every call.
 */
function portable(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(portable);
  if (!x || typeof x !== 'object') return x;
  const o = { ...(x as Record<string, unknown>) };
  if (o.type === 'integer') {
    if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
    if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
  }
  const any = o.anyOf;
  if (Array.isArray(any) && any.length > 0 && any.every((m) => m && typeof m === 'object' && Number.isInteger((m as { const?: unknown }).const) && Object.keys(m as object).every((k) => k === 'const' || k === 'type'))) {
    const { anyOf: _a, ...rest } = o;
    return { type: 'integer', enum: any.map((m) => (m as { const: number }).const), ...rest };
  }
  for (const [k, v] of Object.entries(o)) o[k] = portable(v);
  return o;
}

/** Function-calling descriptions of every tool (name, description, JSON Schema parameters). */
export function toolSpecs(): { name: string; description: string; parameters: object }[] {
  return TOOLS.map((t) => {
    const { $schema: _drop, ...raw } = z.toJSONSchema(t.args, { io: 'input' }) as Record<string, unknown>;
    const parameters = portable(raw) as Record<string, unknown>;
    if (t.requireOneOf?.length) parameters.anyOf = t.requireOneOf.map((k) => ({ required: [k] }));
    return { name: t.name, description: t.description, parameters };
  });
}

/**
 * Runs one tool call; never throws (the error becomes the result). Arguments are an object, or its
 * JSON text as a function-calling model wrote it: text that is not a JSON object is INVALID_ARGS.
 */
export function runTool(name: string, rawArgs: unknown, ctx: ToolContext): ToolResult {
  const tool = BY_NAME.get(name);
  if (!tool) return { ok: false, error: { code: 'UNKNOWN_TOOL', message: `no tool "${name}"; tools are: ${TOOL_NAMES.join(', ')}` } };
  if (typeof rawArgs === 'string') {
    if (rawArgs.trim() === '') rawArgs = {};
    else {
      try {
        rawArgs = JSON.parse(rawArgs);
      } catch (e) {
        return { ok: false, error: { code: 'INVALID_ARGS', message: `${name}: the arguments are not valid JSON (${e instanceof Error ? e.message : String(e)}); send a JSON object` } };
      }
    }
  }
  const parsed = tool.args.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`).join('; ');
    return { ok: false, error: { code: 'INVALID_ARGS', message: `${name}: ${msg}` } };
  }
  try {
    return { ok: true, value: tool.run(parsed.data, ctx) };
  } catch (e) {
    if (e instanceof ToolError) return { ok: false, error: { code: e.code, message: `${name}: ${e.message}` } };
    throw e;
  }
}
