/**
 * The learner's voice. Help requests always come from the fixed template set below (so
 * responsiveness can be matched exactly); free-text replies come from a StudentVoice: templates by
 * default, an LLM role-playing the persona when one is configured.
 */
import type { Item } from '../course/types';
import type { Persona } from '../scenario/schema';
import type { Rng } from '../rng';
import { revealsAnswer } from '../course/answer-forms';
import type { ModelCallRecord } from '../llm/types';

/** Help-request templates, version 1. Changing a text changes what responsiveness matches: bump the version. */
export const HELP_TEMPLATES_VERSION = 1;
export const HELP_TEMPLATES: Readonly<Record<string, string>> = {
  stuck: "I'm stuck on this one. Can you help me?",
  how_start: "I don't know how to start this problem.",
  explain_step: 'Can you explain how to do this step?',
  check_answer: "I got an answer but I'm not sure it's right. Can you check?",
  why_wrong: 'Why is my answer wrong?',
  give_answer: 'Can you just give me the answer?',
  just_tell_me: 'Just tell me what to write, please.',
};

export interface ReplyRequest {
  persona: Persona;
  /** The item the learner has open, if any. */
  item: Item | null;
  /** What the tutor just said (this turn's messages, oldest first). */
  tutorTexts: string[];
  /** The tutor's messages revealed the open item's answer. */
  disclosed: boolean;
  /** The learner model decided the learner can take a correct step now. */
  canStep: boolean;
  /** The learner model's belief: P(correct) on the open item from knowledge alone (null without an item). */
  pKnow?: number | null;
}

/** What the episode lends a voice for one reply: a trace hook for LLM calls and the run's cancel signal. */
export interface VoiceIo {
  recordModelCall?: (call: ModelCallRecord) => void;
  signal?: AbortSignal;
}

export interface StudentVoice {
  readonly name: string;
  reply(req: ReplyRequest, rng: Rng, io?: VoiceIo): Promise<string>;
}

/** Deterministic template voice: the default when no LLM is configured. */
export class TemplateVoice implements StudentVoice {
  readonly name = 'templates';

  reply(req: ReplyRequest, rng: Rng): Promise<string> {
    const { item } = req;
    if (!item) return Promise.resolve(rng.pick(['Okay, thanks!', 'Got it.', 'Okay.']));
    if (req.disclosed) return Promise.resolve(rng.pick([`Oh, okay. So it's ${item.answer}. Thanks!`, `Okay, I'll put ${item.answer}.`]));
    if (req.canStep) {
      const steps = item.steps.filter((s) => !revealsAnswer(s, item.answerForms));
      const step = steps.length > 0 ? steps[0]! : item.steps[0]!;
      return Promise.resolve(`${rng.pick(['Let me try:', 'Okay, so', 'I think'])} ${step}`);
    }
    const wrong = rng.pick(item.misconceptions).answer;
    return Promise.resolve(rng.pick([`I'm still not sure. Is it ${wrong}?`, `Hmm. Maybe ${wrong}?`]));
  }
}
