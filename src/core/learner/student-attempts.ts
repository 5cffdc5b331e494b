/**
 * The coupled LLM student (learner.coupling "student-attempts", after the EduClaw paper): at each
 * attempt the learner works out, an LLM role-playing the student gets the item, the conversation
 * with the tutor so far, its earlier tries at the item and its state of knowledge, and writes an
 * attempt in free form; the item bank's answer checker grades it, and the graded outcome enters
 * the knowledge tracer's history as evidence (learner.ts), except where it copies an answer the
 * tutor disclosed. The same prompt, conditioning rule and grading serve every tutor. Documented in
 * docs/learning-model.md ("Coupling"); a change of any text below bumps ATTEMPT_PROMPT_VERSION.
 *
 * Conditioning rule (knowledgeInstruction): the tracer's P(correct) on the item, raised by any
 * instruction boost exactly as in tracer-decides mode (p + (1 − p)·β), becomes an explicit
 * statement of how likely the student is to know the method (a band in words and the percentage),
 * plus the persona and, where the item has one, the typical mistake of a student who does not.
 *
 * Grading (gradeAttempt): a valid reply's "answer" is checked with the item's answer checker
 * ("checked"); a reply with no answer (null, empty) is wrong ("no_answer"); a reply that is still
 * not the JSON asked for after ATTEMPT_CALLS calls is wrong ("malformed", the parse error kept as
 * the reason). None of these is a crash or a silent default; each is recorded on the attempt event.
 * Attempts at an item whose answer the tutor disclosed are not evidence: a correct one is a copy
 * ("copied_disclosed"), a wrong one "after_disclosure" (gradeAttempt).
 * A provider failure (the model cannot be reached) is not a grade: it stops the run with
 * "llm_error", resumable, as for every model call.
 */
import { z } from 'zod';
import type { Item } from '../course/types';
import type { Persona } from '../scenario/schema';
import type { Rng } from '../rng';
import type { ChatMessage, ChatRequest, LlmClient } from '../llm/types';
import { modelCallRecord } from '../llm/types';
import { parseJsonReply } from '../llm/json';
import { checkAnswer } from '../course/answer-check';
import type { VoiceIo } from './voice';

/** v2: no attempt at an item after its answer was disclosed is evidence (v1 kept the wrong ones). */
export const ATTEMPT_PROMPT_VERSION = 'student-attempt-v2';
/** Calls per attempt before a reply that is not the JSON asked for is graded wrong as malformed. */
export const ATTEMPT_CALLS = 3;
/** Conversation messages shown (the most recent), and the characters kept of each. */
export const ATTEMPT_CONTEXT_MESSAGES = 10;
export const ATTEMPT_CONTEXT_CHARS = 600;

/** How a written attempt was graded. */
export type AttemptGrading = 'checked' | 'no_answer' | 'malformed' | 'copied_disclosed' | 'after_disclosure';

/** What the attempt event records of a written attempt (trace: attempt.student). */
export interface StudentAttemptRecord {
  prompt: string;
  grading: AttemptGrading;
  /** The answer as the student wrote it (cut to 200 characters); null when there was none. */
  answer: string | null;
  /** Why a malformed or unanswered attempt was graded wrong. */
  reason?: string;
}

/** One line of the conversation the student has seen (oldest first). */
export interface ConversationLine {
  from: 'tutor' | 'learner';
  text: string;
  /** Content the tutor posted (provide_content): its kind and title. */
  content?: { kind: string; title: string };
}

export interface AttemptContext {
  persona: Persona;
  learnerName: string;
  item: Item;
  /** The tracer's P(correct) on the item with any instruction boost: what the student is told. */
  pKnow: number;
  conversation: readonly ConversationLine[];
  /** The student's earlier tries at this item (oldest first). */
  earlier: readonly { response: string; correct: boolean }[];
}

/** What the student wrote (before grading): the answer, or why there is none. */
export type WrittenAttempt = { ok: true; answer: string | null; work: string | null } | { ok: false; reason: string };

