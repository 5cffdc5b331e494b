/**
 * A classroom study (a small field study with real students), as data: the course, the tutor,
 * the sessions, the consent text, the optional pre/post probe set, and the caps. `fieldScenario`
 * turns it into the scenario every participant's run uses (one run per participant, one virtual
 * day per session); docs/classroom.md says what a field trace holds.
 */
import { z } from 'zod';
import { ScenarioSchema, WAKE_EVENTS, type Scenario } from '../scenario/schema';
import { WEEKDAYS } from '../clock';
import { hashString } from '../rng';

const TutorRefSchema = z.object({ name: z.string().min(1), config: z.record(z.string(), z.unknown()).default({}) }).strict();

export const StudySpecSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    /** Course skills (ASSISTments 2009 ids) and the item bank's shape. */
    skills: z.array(z.number().int().min(1).max(110)).min(1).max(20),
    itemsPerLevel: z.number().int().min(2).max(30).default(8),
    startLevel: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(2),
    /** Items of course homework posted at the start of each session (0: none; the tutor assigns work). */
    homeworkPerSession: z.number().int().min(0).max(10).default(3),
    maxAttemptsPerItem: z.number().int().min(1).max(5).default(2),
    /** The tutor: a built-in one, or an LLM tutor (its provider is configured on the classroom server). With conditions: the first condition's. */
    tutor: TutorRefSchema,
    /**
     * Two or more conditions (e.g. two tutors): each participant is assigned one when their code
     * is made, at random in permuted blocks (balanced, reproducible from the study id), and
     * recorded; the report compares the conditions' tutors as it compares any tutors.
     */
    conditions: z
      .array(z.object({ name: z.string().regex(/^[A-Za-z0-9][\w-]{0,39}$/, 'a condition name: letters, digits, - and _ (at most 40)'), tutor: TutorRefSchema }).strict())
      .min(2)
      .max(4)
      .refine((cs) => new Set(cs.map((c) => c.name)).size === cs.length, 'condition names must differ')
      .optional(),
    sessions: z.number().int().min(1).max(30),
    sessionMinutes: z.number().int().min(5).max(180),
    consent: z.string().trim().min(1).max(5000),
    /** A probe set (drawn from the item bank) answered at the start of the first session and the end of the last: the field's learning gain. */
    probes: z.boolean().default(false),
    probesPerSkill: z.number().int().min(1).max(10).default(2),
    /**
     * The post-quiz is a parallel form: other items of the same skills and levels as the pre-quiz,
     * drawn reproducibly from the item bank (held out from practice too), so a gain is not a
     * student remembering the pre-quiz. false: the post-quiz repeats the pre-quiz's items. Studies
     * stored before this option existed have neither (one form, as they were run).
     */
    parallelForms: z.boolean().default(true),
    /**
     * How typed answers are read before the checker grades them (src/adapters/classroom/answer-input.ts):
     * 1: "½", "5½", "2,5", "1 and 1/10" and a percent for a value are read as numbers; 0: as typed.
     * Studies stored before this option existed have neither (as typed).
     */
    answerReading: z.union([z.literal(0), z.literal(1)]).default(1),
    /** At most this many LLM calls for the whole study (LLM tutors; null: no cap). */
    llmCallCap: z.number().int().min(1).max(1_000_000).nullable().default(null),
  })
  .strict();
export type StudySpec = z.infer<typeof StudySpecSchema>;
export type StudySpecInput = z.input<typeof StudySpecSchema>;

/** The scenario of a study's runs: one day per session, the learner a real student (the persona only sets the LMS's attempt limit). */
export function fieldScenario(spec: StudySpec, studyId: string): Scenario {
  const id = `field-${studyId.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`.slice(0, 80).replace(/-+$/, '');
  return ScenarioSchema.parse({
    schemaVersion: 1,
    id,
    title: spec.name,
    description: `Field study "${spec.name}": real students, ${spec.sessions} session${spec.sessions === 1 ? '' : 's'} of ${spec.sessionMinutes} minutes; one virtual day per session.`,
    seed: hashString(studyId),
    horizonDays: spec.sessions,
    course: {
      title: spec.name,
      skills: spec.skills,
      itemsPerLevel: spec.itemsPerLevel,
      probesPerSkill: spec.probesPerSkill,
      ...(spec.probes && spec.parallelForms === true ? { probeForms: 2 } : {}),
      startLevel: spec.startLevel,
      homework: { days: [...WEEKDAYS], itemsPerDay: spec.homeworkPerSession, dueTime: '23:00', dueInDays: 0 },
    },
    learner: {
      name: 'Student',
      ability: 'average',
      tracer: 'none',
      persona: { name: 'real-student', description: 'A real student (a classroom study): every action comes from their browser.', maxAttemptsPerItem: spec.maxAttemptsPerItem },
    },
    schedule: { name: 'study-sessions', blocks: [{ days: [...WEEKDAYS], start: '00:00', minutes: spec.sessionMinutes }] },
    probes: { days: [], time: '23:30' },
    tutor: { wakeOn: [...WAKE_EVENTS], maxToolCallsPerTurn: 50 },
  });
}
