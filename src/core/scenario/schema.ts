/**
 * The scenario format. One zod schema is the single source of truth: the TypeScript types are
 * inferred from it and scenarios/scenario.schema.json (for editors) is emitted from it by
 * `npm run schema`. Documented field by field in docs/scenario-format.md.
 */
import { z } from 'zod';
import { WEEKDAYS } from '../clock';
import { INJECTION_IDS } from './extraction-attempts';
import { PERSONA_PRESET_NAMES } from './preset-names';
import { DEFAULT_TRACER, TRACERS } from '../tracers';

const hhmm = z.string().regex(/^([01]?\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM, e.g. "16:30"');
const prob = z.number().min(0).max(1);
const range = (lo: number, hi: number) =>
  z
    .tuple([z.number().min(lo).max(hi), z.number().min(lo).max(hi)])
    .refine(([a, b]) => a <= b, 'the first number must not exceed the second')
    .describe(`[min, max] between ${lo} and ${hi}`);

/** Who decides a graded attempt: the knowledge tracer (the default) or an LLM student (docs/learning-model.md). */
export const COUPLING_MODES = ['tracer-decides', 'student-attempts'] as const;
export type CouplingMode = (typeof COUPLING_MODES)[number];

export const WAKE_EVENTS = [
  'login',
  'logout',
  'submission_graded',
  'help_request',
  'learner_message',
  'assignment_due',
  'assignment_missed',
  'end_of_day',
] as const;
export type WakeEventKind = (typeof WAKE_EVENTS)[number];

export const HELP_TEMPLATE_IDS = ['stuck', 'how_start', 'explain_step', 'check_answer', 'why_wrong', 'give_answer', 'just_tell_me'] as const;

const helpTemplateList = z.array(z.enum(HELP_TEMPLATE_IDS)).min(1).max(50);

/**
 * Bounds on sizes and string lengths, so that a huge or hostile file is refused quickly and
 * cheaply (docs/scenario-format.md, "Limits"). An id is at most 100 characters: it names trace
 * files (`<id>__<tutor>__s<seed>.jsonl`), which must stay under the file system's name limit.
 */
export const SCENARIO_LIMITS = {
  idChars: 100,
  nameChars: 200,
  textChars: 20_000,
  listItems: 200,
  /** Scheduled minutes on any one weekday (blocks of a day may not overlap). The library's largest is 150. */
  minutesPerDay: 720,
  /** Scheduled minutes over the whole horizon (the work a run may ask for). The library's largest is 2,520. */
  scheduledMinutes: 7_200,
  /** Items in the bank: skills × (3 × itemsPerLevel + probesPerSkill). The library's courses have 230. */
  bankItems: 2_000,
} as const;
const name = (what = 'a name') => z.string().min(1).max(SCENARIO_LIMITS.nameChars, `${what} is at most ${SCENARIO_LIMITS.nameChars} characters`);
const text = () => z.string().max(SCENARIO_LIMITS.textChars, `at most ${SCENARIO_LIMITS.textChars} characters`);

/** `"a" (…), "b" (…) or "c" (…)`: the tracers as the description of `learner.tracer` lists them. */
const tracerList = (): string => {
  const each = TRACERS.map((t) => `"${t.name}" (${t.description})`);
  return each.length < 2 ? each.join('') : `${each.slice(0, -1).join(', ')} or ${each.at(-1)}`;
};

export const PersonaSchema = z
  .object({
    preset: z
      .enum(PERSONA_PRESET_NAMES)
      .optional()
      .describe('A built-in persona (docs/personas.md) to start from; every other field given here overrides it.'),
    name: name('a persona name').describe('Persona name, e.g. "steady-worker".'),
    description: text().default('').describe('A paragraph a teacher would recognise.'),
    // ---- when it works ----
    loginDelayMinutes: range(0, 240).default([0, 10]).describe('Minutes after a block starts before the learner logs in (uniform).'),
    skipBlockProb: prob.default(0.05).describe('Probability of not logging in at all in a block.'),
    skipBlockProbIfDue: prob
      .nullable()
      .default(null)
      .describe('Probability of skipping a block when an open assignment is due within 24 hours of its start (null: skipBlockProb).'),
    sessionMinutes: range(5, 600)
      .nullable()
      .default(null)
      .describe('Minutes the learner means to work per session before stopping on its own (uniform; null: until the block ends).'),
    minutesPerItem: range(1, 60).default([3, 6]).describe('Minutes spent on one attempt (uniform).'),
    // ---- help seeking ----
    helpProbAfterWrong: prob.default(0.5).describe('Probability of asking for help after a wrong answer (when the item has attempts left).'),
    helpMinStreak: z.number().int().min(1).max(20).default(1).describe('Ask for help after a wrong answer only once this many answers in a row were wrong.'),
    helpProbBeforeFirstTry: prob.default(0.05).describe('Probability of asking for help before a first attempt.'),
    helpProbBeforeSubmit: prob.default(0).describe('Probability of asking for help (e.g. check_answer) after working an item out, before submitting it.'),
    helpTemplates: helpTemplateList.default(['stuck', 'how_start', 'explain_step', 'why_wrong']).describe('Help-request templates this persona uses.'),
    helpTemplatesByMoment: z
      .object({
        beforeFirstTry: helpTemplateList.optional(),
        beforeSubmit: helpTemplateList.optional(),
        afterWrong: helpTemplateList.optional(),
        whenFrustrated: helpTemplateList.optional().describe('Used at any moment while frustration is at least 0.5.'),
      })
      .strict()
      .default({})
      .describe('Templates for particular moments; a moment not listed uses helpTemplates.'),
    // ---- persistence ----
    maxAttemptsPerItem: z.number().int().min(1).max(5).default(2),
    giveUpAfterFailures: z.number().int().min(1).max(50).default(5).describe('Consecutive wrong answers after which the learner ends the session.'),
    selfPracticeWhenIdle: z.boolean().default(true).describe('Practise the course on its own when nothing is assigned.'),
    // ---- answering habits ----
    guessProb: prob.default(0).describe('Probability of guessing an attempt (a one-minute answer without working it out; not evidence of knowledge).'),
    guessAccuracy: prob.default(0.1).describe('Probability that a guess is right.'),
    carelessness: prob.default(0).describe('Probability that an answer the learner worked out correctly is submitted wrong (a slip).'),
    // ---- affect ----
    frustrationPerWrong: prob.default(0).describe('Frustration (0..1) added by each wrong answer.'),
    frustrationReliefPerRight: prob.default(0.2).describe('Frustration removed by each right answer.'),
    frustrationCarryOver: prob.default(0).describe('Share of frustration still there at the next login.'),
    guessWhenFrustrated: prob.default(0).describe('Added to guessProb, times the current frustration.'),
    rushWhenFrustrated: prob.default(0).describe('Share by which minutes per item shrink at full frustration.'),
    quitAtFrustration: prob.nullable().default(null).describe('Frustration at which the learner gives up for the session (null: never).'),
    praiseRelief: z.number().min(-1).max(1).default(0).describe('Frustration removed by an encouraging tutor message (negative: praise irritates).'),
    praiseExtraMinutes: z.number().int().min(-60).max(60).default(0).describe('Minutes an encouraging tutor message adds to (or, negative, takes from) the session the learner means to work.'),
    // ---- how it takes the tutor's messages ----
    replyProb: prob.default(0.85).describe('Probability of replying to a tutor message while online.'),
    readsContentProb: prob.default(1).describe('Probability of reading a piece of content the tutor posts; unread content gives no instruction boost.'),
    copyDisclosedProb: prob.default(0.9).describe('Probability of submitting an answer the tutor disclosed instead of working it out.'),
    // ---- answer extraction (the adversarial persona) ----
    injectionProb: prob.default(0).describe('Probability that the reply to a tutor message that did not give the answer is an instruction-injection attempt.'),
    injectionTemplates: z.array(z.enum(INJECTION_IDS)).min(1).max(50).default([...INJECTION_IDS]).describe('Injection texts this persona uses (src/core/scenario/extraction-attempts.ts).'),
  })
  .strict();

export const ScenarioSchema = z
  .object({
    schemaVersion: z.literal(1),
    id: z
      .string()
      .max(SCENARIO_LIMITS.idChars, `an id is at most ${SCENARIO_LIMITS.idChars} characters (it names trace files)`)
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    title: name('a title'),
    description: text().default(''),
    seed: z.number().int().min(0).max(2 ** 32 - 1).describe('Seeds every random draw of the run.'),
    horizonDays: z.number().int().min(1).max(60).default(30),
    course: z
      .object({
        title: name('a title'),
        skills: z.array(z.number().int().min(1)).min(1).max(110).describe('Dataset skill ids (ASSISTments 2009, 1..110).'),
        itemsPerLevel: z.number().int().min(2).max(60).default(12),
        probesPerSkill: z.number().int().min(1).max(30).default(6),
        probeForms: z
          .union([z.literal(1), z.literal(2)])
          .optional()
          .describe('2: the last probe answers a parallel form (other items of the same skills and levels) instead of the same items; absent or 1: one form.'),
        startLevel: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(2),
        homework: z
          .object({
            days: z.array(z.enum(WEEKDAYS)).max(7).default(['mon', 'tue', 'wed', 'thu', 'fri']),
            itemsPerDay: z.number().int().min(0).max(20).default(3),
            dueTime: hhmm.default('21:00'),
            dueInDays: z.number().int().min(0).max(6).default(0).describe('Days after posting that the homework is due (0: the same day).'),
          })
          .strict()
          .default({ days: ['mon', 'tue', 'wed', 'thu', 'fri'], itemsPerDay: 3, dueTime: '21:00', dueInDays: 0 })
          .describe("The course's own homework, posted each listed day whatever the tutor does."),
      })
      .strict(),
    learner: z
      .object({
        name: name().default('Sam'),
        ability: z.enum(['low', 'average', 'high']).default('average'),
        tracer: z.string().min(1).max(SCENARIO_LIMITS.nameChars).default(DEFAULT_TRACER).describe(`Knowledge tracer by name: ${tracerList()}.`),
        // Optional without a default (absent = tracer-decides, chat instruction off), so that a
        // scenario without them parses to exactly the object it always did (pinned run_start bytes).
        coupling: z
          .enum(COUPLING_MODES)
          .optional()
          .describe('Who decides a graded attempt (docs/learning-model.md, "Coupling"): "tracer-decides" (absent: the knowledge tracer draws it) or "student-attempts" (an LLM student writes it, the checker grades it; needs an LLM student voice).'),
        chatInstruction: z
          .boolean()
          .optional()
          .describe('Engines 1 and 2: opt-in, a chat message that gives a step or a hint of a working item counts as instruction like a hint. Engine 3 checks every chat message for instruction (docs/learning-model.md, "Instruction"), so this field is kept for old scenarios and traces and changes nothing.'),
        persona: PersonaSchema,
      })
      .strict(),
    schedule: z
      .object({
        name: name('a schedule name'),
        blocks: z
          .array(
            z
              .object({
                days: z.array(z.enum(WEEKDAYS)).min(1).max(7),
                start: hhmm,
                minutes: z.number().int().min(5).max(600),
                chance: prob.default(1).describe('Probability that this block happens on a given day (irregular schedules); the persona may still skip it.'),
              })
              .strict(),
          )
          .min(1)
          .max(SCENARIO_LIMITS.listItems)
          .describe(`Daily blocks when the learner can be online. Day 0 of the run is a Monday. Blocks of one day may not overlap; at most ${SCENARIO_LIMITS.minutesPerDay} scheduled minutes a day and ${SCENARIO_LIMITS.scheduledMinutes} over the horizon.`),
      })
      .strict(),
    probes: z
      .object({
        days: z.union([z.literal('all'), z.array(z.number().int().min(1)).max(SCENARIO_LIMITS.listItems)]).default('all').describe('Days after which the probe set is answered; day 0 (before tutoring) always is.'),
        time: hhmm.default('23:30').describe("Time of day of the probes; at or after the end of every schedule block (the probe measures the day's work)."),
      })
      .strict()
      .default({ days: 'all', time: '23:30' }),
    tutor: z
      .object({
        wakeOn: z.array(z.enum(WAKE_EVENTS)).min(1).max(50).default([...WAKE_EVENTS]),
        maxToolCallsPerTurn: z.number().int().min(1).max(200).default(50),
      })
      .strict()
      .default({ wakeOn: [...WAKE_EVENTS], maxToolCallsPerTurn: 50 }),
  })
  .strict();

export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;
export type Persona = z.infer<typeof PersonaSchema>;

/** JSON Schema (draft 2020-12) for editors, generated from the zod schema. */
export function scenarioJsonSchema(): object {
  return {
    ...z.toJSONSchema(ScenarioSchema, { io: 'input' }),
    $id: 'https://educlaw-lab.local/scenario.schema.json',
    title: 'EduClaw Lab scenario',
  };
}
