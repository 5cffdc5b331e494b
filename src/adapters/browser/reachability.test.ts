import { describe, expect, it } from 'vitest';
import { corsFixes, describeUnreachable, diagnoseUnreachable, isMixedContent, probe, probeUrl } from './reachability';

const PAGE = 'http://127.0.0.1:4173';

/** A fetch that records its calls and answers like the browser would in no-cors mode. */
function fakeFetch(outcome: 'opaque' | 'error' | 'hang') {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const f = ((url: string, init?: RequestInit) => {
    calls.push({ url, init });
    if (outcome === 'opaque') return Promise.resolve({ type: 'opaque', status: 0, ok: false } as Response);
    if (outcome === 'error') return Promise.reject(new TypeError('Failed to fetch'));
    return new Promise<Response>((_res, rej) => init?.signal?.addEventListener('abort', () => rej(new DOMException('aborted', 'AbortError'))));
  }) as unknown as typeof fetch;
  return { f, calls };
}

describe('diagnoseUnreachable', () => {
  it('an opaque answer to the no-cors probe means the server is up: a CORS block, with the fixes naming this origin', async () => {
    const { f, calls } = fakeFetch('opaque');
    const d = await diagnoseUnreachable(PAGE, 'http://127.0.0.1:11434/v1', f);
    expect(d.kind).toBe('cors');
    expect(d.summary).toMatch(/^Blocked by CORS: the server at http:\/\/127\.0\.0\.1:11434 answers/);
    expect(d.summary).toContain(`origin ${PAGE}`);
    expect(d.fixes.find((x) => x.startsWith('Ollama'))).toContain(`OLLAMA_ORIGINS=${PAGE} ollama serve`);
    expect(d.fixes.find((x) => x.startsWith('llama.cpp'))).toContain(`--cors-origins ${PAGE}`);
    expect(d.fixes.find((x) => x.startsWith('vLLM'))).toContain(`--allowed-origins '["${PAGE}"]'`);
    expect(d.fixes.some((x) => x.startsWith('LM Studio') && x.includes('Enable CORS'))).toBe(true);
    expect(d.fixes.some((x) => x.startsWith('LiteLLM'))).toBe(true);
    // One probe, no-cors, no credentials, no key header, at the models list under the base URL.
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('http://127.0.0.1:11434/v1/models');
    expect(calls[0]!.init).toMatchObject({ mode: 'no-cors', credentials: 'omit' });
    expect(calls[0]!.init?.headers).toBeUndefined();
  });

  it('a network error on the probe too means nothing is listening', async () => {
    const { f } = fakeFetch('error');
    const d = await diagnoseUnreachable(PAGE, 'http://localhost:8080/v1', f);
    expect(d.kind).toBe('not-listening');
    expect(d.summary).toBe('Nothing is listening at http://localhost:8080: the connection was refused or never answered.');
    expect(d.summary).not.toMatch(/CORS/);
  });

  it('a probe that gets no answer within the timeout counts as nothing listening', async () => {
    const { f } = fakeFetch('hang');
    const t0 = Date.now();
    const d = await diagnoseUnreachable(PAGE, 'http://10.0.0.9:8000/v1', f, 50);
    expect(d.kind).toBe('not-listening');
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('an http URL on another host from an https page is mixed content, decided without a probe', async () => {
    const { f, calls } = fakeFetch('opaque');
    const d = await diagnoseUnreachable('https://lab.example.org', 'http://gpu-box.lan:8000/v1', f);
    expect(d.kind).toBe('mixed-content');
    expect(calls).toHaveLength(0);
  });
});

describe('the parts', () => {
  it('mixed content exempts local hosts and https targets', () => {
    expect(isMixedContent('https://a.org', 'http://localhost:11434/v1')).toBe(false);
    expect(isMixedContent('https://a.org', 'http://127.0.0.1:11434/v1')).toBe(false);
    expect(isMixedContent('https://a.org', 'http://[::1]:11434/v1')).toBe(false);
    expect(isMixedContent('https://a.org', 'https://api.example.com/v1')).toBe(false);
    expect(isMixedContent('http://a.org', 'http://gpu-box:8000/v1')).toBe(false);
    expect(isMixedContent('https://a.org', 'http://gpu-box:8000/v1')).toBe(true);
  });

  it('the probe URL is the models list under the base URL, whatever its trailing slash', () => {
    expect(probeUrl('http://h:1/v1')).toBe('http://h:1/v1/models');
    expect(probeUrl('http://h:1/v1/')).toBe('http://h:1/v1/models');
    expect(probeUrl('http://h:1')).toBe('http://h:1/models');
    expect(probeUrl('http://h:1/api/v1?x=1#y')).toBe('http://h:1/api/v1/models');
  });

  it('a base URL that is not a URL is an error naming it', () => {
    expect(() => probeUrl('localhost:11434')).not.toThrow(); // a URL with scheme "localhost:" (the form rejects it before)
    expect(() => probeUrl('not a url')).toThrow('the provider\'s base URL "not a url" is not a URL');
  });

  it('probe: any answer is "answered", a rejection "no-answer"', async () => {
    expect(await probe('http://x/models', fakeFetch('opaque').f)).toBe('answered');
    expect(await probe('http://x/models', fakeFetch('error').f)).toBe('no-answer');
  });

  it('every kind has a summary and at least one fix; the CORS fixes cover five servers', () => {
    for (const k of ['cors', 'not-listening', 'mixed-content'] as const) {
      const d = describeUnreachable(k, PAGE, 'http://127.0.0.1:1/v1');
      expect(d.summary.length).toBeGreaterThan(20);
      expect(d.fixes.length).toBeGreaterThan(0);
    }
    expect(corsFixes(PAGE).map((x) => x.split(/[ :(]/)[0])).toEqual(['Ollama', 'llama.cpp', 'LM', 'vLLM', 'LiteLLM']);
  });
});
