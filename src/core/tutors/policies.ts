/**
 * Validity policies: tutors the project writes to test the benchmark itself (`npm run validity`,
 * docs/validity.md). Exploits that must never beat doing nothing, and controlled contrasts whose
 * direction is known from research (spacing, the worked-example effect). None of them is meant to
 * be a good tutor (the oracle, in reference.ts, is).
 */
import type { Tutor, TutorContext, TutorEntry } from './types';
import type { ToolResult } from '../trace/types';
import { disclosuresIn, type DisclosableItem } from '../leakage/detect';
import type { AnswerKind, ResponseFormat } from '../course/types';
import { z } from 'zod';
import { SimError } from '../errors';

const NoConfig = z.object({}).strict();
/** A policy's registry entry (no config). Shared with the red team's exploits (exploits.ts). */
export function entry(name: string, description: string, create: () => Tutor, needs: TutorEntry['needs'] = []): TutorEntry {
  return {
    name,
    description,
    needs,
    configSchema: NoConfig,
    parseConfig(config: Record<string, unknown>): Record<string, unknown> {
      const r = NoConfig.safeParse(config);
      if (!r.success) throw new SimError('RUN_INVALID', `tutor ${name} takes no config (got ${Object.keys(config).join(', ')})`);
      return r.data;
    },
    create,
  };
}

export function value<T>(r: ToolResult, what: string): T {
  if (!r.ok) throw new Error(`${what} failed: ${r.error.message}`);
  return r.value as T;
}

export interface SkillRow {
  skill_id: number;
  name: string;
  attempts: number;
  last_5: number[];
}
export const gradebook = (ctx: TutorContext) => value<{ per_skill: SkillRow[] }>(ctx.tools.call('get_gradebook', { last_n: 1 }), 'get_gradebook').per_skill;
const courseSkills = (ctx: TutorContext) => gradebook(ctx).map((r) => r.skill_id);
export const silence = (ctx: TutorContext, reason: string) => void ctx.tools.call('stay_silent', { reason });
/** Once per day, at the learner's first login; every other wake is silence. */
export function daily(act: (ctx: TutorContext) => Promise<void> | void): () => Tutor {
  return () => {
    let last = 0;
    return {
      async onWake(ctx) {
        if (ctx.wake.reason !== 'login' || ctx.wake.day === last) return silence(ctx, 'not a new day');
        last = ctx.wake.day;
        await act(ctx);
      },
    };
  };
}

/** An item's teacher view (get_course_map with item_id), as far as the built-in tutors read it. */
export interface ItemView {
  item_id: string;
  skill: string;
  level: number;
  stem: string;
  answer: string;
  answer_kind: AnswerKind;
  accepted: string[];
  choices?: string[];
  format?: ResponseFormat;
  answer_forms: { numeric: string[]; phrases: string[] };
  solution_steps: string[];
}

/**
 * Would `text` disclose the answer of one of these items? The leakage axis's own detector decides
 * (src/core/leakage), with the items' solution steps where the view has them: the item's own
 * worked example is its solution, as the scorer reads it.
 */
export function disclosesAny(text: string, views: readonly DisclosureView[]): boolean {
  return disclosuresIn(text, views.map(detectorItem)).length > 0;
}
type DisclosureView = Pick<ItemView, 'item_id' | 'stem' | 'answer' | 'answer_kind' | 'accepted' | 'choices' | 'format' | 'answer_forms'> & Partial<Pick<ItemView, 'solution_steps'>>;
/**
 * A view as the detector's item, one object per view object: the detector keeps what it works out
 * about an item (and its results by text) per item object, so a tutor that checks many texts
 * against the views it keeps (ItemViews) pays for each item once. Views are read-only.
 */
const DETECTOR_ITEMS = new WeakMap<DisclosureView, DisclosableItem>();
function detectorItem(v: DisclosureView): DisclosableItem {
  let it = DETECTOR_ITEMS.get(v);
  if (!it) DETECTOR_ITEMS.set(v, (it = { id: v.item_id, stem: v.stem, answer: v.answer, answerKind: v.answer_kind, accepted: v.accepted, answerForms: v.answer_forms, ...(v.choices ? { choices: v.choices } : {}), ...(v.format ? { format: v.format } : {}), ...(v.solution_steps ? { steps: v.solution_steps } : {}) }));
  return it;
}
/** The items of the learner's open assignments not done yet (get_assignments). */
export function openItemIds(ctx: TutorContext): string[] {
  const asg = value<{ assignments: { items: { item_id: string; done: boolean }[] }[] }>(ctx.tools.call('get_assignments', { status: 'open' }), 'get_assignments');
  return [...new Set(asg.assignments.flatMap((a) => a.items.filter((i) => !i.done).map((i) => i.item_id)))];
}

/** Item views read once per tutor (items never change during a run), so a turn stays within its tool calls. */
export type ItemViews = Map<string, ItemView>;

/**
 * Calls a built-in tutor keeps in hand after reading item views, for its acts (assignments, the
 * post, the message) and the reads they need: a turn has scenario.tutor.maxToolCallsPerTurn calls.
 */
export const VIEW_RESERVE = 8;

/** An item's teacher view, read once (get_course_map with item_id) and kept in `views`. */
export function readView<V extends ItemView = ItemView>(ctx: TutorContext, id: string, views: ItemViews): V {
  let v = views.get(id);
  if (!v) {
    v = value<ItemView>(ctx.tools.call('get_course_map', { item_id: id }), 'get_course_map');
    views.set(id, v);
  }
  return v as V;
}

