/**
 * The door check of every local HTTP server the CLI starts (serve-mcp over HTTP, a worker's
 * --status-port): a request is answered only when its Host header names this server by a loopback
 * name or the address it listens on (a DNS-rebinding page sends its own host name), and when it
 * carries an Origin, only from a loopback origin or one the operator allowed (a web page of
 * another site is refused, whatever its Host). Refusals are 403 with a JSON body that says which
 * header and why. docs/reliability.md ("Doors").
 */
import type { IncomingMessage } from 'node:http';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);

export interface DoorOptions {
  /** The address the server listens on (as given to listen). */
  host: string;
  /** The port it listens on. */
  port: number;
  /** Origins a browser page may call from besides loopback ones (exact "scheme://host:port"). */
  allowedOrigins?: readonly string[];
  /** More host names the server may be reached by (a LAN name, when listening on every network). */
  allowedHosts?: readonly string[];
}

const hostOf = (h: string): { name: string; port: string } | null => {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(h.trim());
  return m ? { name: m[1]!.toLowerCase(), port: m[2] ?? '80' } : null;
};

/** Null when the request may pass; otherwise why it is refused (for the 403 body). */
export function doorRefusal(req: Pick<IncomingMessage, 'headers'>, o: DoorOptions): string | null {
  const raw = req.headers.host;
  const h = typeof raw === 'string' ? hostOf(raw) : null;
  if (!h) return `Host header ${JSON.stringify(raw ?? null)} is missing or malformed`;
  const listen = o.host.toLowerCase();
  const names = new Set([...LOOPBACK, listen.includes(':') && !listen.startsWith('[') ? `[${listen}]` : listen, ...(o.allowedHosts ?? []).map((x) => x.toLowerCase())]);
  const anyName = WILDCARD.has(listen) && (o.allowedHosts ?? []).length === 0;
  if (h.port !== String(o.port) || (!anyName && !names.has(h.name))) return `Host ${JSON.stringify(raw)} is not this server (${[...names].filter((n) => !WILDCARD.has(n)).join(', ')} on port ${o.port}): refused (DNS rebinding)`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  if (typeof origin !== 'string') return 'more than one Origin header';
  if ((o.allowedOrigins ?? []).includes(origin)) return null;
  let u: URL | null = null;
  try {
    u = origin === 'null' ? null : new URL(origin);
  } catch {
    u = null;
  }
  if (u && (u.protocol === 'http:' || u.protocol === 'https:') && LOOPBACK.has(u.hostname.toLowerCase())) return null;
  return `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed: a page of another site may not call this server`;
}

/** The 403 a refused request gets. */
export function refuse(res: { writeHead(s: number, h: Record<string, string>): { end(b: string): void } }, why: string): void {
  res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `forbidden: ${why}` }));
}
