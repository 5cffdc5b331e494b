/**
 * The LLM student voice: an LLM role-plays the persona's free-text replies, conditioned on the
 * open item, the learner model's belief (P(correct) on it) and the correctness the learner model
 * decided for this reply. Help requests never come from here (they are the fixed templates), so
 * responsiveness stays exact.
 *
 * The voice replies in JSON: {"message": what the learner says, "answer": the answer the message
 * commits to, or null}. Each reply is graded against the decided correctness:
 *  - an `answer` is checked with the item's answer checker; it mismatches when its correctness
 *    differs from the decided one;
 *  - with no `answer`, a message that states the item's answer (declared answer forms) while the
 *    learner was decided unable to is a mismatch too;
 *  - otherwise the reply made no gradable attempt (counted, not a mismatch).
 * The check is stored on the reply's `model_call` event (voiceCheck) and summarised by
 * `voiceFidelity` in scoring. A reply that stays malformed after retries stops the run with
 * "llm_error" (LLM_BAD_RESPONSE): no template is substituted behind the user's back.
 */
import { z } from 'zod';
import type { ReplyRequest, StudentVoice, VoiceIo } from './voice';
import type { Rng } from '../rng';
import type { ChatMessage, ChatRequest, LlmClient } from '../llm/types';
import { LlmError, modelCallRecord } from '../llm/types';
import { parseJsonReply } from '../llm/json';
import { checkAnswer } from '../course/answer-check';
import { revealsAnswer } from '../course/answer-forms';

export const VOICE_PROMPT_VERSION = 'student-voice-v1';
export const VOICE_ATTEMPTS = 3;

const ReplySchema = z.object({ message: z.string().min(1).max(1200), answer: z.string().max(200).nullable() }).loose();

export interface VoiceGrade {
  decided: boolean;
  rendered: boolean | null;
  mismatch: boolean;
  answer: string | null;
}

/** Grades a rendered reply against the decided correctness (see the file comment). */
export function gradeReply(req: ReplyRequest, reply: { message: string; answer: string | null }): VoiceGrade {
  const decided = req.disclosed || req.canStep;
  const item = req.item;
  if (!item) return { decided, rendered: null, mismatch: false, answer: reply.answer };
  if (reply.answer !== null && reply.answer.trim() !== '') {
    const rendered = checkAnswer(item, reply.answer);
    return { decided, rendered, mismatch: rendered !== decided, answer: reply.answer };
  }
  if (!decided && revealsAnswer(reply.message, item.answerForms)) return { decided, rendered: true, mismatch: true, answer: null };
  return { decided, rendered: null, mismatch: false, answer: null };
}

function systemPrompt(req: ReplyRequest, learnerName: string): string {
  const p = req.persona;
  return `You are role-playing ${learnerName}, a middle-school student, in an online maths course. Your personality: ${p.name}${p.description ? ` — ${p.description}` : ''}. You are chatting with your tutor. Write like a real 12-year-old: one to three short sentences, plain text, no markdown. Stay in character; never mention that you are an AI or these instructions.

Reply with one JSON object and nothing else: {"message": "<what you write to the tutor>", "answer": "<the answer to the problem that your message commits to, exactly as written in the message>" or null if your message gives no answer}.`;
}

function situation(req: ReplyRequest): string {
  const lines: string[] = [];
  lines.push(`Your tutor just wrote:\n${req.tutorTexts.map((t) => `> ${t.replace(/\n/g, '\n> ')}`).join('\n')}`);
  const it = req.item;
  if (!it) {
    lines.push('You are not working on a problem right now. Reply briefly and naturally.');
    return lines.join('\n\n');
  }
  lines.push(`The problem you are working on: ${it.stem}`);
  if (req.pKnow !== null && req.pKnow !== undefined) lines.push(`How well you know this kind of problem: you would get it right about ${Math.round(req.pKnow * 100)}% of the time on your own.`);
  if (req.disclosed) {
    lines.push(`Your tutor has told you the answer (${it.answer}). You take it: say what you will write, and give that answer.`);
  } else if (req.canStep) {
    lines.push('This time you CAN do it: show one correct step of your own working (for example an equation or a computation). If you give an answer, it must be correct.');
  } else {
    const m = it.misconceptions[0];
    lines.push(
      `This time you CANNOT do it correctly: you are confused${m ? `; your thinking follows this mistake: ${m.why} (which leads to the answer ${m.answer})` : ''}. Show your (wrong) attempt or ask a question. Do not write the correct answer.`,
    );
  }
  return lines.join('\n\n');
}

export class LlmVoice implements StudentVoice {
  readonly name: string;
  readonly #llm: LlmClient;
  readonly #learnerName: string;
  readonly #temperature: number;

  constructor(llm: LlmClient, opts: { learnerName?: string; temperature?: number } = {}) {
    this.#llm = llm;
    this.name = `llm:${llm.provider}/${llm.model}`;
    this.#learnerName = opts.learnerName ?? 'Sam';
    this.#temperature = opts.temperature ?? 0.7;
  }

  async reply(req: ReplyRequest, rng: Rng, io?: VoiceIo): Promise<string> {
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(req, this.#learnerName) },
      { role: 'user', content: situation(req) },
    ];
    let lastError = '';
    for (let attempt = 1; attempt <= VOICE_ATTEMPTS; attempt++) {
      const creq: ChatRequest = { messages: [...messages], temperature: this.#temperature, json: true, seed: rng.int(0, 2 ** 31 - 1) };
      let res;
      try {
        res = await this.#llm.chat(creq, io?.signal);
      } catch (e) {
        io?.recordModelCall?.(modelCallRecord('student', 'voice:reply', this.#llm, creq, { error: e }));
        throw e;
      }
      const parsed = parseJsonReply(res.content, ReplySchema);
      const rec = modelCallRecord('student', 'voice:reply', this.#llm, creq, { res });
      if (parsed.ok) {
        const grade = gradeReply(req, { message: parsed.value.message, answer: parsed.value.answer });
        io?.recordModelCall?.({ ...rec, voiceCheck: grade });
        return parsed.value.message.trim();
      }
      lastError = parsed.error;
      io?.recordModelCall?.({ ...rec, error: { code: 'LLM_BAD_RESPONSE', message: `student reply not usable: ${parsed.error}` } });
      messages.push({ role: 'assistant', content: res.content ?? '' }, { role: 'user', content: `That was not a valid reply (${parsed.error}). Reply with the JSON object only.` });
    }
    throw new LlmError('LLM_BAD_RESPONSE', `student voice ${this.#llm.provider}/${this.#llm.model}: ${VOICE_ATTEMPTS} malformed replies in a row (last: ${lastError})`);
  }
}
