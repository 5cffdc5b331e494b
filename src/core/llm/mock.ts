/**
 * MockLlm: a scripted LlmClient for tests and demos. Replies come from a function of the request
 * (so a test can play a policy) or from a queue; usage is counted from characters (4 per token)
 * so accounting paths are exercised. Deterministic, no I/O.
 */
import type { ChatRequest, ChatResponse, LlmClient, ModelPrice, ToolCallRequest } from './types';
import { LlmError, costOf } from './types';

export type MockReply = { content?: string | null; toolCalls?: { name: string; arguments: string | object; id?: string }[] } | LlmError;
export type MockScript = MockReply[] | ((req: ChatRequest, callNo: number) => MockReply);

export class MockLlm implements LlmClient {
  readonly provider: string;
  readonly model: string;
  readonly family: string | null;
  readonly requests: ChatRequest[] = [];
  #script: MockScript;
  #price: ModelPrice | null;

  constructor(script: MockScript, opts: { provider?: string; model?: string; family?: string | null; price?: ModelPrice | null } = {}) {
    this.#script = script;
    this.provider = opts.provider ?? 'mock';
    this.model = opts.model ?? 'mock-model';
    this.family = opts.family ?? 'mock';
    this.#price = opts.price ?? null;
  }

  async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    if (signal?.aborted) throw new LlmError('LLM_ABORTED', 'cancelled');
    const n = this.requests.length;
    this.requests.push(req);
    let reply: MockReply | undefined;
    if (typeof this.#script === 'function') reply = this.#script(req, n);
    else reply = this.#script[n];
    if (reply === undefined) throw new LlmError('LLM_BAD_RESPONSE', `mock script has no reply number ${n + 1}`);
    if (reply instanceof LlmError) throw reply;
    const toolCalls: ToolCallRequest[] = (reply.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_${n}_${i}`, name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) }));
    const promptChars = req.messages.reduce((a, m) => a + (m.content?.length ?? 0), 0);
    const outChars = (reply.content ?? '').length + toolCalls.reduce((a, c) => a + c.arguments.length + c.name.length, 0);
    const usage = { promptTokens: Math.ceil(promptChars / 4), completionTokens: Math.ceil(outChars / 4) };
    return { content: reply.content ?? null, toolCalls, finishReason: toolCalls.length ? 'tool_calls' : 'stop', usage, cost: costOf(usage, this.#price), retries: 0 };
  }
}
