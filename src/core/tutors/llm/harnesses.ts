/**
 * Three harness styles for a tool-calling LLM tutor. Tutor quality belongs to the model and the
 * harness together, so a run records both (tutor spec `llm` with { harness, model, provider }).
 *
 *  - reactive: a minimal loop. Each wake is a fresh conversation: the system prompt, the event,
 *    and the tools. No memory beyond what the tools show.
 *  - notes: a planner that keeps its own notebook. Within a day it keeps the conversation; at the
 *    end of each day it rewrites a notebook (a model call without tools) that it reads on every
 *    later wake. Memory across days is exactly that notebook.
 *  - curriculum: plans each day's lesson. On the first wake of a day it reads the learner's state
 *    and asks the model for a lesson plan structured by the events of instruction (JSON,
 *    validated); every wake of that day sees the plan and yesterday's.
 *
 * All three see exactly the LMS tools (`toolSpecs()`); none gets extra tools.
 */
import { z } from 'zod';
import type { Tutor, TutorContext } from '../types';
import type { ChatMessage, LlmClient } from '../../llm/types';
import { LlmError } from '../../llm/types';
import { parseJsonReply } from '../../llm/json';
import { runToolLoop, tracedChat, wakeText } from './loop';
import { LESSON_PHASES, LESSON_PLANNER, LESSON_SECTION, NOTES_SECTION, NOTES_WRITER, TUTOR_SYSTEM } from './prompts';

export const HARNESS_NAMES = ['reactive', 'notes', 'curriculum'] as const;
export type HarnessName = (typeof HARNESS_NAMES)[number];

export const HARNESS_DESCRIPTIONS: Readonly<Record<HarnessName, string>> = {
  reactive: 'Minimal reactive loop: each event is a fresh conversation with the tools; no memory.',
  notes: 'Planner with a notebook: keeps the day\'s conversation and rewrites its own notes each evening, read on every later wake.',
  curriculum: "Curriculum-structured: plans each day's lesson (events of instruction, JSON) from the learner's state, then follows it.",
};

export interface HarnessConfig {
  temperature: number;
  maxStepsPerWake: number;
  notesMaxChars: number;
  historyMaxMessages: number;
}

/** Keeps whole wakes (a wake starts at a user message) from the end, at most `max` messages. */
export function trimHistory(log: readonly ChatMessage[], max: number): ChatMessage[] {
  if (log.length <= max) return [...log];
  let start = log.length - max;
  while (start < log.length && log[start]!.role !== 'user') start++;
  return log.slice(start);
}

/** A compact text rendering of a conversation log, for the notebook writer. */
export function renderLog(log: readonly ChatMessage[], maxChars = 12000): string {
  const lines: string[] = [];
  for (const m of log) {
    if (m.role === 'user') lines.push(`EVENT: ${m.content}`);
    else if (m.role === 'assistant') {
      for (const c of m.toolCalls ?? []) lines.push(`YOU CALLED ${c.name} ${c.arguments.slice(0, 600)}`);
      if (m.content) lines.push(`YOU NOTED: ${m.content.slice(0, 300)}`);
    } else if (m.role === 'tool') lines.push(`  RESULT: ${m.content.slice(0, 300)}`);
  }
  const text = lines.join('\n');
  return text.length > maxChars ? `[… earlier entries omitted]\n${text.slice(text.length - maxChars)}` : text;
}

function reactive(llm: LlmClient, cfg: HarnessConfig): Tutor {
  return {
    async onWake(ctx) {
      const messages: ChatMessage[] = [
        { role: 'system', content: TUTOR_SYSTEM(ctx.wake.horizonDays) },
        { role: 'user', content: wakeText(ctx) },
      ];
      await runToolLoop(ctx, messages, { llm, temperature: cfg.temperature, maxSteps: cfg.maxStepsPerWake, purpose: 'reactive:step' });
    },
  };
}

function notes(llm: LlmClient, cfg: HarnessConfig): Tutor {
  let notebook = '';
  let day = 0;
  let dayLog: ChatMessage[] = [];
  async function rewrite(ctx: TutorContext): Promise<void> {
    const res = await tracedChat(ctx, llm, 'tutor', 'notes:update', {
      messages: [
        { role: 'system', content: NOTES_WRITER(ctx.wake.horizonDays) },
        { role: 'user', content: `Your notebook so far:\n<<<\n${notebook || '(empty)'}\n>>>\n\nToday's log (day ${day}):\n${renderLog(dayLog)}\n\nWrite the new notebook (at most ${cfg.notesMaxChars} characters).` },
      ],
      temperature: cfg.temperature,
    });
    // An empty reply keeps the old notebook; the call (and its empty reply) is in the trace.
    if (res.content && res.content.trim()) notebook = res.content.trim().slice(0, cfg.notesMaxChars);
    dayLog = [];
  }
  return {
    async onWake(ctx) {
      if (ctx.wake.day !== day && dayLog.length > 0) await rewrite(ctx); // a day ended without an end_of_day wake
      day = ctx.wake.day;
      const event: ChatMessage = { role: 'user', content: wakeText(ctx) };
      const messages: ChatMessage[] = [{ role: 'system', content: TUTOR_SYSTEM(ctx.wake.horizonDays) + NOTES_SECTION(notebook) }, ...trimHistory(dayLog, cfg.historyMaxMessages), event];
      const out = await runToolLoop(ctx, messages, { llm, temperature: cfg.temperature, maxSteps: cfg.maxStepsPerWake, purpose: 'notes:step' });
      dayLog.push(event, ...out.added);
      if (ctx.wake.reason === 'end_of_day') await rewrite(ctx);
    },
  };
}

