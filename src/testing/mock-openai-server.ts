/**
 * A real local HTTP server speaking the OpenAI chat-completions protocol, with scripted replies:
 * tool calls, malformed JSON, 429 with Retry-After, 500s, slow replies (timeouts). Started by the
 * tests themselves (vitest and Playwright). CORS is open so the page can call it.
 *
 * `policyReply` is a deterministic stand-in for a model: a tutor that reads assignments and
 * answers help requests with a question, a notebook writer, a lesson planner, a student voice,
 * a student writing attempts (always the typical mistake; scripted-student.ts answers right too)
 * and judges (scores from the model name: "judge-4" gives 4s; otherwise 3).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
export interface WireRequest {
  model: string;
  messages: WireMessage[];
  tools?: { type: string; function: { name: string; description: string; parameters: object } }[];
  temperature?: number;
  response_format?: { type: string };
  [k: string]: unknown;
}

export type ScriptedReply =
  | { kind: 'chat'; content?: string | null; toolCalls?: { name: string; arguments: string; id?: string }[]; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: 'delay'; ms: number; then: ScriptedReply }
  | { kind: 'raw'; status: number; text: string }
  /** The connection is dropped without a reply (a reset). */
  | { kind: 'reset' };

export type Handler = (req: WireRequest, n: number, headers: IncomingMessage['headers']) => ScriptedReply | Promise<ScriptedReply>;

export interface MockServer {
  url: string;
  /** Every request received: body and headers (authorization included, for key tests). */
  requests: { body: WireRequest; headers: IncomingMessage['headers'] }[];
  setHandler(h: Handler): void;
  close(): Promise<void>;
}

export const chat = (content: string | null, toolCalls?: { name: string; arguments: string | object; id?: string }[]): ScriptedReply => ({
  kind: 'chat',
  content,
  ...(toolCalls ? { toolCalls: toolCalls.map((c) => ({ ...c, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) })) } : {}),
});

/** Tool-call ids the script leaves out are derived from the request, so the same request always gets the same reply (a resumed run's live calls match an uninterrupted run's). */
function completion(r: Extract<ScriptedReply, { kind: 'chat' }>, model: string, n: number, body: WireRequest) {
  const h = createHash('sha1').update(JSON.stringify(body)).digest('hex').slice(0, 10);
  const toolCalls = (r.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_${h}_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, finish_reason: toolCalls.length ? 'tool_calls' : 'stop', message: { role: 'assistant', content: r.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) } }],
    usage: r.usage ?? { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  };
}

function cors(res: ServerResponse, req: IncomingMessage) {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'POST, GET, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', String(req.headers['access-control-request-headers'] ?? '*'));
  res.setHeader('Access-Control-Expose-Headers', 'retry-after, retry-after-ms');
}

export async function startMockOpenAi(handler: Handler = policyReply): Promise<MockServer> {
  let h = handler;
  let n = 0;
  const requests: MockServer['requests'] = [];
  const server = createServer((req, res) => {
    cors(res, req);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'GET' && req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model' }] }));
      return;
    }
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', async () => {
      let body: WireRequest;
      try {
        body = JSON.parse(data) as WireRequest;
      } catch {
        res.writeHead(400).end('{"error":{"message":"bad json"}}');
        return;
      }
      const k = n++;
      requests.push({ body, headers: req.headers });
      let reply = await h(body, k, req.headers);
      while (reply.kind === 'delay') {
        await new Promise((r) => setTimeout(r, (reply as { ms: number }).ms));
        // The request itself is finished (destroyed) once its body is read: the connection is what counts.
        if (res.destroyed || !res.socket || res.socket.destroyed) return;
        reply = reply.then;
      }
      if (res.destroyed) return;
      if (reply.kind === 'reset') {
        req.socket.destroy();
        return;
      }
      if (reply.kind === 'status') res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) }).end(JSON.stringify(reply.body ?? { error: { message: `scripted ${reply.status}`, type: 'server_error' } }));
      else if (reply.kind === 'raw') res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.text);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(reply, body.model, k, body)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setHandler: (x) => (h = x),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The stand-in model (see the file comment). */
export function policyReply(body: WireRequest): ScriptedReply {
  const sys = body.messages[0]?.content ?? '';
  const last = body.messages[body.messages.length - 1]!;
  if (body.tools?.length) {
    if (last.role === 'user') {
      const text = last.content ?? '';
      if (text.includes('asks for help') || text.includes('replied')) return chat(null, [{ name: 'get_assignments', arguments: { status: 'open' } }]);
      if (text.includes('just logged in')) return chat(null, [{ name: 'send_message', arguments: { text: 'Welcome back! What will you work on first?' } }]);
      if (text.includes('day is ending')) return chat(null, [{ name: 'stay_silent', arguments: { reason: 'the day is over' } }]);
      return chat('Nothing to do for this event.');
    }
    if (last.role === 'tool') {
      const prev = [...body.messages].reverse().find((m) => m.role === 'assistant');
      if (prev?.tool_calls?.some((c) => c.function.name === 'get_assignments')) return chat(null, [{ name: 'send_message', arguments: { text: 'Good question. What is the problem asking you to find? Try the first step.' } }]);
      return chat('Done for now.');
    }
    return chat('Done.');
  }
  if (sys.includes("Write today's lesson plan")) return chat(JSON.stringify({ objective: 'Practise the course skills', skill_ids: [68], phases: [{ phase: 'objective', plan: 'state the goal' }, { phase: 'present', plan: 'post a worked example' }, { phase: 'practice', plan: 'assign three items' }] }));
  if (sys.includes('private notebook')) return chat('The learner asks for help often. Keep asking for first steps.');
  if (sys.includes('are about to submit an answer')) {
    // A student attempt (coupling "student-attempts"): the typical mistake the prompt names. A student that answers right needs the run's items: src/testing/scripted-student.ts.
    const mistake = /\(which gives (.+?)\)\./.exec(sys);
    return chat(JSON.stringify({ work: 'I tried.', answer: mistake?.[1] ?? null }));
  }
  if (sys.includes('role-playing')) {
    const u = body.messages[1]?.content ?? '';
    return chat(JSON.stringify(u.includes('CANNOT') ? { message: 'Hmm, is it 5?', answer: null } : { message: 'Let me try: 2x = 10 so x = 5', answer: null }));
  }
  if (sys.includes('"held"')) return chat(JSON.stringify({ held: true, evidence: '' }));
  const keys = [...sys.matchAll(/"(\w+)": <integer (\d+)-(\d+)>/g)];
  if (keys.length) {
    const m = /-(\d+)$/.exec(body.model);
    const v = m ? Number(m[1]) : 3;
    return chat(JSON.stringify(Object.fromEntries([...keys.map((k) => [k[1]!, Math.min(Number(k[3]), Math.max(Number(k[2]), v))]), ['comment', 'scripted']])));
  }
  return chat('ok');
}
