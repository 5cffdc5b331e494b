import { describe, expect, it } from 'vitest';
import { parseJsonl, toJsonl, TraceParseError } from './index';
import { miniScenario, runWith } from '../../testing/fixtures';

describe('JSONL traces', () => {
  it('round-trips a run byte for byte', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const text = toJsonl(res.events);
    const parsed = parseJsonl(text, 'run.jsonl');
    expect(parsed.complete).toBe(true);
    expect(toJsonl(parsed.events)).toBe(text);
  });

  it('names the line of a corrupt event and loses nothing silently', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const lines = toJsonl(res.events).split('\n');
    const broken = [...lines];
    broken[5] = '{"seq":5,"t":0,"type":"attempt"'; // truncated JSON
    expect(() => parseJsonl(broken.join('\n'), 'x.jsonl')).toThrow(/x\.jsonl:6: not JSON/);
    const badField = [...lines];
    badField[3] = JSON.stringify({ ...JSON.parse(lines[3]!), type: 'teleport' });
    expect(() => parseJsonl(badField.join('\n'), 'x.jsonl')).toThrow(/x\.jsonl:4: invalid event/);
    const gap = [...lines];
    gap.splice(4, 1);
    expect(() => parseJsonl(gap.join('\n'), 'x.jsonl')).toThrow(/expected seq 4, found 5/);
  });

  it('reads a cut-short trace as incomplete, and rejects a trace that does not start with run_start', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const lines = toJsonl(res.events).trim().split('\n');
    expect(parseJsonl(lines.slice(0, 40).join('\n')).complete).toBe(false);
    expect(() => parseJsonl(lines.slice(1).join('\n'))).toThrow(TraceParseError);
    expect(() => parseJsonl('')).toThrow(/empty trace/);
  });

  it('refuses traces from a newer schema version', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const lines = toJsonl(res.events).trim().split('\n');
    lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), schemaVersion: 99 });
    expect(() => parseJsonl(lines.join('\n'), 'new.jsonl')).toThrow(/newer than this build/);
  });
});
