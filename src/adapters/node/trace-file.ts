/**
 * Trace files that survive the process: events are appended as they happen (one write per event,
 * so a killed process leaves every event it recorded, at most the last line cut short), and a
 * partial file is read back for resuming.
 *
 * One `writeSync` per line on a file opened for appending: the OS has the line as soon as the call
 * returns, so SIGKILL loses nothing written (a power cut may; `fsync` at the end covers normal exits).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, truncateSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MAX_TRACE_LINE_CHARS, TraceParseError, TraceReader, resumePoint, type RunSink, type TraceEvent } from '../../core/index';
import { LineTooLong, forEachLine } from './files';

/** A trace file as a run's sink (core/engine/runner.ts): `begin` waits for the first live event to cut the file back, `end` closes it. */
export class TraceAppender implements RunSink {
  readonly path: string;
  readonly #keepBytes: number;
  #fd: number | null = null;
  #closed = false;

  /**
   * A new trace at `path` (emptied at the first event), or with `keepBytes` the resume of the
   * trace there: at the first live event the file is cut back to its first `keepBytes` bytes (the
   * part the resume replayed) and appended to. A resume that records nothing live (it diverged, or
   * was stopped while replaying) leaves the file as it was.
   */
  constructor(path: string, keepBytes = 0) {
    this.path = path;
    this.#keepBytes = keepBytes;
    mkdirSync(dirname(resolve(path)), { recursive: true });
  }

  /** The runner's begin: nothing yet (the file is cut back at the first live event; `keepBytes` says to where). */
  begin(): void {}

  append(e: TraceEvent): void {
    if (this.#closed) throw new Error(`${this.path}: the trace file is closed`);
    try {
      if (this.#fd === null) {
        if (this.#keepBytes > 0) truncateSync(this.path, this.#keepBytes);
        this.#fd = openSync(this.path, this.#keepBytes > 0 ? 'a' : 'w');
      }
      writeSync(this.#fd, JSON.stringify(e) + '\n');
    } catch (err) {
      // A full disk or a file-size limit: the error names the trace (the events before are whole; a cut last line is dropped by --resume).
      const x = err as NodeJS.ErrnoException;
      throw new Error(`could not append event ${e.seq} to the trace ${this.path}: ${x.code && !x.message.startsWith(x.code) ? `${x.code}: ` : ''}${x.message}; the events before it are kept (resume it with --resume once there is room)`);
    }
  }

  /** The runner's end. */
  end(): void {
    this.close();
  }

  close(): void {
    this.#closed = true;
    if (this.#fd === null) return;
    fsyncSync(this.#fd);
    closeSync(this.#fd);
    this.#fd = null;
  }
}

export interface StoredTrace {
  /** Every complete event in the file. */
  events: TraceEvent[];
  /** A final line cut short by a killed writer (dropped), if there was one. */
  cutLine: boolean;
  /** Byte length of the first n complete lines, for n = 0..events.length. */
  offsets: number[];
}

/**
 * Reads a trace file that may have been cut short, streaming it line by line (checked strictly as
 * it comes, like readTraceFile); a final line without its newline is dropped (so `events` may be
 * empty). Other damage is an error naming the line and field.
 */
export function readStoredTrace(path: string): StoredTrace {
  const r = new TraceReader(path);
  const offsets = [0];
  let cutLine = false;
  try {
    forEachLine(path, (text, complete, endByte) => {
      if (!complete) {
        cutLine = text.trim() !== '';
        return;
      }
      if (r.line(text)) offsets.push(endByte);
    }, MAX_TRACE_LINE_CHARS);
  } catch (e) {
    if (e instanceof TraceParseError) throw e;
    if (e instanceof LineTooLong) throw new TraceParseError(path, e.line, `line of more than ${e.max} bytes is longer than a trace event can be (read no further)`);
    throw new Error(`cannot read trace ${path}: ${(e as Error).message}`);
  }
  // Nothing but a cut first line (killed while writing run_start): no events, not a broken file.
  const events = r.events.length ? r.end().events : [];
  return { events, cutLine, offsets };
}

/** What resuming a trace file needs: the stored events and the byte length of the part a resume keeps. */
export function resumeFile(path: string): { stored: TraceEvent[]; keep: number; keepBytes: number; cutLine: boolean } {
  if (!existsSync(path)) throw new Error(`no trace to resume at ${path}`);
  const t = readStoredTrace(path);
  if (t.events.length === 0) throw new Error(`${path}: no event was written completely (the run stopped while writing its first line); start the run again instead of resuming it`);
  const keep = resumePoint(t.events).length;
  return { stored: t.events, keep, keepBytes: t.offsets[keep]!, cutLine: t.cutLine };
}
