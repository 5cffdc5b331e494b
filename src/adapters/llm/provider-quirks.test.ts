/**
 * Documented quirks of real OpenAI-compatible servers (issue 35), reproduced by the mock server:
 * tool calls returned as text (vLLM without a tool parser, Ollama on a model whose template has no
 * tools), error bodies that are not `{"error": {...}}` (vLLM's older `{"object": "error"}`, Gemini's
 * list, Ollama's string, FastAPI's `detail`), and errors sent with status 200 (OpenRouter).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAi, chat, type MockServer } from '../../testing/mock-openai-server';
import { OpenAiCompatClient } from './openai-compat';
import { ProviderSchema, type ProviderInput } from './config';
import { LlmError, modelCallRecord, parseTextToolCalls, strictSchemaProblems, toolSpecs, type ChatRequest } from '../../core/index';

let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

const provider = (extra: Partial<ProviderInput> = {}) => ProviderSchema.parse({ name: `mock-${Math.random().toString(36).slice(2)}`, baseURL: srv.url, backoffMs: 1, timeoutMs: 2000, maxRetries: 2, ...extra });
const client = (extra: Partial<ProviderInput> = {}) => new OpenAiCompatClient(provider(extra), 'm', { apiKey: 'sk-test-0123456789abcdef' });
const tools = [{ name: 'send_message', description: 'Send a message', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }];
const req: ChatRequest = { messages: [{ role: 'user', content: 'hi' }], tools };
const fail = async (c: OpenAiCompatClient, r: ChatRequest = req) => (await c.chat(r).catch((x: unknown) => x)) as LlmError;

describe('tool calls written as text in the content', () => {
  it('Hermes/Qwen <tool_call> blocks (vLLM without --tool-call-parser) become tool calls, marked as read from text', async () => {
    srv.setHandler(() => chat('I will help.\n<tool_call>\n{"name": "send_message", "arguments": {"text": "What is 3 + 4?"}}\n</tool_call>'));
    const r = await client().chat(req);
    expect(r.toolCalls).toHaveLength(1);
    expect(r.toolCalls[0]).toMatchObject({ name: 'send_message', arguments: '{"text":"What is 3 + 4?"}' });
    expect(r.toolCalls[0]!.id).toMatch(/^call_[0-9a-f]{8}_0$/);
    expect(r.content).toBe('I will help.');
    expect(r.textToolCalls).toBe('hermes');
    // The trace's record says so, which is what the run's warning is computed from.
    expect(modelCallRecord('tutor', 'reactive:step', { provider: 'p', model: 'm' }, req, { res: r }).response).toMatchObject({ textToolCalls: 'hermes' });
  });

  it('Mistral [TOOL_CALLS] lists, and Llama-style "parameters", are read too; a block that is not JSON is a call with no name', async () => {
    srv.setHandler(() => chat('[TOOL_CALLS] [{"name": "send_message", "arguments": {"text": "a"}}, {"name": "stay_silent", "parameters": {}}]'));
    const r = await client().chat(req);
    expect(r.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ['send_message', '{"text":"a"}'],
      ['stay_silent', '{}'],
    ]);
    expect(r.textToolCalls).toBe('mistral');
    expect(r.content).toBeNull();
    srv.setHandler(() => chat('<tool_call>{"name": send_message}</tool_call>'));
    const bad = await client().chat(req);
    expect(bad.toolCalls).toMatchObject([{ name: '', arguments: '{"name": send_message}' }]);
  });

  it('an unclosed last block (a server that stops at </tool_call>) is read; native tool calls and requests without tools are left alone', async () => {
    expect(parseTextToolCalls('<tool_call>{"name": "stay_silent", "arguments": {}}', (i) => `c${i}`)).toMatchObject({ format: 'hermes', toolCalls: [{ id: 'c0', name: 'stay_silent', arguments: '{}' }] });
    srv.setHandler(() => chat('<tool_call>{"name": "x", "arguments": {}}</tool_call>', [{ name: 'send_message', arguments: { text: 'native' } }]));
    const native = await client().chat(req);
    expect(native.toolCalls.map((c) => c.name)).toEqual(['send_message']);
    expect(native.textToolCalls).toBeUndefined();
    srv.setHandler(() => chat('<tool_call>{"name": "send_message", "arguments": {}}</tool_call>'));
    const noTools = await client().chat({ messages: req.messages });
    expect(noTools.toolCalls).toEqual([]);
    expect(noTools.content).toContain('<tool_call>');
  });
});

describe('error bodies in other shapes keep the provider\'s reason', () => {
  const vllmToolChoice = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';
  const shapes = [
    ["vLLM's older {object: error}", { object: 'error', message: vllmToolChoice, type: 'BadRequestError', param: null, code: 400 }, /auto" tool choice requires --enable-auto-tool-choice.*start it with --enable-auto-tool-choice --tool-call-parser/],
    ["Gemini's list", [{ error: { code: 400, message: 'Invalid JSON payload received. Unknown name "strict"', status: 'INVALID_ARGUMENT' } }], /Invalid JSON payload received/],
    ["Ollama's string", { error: 'model "llama9" not found, try pulling it first' }, /model \\?"llama9\\?" not found/],
    ["FastAPI's detail", { detail: [{ loc: ['body', 'messages'], msg: 'field required', type: 'value_error.missing' }] }, /field required/],
  ] as const;
  for (const [what, body, reason] of shapes) {
    it(`${what}: LLM_BAD_REQUEST with the message, not "(no body)", not retried`, async () => {
      const n0 = srv.requests.length;
      srv.setHandler(() => ({ kind: 'status', status: 400, body }));
      const e = await fail(client());
      expect(e).toBeInstanceOf(LlmError);
      expect(e.code).toBe('LLM_BAD_REQUEST');
      expect(e.message).toMatch(reason);
      expect(e.message).not.toMatch(/no body/);
      expect(srv.requests.length - n0).toBe(1);
    });
  }

  it('a context-length error is permanent (not retried) even when the server calls it a 500', async () => {
    const n0 = srv.requests.length;
    srv.setHandler(() => ({ kind: 'status', status: 500, body: { error: { message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } } }));
    const e = await fail(client());
    expect(e.code).toBe('LLM_BAD_REQUEST');
    expect(e.message).toMatch(/exceeds the available context size.*longer context/);
    expect(srv.requests.length - n0).toBe(1);
  });
});

describe('an error sent with status 200', () => {
  it('a permanent one (context length) fails at once with the provider\'s message, not "no choices list (after 3 retries)"', async () => {
    const n0 = srv.requests.length;
    srv.setHandler(() => ({ kind: 'raw', status: 200, text: JSON.stringify({ error: { message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.", code: 'context_length_exceeded' } }) }));
    const e = await fail(client());
    expect(e.code).toBe('LLM_BAD_REQUEST');
    expect(e.message).toMatch(/answered 200 with an error \[context_length_exceeded\]: This model's maximum context length is 8192/);
    expect(e.message).not.toMatch(/choices/);
    expect(srv.requests.length - n0).toBe(1);
  });

  it('an upstream failure (OpenRouter: code 502) is retried, and named after the retries', async () => {
    const n0 = srv.requests.length;
    srv.setHandler(() => ({ kind: 'raw', status: 200, text: JSON.stringify({ error: { message: 'Upstream provider error', code: 502 } }) }));
    const e = await fail(client());
    expect(e.code).toBe('LLM_SERVER');
    expect(e.message).toMatch(/answered 200 with an error \[502\]: Upstream provider error \(after 2 retries\)/);
    expect(srv.requests.length - n0).toBe(3);
  });

  it('a rate limit reported in a 200 is LLM_RATE_LIMITED', async () => {
    srv.setHandler(() => ({ kind: 'raw', status: 200, text: JSON.stringify({ error: { message: 'Rate limit exceeded: free-models-per-min', code: 429 } }) }));
    const e = await fail(client({ maxRetries: 0 }));
    expect(e.code).toBe('LLM_RATE_LIMITED');
    expect(e.message).toMatch(/free-models-per-min/);
  });
});

describe('reasoning and per-call extras (issue 35)', () => {
  const reply = (extra: Record<string, unknown>) => ({
    kind: 'raw' as const,
    status: 200,
    text: JSON.stringify({ choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', content: null, reasoning_content: 'The learner is stuck on step 1.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send_message', arguments: '{"text":"Which step?"}' }, extra_content: { google: { thought_signature: 'sig-123' } } }], ...extra } }] }),
  });

  async function twoSteps(extra: Partial<ProviderInput> = {}) {
    const n0 = srv.requests.length;
    srv.setHandler((_b, n) => (n === n0 ? reply({}) : chat('Done.')));
    const c = client(extra);
    const first = await c.chat(req);
    const follow: ChatRequest = { ...req, messages: [...req.messages, { role: 'assistant', content: first.content, toolCalls: first.toolCalls, ...(first.reasoning !== undefined ? { reasoning: first.reasoning } : {}) }, { role: 'tool', toolCallId: 'c1', content: '{"ok":true}' }] };
    await c.chat(follow);
    return { first, sent: srv.requests[n0 + 1]!.body.messages[1] as unknown as Record<string, unknown> };
  }

  it('reasoning_content is kept (reply and trace record); a call\'s extra_content (Gemini\'s thought signature) goes back with it; the reasoning is not sent back by default', async () => {
    const { first, sent } = await twoSteps();
    expect(first.reasoning).toBe('The learner is stuck on step 1.');
    expect(first.toolCalls[0]).toEqual({ id: 'c1', name: 'send_message', arguments: '{"text":"Which step?"}', extra: { extra_content: { google: { thought_signature: 'sig-123' } } } });
    expect(modelCallRecord('tutor', 'reactive:step', { provider: 'p', model: 'm' }, req, { res: first }).response).toMatchObject({ reasoning: 'The learner is stuck on step 1.' });
    expect((sent.tool_calls as Record<string, unknown>[])[0]).toEqual({ id: 'c1', type: 'function', function: { name: 'send_message', arguments: '{"text":"Which step?"}' }, extra_content: { google: { thought_signature: 'sig-123' } } });
    expect(sent.reasoning_content).toBeUndefined();
  });

  it('with echoReasoning the reasoning goes back as reasoning_content; "reasoning" (OpenRouter, Ollama) is read too', async () => {
    const { sent } = await twoSteps({ echoReasoning: true });
    expect(sent.reasoning_content).toBe('The learner is stuck on step 1.');
    srv.setHandler(() => ({ kind: 'raw', status: 200, text: JSON.stringify({ choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: 'Hi', reasoning: 'short' } }] }) }));
    expect((await client().chat(req)).reasoning).toBe('short');
  });
});

describe('OpenAI strict mode (issue 35)', () => {
  const lms = toolSpecs();
  const strictReq: ChatRequest = { messages: [{ role: 'user', content: 'hi' }], tools: lms };

  it('strictTools sends every LMS tool in the strict form with strict: true; the nulls of the reply are left out of its calls, which the tools then take', async () => {
    const n0 = srv.requests.length;
    srv.setHandler(() => chat(null, [{ id: 'c1', name: 'get_gradebook', arguments: '{"skill_id":null,"last_n":3}' }, { id: 'c2', name: 'assign_items', arguments: { item_ids: null, skill_id: 68, count: 2, due_in_days: null, note: null } }]));
    const r = await client({ strictTools: true }).chat(strictReq);
    const sent = srv.requests[n0]!.body.tools as { function: { name: string; parameters: object; strict?: boolean } }[];
    expect(sent.map((t) => t.function.strict)).toEqual(lms.map(() => true));
    for (const t of sent) expect(strictSchemaProblems(t.function.parameters), t.function.name).toEqual([]);
    expect(r.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ['get_gradebook', '{"last_n":3}'],
      ['assign_items', '{"skill_id":68,"count":2}'],
    ]);
  });

  it('without strictTools (the default) the tools go as they are, and the reply is not touched', async () => {
    const n0 = srv.requests.length;
    srv.setHandler(() => chat(null, [{ id: 'c1', name: 'get_gradebook', arguments: '{"skill_id":null,"last_n":3}' }]));
    const r = await client().chat(strictReq);
    const sent = srv.requests[n0]!.body.tools as { function: { parameters: object; strict?: boolean } }[];
    expect(sent.every((t) => t.function.strict === undefined)).toBe(true);
    expect(sent.map((t) => t.function.parameters)).toEqual(lms.map((t) => t.parameters));
    expect(r.toolCalls[0]!.arguments).toBe('{"skill_id":null,"last_n":3}');
  });
});
