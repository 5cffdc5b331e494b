/**
 * LLM client faults (issue 16): malformed 200 replies are retried like other transient faults
 * (bounded) and the error names the cause; timeouts, retries and concurrency can be set from the
 * environment when only OPENAI_BASE_URL / OPENAI_API_KEY are given; keys echoed by a server are
 * redacted cleanly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockOpenAi, chat, type MockServer } from '../../testing/mock-openai-server';
import { OpenAiCompatClient, redact } from './openai-compat';
import { ProviderSchema, type ProviderInput } from './config';
import { envSettings, loadLlmConfig, makeClient } from '../node/llm-config';
import { LlmError } from '../../core/index';

const KEY = 'sk-test-SECRET-0123456789';
let srv: MockServer;
beforeAll(async () => {
  srv = await startMockOpenAi();
});
afterAll(() => srv.close());

const provider = (extra: Partial<ProviderInput> = {}) => ProviderSchema.parse({ name: `mock-${Math.random().toString(36).slice(2)}`, baseURL: srv.url, backoffMs: 5, timeoutMs: 2000, ...extra });
const client = (extra: Partial<ProviderInput> = {}) => new OpenAiCompatClient(provider(extra), 'm', { apiKey: KEY });
const msgs = [{ role: 'user' as const, content: 'hi' }];
const fail = async (c: OpenAiCompatClient) => (await c.chat({ messages: msgs }).catch((x: unknown) => x)) as LlmError;

describe('malformed 200 replies are transient faults: retried (bounded), the cause named', () => {
  const malformed = [
    ['a body that is not JSON', '{"choices": [', /the body is not JSON/],
    ['"choices": []', JSON.stringify({ id: 'x', object: 'chat.completion', choices: [] }), /no choices/],
    ['a choice without a message', JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop' }] }), /first choice has no message/],
    ['no choices at all', JSON.stringify({ id: 'x' }), /no "choices" list/],
    ['tool_calls that are not a list', JSON.stringify({ choices: [{ message: { role: 'assistant', content: null, tool_calls: 'get_gradebook' } }] }), /"tool_calls" is not a list/],
  ] as const;

  for (const [what, text, cause] of malformed) {
    it(`${what}: retried, and the next good reply is used`, async () => {
      const n0 = srv.requests.length;
      srv.setHandler((_b, n) => (n === n0 ? { kind: 'raw', status: 200, text } : chat('recovered')));
      expect(await client({ maxRetries: 2 }).chat({ messages: msgs })).toMatchObject({ content: 'recovered', retries: 1 });
      expect(srv.requests.length - n0).toBe(2);
    });

    it(`${what}: after maxRetries, LLM_BAD_RESPONSE naming the cause (no raw TypeError)`, async () => {
      const n0 = srv.requests.length;
      srv.setHandler(() => ({ kind: 'raw', status: 200, text }));
      const e = await fail(client({ maxRetries: 2 }));
      expect(e).toBeInstanceOf(LlmError);
      expect(e.code).toBe('LLM_BAD_RESPONSE');
      expect(e.message).toMatch(cause);
      expect(e.message).toMatch(/after 2 retries/);
      expect(e.message).not.toMatch(/TypeError|Cannot read properties/);
      expect(e.retries).toBe(2);
      expect(srv.requests.length - n0).toBe(3);
    });
  }

  it('content given as a list of text parts is read as text; arguments sent as an object become JSON text', async () => {
    srv.setHandler(() => ({ kind: 'raw', status: 200, text: JSON.stringify({ choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_gradebook', arguments: { last_n: 2 } } }] } }] }) }));
    expect(await client().chat({ messages: msgs })).toMatchObject({ content: 'ab', toolCalls: [{ id: 'c1', name: 'get_gradebook', arguments: '{"last_n":2}' }] });
  });
});

describe('client settings from the environment', () => {
  it('with only OPENAI_BASE_URL set, EDUCLAW_LLM_TIMEOUT_MS and EDUCLAW_LLM_MAX_RETRIES bound a server that never answers (it cost ~8 minutes a call)', async () => {
    srv.setHandler(() => new Promise(() => undefined)); // accepts the request, never answers
    const env = { OPENAI_BASE_URL: srv.url, EDUCLAW_LLM_TIMEOUT_MS: '200', EDUCLAW_LLM_MAX_RETRIES: '1', EDUCLAW_LLM_BACKOFF_MS: '0', EDUCLAW_LLM_MAX_CONCURRENCY: '7' };
    const cfg = loadLlmConfig([], env);
    expect(cfg.providers[0]).toMatchObject({ name: 'default', timeoutMs: 200, maxRetries: 1, backoffMs: 0, maxConcurrency: 7 });
    const t0 = performance.now();
    const e = (await makeClient(cfg.providers[0]!, 'm', { env }).chat({ messages: msgs }).catch((x: unknown) => x)) as LlmError;
    expect(e.code).toBe('LLM_TIMEOUT');
    expect(e.retries).toBe(1);
    expect(performance.now() - t0).toBeLessThan(3000);
    srv.setHandler(() => chat('ok'));
  });

  it('fills a config file provider\'s fields the file does not set (a value in the file wins); refuses a bad value naming the variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'llm-env-'));
    const file = join(dir, 'llm.yaml');
    writeFileSync(file, `providers:\n  - name: a\n    baseURL: ${srv.url}\n    timeoutMs: 5000\n`);
    const cfg = loadLlmConfig([file], { EDUCLAW_LLM_TIMEOUT_MS: '300', EDUCLAW_LLM_MAX_RETRIES: '0' });
    expect(cfg.providers[0]).toMatchObject({ timeoutMs: 5000, maxRetries: 0 });
    expect(() => envSettings({ EDUCLAW_LLM_TIMEOUT_MS: 'soon' })).toThrow(/EDUCLAW_LLM_TIMEOUT_MS="soon"/);
    expect(() => envSettings({ EDUCLAW_LLM_MAX_RETRIES: '99' })).toThrow(/EDUCLAW_LLM_MAX_RETRIES="99".*maxRetries/);
    expect(envSettings({})).toEqual({});
  });
});

describe('keys echoed by a server are redacted cleanly', () => {
  const cases: [string, string | undefined, string][] = [
    [`Incorrect API key provided: ${KEY}.`, KEY, 'Incorrect API key provided: [redacted key].'],
    ['Incorrect API key provided: sk-test-****************6789. See https://platform.openai.com/account/api-keys.', KEY, 'Incorrect API key provided: [redacted key]. See https://platform.openai.com/account/api-keys.'],
    // JSON- and URL-encoded echoes of a key with "/" and "+" in it: no fragment left, the JSON around it intact.
    ['{"error":"bad key \\"sk-or-v1-ab\\/cd+ef==\\""}', 'sk-or-v1-ab/cd+ef==', '{"error":"bad key \\"[redacted key]\\""}'],
    [`GET /v1?x=1&api_key=${encodeURIComponent('sk-or-v1-ab/cd+ef==')}&y=2 failed`, 'sk-or-v1-ab/cd+ef==', 'GET /v1?x=1&api_key=[redacted key]&y=2 failed'],
    // A short key (local servers) is not cut out of other words.
    ['latest model not found; the key test is wrong', 'test', 'latest model not found; the key [redacted key] is wrong'],
    [`Authorization: Bearer ${KEY} was refused`, KEY, 'Authorization: Bearer [redacted key] was refused'],
    ['Authorization: Bearer abc123 was refused', undefined, 'Authorization: Bearer [redacted] was refused'],
    ['api_key_invalid: check api_version_2024', undefined, 'api_key_invalid: check api_version_2024'],
    ['leaked sk-proj-abcdefghijklmnop1234567890 here', undefined, 'leaked [redacted key] here'],
  ];
  it.each(cases)('%s', (text, key, want) => {
    expect(redact(text, key)).toBe(want);
  });

  it('a key in a 401 the server sends back is redacted in the error', async () => {
    const k = 'sk-or-v1-ab/cd+ef==0123456789';
    srv.setHandler(() => ({ kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${JSON.stringify(k).slice(1, -1)}.` } } }));
    const e = (await new OpenAiCompatClient(provider(), 'm', { apiKey: k }).chat({ messages: msgs }).catch((x: unknown) => x)) as LlmError;
    expect(e.code).toBe('LLM_AUTH');
    expect(e.message).toContain('Incorrect API key provided: [redacted key].');
    expect(e.message).not.toMatch(/ab\/cd|cd\+ef|0123456789/);
  });
});

describe('issue 36: a provider reply over the bound', () => {
  it('is not read whole: the call fails LLM_BAD_RESPONSE at once (not retried), naming the bound', async () => {
    const { createServer } = await import('node:http');
    let posts = 0;
    const big = Buffer.alloc(5 * 1024 * 1024, 0x20);
    const server = createServer((req, res) => {
      posts++;
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(big));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
      const c = new OpenAiCompatClient(provider({ baseURL: url, maxRetries: 2, backoffMs: 1 }), 'm');
      await expect(c.chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ code: 'LLM_BAD_RESPONSE', message: expect.stringMatching(/more than 4194304 bytes/) });
      expect(posts).toBe(1);
    } finally {
      server.close();
    }
  });
});
