/**
 * Trace files that survive the process: events are appended as they happen (one write per event,
 * so a killed process leaves every event it recorded, at most the last line cut short), and a
 * partial file is read back for resuming.
 *
 * One `writeSync` per line on a file opened for appending: the OS has the line as soon as the call
 * returns, so SIGKILL loses nothing written (a power cut may; `fsync` at the end covers normal exits).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseJsonl, resumePoint, type TraceEvent } from '../../core/index';

export class TraceAppender {
  readonly path: string;
  #fd: number | null;

  /** Opens `path` for appending; `keepBytes` truncates it there first (a resume), otherwise it is emptied. */
  constructor(path: string, keepBytes = 0) {
    this.path = path;
    mkdirSync(dirname(resolve(path)), { recursive: true });
    if (keepBytes > 0) truncateSync(path, keepBytes);
    this.#fd = openSync(path, keepBytes > 0 ? 'a' : 'w');
  }

  append(e: TraceEvent): void {
    if (this.#fd === null) throw new Error(`${this.path}: the trace file is closed`);
    writeSync(this.#fd, JSON.stringify(e) + '\n');
  }

  close(): void {
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

/** Reads a trace file that may have been cut short; a final line without its newline is dropped. Other damage is an error naming the line. */
export function readStoredTrace(path: string): StoredTrace {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read trace ${path}: ${(e as Error).message}`);
  }
  const lastNl = text.lastIndexOf('\n');
  const whole = text.slice(0, lastNl + 1);
  const cutLine = whole.length < text.length && text.slice(lastNl + 1).trim() !== '';
  const { events } = parseJsonl(whole, path);
  const offsets = [0];
  let at = 0;
  for (const line of whole.split('\n').slice(0, -1)) {
    at += Buffer.byteLength(line, 'utf8') + 1;
    if (line.trim()) offsets.push(at);
  }
  return { events, cutLine, offsets };
}

/** What resuming a trace file needs: the stored events and the byte length of the part a resume keeps. */
export function resumeFile(path: string): { stored: TraceEvent[]; keep: number; keepBytes: number; cutLine: boolean } {
  if (!existsSync(path)) throw new Error(`no trace to resume at ${path}`);
  const t = readStoredTrace(path);
  const keep = resumePoint(t.events).length;
  return { stored: t.events, keep, keepBytes: t.offsets[keep]!, cutLine: t.cutLine };
}