export const LessonPlanSchema = z
  .object({
    objective: z.string().min(1).max(1000),
    skill_ids: z.array(z.number().int()).min(1).max(10),
    phases: z.array(z.object({ phase: z.enum(LESSON_PHASES), plan: z.string().min(1).max(1000) })).min(3).max(9),
  })
  .loose();
export type LessonPlan = z.infer<typeof LessonPlanSchema>;

export function renderPlan(p: LessonPlan): string {
  return `Objective: ${p.objective} (skills ${p.skill_ids.join(', ')})\n${p.phases.map((x, i) => `${i + 1}. [${x.phase}] ${x.plan}`).join('\n')}`;
}

/** Attempts at a valid lesson plan before the day goes unplanned. */
export const PLAN_ATTEMPTS = 2;

function curriculum(llm: LlmClient, cfg: HarnessConfig): Tutor {
  let plan: LessonPlan | null = null;
  let yesterday: string | null = null;
  let planDay = 0;
  let dayLog: ChatMessage[] = [];
  async function makePlan(ctx: TutorContext): Promise<void> {
    planDay = ctx.wake.day;
    const read = (name: string, args: object) => {
      const r = ctx.tools.call(name, args);
      return JSON.stringify(r.ok ? r.value : { error: r.error });
    };
    const state = [
      `Today is day ${ctx.wake.day} of ${ctx.wake.horizonDays}.`,
      `Learner profile: ${read('get_learner_profile', {})}`,
      `Course map: ${read('get_course_map', {})}`,
      `Gradebook: ${read('get_gradebook', { last_n: 10 })}`,
      `Open assignments: ${read('get_assignments', { status: 'open' })}`,
      `Yesterday's plan: ${yesterday ?? '(none)'}`,
    ].join('\n\n');
    const messages: ChatMessage[] = [
      { role: 'system', content: LESSON_PLANNER(ctx.wake.horizonDays) },
      { role: 'user', content: state },
    ];
    plan = null;
    for (let attempt = 1; attempt <= PLAN_ATTEMPTS; attempt++) {
      const res = await tracedChat(ctx, llm, 'tutor', 'lesson:plan', { messages, temperature: cfg.temperature, json: true });
      const parsed = parseJsonReply(res.content, LessonPlanSchema);
      if (parsed.ok) {
        plan = parsed.value;
        return;
      }
      messages.push({ role: 'assistant', content: res.content }, { role: 'user', content: `That is not a valid plan: ${parsed.error}. Reply with the JSON object only.` });
    }
    // No valid plan: the day runs unplanned and the prompt says so (the failed replies are in the trace).
  }
  return {
    async onWake(ctx) {
      if (ctx.wake.day !== planDay && ctx.wake.reason !== 'end_of_day') {
        if (plan) yesterday = `${plan.objective}`;
        dayLog = [];
        await makePlan(ctx);
      }
      const event: ChatMessage = { role: 'user', content: wakeText(ctx) };
      const system = TUTOR_SYSTEM(ctx.wake.horizonDays) + LESSON_SECTION(planDay === ctx.wake.day && plan ? renderPlan(plan) : null, yesterday);
      const messages: ChatMessage[] = [{ role: 'system', content: system }, ...trimHistory(dayLog, cfg.historyMaxMessages), event];
      const out = await runToolLoop(ctx, messages, { llm, temperature: cfg.temperature, maxSteps: cfg.maxStepsPerWake, purpose: 'lesson:step' });
      dayLog.push(event, ...out.added);
    },
  };
}

export function createHarness(name: HarnessName, llm: LlmClient, cfg: HarnessConfig): Tutor {
  switch (name) {
    case 'reactive':
      return reactive(llm, cfg);
    case 'notes':
      return notes(llm, cfg);
    case 'curriculum':
      return curriculum(llm, cfg);
    default:
      throw new LlmError('LLM_CONFIG', `unknown harness "${String(name)}" (harnesses: ${HARNESS_NAMES.join(', ')})`);
  }
}
