/**
 * Judge rubrics, versioned. Every verdict records the rubric id and version; changing any text
 * below means bumping the version (verdicts under different wording are not comparable). The
 * course length a judge is told is the run's horizon (`run_start.scenario.horizonDays`), given to
 * `rubricPrompt`; v2 of every rubric: the horizon comes from the run (v1 said "30-day" always).
 *
 * Provenance (see docs/llm.md, "Judges"):
 *  - helpfulness: 29 items of our own wording, grouped under the five learning-science principles
 *    LearnLM names (active learning, cognitive load, adapting to the learner, curiosity/motivation,
 *    metacognition; Jurenka et al. 2024, arXiv 2407.12687). Scored 1–10 as in EduClaw-Bench.
 *    Not LearnLM's wording and not its Likert scale.
 *  - gagne: Gagné's nine events of instruction (Gagné, Wager, Golas & Keller 2005), 1–5, 1 = absent.
 *  - rosenshine: Rosenshine's ten principles of instruction (2010/2012), 1–5, 1 = absent.
 *  - answer_holding: did the tutor hold back the answers to the problems the learner was working
 *    on (yes/no per day); the judge sees those answers so that it can spot paraphrased reveals.
 *  - pedagogy: the four dimensions of Fan et al. 2026's pedagogy rubric (scaffolding, productive
 *    struggle, assistance calibration, elicitation) plus overall, 1–5, with its neutrality clause;
 *    the judge never sees the answers. Fan et al. score single turns; we score a day's turns.
 */
/** The judged axes a ScoreReport carries (`report.judged`), one per rubric; null = unscored. */
export const JUDGED_AXES = ['helpfulness', 'gagne', 'rosenshine', 'answerHolding', 'pedagogy'] as const;
export type JudgedAxis = (typeof JUDGED_AXES)[number];

export interface RubricItem {
  id: string;
  group?: string;
  text: string;
}

interface RubricBase {
  id: RubricId;
  version: string;
  axis: JudgedAxis;
  title: string;
  /** First day judged (Gagné and Rosenshine from day 2: day 1 has no previous lesson to build on). */
  fromDay: number;
  /** Whether the transcript shows the answers of the items worked on that day. */
  withAnswers: boolean;
  /** What the judge is asked, after the common introduction (`rubricPrompt` puts them together). */
  instructions: string;
}
export interface ScaleRubric extends RubricBase {
  kind: 'scale';
  min: number;
  max: number;
  items: RubricItem[];
  /** How a verdict's item scores become the day's number on the axis. */
  dayScore: 'mean' | 'overall';
}
export interface BinaryRubric extends RubricBase {
  kind: 'binary';
}
export type Rubric = ScaleRubric | BinaryRubric;

export const RUBRIC_IDS = ['helpfulness', 'gagne', 'rosenshine', 'answer_holding', 'pedagogy'] as const;
export type RubricId = (typeof RUBRIC_IDS)[number];

/** What every rubric's prompt opens with: the setting, for a course of `horizonDays` days. */
export const judgeIntro = (horizonDays: number) => `You are an expert teacher and instructional designer evaluating an AI tutor. The tutor works with one simulated middle-school learner in a ${horizonDays}-day online maths course, acting through a learning-management system: it can send chat messages, post content (explanations, worked examples, hints), assign practice items and set difficulty levels. You will read the log of ONE day: the learner's logins, attempts (graded by the system), help requests and messages, and everything the tutor did. Judge only the tutor's behaviour on this day, from the log. Do not check the maths yourself beyond what the log shows. If the tutor did nothing on a day when the learner needed it, that counts against it.`;

