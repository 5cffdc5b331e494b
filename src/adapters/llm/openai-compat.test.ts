import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAi, chat, type MockServer } from '../../testing/mock-openai-server';
import { OpenAiCompatClient, redact } from './openai-compat';
import { ProviderSchema, type ProviderInput } from './config';
import { LlmError, LMS_TOOL_SPECS } from '../../core/index';

const KEY = 'sk-test-SECRET-0123456789';
let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

const provider = (extra: Partial<ProviderInput> = {}) => ProviderSchema.parse({ name: `mock-${Math.random().toString(36).slice(2)}`, baseURL: srv.url, backoffMs: 10, timeoutMs: 2000, models: { m: { input: 2, output: 10 } }, ...extra });
const client = (extra: Partial<ProviderInput> = {}) => new OpenAiCompatClient(provider(extra), 'm', { apiKey: KEY });
const msgs = [{ role: 'user' as const, content: 'hi' }];

describe('OpenAiCompatClient against a local chat-completions server', () => {
  it('sends the tools as functions and the key as a bearer; parses tool calls, usage and cost', async () => {
    srv.setHandler(() => chat(null, [{ name: 'get_gradebook', arguments: '{"last_n": 3}', id: 'c1' }]));
    const res = await client().chat({ messages: msgs, tools: LMS_TOOL_SPECS, temperature: 0.2 });
    const last = srv.requests[srv.requests.length - 1]!;
    expect(last.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(last.body.tools!.map((t) => t.function.name)).toEqual(LMS_TOOL_SPECS.map((t) => t.name));
    expect(last.body.tools![0]!.function.parameters).toEqual(LMS_TOOL_SPECS[0]!.parameters);
    expect(last.body.temperature).toBe(0.2);
    expect(res.toolCalls).toEqual([{ id: 'c1', name: 'get_gradebook', arguments: '{"last_n": 3}' }]);
    expect(res.usage).toEqual({ promptTokens: 100, completionTokens: 20 });
    expect(res.cost).toBeCloseTo((100 * 2 + 20 * 10) / 1e6, 12);
    expect(res.retries).toBe(0);
    expect(JSON.stringify(client())).not.toContain(KEY);
  });

  it('refuses a redirect to another host (the request never goes there) and a 302; follows a 307 within the provider', async () => {
    const hosts: string[] = [];
    const redirecting = (status: number, to: string): typeof fetch => async (input, init) => {
      const url = String(input);
      hosts.push(`${init?.method ?? 'GET'} ${url}`);
      if (url.startsWith('https://elsewhere.example')) return new Response('{}', { status: 200 });
      if (url.includes('/final/')) return globalThis.fetch(`${srv.url}/chat/completions`, { ...init, redirect: 'manual' });
      return new Response('', { status, headers: { location: to } });
    };
    srv.setHandler(() => chat('ok'));
    const base = 'https://provider.example/v1';
    const other = new OpenAiCompatClient(provider({ baseURL: base }), 'm', { apiKey: KEY, fetch: redirecting(307, 'https://elsewhere.example/v1/chat/completions') });
    const e = await other.chat({ messages: msgs }).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(LlmError);
    expect(e).toMatchObject({ code: 'LLM_BAD_REQUEST' });
    expect(String((e as Error).message)).toContain('redirecting to https://elsewhere.example/v1/chat/completions: refused');
    expect(String((e as Error).message)).not.toContain(KEY);
    expect(hosts.some((h) => h.includes('elsewhere.example'))).toBe(false);
    // A 302 within the provider would turn the POST into a GET: refused too.
    const get = new OpenAiCompatClient(provider({ baseURL: base }), 'm', { apiKey: KEY, fetch: redirecting(302, `${base}/final/chat/completions`) });
    await expect(get.chat({ messages: msgs })).rejects.toMatchObject({ code: 'LLM_BAD_REQUEST', message: expect.stringContaining('only 307 and 308 are followed') });
    // A 307 within the provider is followed, with the POST and its body.
    hosts.length = 0;
    const ok = new OpenAiCompatClient(provider({ baseURL: base }), 'm', { apiKey: KEY, fetch: redirecting(307, `${base}/final/chat/completions`) });
    expect((await ok.chat({ messages: msgs })).content).toBe('ok');
    expect(hosts).toEqual([`POST ${base}/chat/completions`, `POST ${base}/final/chat/completions`]);
  });

  it('leaves no abort listener on the caller\'s signal after its calls (one signal lives for a whole run)', async () => {
    srv.setHandler(() => chat('ok'));
    const { EventEmitter } = await import('node:events');
    const ac = new AbortController();
    const c = client();
    for (let i = 0; i < 15; i++) await c.chat({ messages: msgs }, ac.signal);
    expect(EventEmitter.getEventListeners(ac.signal, 'abort')).toHaveLength(0);
    ac.abort();
    await expect(c.chat({ messages: msgs }, ac.signal)).rejects.toMatchObject({ code: 'LLM_ABORTED' });
  });

  it('honours Retry-After on 429 and then succeeds', async () => {
    const n0 = srv.requests.length;
    srv.setHandler((_b, n) => (n === n0 ? { kind: 'status', status: 429, headers: { 'retry-after': '1' } } : chat('ok')));
    const t0 = performance.now();
    const res = await client().chat({ messages: msgs });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(990);
    expect(res).toMatchObject({ content: 'ok', retries: 1 });
  });

  it('a Retry-After beyond maxRetryAfterMs fails at once with a named reason', async () => {
    srv.setHandler(() => ({ kind: 'status', status: 429, headers: { 'retry-after': '3600' } }));
    const t0 = performance.now();
    const e = await client({ maxRetryAfterMs: 5000 }).chat({ messages: msgs }).catch((x: unknown) => x);
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(e).toBeInstanceOf(LlmError);
    expect((e as LlmError).code).toBe('LLM_RATE_LIMITED');
    expect((e as LlmError).message).toMatch(/asks to wait 3600 s/);
  });

  it('retries 5xx with backoff; a provider that keeps failing gives LLM_SERVER naming provider, model and retries', async () => {
    const n0 = srv.requests.length;
    srv.setHandler((_b, n) => (n < n0 + 2 ? { kind: 'status', status: 500 } : chat('recovered')));
    expect(await client({ maxRetries: 3 }).chat({ messages: msgs })).toMatchObject({ content: 'recovered', retries: 2 });
    srv.setHandler(() => ({ kind: 'status', status: 503 }));
    const p = provider({ maxRetries: 2 });
    const e = (await new OpenAiCompatClient(p, 'm', { apiKey: KEY }).chat({ messages: msgs }).catch((x: unknown) => x)) as LlmError;
    expect(e.code).toBe('LLM_SERVER');
    expect(e.retries).toBe(2);
    expect(e.message).toContain(`${p.name}/m`);
    expect(e.message).toMatch(/503.*after 2 retries/);
  });

  it('does not retry a 400 (the request is wrong)', async () => {
    const n0 = srv.requests.length;
    srv.setHandler(() => ({ kind: 'status', status: 400, body: { error: { message: 'model not found' } } }));
    const e = (await client().chat({ messages: msgs }).catch((x: unknown) => x)) as LlmError;
    expect(e.code).toBe('LLM_BAD_REQUEST');
    expect(srv.requests.length - n0).toBe(1);
  });

  it('times out a slow reply, retries, and reports LLM_TIMEOUT when it stays slow', async () => {
    const n0 = srv.requests.length;
    srv.setHandler((_b, n) => (n === n0 ? { kind: 'delay', ms: 600, then: chat('late') } : chat('fast')));
    expect(await client({ timeoutMs: 150 }).chat({ messages: msgs })).toMatchObject({ content: 'fast', retries: 1 });
    srv.setHandler(() => ({ kind: 'delay', ms: 600, then: chat('late') }));
    const e = (await client({ timeoutMs: 150, maxRetries: 1 }).chat({ messages: msgs }).catch((x: unknown) => x)) as LlmError;
    expect(e.code).toBe('LLM_TIMEOUT');
  });

  it('cancels through an AbortSignal', async () => {
    srv.setHandler(() => ({ kind: 'delay', ms: 1500, then: chat('late') }));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const t0 = performance.now();
    const e = (await client().chat({ messages: msgs }, ac.signal).catch((x: unknown) => x)) as LlmError;
    expect(e.code).toBe('LLM_ABORTED');
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('limits concurrent requests per provider', async () => {
    let inFlight = 0;
    let peak = 0;
    srv.setHandler(async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 60));
      inFlight--;
      return chat('ok');
    });
    const p = provider({ maxConcurrency: 2 });
    const a = new OpenAiCompatClient(p, 'm', { apiKey: KEY });
    const b = new OpenAiCompatClient(p, 'm', { apiKey: KEY });
    await Promise.all([...Array(4)].flatMap(() => [a.chat({ messages: msgs }), b.chat({ messages: msgs })]));
    expect(peak).toBe(2);
  });

  it('one limit per provider for all its clients: a changed maxConcurrency changes it in place; maxRequestsPerMinute spaces request starts', async () => {
    let inFlight = 0;
    let peak = 0;
    srv.setHandler(async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 30));
      inFlight--;
      return chat('ok');
    });
    const p = provider({ maxConcurrency: 1 });
    await Promise.all([0, 1, 2].map(() => new OpenAiCompatClient(p, 'm', { apiKey: KEY }).chat({ messages: msgs })));
    expect(peak).toBe(1);
    // The same provider (name and URL) with a higher limit, e.g. edited settings: one limiter, now at 3.
    peak = 0;
    const p3 = ProviderSchema.parse({ ...p, maxConcurrency: 3 });
    await Promise.all([0, 1, 2, 3, 4, 5].map(() => new OpenAiCompatClient(p3, 'm', { apiKey: KEY }).chat({ messages: msgs })));
    expect(peak).toBe(3);
    // 600 requests a minute: starts 100 ms apart, across clients, even with room for 4 at once: the
    // i-th request leaves the client no earlier than i × 100 ms after the first call (the gaps
    // between sends jitter by the SDK's own few ms of work per request).
    const sent: number[] = [];
    const timedFetch: typeof fetch = (input, init) => {
      sent.push(performance.now());
      return fetch(input, init);
    };
    const paced = provider({ maxConcurrency: 4, maxRequestsPerMinute: 600 });
    const t0 = performance.now();
    await Promise.all([0, 1, 2, 3].map(() => new OpenAiCompatClient(paced, 'm', { apiKey: KEY, fetch: timedFetch }).chat({ messages: msgs })));
    const since = sent.map((t) => t - t0);
    expect(since).toHaveLength(4);
    expect(since.every((t, i) => t >= i * 100 - 2), since.join()).toBe(true);
    expect(() => ProviderSchema.parse({ name: 'x', baseURL: srv.url, maxRequestsPerMinute: 0 })).toThrow();
  });

  it('redacts the key from error messages the server echoes', async () => {
    srv.setHandler(() => ({ kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } }));
    const e = (await client().chat({ messages: msgs }).catch((x: unknown) => x)) as LlmError;
    expect(e.code).toBe('LLM_AUTH');
    expect(e.message).not.toContain(KEY);
    expect(e.message).not.toContain('SECRET');
    expect(redact(`Bearer ${KEY} and sk-abcdefghijk`, KEY)).not.toMatch(/SECRET|abcdefghijk/);
  });

  it('a malformed (non-JSON) body is a bad response, not a crash', async () => {
    srv.setHandler(() => ({ kind: 'raw', status: 200, text: '{"choices": [' }));
    const e = (await client({ maxRetries: 0 }).chat({ messages: msgs }).catch((x: unknown) => x)) as LlmError;
    expect(e).toBeInstanceOf(LlmError);
    expect(e.code.startsWith('LLM_')).toBe(true);
  });
});
