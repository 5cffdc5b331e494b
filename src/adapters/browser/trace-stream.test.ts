import { describe, expect, it } from 'vitest';
import { parseJsonl, toJsonl } from '../../core/index';
import { miniScenario, runWith } from '../../testing/fixtures';
import { readTraceStream } from './trace-stream';

/** A file whose stream hands out `size`-byte chunks: lines and UTF-8 characters cut anywhere. */
const chunked = (text: string, size: number) => ({
  stream: () => {
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    return new ReadableStream<Uint8Array>({
      pull(c) {
        if (at >= bytes.length) return c.close();
        c.enqueue(bytes.slice(at, (at += size)));
      },
    }) as ReturnType<Blob['stream']>;
  },
});

describe('a trace read in the page as a stream', () => {
  it('gives what parseJsonl gives, however the chunks cut lines and characters', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    // A multi-byte character in the trace (a learner message), so that chunks can cut one.
    const text = toJsonl(res.events).replace('"text":"', '"text":"é—✓ ');
    expect(text).toContain('é—✓');
    const whole = parseJsonl(text, 't.jsonl');
    for (const size of [1, 7, 4096, text.length + 10]) {
      const got = await readTraceStream(chunked(text, size), 't.jsonl');
      expect(got.complete).toBe(true);
      expect(JSON.stringify(got.events)).toBe(JSON.stringify(whole.events));
    }
    // No final newline: the last line still counts.
    expect((await readTraceStream(chunked(text.trimEnd(), 5), 't.jsonl')).events).toHaveLength(whole.events.length);
  });

  it('stops at the first bad line, named by source and line', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const lines = toJsonl(res.events).split('\n');
    lines[3] = '{"seq":3,"t":0,"type":"probe","day":0,"items":[],"solveRate":5,"gradedRate":0}';
    await expect(readTraceStream(chunked(lines.join('\n'), 13), 'bad.jsonl')).rejects.toThrow(/^bad\.jsonl:4: /);
  });
});
