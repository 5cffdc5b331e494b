/**
 * File I/O for the CLI: scenarios, traces (JSONL) and the package's own paths.
 *
 * Safe writes: every file the CLI writes whole (a judged trace, a report, a sweep summary, the
 * JSON Schema) goes through `writeFileAtomic`: written to a temporary file next to it, flushed to
 * disk, then renamed over the target. A process killed mid-write, a full disk or a file-size limit
 * leaves the old file as it was (or no file), never a truncated one. Traces written as a run goes
 * are appended event by event instead (trace-file.ts), so a killed run keeps what it recorded.
 *
 * Streaming reads: a trace is read in chunks of 1 MiB and checked line by line as it comes
 * (core TraceReader), never as one string: a large trace costs its events, not twice its size.
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_SCENARIO_BYTES, MAX_TRACE_LINE_CHARS, ScenarioError, TraceParseError, TraceReader, parseScenario, type ParsedTrace, type Scenario, type TraceEvent } from '../../core/index';

/**
 * Repository root (where package.json, scenarios/ and public/ live): the nearest directory above
 * this module with a package.json. This module runs from src/adapters/node/ (tsx) or bundled into
 * dist-cli/ (npm run build:cli), so the root is not a fixed number of levels up.
 */
export const ROOT = ((): string => {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let d = here; ; d = dirname(d)) {
    if (fs.existsSync(join(d, 'package.json'))) return d;
    if (dirname(d) === d) return resolve(here, '../../..');
  }
})();
export const DEFAULT_SCENARIO_PATH = resolve(ROOT, 'scenarios/default.yaml');

export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    // A file far larger than any scenario is refused before it is read (it would only cost time and memory).
    const size = fs.statSync(path).size;
    if (size > MAX_SCENARIO_BYTES) throw new ScenarioError(path, [{ path: '(file)', message: `the file is ${size} bytes; a scenario is at most ${MAX_SCENARIO_BYTES} bytes`, line: 1, col: 1 }], true);
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof ScenarioError) throw e;
    throw new Error(`cannot read scenario ${path}: ${(e as Error).message}`);
  }
  return parseScenario(text, path);
}

const CHUNK = 1 << 20;

/** A line longer than forEachLine's limit (its 1-based number): the reader stops there. */
export class LineTooLong extends Error {
  constructor(
    readonly line: number,
    readonly max: number,
  ) {
    super(`line ${line} is longer than ${max} bytes`);
  }
}

/**
 * Calls `onLine` for every line of a file, read in chunks (never the whole file at once), with
 * the line's text (no newline), whether it ended with a newline (only the last line may not), and
 * the byte offset just after it.
 */
export function forEachLine(path: string, onLine: (text: string, complete: boolean, endByte: number) => void, maxLineBytes = Infinity): void {
  const fd = fs.openSync(path, 'r');
  let lineNo = 0;
  const tooLong = () => new LineTooLong(lineNo + 1, maxLineBytes);
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let offset = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      const view = buf.subarray(0, n);
      let start = 0;
      for (;;) {
        const nl = view.indexOf(0x0a, start);
        if (nl < 0) break;
        const piece = view.subarray(start, nl);
        if (pendingBytes + piece.length > maxLineBytes) throw tooLong();
        lineNo++;
        const line = pendingBytes ? Buffer.concat([...pending, piece]).toString('utf8') : piece.toString('utf8');
        offset += pendingBytes + piece.length + 1;
        pending = [];
        pendingBytes = 0;
        onLine(line, true, offset);
        start = nl + 1;
      }
      if (start < n) {
        // A line is never held past the limit (a 600 MB line is refused after 16 MiB, not read whole).
        if (pendingBytes + (n - start) > maxLineBytes) throw tooLong();
        pending.push(Buffer.from(view.subarray(start)));
        pendingBytes += n - start;
      }
    }
    if (pendingBytes) onLine(Buffer.concat(pending).toString('utf8'), false, offset + pendingBytes);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads and validates a whole trace file (strictly: errors name file, line and field), streaming it line by line. */
export function readTraceFile(path: string): ParsedTrace {
  const r = new TraceReader(path);
  try {
    forEachLine(path, (text) => void r.line(text), MAX_TRACE_LINE_CHARS);
  } catch (e) {
    if (e instanceof TraceParseError) throw e;
    if (e instanceof LineTooLong) throw new TraceParseError(path, e.line, `line of more than ${e.max} bytes is longer than a trace event can be (read no further)`);
    throw new Error(`cannot read trace ${path}: ${(e as Error).message}`);
  }
  return r.end();
}

/** The JSONL text of the events in pieces of about 1 MiB (a long trace is never one string). */
function* jsonlChunks(events: readonly TraceEvent[]): Generator<string> {
  let out = '';
  for (const e of events) {
    out += JSON.stringify(e) + '\n';
    if (out.length >= CHUNK) {
      yield out;
      out = '';
    }
  }
  if (out) yield out;
}

/**
 * Writes a file so that it is either the old file or the whole new one, whatever happens: the
 * data goes to a temporary file in the same directory (`.<name>.<pid>.<random>.tmp`), is flushed
 * to disk, and is renamed over `path`; on any failure the temporary file is removed and the error
 * says the old file is unchanged. (A process killed outright can leave its temporary file behind;
 * the target is still intact.) The new file keeps the old one's permissions, or takes `mode` when
 * given (a secret is written 0o600).
 */