/** Writes the student's attempts (LlmStudent; tests may supply their own). */
export interface StudentAttemptWriter {
  readonly name: string;
  write(ctx: AttemptContext, rng: Rng, io?: VoiceIo): Promise<WrittenAttempt>;
}

/** The conditioning rule: the tracer's P(correct) as an explicit statement of how likely the student knows the method. */
export function knowledgeInstruction(p: number): string {
  const pct = Math.round(Math.min(1, Math.max(0, p)) * 100);
  const band =
    p >= 0.85
      ? 'You know this kind of problem well.'
      : p >= 0.65
        ? 'You mostly know how to do this kind of problem, but not always.'
        : p >= 0.4
          ? 'You are unsure about this kind of problem: sometimes you know the method, often you mix up a step.'
          : p >= 0.2
            ? 'You mostly do not know the method for this kind of problem.'
            : 'You do not know how to do this kind of problem.';
  return `${band} The chance that you know the method and get this problem right on your own is about ${pct}%. Decide as this student would: with that chance you work it out correctly; otherwise you make the kind of mistake such a student makes (or give up).`;
}

function systemPrompt(ctx: AttemptContext): string {
  const p = ctx.persona;
  const m = ctx.item.misconceptions[0];
  const mistake = m ? ` A typical mistake of a student who does not know the method here: ${m.why} (which gives ${m.answer}).` : '';
  return `You are role-playing ${ctx.learnerName}, a middle-school student, in an online maths course. Your personality: ${p.name}${p.description ? ` — ${p.description}` : ''}. You are working on a problem of the course and are about to submit an answer. Stay in character; never mention that you are an AI or these instructions.

How well you know this: ${knowledgeInstruction(ctx.pKnow)}${mistake}

Write the attempt a student with exactly this much knowledge would write: do not solve it like an expert if the student would not. You may use what your tutor has told you in the conversation, as a real student would.

Reply with one JSON object and nothing else: {"work": "<your working, one to three short lines>", "answer": "<the answer you submit, as you would type it in the answer box>" or null if you give up without an answer}.`;
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

function figureText(it: Item): string | null {
  const f = it.figure;
  if (!f) return null;
  if (f.kind === 'svg') return `Figure: ${f.alt}`;
  return `Table${f.caption ? ` (${f.caption})` : ''}: ${[f.header, ...f.rows].map((r) => r.join(' | ')).join(' / ')}`;
}

function userPrompt(ctx: AttemptContext): string {
  const lines: string[] = [];
  const conv = ctx.conversation.slice(-ATTEMPT_CONTEXT_MESSAGES);
  lines.push(
    conv.length
      ? `The conversation with your tutor so far (oldest first):\n${conv.map((c) => `${c.from === 'tutor' ? (c.content ? `[tutor posted a ${c.content.kind.replace('_', ' ')}: ${c.content.title}]` : '[tutor]') : '[you]'} ${cut(c.text, ATTEMPT_CONTEXT_CHARS).replace(/\n/g, '\n    ')}`).join('\n')}`
      : 'There has been no conversation with your tutor yet.',
  );
  if (ctx.earlier.length) lines.push(`Your earlier tries at this problem: ${ctx.earlier.map((e) => `${e.response === '' ? '(no answer)' : e.response} (marked ${e.correct ? 'right' : 'wrong'})`).join('; ')}.`);
  const it = ctx.item;
  const parts = [`The problem: ${it.stem}`];
  const fig = figureText(it);
  if (fig) parts.push(fig);
  if (it.choices?.length) parts.push(`Options: ${it.choices.map((c, i) => `(${String.fromCharCode(97 + i)}) ${c}`).join('  ')}`);
  lines.push(parts.join('\n'));
  lines.push('Write your attempt now.');
  return lines.join('\n\n');
}

/** The messages of an attempt request (exported for the docs and the tests). */
export function attemptMessages(ctx: AttemptContext): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt(ctx) },
    { role: 'user', content: userPrompt(ctx) },
  ];
}

const ReplySchema = z
  .object({
    work: z.string().max(4000).nullable().optional(),
    // A number is read as its text: models often write {"answer": 5}.
    answer: z.union([z.string(), z.number()]).nullable(),
  })
  .loose();

