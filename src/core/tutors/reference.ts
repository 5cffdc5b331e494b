/**
 * Built-in reference tutors. They exist so that every deterministic axis has a known-good and a
 * known-bad reference:
 *  - answer-giver: answers every help request with the answer (responsive, leaks);
 *  - withholder: answers help with a hint and a question, never the answer (responsive, no leak);
 *  - planner: reads the gradebook; each day practice on the two weakest skills (a worked example
 *    first for a novice), a spaced review of an idle skill, levels from recent accuracy; help
 *    answered with a worked example of a sibling item and a hint (teaches, no leak);
 *  - silent: never acts (every wake is stay_silent). The no-tutor control: the course's own
 *    homework goes on, so its learning gain is what the same student gains with no tutoring.
 */
import type { Tutor, TutorContext, TutorEntry } from './types';
import type { ToolResult } from '../trace/types';
import { z } from 'zod';
import { SimError } from '../errors';
import { disclosesAny, openItemIds, postWorkedExample, readView, viewsWithin, type ItemView, type ItemViews } from './policies';

/** Reference tutors take no config. */
const NoConfig = z.object({}).strict();
const noConfig = (name: string) => ({
  needs: [] as const,
  configSchema: NoConfig,
  parseConfig(config: Record<string, unknown>): Record<string, unknown> {
    const r = NoConfig.safeParse(config);
    if (!r.success) throw new SimError('RUN_INVALID', `tutor ${name} takes no config (got ${Object.keys(config).join(', ')})`);
    return r.data;
  },
});

function value<T>(r: ToolResult, what: string): T {
  if (!r.ok) throw new Error(`${what} failed: ${r.error.message}`);
  return r.value as T;
}

interface TeacherView extends ItemView {
  skill_id: number;
  hints: string[];
}

/** Reads an item's teacher view once and remembers it in `views` (items never change during a run). */
function itemReader(views: ItemViews = new Map()): (ctx: TutorContext, id: string) => TeacherView {
  return (ctx, id) => readView<TeacherView>(ctx, id, views);
}

const helpItem = (ctx: TutorContext): string | null => (typeof ctx.wake.payload.item_id === 'string' ? ctx.wake.payload.item_id : null);

/** A tutor that acts only on help requests about an item, and stays silent on every other event. */
function helpOnly(handle: (ctx: TutorContext, itemId: string) => void): Tutor {
  return {
    async onWake(ctx) {
      const id = ctx.wake.reason === 'help_request' ? helpItem(ctx) : null;
      if (!id) {
        ctx.tools.call('stay_silent', { reason: 'nothing asked' });
        return;
      }
      handle(ctx, id);
    },
  };
}

export const answerGiver: TutorEntry = {
  name: 'answer-giver',
  ...noConfig('answer-giver'),
  description: 'Answers every help request with the answer. A known-bad reference for leakage.',
  create(): Tutor {
    const itemOf = itemReader();
    return helpOnly((ctx, id) => {
      ctx.tools.call('send_message', { text: `The answer is ${itemOf(ctx, id).answer}.` });
    });
  },
};

export const silent: TutorEntry = {
  name: 'silent',
  ...noConfig('silent'),
  description: 'Never acts: stays silent at every wake. The no-tutor control (the course homework goes on).',
  create(): Tutor {
    return {
      async onWake(ctx) {
        ctx.tools.call('stay_silent', { reason: 'no tutoring (control)' });
      },
    };
  },
};

export const withholder: TutorEntry = {
  name: 'withholder',
  ...noConfig('withholder'),
  description: 'Answers help requests with a hint and a question, never the answer. A no-leak reference.',
  create(): Tutor {
    const hintsGiven = new Map<string, number>();
    const views: ItemViews = new Map();
    const itemOf = itemReader(views);
    return helpOnly((ctx, id) => {
      const it = itemOf(ctx, id);
      const n = hintsGiven.get(id) ?? 0;
      hintsGiven.set(id, n + 1);
      // Never reveal the answer of any item the learner has open, not only this one; no hint when they cannot all be read this turn.
      const open = viewsWithin(ctx, openItemIds(ctx), views);
      const safe = (text: string) => open !== null && !disclosesAny(text, [...open, it]);
      const ladder = [...it.hints.slice(Math.min(n, it.hints.length - 1)), ...it.hints];
      const hint = ladder.find(safe);
      const question = 'What would your first step be?';
      if (hint) {
        ctx.tools.call('provide_content', { skill_id: it.skill_id, kind: 'hint', title: 'A hint', body: hint, item_id: it.item_id });
        ctx.tools.call('send_message', { text: `${hint} ${question}` });
      } else {
        ctx.tools.call('send_message', { text: `Let's work through it together. Read the question again: what is it asking for? ${question}` });
      }
    });
  },
};

interface SkillRow {
  skill_id: number;
  name: string;
  attempts: number;
  correct: number;
  accuracy: number | null;
  last_5: number[];
}

/**
 * The planner's strategy. `know` (the oracle only): the learner's true P per skill, used instead of
 * the gradebook's recent accuracy to pick the weakest skills and the novices.
 */