export function writeFileAtomic(path: string, data: string | Iterable<string | Uint8Array>, opts: { mode?: number } = {}): void {
  const target = resolve(path);
  const dir = dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  let mode = 0o666;
  try {
    mode = fs.statSync(target).mode & 0o777;
  } catch {
    // no file yet
  }
  if (opts.mode !== undefined) mode = opts.mode;
  const tmp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = fs.openSync(tmp, 'wx', mode);
    for (const piece of typeof data === 'string' ? [data] : data) {
      const b = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
      let off = 0;
      while (off < b.length) off += fs.writeSync(fd, b, off, b.length - off);
    }
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(tmp, target);
  } catch (e) {
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failing
      }
    }
    try {
      fs.unlinkSync(tmp);
    } catch {
      // nothing to remove
    }
    const err = e as NodeJS.ErrnoException;
    throw new Error(`could not write ${path}: ${err.code ? `${err.code}: ` : ''}${err.message}; ${fs.existsSync(target) ? 'the file there is unchanged' : 'nothing was written'}`);
  }
  // The rename is durable once the directory is flushed (best effort: not every platform allows it).
  try {
    const dfd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    // not supported here
  }
}

/**
 * A file written piece by piece that replaces `path` only when committed whole (the pieces go to a
 * temporary file beside it, as writeFileAtomic's): until then, and after any failure or abort,
 * the old file is as it was. Errors name the file and say so.
 */
export class AtomicFile {
  readonly path: string;
  readonly #tmp: string;
  #fd: number | null;
  constructor(path: string) {
    this.path = path;
    const target = resolve(path);
    fs.mkdirSync(dirname(target), { recursive: true });
    let mode = 0o666;
    try {
      mode = fs.statSync(target).mode & 0o777;
    } catch {
      // no file yet
    }
    this.#tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    this.#fd = this.#guard(() => fs.openSync(this.#tmp, 'wx', mode));
  }

  #guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      this.abort();
      const err = e as NodeJS.ErrnoException;
      throw new Error(`could not write ${this.path}: ${err.code && !err.message.startsWith(err.code) ? `${err.code}: ` : ''}${err.message}; ${fs.existsSync(resolve(this.path)) ? 'the file there is unchanged' : 'nothing was written'}`);
    }
  }

  write(piece: string): void {
    if (this.#fd === null) throw new Error(`${this.path}: written after it was closed`);
    const b = Buffer.from(piece, 'utf8');
    this.#guard(() => {
      let off = 0;
      while (off < b.length) off += fs.writeSync(this.#fd!, b, off, b.length - off);
    });
  }

  /** Flushes and renames over the target. */
  commit(): void {
    this.#guard(() => {
      fs.fsyncSync(this.#fd!);
      fs.closeSync(this.#fd!);
      this.#fd = null;
      fs.renameSync(this.#tmp, resolve(this.path));
    });
  }

  /** Drops what was written; the old file stays. */
  abort(): void {
    if (this.#fd !== null) {
      try {
        fs.closeSync(this.#fd);
      } catch {
        // already failing
      }
      this.#fd = null;
    }
    try {
      fs.unlinkSync(this.#tmp);
    } catch {
      // nothing to remove
    }
  }
}

/**
 * Replaces a directory of generated files (a report) as a whole: `fill(staging)` writes the new
 * files into a fresh directory beside `dir`; then `dir` (if any) is renamed aside, the new one
 * renamed into place, and the old one removed. Killed or failing at any moment, `dir` holds either
 * the old files or the new ones, never a mix: a failure removes the staging directory and leaves
 * the old one; a kill between the two renames leaves the old one aside as `.<name>.old-<pid>`,
 * which the next call puts back before it starts. `owned(name)` says which top-level entries of
 * `dir` are the generated ones: a directory holding anything else is refused (never replaced).
 */
export async function replaceDirAtomic(dir: string, owned: (name: string) => boolean, fill: (staging: string) => Promise<void> | void): Promise<void> {
  const target = resolve(dir);
  const parent = dirname(target);
  const name = basename(target);
  fs.mkdirSync(parent, { recursive: true });
  // A previous run killed between its renames: put its old directory back.
  for (const n of fs.readdirSync(parent)) {
    if (!n.startsWith(`.${name}.old-`)) continue;
    if (!fs.existsSync(target)) fs.renameSync(join(parent, n), target);
    else fs.rmSync(join(parent, n), { recursive: true, force: true });
  }
  for (const n of fs.readdirSync(parent)) if (n.startsWith(`.${name}.new-`)) fs.rmSync(join(parent, n), { recursive: true, force: true });
  if (fs.existsSync(target)) {
    if (!fs.statSync(target).isDirectory()) throw new Error(`${dir} is a file, not a directory: choose another --out`);
    const foreign = fs.readdirSync(target).filter((n) => !owned(n));
    if (foreign.length) throw new Error(`${dir} holds files that are not this output's (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}): it is replaced as a whole, so choose an empty or new directory for --out`);
  }
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = join(parent, `.${name}.new-${tag}`);
  fs.mkdirSync(staging);
  try {
    await fill(staging);
    const dfd = fs.openSync(staging, 'r');
    try {
      fs.fsyncSync(dfd);
    } catch {
      // not supported here
    } finally {
      fs.closeSync(dfd);
    }
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    const msg = e instanceof Error ? e.message : String(e);
    throw new Error(`${msg}${/unchanged|nothing was written/.test(msg) ? '' : ''}; ${fs.existsSync(target) ? `${dir} is unchanged` : `nothing was written to ${dir}`}`);
  }
  const aside = join(parent, `.${name}.old-${tag}`);
  const had = fs.existsSync(target);
  if (had) fs.renameSync(target, aside);
  fs.renameSync(staging, target);
  if (had) fs.rmSync(aside, { recursive: true, force: true });
}

/** Writes a whole trace safely (see writeFileAtomic): a judged trace replaces the old file only once it is complete on disk. */
export function writeTraceFile(path: string, events: readonly TraceEvent[]): void {
  writeFileAtomic(path, jsonlChunks(events));
}
