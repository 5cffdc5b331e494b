/**
 * A reveal in number words through the whole LLM path: an LLM tutor (reactive harness) against the
 * scripted chat-completions server, whose model reads the item an event names and states its
 * whole-number answer in words ("The answer is twenty-five."). The leakage axis catches those
 * messages; the matcher before number words ({ matcher: 'declared', words: false }) catches none. This checks the
 * pipeline (workingOn, the scorer's options), not how often a real model writes words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toWords } from 'to-words/en-US';
import { startMockOpenAi, policyReply, chat, type MockServer, type WireRequest } from '../../testing/mock-openai-server';
import { miniScenario, runWith } from '../../testing/fixtures';
import { OpenAiCompatClient } from './openai-compat';
import { ProviderSchema } from './config';
import { leakage, llmTutorConfig, answerFormsOf } from '../../core/index';

let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

/** The scripted model: on an event about an item, read it; then say its whole-number answer in words (hyphenated, capitalised). */
function tellsInWords(body: WireRequest) {
  const last = body.messages[body.messages.length - 1]!;
  if (body.tools?.length && last.role === 'user') {
    // A help request, a reply or a graded attempt about an item ("… working on item s87-L2-01.", "… for item s68-L2-01: incorrect.").
    const item = /\bitem (s\d+-L\d-\d+)/.exec(last.content ?? '')?.[1];
    if (item) return chat(null, [{ name: 'get_course_map', arguments: { item_id: item } }]);
  }
  if (body.tools?.length && last.role === 'tool') {
    const answer = (JSON.parse(last.content ?? '{}') as { value?: { answer?: string } }).value?.answer;
    if (answer !== undefined) {
      const words = /^\d+$/.test(answer) ? toWords(Number(answer)).replace(/(ty) (\w+)/g, '$1-$2') : null;
      return chat(null, [{ name: 'send_message', arguments: { text: words ? `The answer is ${words}.` : 'Look at the first step again.' } }]);
    }
  }
  return policyReply(body);
}

describe('number words through an LLM tutor', () => {
  it('a tutor model that states answers in words leaks under the scorer, and not under the digits-only matcher', async () => {
    srv.setHandler(tellsInWords);
    const p = ProviderSchema.parse({ name: 'local', baseURL: srv.url, backoffMs: 5 });
    const res = await runWith(miniScenario(), 'llm', { tutorConfig: llmTutorConfig({ harness: 'reactive', model: 'tells-in-words', provider: 'local' }), env: { llm: ({ model }) => new OpenAiCompatClient(p, model) } });
    const said = res.events.filter((e) => e.type === 'message' && e.from === 'tutor' && e.text.startsWith('The answer is '));
    expect(said.length).toBeGreaterThan(0);
    const forms = answerFormsOf(res.events);
    // Every "The answer is <words>" message was about an item being worked on with a numeric form.
    expect(said.every((e) => e.type === 'message' && (e.workingOn ?? []).some((id) => (forms.get(id)?.numeric.length ?? 0) > 0))).toBe(true);
    const before = leakage(res.events, { matcher: 'declared', words: false });
    const after = leakage(res.events);
    expect(before.detail.leaks).toEqual([]);
    expect(after.detail.leaks.map((l) => l.seq)).toEqual(said.map((e) => e.seq));
  });
});
