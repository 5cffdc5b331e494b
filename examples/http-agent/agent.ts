/**
 * An example tutor that is a service: a plain node:http server speaking the HTTP tutor protocol
 * (docs/bring-your-own-tutor.md#http). The engine POSTs each wake; this agent answers with one
 * tool call at a time (from the same policy as the example MCP client, ../mcp-client/policy.ts),
 * reads each call's result from the next POST, and ends its turn when the policy is done.
 *
 *   npx tsx examples/http-agent/agent.ts --port 8787
 *   npm run cli -- run --tutor http --agent-url http://127.0.0.1:8787/ --scenario scenarios/fixtures/mini-3day.yaml --out runs/http.jsonl
 */
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { teach, type Call, type ToolResult, type Wake } from '../mcp-client/policy';

export const AGENT = { name: 'example-http-tutor', version: '1.0.0', model: '' };

/** What the engine POSTs (the fields this agent reads). */
interface Body {
  protocol: string;
  /** run_end: the run is over (reason, days, calls, failed_calls, warnings); answered with any 2xx, its body unread. */
  type: 'hello' | 'wake' | 'continue' | 'run_end';
  run_id: string;
  step: number;
  attempt: number;
  wake: Wake;
  results: { id: string; name: string; args: unknown; result: ToolResult }[];
  error?: { code: string; message: string };
}

type Reply = { calls: { id: string; name: string; args: Record<string, unknown> }[]; end: boolean; note?: string };

/** A turn in progress: the policy, and the call it is waiting on. */
interface Open {
  turn: number;
  policy: Generator<Call, void, ToolResult>;
  waiting: string | null;
}

/**
 * The agent's answer to one POST. State per run: the turn in progress. A step tried again (the
 * engine's retry after a lost reply) is answered from what this step answered before.
 */
export function exampleAgent(o: { name?: string; version?: string; model?: string } = {}): (body: Body) => unknown {
  const runs = new Map<string, Open>();
  const answered = new Map<string, Reply>();
  const id = { ...AGENT, ...o };
  return (b) => {
    if (b.type === 'hello') return { protocol: b.protocol, agent: { name: id.name, version: id.version, model: id.model } };
    // The run is over: forget it (a real agent would learn from how it went: reason, warnings).
    if (b.type === 'run_end') {
      runs.delete(b.run_id);
      return { ok: true };
    }
    const key = `${b.run_id}#${b.wake.turn}#${b.step}`;
    const again = answered.get(key);
    if (again) return again;
    let open = runs.get(b.run_id);
    let next: IteratorResult<Call, void>;
    if (b.type === 'wake') {
      open = { turn: b.wake.turn, policy: teach(b.wake), waiting: null };
      runs.set(b.run_id, open);
      next = open.policy.next();
    } else {
      if (!open || open.turn !== b.wake.turn) return { calls: [], end: true, note: 'no turn in progress here' };
      const r = b.results.find((x) => x.id === open!.waiting);
      next = open.policy.next(r?.result ?? { ok: false, error: { code: 'LOST', message: 'no result' } });
    }
    let reply: Reply;
    if (next.done) {
      runs.delete(b.run_id);
      reply = { calls: [], end: true };
    } else {
      const [name, args] = next.value;
      open.waiting = `t${b.wake.turn}s${b.step}`;
      reply = { calls: [{ id: open.waiting, name, args }], end: false };
    }
    answered.set(key, reply);
    return reply;
  };
}

/**
 * Serves an agent function over HTTP (POST, JSON in and out). It allows any origin (CORS), so that
 * the Lab page can call it from the browser too; a real service would allow only the page's origin.
 */
export function serveAgent(agent: (body: Body) => unknown, port = 0, host = '127.0.0.1'): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      // The browser's preflight for a JSON POST.
      res.writeHead(204, { 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type, authorization', 'access-control-max-age': '600' }).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      let out: unknown;
      try {
        out = agent(JSON.parse(text) as Body);
      } catch (e) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(e) }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  return new Promise((resolve) => {
    server.listen(port, host, () => {
      const a = server.address();
      resolve({ server, url: `http://${host}:${typeof a === 'object' && a ? a.port : port}/` });
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--port');
  const port = i >= 0 ? Number(process.argv[i + 1]) : 8787;
  void serveAgent(exampleAgent(), port).then(({ url }) => console.error(`example HTTP tutor listening on ${url}`));
}
