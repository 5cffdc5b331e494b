/**
 * Scripted LLM students for coupling "student-attempts" (src/core/learner/student-attempts.ts),
 * as handlers of the scripted OpenAI-compatible server (mock-openai-server.ts) or of MockLlm. They
 * read the attempt prompt as a model would (the stated chance of knowing the method, the problem,
 * the conversation) and answer from the item bank of the run they serve, deterministically (a hash
 * of the request decides), so their calibration is known by construction:
 *
 *  - "calibrated" (any model name without the words below): right with the stated chance;
 *  - a model name containing "overconfident": right whenever the stated chance is 20% or more (a
 *    capable model that ignores the role it was given);
 *  - a model name containing "copier": as "calibrated", but copies an answer the tutor gave in the
 *    conversation (the item's canonical answer on a tutor line).
 *
 * A wrong answer is the typical mistake the prompt names. Other requests go to `policyReply`.
 * These say nothing about real LLM students: they show that the calibration check can tell a
 * calibrated student from an overconfident one (docs/learning-model.md, "Coupling").
 */
import { createHash } from 'node:crypto';
import { MockLlm, buildItemBank, effectiveScenario, revealsAnswer, Rng, type Item, type RunRecord } from '../core/index';
import { chat, policyReply, type ScriptedReply, type WireRequest } from './mock-openai-server';

/** The items a run's bank holds (built as the run's world builds it), by stem. */
export function itemsByStem(record: RunRecord): Map<string, Item[]> {
  const s = effectiveScenario(record);
  const c = s.course;
  const bank = buildItemBank({ skills: c.skills, itemsPerLevel: c.itemsPerLevel, probesPerSkill: c.probesPerSkill }, new Rng(s.seed).fork('bank'));
  const m = new Map<string, Item[]>();
  for (const it of bank.items) m.set(it.stem, [...(m.get(it.stem) ?? []), it]);
  return m;
}

export const isAttemptRequest = (body: { messages: { role: string; content?: string | null }[] }): boolean => (body.messages[0]?.content ?? '').includes('are about to submit an answer');

/** The stated chance (0..1), the problem's stem and the conversation lines of an attempt prompt. */
export function readAttemptPrompt(body: { messages: { role: string; content?: string | null }[] }): { p: number; stem: string; tutorLines: string[]; mistake: string | null } {
  const sys = body.messages[0]?.content ?? '';
  const user = body.messages[1]?.content ?? '';
  const pct = /get this problem right on your own is about (\d+)%/.exec(sys);
  const mistake = /\(which gives (.+?)\)\./.exec(sys);
  const stem = /The problem: (.*)/.exec(user);
  const tutorLines = user.split('\n').filter((l) => l.startsWith('[tutor'));
  return { p: pct ? Number(pct[1]) / 100 : 0, stem: stem?.[1] ?? '', tutorLines, mistake: mistake?.[1] ?? null };
}

/** A number in [0, 1) from the request (its messages and seed): the scripted student's coin. */
function coin(body: WireRequest): number {
  const h = createHash('sha256').update(JSON.stringify([body.messages, body.seed ?? null])).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

/** The scripted student's reply to an attempt request of a run whose items are `items`. */
export function scriptedAttempt(body: WireRequest, items: ReadonlyMap<string, Item[]>): ScriptedReply {
  const { p, stem, tutorLines, mistake } = readAttemptPrompt(body);
  const item = items.get(stem)?.[0];
  const wrong = mistake ?? item?.misconceptions[0]?.answer ?? null;
  if (!item) return chat(JSON.stringify({ work: 'I am not sure.', answer: wrong }));
  const model = body.model.toLowerCase();
  if (model.includes('copier') && tutorLines.some((l) => revealsAnswer(l, item.answerForms))) return chat(JSON.stringify({ work: 'My tutor told me.', answer: item.answer }));
  const right = model.includes('overconfident') ? p >= 0.2 : coin(body) < p;
  return chat(JSON.stringify(right ? { work: item.steps.slice(0, 2).join('; '), answer: item.answer } : { work: 'I think it is this.', answer: wrong }));
}

/** A server handler: scripted attempts for the run(s) whose items are given, `policyReply` for everything else. */
export function scriptedStudentHandler(items: ReadonlyMap<string, Item[]>): (body: WireRequest) => ScriptedReply {
  return (body) => (isAttemptRequest(body) ? scriptedAttempt(body, items) : policyReply(body));
}

/** The scripted student in process (a MockLlm): attempts for the run whose items are given, `policyReply` for the voice's replies. */
export function scriptedStudentLlm(items: ReadonlyMap<string, Item[]>, model = 'student-calibrated', provider = 'mock'): MockLlm {
  return new MockLlm(
    (req) => {
      const body: WireRequest = { model, messages: req.messages.map((m) => ({ role: m.role, content: m.content })), ...(req.seed !== undefined ? { seed: req.seed } : {}) };
      const r = isAttemptRequest(body) ? scriptedAttempt(body, items) : policyReply(body);
      if (r.kind !== 'chat') throw new Error('scripted student: only chat replies');
      return { content: r.content ?? null };
    },
    { model, provider },
  );
}
