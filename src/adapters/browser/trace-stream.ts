/**
 * A trace file read in the page as a stream (Blob.stream() through a TextDecoderStream), line by
 * line into the core's TraceReader: a large file is never one string, and the first bad line
 * stops the read with its source, line and field (as the CLI's streaming reader does).
 */
import { TraceReader, type ParsedTrace } from '../../core/index';

export async function readTraceStream(file: Pick<Blob, 'stream'>, source: string): Promise<ParsedTrace> {
  const r = new TraceReader(source);
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = rest + value;
      let at = 0;
      for (let nl = text.indexOf('\n', at); nl >= 0; nl = text.indexOf('\n', at)) {
        r.line(text.slice(at, nl));
        at = nl + 1;
      }
      rest = text.slice(at);
    }
  } finally {
    reader.releaseLock();
  }
  // The last line, with no newline after it (or the empty line after the final newline).
  r.line(rest);
  return r.end();
}
