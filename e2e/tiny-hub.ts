/**
 * A model hub for the tests: serves the project's test model (e2e/fixtures/tiny-lm/, made by
 * training/tiny-lm/make_tiny_lm.py) in the Hugging Face layout transformers.js reads,
 * `/<org>/<name>/resolve/main/<file>`, and the hub's file list `/api/models/<org>/<name>/tree/main`
 * (sizes, and sha256 of the ONNX files as the hub gives for LFS files). CORS is open, as on the
 * real hub. `damaged = true` serves onnx/model.onnx cut to half its bytes (with a matching
 * Content-Length, so only the ONNX parser and the hash check can notice); the file list keeps the
 * real size and hash. Large files are sent in slices with short pauses so a progress bar is seen.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const HUB_ROOT = join(process.cwd(), 'e2e', 'fixtures', 'tiny-lm');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

export interface TinyHub {
  url: string;
  /** Every request path, in order. */
  requests: string[];
  damaged: boolean;
  close(): Promise<void>;
}

export async function startTinyHub(port: number): Promise<TinyHub> {
  const state = { damaged: false, requests: [] as string[] };
  const send = async (res: ServerResponse, status: number, body: Buffer, type: string) => {
    res.writeHead(status, { 'content-type': type, 'content-length': String(body.length), 'access-control-allow-origin': '*', 'access-control-expose-headers': 'content-length' });
    const slice = 64 * 1024;
    for (let i = 0; i < body.length; i += slice) {
      res.write(body.subarray(i, i + slice));
      if (body.length > slice) await new Promise((r) => setTimeout(r, 60));
    }
    res.end();
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    state.requests.push(path);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' });
      res.end();
      return;
    }
    const api = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/main$/.exec(path);
    if (api) {
      const dir = join(HUB_ROOT, api[1]!);
      let files: string[];
      try {
        files = walk(dir);
      } catch {
        void send(res, 404, Buffer.from('{"error":"Repository not found"}'), 'application/json');
        return;
      }
      const list = files
        .filter((f) => !f.endsWith('README.md'))
        .map((f) => {
          const buf = readFileSync(f);
          const p = relative(dir, f);
          return { type: 'file', path: p, size: buf.length, ...(p.endsWith('.onnx') ? { lfs: { oid: createHash('sha256').update(buf).digest('hex'), size: buf.length } } : {}) };
        });
      void send(res, 200, Buffer.from(JSON.stringify(list)), 'application/json');
      return;
    }
    const m = /^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(path);
    if (!m || m[2]!.includes('..')) {
      void send(res, 404, Buffer.from('Entry not found'), 'text/plain');
      return;
    }
    let body: Buffer;
    try {
      body = readFileSync(join(HUB_ROOT, m[1]!, m[2]!));
    } catch {
      void send(res, 404, Buffer.from('Entry not found'), 'text/plain');
      return;
    }
    if (state.damaged && m[2] === 'onnx/model.onnx') body = body.subarray(0, Math.floor(body.length / 2));
    void send(res, 200, body, m[2]!.endsWith('.json') ? 'application/json' : 'application/octet-stream');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    get requests() {
      return state.requests;
    },
    get damaged() {
      return state.damaged;
    },
    set damaged(v: boolean) {
      state.damaged = v;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