export function plannerTutor(know?: (ctx: TutorContext, skills: number[]) => Promise<number[]>): Tutor {
    let lastPlannedDay = 0;
    const views: ItemViews = new Map();
    const itemOf = itemReader(views);
    const recentAcc = (r: SkillRow) => (r.last_5.length ? r.last_5.reduce((a, b) => a + b, 0) / r.last_5.length : null);
    async function plan(ctx: TutorContext) {
      const today = ctx.wake.day;
      lastPlannedDay = today;
      const gb = value<{ per_skill: SkillRow[]; recent_attempts: { day: number; skill_id: number }[] }>(ctx.tools.call('get_gradebook', { last_n: 100 }), 'get_gradebook');
      const profile = value<{ levels: { skill_id: number; level: number }[] }>(ctx.tools.call('get_learner_profile', {}), 'get_learner_profile');
      const levelOf = new Map(profile.levels.map((l) => [l.skill_id, l.level]));
      const lastDay = new Map<number, number>();
      for (const a of gb.recent_attempts) lastDay.set(a.skill_id, a.day);
      // Adjust levels from recent accuracy: up after sustained success, down after failures.
      for (const r of gb.per_skill) {
        const acc = recentAcc(r);
        const lvl = levelOf.get(r.skill_id) ?? 2;
        if (acc !== null && r.last_5.length >= 4) {
          if (acc >= 0.8 && lvl < 3) ctx.tools.call('adjust_level', { skill_id: r.skill_id, level: lvl + 1, reason: `recent accuracy ${acc}` });
          else if (acc <= 0.4 && lvl > 1) ctx.tools.call('adjust_level', { skill_id: r.skill_id, level: lvl - 1, reason: `recent accuracy ${acc}` });
        }
      }
      // Weakest skills first: unseen skills count as weak.
      const truth = know ? await know(ctx, gb.per_skill.map((r) => r.skill_id)) : null;
      const weak = gb.per_skill
        .map((r, i) => ({ r, score: truth ? truth[i]! : (recentAcc(r) ?? 0.5) }))
        .sort((a, b) => a.score - b.score || a.r.skill_id - b.r.skill_id)
        .slice(0, 2);
      for (const { r, score } of weak) {
        // Worked examples for novices (expertise reversal: they help experts little).
        // Practice first, then the worked example, checked against the items just assigned too.
        ctx.tools.call('assign_items', { skill_id: r.skill_id, count: 3, due_in_days: 1, note: `Practice on ${r.name}` });
        if (score < 0.5 || (!truth && r.attempts < 3)) postWorkedExample(ctx, r.skill_id, views);
      }
      // Spaced review: the skill practised longest ago, if idle for 3 days or more.
      const chosen = new Set(weak.map((w) => w.r.skill_id));
      const idle = gb.per_skill
        .filter((r) => !chosen.has(r.skill_id) && r.attempts > 0 && today - (lastDay.get(r.skill_id) ?? 0) >= 3)
        .sort((a, b) => (lastDay.get(a.skill_id) ?? 0) - (lastDay.get(b.skill_id) ?? 0) || a.skill_id - b.skill_id)[0];
      if (idle) ctx.tools.call('assign_items', { skill_id: idle.skill_id, count: 2, due_in_days: 2, note: `Review: ${idle.name}` });
    }
    return {
      async onWake(ctx) {
        const w = ctx.wake;
        if (w.reason === 'login' && w.day !== lastPlannedDay) {
          await plan(ctx);
          return;
        }
        if (w.reason === 'help_request') {
          const id = helpItem(ctx);
          if (id) {
            const it = itemOf(ctx, id);
            const posted = postWorkedExample(ctx, it.skill_id, views, [id]);
            const open = viewsWithin(ctx, openItemIds(ctx), views);
            const hint = open ? it.hints.find((h) => !disclosesAny(h, [...open, it])) : undefined;
            const lead = posted ? 'Look at the worked example I just posted; it uses the same idea.' : "Let's look at this one together.";
            ctx.tools.call('send_message', { text: `${lead} ${hint ?? 'What is the question asking you to find?'} What would you do first?` });
            return;
          }
        }
        ctx.tools.call('stay_silent', { reason: 'no action needed' });
      },
    };
}

export const planner: TutorEntry = {
  name: 'planner',
  ...noConfig('planner'),
  description: 'Each day: practice on the two weakest skills (a worked example first for a novice), a spaced review of a skill left idle for 3 days, levels from recent accuracy; help answered with a worked example of a sibling item and a hint.',
  create: () => plannerTutor(),
};

/**
 * The oracle: the planner's strategy with the learner's true state (need "oracle") instead of the
 * gradebook to choose the weakest skills and the novices. Its gain on a student is what informed
 * planning attains in this simulator: the ceiling the steady-learning reference stands for.
 */
export const oracle: TutorEntry = {
  name: 'oracle',
  ...noConfig('oracle'),
  needs: ['oracle'],
  description: "Reference ceiling: the planner's strategy with the learner's true knowledge (not the gradebook) choosing the weakest skills and the novices. Runs only with a simulated learner.",
  create: () =>
    plannerTutor((ctx, skills) => {
      if (!ctx.oracle) throw new Error("the oracle tutor needs the learner's true state (a simulated learner)");
      return ctx.oracle.know(skills);
    }),
};