/**
 * The views of `ids`, reading those not read yet, or null when that would leave fewer than
 * `reserve` calls in the turn (a learner with many open items: the procrastinator's homework piles
 * up). Then the caller posts nothing that would need them for the leakage check: it never posts
 * text it could not check.
 */
export function viewsWithin(ctx: TutorContext, ids: readonly string[], views: ItemViews, reserve = VIEW_RESERVE): ItemView[] | null {
  const missing = ids.filter((id) => !views.has(id)).length;
  const left = ctx.status?.remaining ?? Number.POSITIVE_INFINITY;
  if (missing > 0 && missing > left - reserve) return null;
  return ids.map((id) => readView(ctx, id, views));
}

/** Posts a bank worked example of `skill` (current level) that reveals no open item's answer. Shared by the planner. */
export function postWorkedExample(ctx: TutorContext, skill: number, views: ItemViews, avoid: readonly string[] = []): boolean {
  const map = value<{ skills: { items: { item_id: string; level: number }[]; current_level: number }[] }>(ctx.tools.call('get_course_map', { skill_id: skill }), 'get_course_map');
  const s = map.skills[0];
  if (!s) return false;
  const openIds = [...new Set([...avoid, ...openItemIds(ctx)])];
  const open = viewsWithin(ctx, openIds, views);
  if (!open) return false;
  const pool = ctx.rng.shuffle(s.items.filter((i) => i.level === s.current_level && !openIds.includes(i.item_id)));
  for (const cand of pool.slice(0, 4)) {
    const ex = viewsWithin(ctx, [cand.item_id], views)?.[0];
    if (!ex) return false;
    const body = `${ex.stem}\n${ex.solution_steps.map((st, k) => `${k + 1}. ${st}`).join('\n')}`;
    if (disclosesAny(body, open)) continue;
    ctx.tools.call('provide_content', { skill_id: skill, kind: 'worked_example', title: `Worked example: ${ex.skill}`, body });
    return true;
  }
  return false;
}

/** Exploit: a content-free "worked example" on every skill at every wake. */
export const contentFree = entry('content-free', 'Validity exploit: posts a content-free worked example ("Study this method carefully.") on every skill at every wake.', () => ({
  async onWake(ctx) {
    for (const skill of courseSkills(ctx)) ctx.tools.call('provide_content', { skill_id: skill, kind: 'worked_example', title: 'Worked example', body: 'Study this method carefully. Read each step and make sure you understand it before you move on.' });
  },
}));

/** Exploit: every channel, every skill, every wake, and nothing in any of it (no practice either). */
export const spammer = entry('spammer', 'Validity exploit: at every wake posts an explanation, a hint and a message on every skill that name the skill and say nothing; assigns nothing.', () => ({
  async onWake(ctx) {
    for (const r of gradebook(ctx)) {
      ctx.tools.call('provide_content', { skill_id: r.skill_id, kind: 'explanation', title: r.name, body: `This is ${r.name}. It is important. Practise ${r.name} until you get it.` });
      ctx.tools.call('provide_content', { skill_id: r.skill_id, kind: 'hint', title: `Hint: ${r.name}`, body: `Think carefully about ${r.name}. You know how to do this!` });
    }
    ctx.tools.call('send_message', { text: 'Great work! Remember what we studied and keep going, you can do it!' });
  },
}));

/** Exploit: practice on a random skill each day, no instruction. */
export const randomAssigner = entry('random-assigner', 'Validity exploit: once a day assigns 3 items of a random skill; no instruction.', daily((ctx) => {
  const skill = ctx.rng.pick(courseSkills(ctx));
  ctx.tools.call('assign_items', { skill_id: skill, count: 3, due_in_days: 1, note: 'Practice' });
}));

/** Spacing contrast: the same daily practice, one skill for several days in a row (blocked). */
export const massed = entry('massed', 'Validity contrast: 4 items a day, each skill practised on consecutive days in one block (massed).', daily((ctx) => {
  const skills = courseSkills(ctx);
  const block = Math.max(1, Math.floor(ctx.wake.horizonDays / skills.length));
  const skill = skills[Math.min(skills.length - 1, Math.floor((ctx.wake.day - 1) / block))]!;
  ctx.tools.call('assign_items', { skill_id: skill, count: 4, due_in_days: 1, note: 'Practice' });
}));

/** Spacing contrast: the same daily practice, the skills in rotation (spaced). */
export const spaced = entry('spaced', 'Validity contrast: 4 items a day, the skills in daily rotation (spaced).', daily((ctx) => {
  const skills = courseSkills(ctx);
  const skill = skills[(ctx.wake.day - 1) % skills.length]!;
  ctx.tools.call('assign_items', { skill_id: skill, count: 4, due_in_days: 1, note: 'Practice' });
}));

/** Worked-example contrast: a bank worked example on the two least-practised skills each day, nothing else. */
export const workedExamples = entry('worked-examples', 'Validity contrast: once a day, a worked example from the bank on the two least-practised skills; no practice assigned.', () => {
  const views: ItemViews = new Map();
  return daily((ctx) => {
    const rows = gradebook(ctx).sort((a, b) => a.attempts - b.attempts || a.skill_id - b.skill_id);
    for (const r of rows.slice(0, 2)) postWorkedExample(ctx, r.skill_id, views);
  })();
});

export const VALIDITY_POLICIES: readonly TutorEntry[] = [contentFree, spammer, randomAssigner, massed, spaced, workedExamples];
