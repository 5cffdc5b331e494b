/** Issue 36 in the page's transport: a reply over 1 MiB is not read (AGENT_LIMIT), a redirect is refused (AGENT_REDIRECT). */
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { browserHttpTransport } from './agent-http';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/big') res.writeHead(200).end(Buffer.alloc(2 * 1024 * 1024, 0x20));
    else if (req.url === '/moved') res.writeHead(302, { location: 'http://example.invalid/' }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"calls":[],"end":true}');
  });
});
const base = new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
afterAll(() => void server.close());

describe("the page's agent transport", () => {
  it('answers, refuses a reply over 1 MiB and any redirect', async () => {
    const t = browserHttpTransport();
    const url = await base;
    expect(await t.post(`${url}/ok`, '{}', { timeoutMs: 5000 })).toEqual({ status: 200, text: '{"calls":[],"end":true}' });
    await expect(t.post(`${url}/big`, '{}', { timeoutMs: 5000 })).rejects.toMatchObject({ code: 'AGENT_LIMIT' });
    await expect(t.post(`${url}/moved`, '{}', { timeoutMs: 5000 })).rejects.toMatchObject({ code: 'AGENT_REDIRECT' });
  });
});