/** Why an attempt at an item whose answer the tutor disclosed is not the student's own evidence. */
export const AFTER_DISCLOSURE = 'the tutor had disclosed this answer: in the history as not solved';

/**
 * Grades a written attempt with the item's answer checker. `disclosed`: the tutor revealed this
 * item's answer while the learner worked on it (the leakage matcher, as in tracer-decides mode).
 * Then the attempt is not the student's own evidence (`evidence` false), whatever its grade: a
 * correct one is a copy of the disclosed answer ("copied_disclosed"), a wrong one is graded wrong
 * ("after_disclosure", or no_answer / malformed with the reason). The learner (learner.ts) writes
 * either into the history as not solved, as ASSISTments marks a problem whose answer was shown.
 */
export function gradeAttempt(item: Item, w: WrittenAttempt, disclosed: boolean): { correct: boolean; response: string; evidence: boolean; record: StudentAttemptRecord } {
  const base = { prompt: ATTEMPT_PROMPT_VERSION };
  const evidence = !disclosed;
  const why = (r: string) => (disclosed ? `${r}; ${AFTER_DISCLOSURE}` : r);
  if (!w.ok) return { correct: false, response: '', evidence, record: { ...base, grading: 'malformed', answer: null, reason: why(w.reason) } };
  const answer = w.answer?.trim() ?? '';
  if (answer === '') return { correct: false, response: '', evidence, record: { ...base, grading: 'no_answer', answer: null, reason: why(w.answer === null ? 'the student gave no answer (null)' : 'the answer was empty') } };
  const correct = checkAnswer(item, answer);
  const shown = cut(answer, 200);
  if (!disclosed) return { correct, response: shown, evidence, record: { ...base, grading: 'checked', answer: shown } };
  return { correct, response: shown, evidence, record: correct ? { ...base, grading: 'copied_disclosed', answer: shown } : { ...base, grading: 'after_disclosure', answer: shown, reason: AFTER_DISCLOSURE } };
}

/** The LLM student: writes attempts through a model client (the student voice's). */
export class LlmStudent implements StudentAttemptWriter {
  readonly name: string;
  readonly #llm: LlmClient;
  readonly #temperature: number;

  constructor(llm: LlmClient, opts: { temperature?: number } = {}) {
    this.#llm = llm;
    this.name = `llm:${llm.provider}/${llm.model}`;
    this.#temperature = opts.temperature ?? 0.7;
  }

  async write(ctx: AttemptContext, rng: Rng, io?: VoiceIo): Promise<WrittenAttempt> {
    const messages = attemptMessages(ctx);
    let lastError = '';
    for (let call = 1; call <= ATTEMPT_CALLS; call++) {
      const creq: ChatRequest = { messages: [...messages], temperature: this.#temperature, json: true, seed: rng.int(0, 2 ** 31 - 1) };
      let res;
      try {
        res = await this.#llm.chat(creq, io?.signal);
      } catch (e) {
        io?.recordModelCall?.(modelCallRecord('student', 'student:attempt', this.#llm, creq, { error: e }));
        throw e;
      }
      const rec = modelCallRecord('student', 'student:attempt', this.#llm, creq, { res });
      const parsed = parseJsonReply(res.content, ReplySchema);
      if (parsed.ok) {
        io?.recordModelCall?.(rec);
        const a = parsed.value.answer;
        return { ok: true, answer: a === null ? null : String(a), work: parsed.value.work ?? null };
      }
      lastError = parsed.error;
      io?.recordModelCall?.({ ...rec, error: { code: 'LLM_BAD_RESPONSE', message: `student attempt not usable: ${parsed.error}` } });
      messages.push({ role: 'assistant', content: res.content ?? '' }, { role: 'user', content: `That was not a valid reply (${parsed.error}). Reply with the JSON object only.` });
    }
    return { ok: false, reason: `${ATTEMPT_CALLS} replies in a row were not the JSON asked for (last: ${lastError})` };
  }
}
