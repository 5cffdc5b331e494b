import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { RunStore } from './run-store';
import { miniScenario, runWith } from '../../testing/fixtures';
import { MockLlm, PANEL_DEFAULTS, judgeTrace, scoreTrace, toJsonl, withVerdicts, type ChatRequest } from '../../core/index';

const judge = (req: ChatRequest) => {
  const sys = req.messages[0]!.content ?? '';
  if (sys.includes('"held"')) return { content: '{"held": true}' };
  return { content: JSON.stringify(Object.fromEntries([...sys.matchAll(/"(\w+)": <integer (\d+)-(\d+)>/g)].map((m) => [m[1]!, 2]))) };
};

describe('RunStore with judge verdicts', () => {
  it('stores verdicts with the trace, replaces them on re-judging, exports and re-imports them', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const store = new RunStore(`test-${Math.random()}`);
    const rec = { key: 'k', runId: res.runId, scenarioId: 'mini-3day', scenarioTitle: 'Mini', tutor: 'withholder', seed: 7, tracer: 'bkt', status: 'done' as const, endReason: res.reason, createdAt: 1, events: res.events.length, report: scoreTrace(res.events), error: null };
    await store.appendEvents('k', res.events);
    await store.putRun(rec);
    for (let round = 0; round < 2; round++) {
      const out = await judgeTrace(await store.getEvents('k'), { ...PANEL_DEFAULTS, id: `p${round}`, judges: [{ id: 'j', client: new MockLlm(judge) }], daysPerRun: null });
      const all = withVerdicts(await store.getEvents('k'), out.events);
      await store.replaceTail({ ...rec, events: all.length, report: scoreTrace(all) }, res.events.length, all.slice(res.events.length));
    }
    const stored = await store.getEvents('k');
    expect(stored.filter((e) => e.type === 'judge_panel')).toHaveLength(1);
    expect(stored.filter((e) => e.type === 'judge_panel').map((e) => e.type === 'judge_panel' && e.panel)).toEqual(['p1']);
    expect((await store.getRun('k'))!.report!.judged.gagne).toBe(2);
    const text = await store.exportJsonl('k');
    expect(text.startsWith(toJsonl(res.events))).toBe(true);
    const imported = await store.importJsonl(text, 'judged.jsonl', scoreTrace, 5);
    expect(imported.endReason).toBe('horizon_reached');
    expect(imported.report!.judged.rosenshine).toBe(2);
    await store.close();
  });
});