const HELP_ITEMS: RubricItem[] = [
  // Inspiring active learning
  { id: 'al_questions', group: 'active learning', text: 'Asks the learner questions that make them think (not only yes/no or "do you understand?").' },
  { id: 'al_room', group: 'active learning', text: 'Leaves room for the learner to do the work and respond before moving on.' },
  { id: 'al_guides', group: 'active learning', text: 'Guides the learner towards solutions instead of supplying them.' },
  { id: 'al_practice', group: 'active learning', text: 'Gives practice opportunities that fit what the learner is working on.' },
  { id: 'al_builds', group: 'active learning', text: "Builds on the learner's own answers, attempts and errors." },
  { id: 'al_engaged', group: 'active learning', text: 'Keeps the learner actively engaged rather than passively reading.' },
  // Managing cognitive load
  { id: 'cl_chunks', group: 'cognitive load', text: 'Presents material in small, manageable pieces.' },
  { id: 'cl_clear', group: 'cognitive load', text: 'Explanations are clear and well organised.' },
  { id: 'cl_concise', group: 'cognitive load', text: 'Stays focused: no irrelevant information, no needlessly long messages.' },
  { id: 'cl_examples', group: 'cognitive load', text: 'Uses worked examples, analogies or representations that suit the content.' },
  { id: 'cl_one_step', group: 'cognitive load', text: 'Deals with one idea or step at a time; does not pile up questions or tasks.' },
  { id: 'cl_accurate', group: 'cognitive load', text: 'Is accurate: no mathematical errors or misleading statements.' },
  // Adapting to the learner
  { id: 'ad_level', group: 'adaptivity', text: "Pitches the difficulty at the learner's level, using the evidence in the log." },
  { id: 'ad_responsive', group: 'adaptivity', text: 'Responds to help requests and messages promptly and to the point.' },
  { id: 'ad_unstuck', group: 'adaptivity', text: 'Helps the learner get unstuck when they are stuck.' },
  { id: 'ad_misconceptions', group: 'adaptivity', text: 'Notices and addresses the misconceptions behind wrong answers.' },
  { id: 'ad_proactive', group: 'adaptivity', text: 'Acts proactively on signals such as missed work, repeated errors or giving up.' },
  { id: 'ad_personal', group: 'adaptivity', text: "Tailors what it does to this learner's history rather than giving generic help." },
  // Stimulating curiosity and motivation
  { id: 'mo_tone', group: 'curiosity and motivation', text: 'Uses an encouraging, warm and respectful tone.' },
  { id: 'mo_interest', group: 'curiosity and motivation', text: 'Sparks interest: connects the maths to contexts or reasons that matter to the learner.' },
  { id: 'mo_feedback', group: 'curiosity and motivation', text: 'Gives specific feedback and praises effort and strategy, not only results.' },
  { id: 'mo_affect', group: 'curiosity and motivation', text: 'Notices frustration, discouragement or disengagement and responds to it.' },
  { id: 'mo_autonomy', group: 'curiosity and motivation', text: 'Supports autonomy: invites the learner to try, choose or set goals.' },
  // Deepening metacognition
  { id: 'mc_goals', group: 'metacognition', text: 'Makes goals and what is being learned explicit to the learner.' },
  { id: 'mc_self_check', group: 'metacognition', text: 'Prompts the learner to check their own work and find their own mistakes.' },
  { id: 'mc_explain', group: 'metacognition', text: 'Asks the learner to explain their reasoning.' },
  { id: 'mc_reflect', group: 'metacognition', text: 'Encourages reflection on what was learned and how.' },
  { id: 'mc_strategies', group: 'metacognition', text: 'Teaches strategies that transfer to other problems.' },
  { id: 'mc_progress', group: 'metacognition', text: 'Helps the learner see their progress and what to work on next.' },
];

const GAGNE_ITEMS: RubricItem[] = [
  { id: 'g1_attention', text: 'Gaining attention: opens the session in a way that engages the learner.' },
  { id: 'g2_objective', text: 'Informing the learner of the objective: says what they will learn or be able to do.' },
  { id: 'g3_recall', text: 'Stimulating recall of prior learning: connects to what the learner already knows or did before.' },
  { id: 'g4_content', text: 'Presenting the content: explains or shows the new material (explanations, worked examples).' },
  { id: 'g5_guidance', text: 'Providing learning guidance: hints, cues, scaffolds and examples while the learner works.' },
  { id: 'g6_performance', text: 'Eliciting performance: has the learner practise (assigned items, questions to answer).' },
  { id: 'g7_feedback', text: "Providing feedback: specific, informative feedback on the learner's attempts." },
  { id: 'g8_assessment', text: 'Assessing performance: checks whether the learner has mastered the objective.' },
  { id: 'g9_retention', text: 'Enhancing retention and transfer: spaced review, varied problems, links to new situations.' },
];

const ROSENSHINE_ITEMS: RubricItem[] = [
  { id: 'r1_review', text: 'Begins with a short review of previous learning.' },
  { id: 'r2_small_steps', text: 'Presents new material in small steps, with practice after each step.' },
  { id: 'r3_questions', text: 'Asks many questions and checks the responses.' },
  { id: 'r4_models', text: 'Provides models (worked examples, demonstrations).' },
  { id: 'r5_guided_practice', text: 'Guides the learner\'s practice.' },
  { id: 'r6_check_understanding', text: 'Checks for understanding.' },
  { id: 'r7_success_rate', text: 'Aims for a high success rate (about 80%): tasks neither too hard nor too easy.' },
  { id: 'r8_scaffolds', text: 'Provides scaffolds for difficult tasks.' },
  { id: 'r9_independent_practice', text: 'Requires and monitors independent practice.' },
  { id: 'r10_spaced_review', text: 'Engages the learner in weekly and monthly review.' },
];

const PEDAGOGY_ITEMS: RubricItem[] = [
  { id: 'scaffolding', text: "Scaffolding: support contingent on the learner's current state — more help after failure, less after success (Wood, Bruner & Ross 1976)." },
  { id: 'productive_struggle', text: 'Productive struggle: preserves the steps the learner can still generate themselves instead of doing them for the learner (Slamecka & Graf 1978).' },
  { id: 'assistance_calibration', text: 'Assistance calibration: neither over-assists (doing the thinking for the learner) nor under-assists (leaving them stuck without help) (Koedinger & Aleven 2007).' },
  { id: 'elicitation', text: "Elicitation: elicits the learner's own work and takes up what they said (Aleven et al. 2006)." },
  { id: 'overall', text: 'Overall pedagogical quality of the tutor on this day.' },
];

const ANCHORS_5 = '1 = absent, 2 = a trace of it, 3 = present but partial or weak, 4 = clearly present, 5 = present and done well throughout the day.';

export const RUBRICS: Readonly<Record<RubricId, Rubric>> = {
  helpfulness: {
    id: 'helpfulness',
    version: 'helpfulness-v2',
    axis: 'helpfulness',
    title: 'III. Helpfulness (29 items after LearnLM\'s five principles, 1–10)',
    kind: 'scale',
    min: 1,
    max: 10,
    items: HELP_ITEMS,
    dayScore: 'mean',
    fromDay: 1,
    withAnswers: false,
    instructions: `Rate the tutor on each of the 29 items below from 1 (not at all / very poor) to 10 (fully / excellent). Rate what the log shows; when the tutor had no occasion for an item, rate how well it used the occasions it had, and rate 1 if it did nothing at all.`,
  },
  gagne: {
    id: 'gagne',
    version: 'gagne-v2',
    axis: 'gagne',
    title: "IVa. Gagné's nine events of instruction (1–5)",
    kind: 'scale',
    min: 1,
    max: 5,
    items: GAGNE_ITEMS,
    dayScore: 'mean',
    fromDay: 2,
    withAnswers: false,
    instructions: `Rate how fully the tutor's instruction on this day carries out each of Gagné's nine events of instruction: ${ANCHORS_5}`,
  },
  rosenshine: {
    id: 'rosenshine',
    version: 'rosenshine-v2',
    axis: 'rosenshine',
    title: "IVb. Rosenshine's ten principles of instruction (1–5)",
    kind: 'scale',
    min: 1,
    max: 5,
    items: ROSENSHINE_ITEMS,
    dayScore: 'mean',
    fromDay: 2,
    withAnswers: false,
    instructions: `Rate how fully the tutor's instruction on this day follows each of Rosenshine's ten principles of instruction: ${ANCHORS_5}`,
  },
  answer_holding: {
    id: 'answer_holding',
    version: 'answer-holding-v2',
    axis: 'answerHolding',
    title: 'Answer holding (yes/no per day)',
    kind: 'binary',
    fromDay: 1,
    withAnswers: true,
    instructions: `Question: did the tutor HOLD BACK the answers to the problems the learner was working on, so that the learner had to produce them? The log lists those problems with their correct answers (the learner did not see these answers). Answer "held": false if any tutor message or posted content gave away the final answer to a problem the learner was working on or was about to submit, in any form (the number or expression itself, a paraphrase, or all the steps up to it). Worked examples of OTHER problems, hints, and confirming an answer the learner already submitted do not count as giving it away. Answer "held": true otherwise, including on a day when the tutor said nothing.`,
  },
  pedagogy: {
    id: 'pedagogy',
    version: 'pedagogy-v2',
    axis: 'pedagogy',
    title: 'Pedagogy (after Fan et al. 2026: scaffolding, productive struggle, assistance calibration, elicitation, overall; 1–5)',
    kind: 'scale',
    min: 1,
    max: 5,
    items: PEDAGOGY_ITEMS,
    dayScore: 'overall',
    fromDay: 1,
    withAnswers: false,
    instructions: `Rate the tutor's turns on this day on each dimension from 1 (very poor) to 5 (excellent). Be neutral about strategy: disclosing an answer is not automatically wrong, and withholding it is not automatically right — judge whether the help fitted what the learner could do at that moment.`,
  },
};

/** The judge's system prompt for a rubric, on a run of `horizonDays` days: the introduction, the rubric's instructions, the reply format. */
export function rubricPrompt(r: Rubric, horizonDays: number): string {
  return `${judgeIntro(horizonDays)}\n\n${r.instructions}\n\n${replyFormat(r)}`;
}

/** The JSON reply format a rubric asks for (appended to its instructions). */
export function replyFormat(r: Rubric): string {
  if (r.kind === 'binary') return `Reply with one JSON object and nothing else: {"held": true or false, "evidence": "<one sentence quoting the message that gave an answer away, or empty>"}.`;
  const keys = r.items.map((i) => `"${i.id}": <integer ${r.min}-${r.max}>`).join(', ');
  const list = r.items.map((i) => `- ${i.id}${i.group ? ` (${i.group})` : ''}: ${i.text}`).join('\n');
  return `Items:\n${list}\n\nReply with one JSON object and nothing else, every item an integer from ${r.min} to ${r.max}: {${keys}, "comment": "<one or two sentences>"}.`;
}

/** The day's number on the axis from one verdict's item scores. */
export function dayValue(r: ScaleRubric, scores: Record<string, number>): number {
  if (r.dayScore === 'overall') return scores.overall!;
  return r.items.reduce((a, i) => a + scores[i.id]!, 0) / r.items.length;
}
