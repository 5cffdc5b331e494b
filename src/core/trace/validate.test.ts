/**
 * Strict trace validation on read (issue 16): the impossible traces that used to score without a
 * word are refused, naming file, line and field; every trace the product writes still reads.
 */
import { describe, expect, it } from 'vitest';
import { MockLlm, PlayDriver, PLAY_WAKE_ON, judgeTrace, llmTutorConfig, openRun, parseJsonl, runRecord, scoreTrace, toJsonl, withVerdicts, PANEL_DEFAULTS, TraceParseError, type ChatRequest, type MockReply, type TraceEvent } from '../index';
import { bktEnv, miniScenario, onBkt, runWith } from '../../testing/fixtures';

/** A judge that gives `value` on every item of the rubric it is asked (answer holding: held). */
const judge = (value: number) => (req: ChatRequest): MockReply => {
  const sys = req.messages[0]!.content ?? '';
  if (sys.includes('"held"')) return { content: JSON.stringify({ held: true, evidence: '' }) };
  const keys = [...sys.matchAll(/"(\w+)": <integer (\d+)-(\d+)>/g)].map((m) => [m[1]!, Math.min(Number(m[3]), Math.max(Number(m[2]), value))] as const);
  return { content: JSON.stringify(Object.fromEntries(keys)) };
};

async function judged(): Promise<TraceEvent[]> {
  const res = await runWith(miniScenario(), 'withholder');
  const judges = [3, 4].map((v, i) => ({ id: `j${i}`, client: new MockLlm(judge(v), { model: `m${i}`, family: `f${i}` }) }));
  const out = await judgeTrace(res.events, { ...PANEL_DEFAULTS, id: 'p', judges, daysPerRun: null });
  return withVerdicts(res.events, out.events);
}

const lines = (events: readonly TraceEvent[]) => toJsonl(events).trim().split('\n');
const edit = (ls: string[], i: number, f: (e: Record<string, unknown>) => void) => {
  const o = JSON.parse(ls[i]!) as Record<string, unknown>;
  f(o);
  const out = [...ls];
  out[i] = JSON.stringify(o);
  return out.join('\n');
};
const idx = (ls: string[], pred: (e: Record<string, unknown>) => boolean) => ls.findIndex((l) => pred(JSON.parse(l) as Record<string, unknown>));

function refusal(text: string, source = 'bad.jsonl'): TraceParseError {
  try {
    parseJsonl(text, source);
  } catch (e) {
    expect(e).toBeInstanceOf(TraceParseError);
    return e as TraceParseError;
  }
  throw new Error('the trace was accepted');
}

describe('strict trace validation: impossible traces are refused with file, line and field', () => {
  it('keeps a field this build does not know, on any event and inside one, byte for byte (a later build may add some)', async () => {
    const ls = lines((await runWith(miniScenario(), 'withholder')).events);
    let text = edit(ls, 0, (e) => {
      e.laterField = { a: 1 };
      (e.tracer as Record<string, unknown>).laterToo = 'x';
    });
    const w = idx(ls, (e) => e.type === 'wake');
    text = edit(text.split('\n'), w, (e) => (e.note = 'new'));
    const back = parseJsonl(text, 'later.jsonl').events;
    expect(toJsonl(back).trim()).toBe(text);
    expect((back[0] as unknown as { laterField: unknown }).laterField).toEqual({ a: 1 });
  });

  it('a probe solve rate of 5 (it used to give "+149.73 pp/day, 51% → 500%")', async () => {
    const ls = lines((await runWith(miniScenario(), 'planner')).events);
    const i = idx(ls, (e) => e.type === 'probe' && e.day === 3);
    const e = refusal(edit(ls, i, (o) => (o.solveRate = 5)));
    expect(e.message).toMatch(new RegExp(`^bad\\.jsonl:${i + 1}: invalid event at solveRate: .*between 0 and 1`));
    expect([e.line, e.field]).toEqual([i + 1, 'solveRate']);
    // Every other probability too.
    const a = idx(ls, (o) => o.type === 'attempt');
    expect(refusal(edit(ls, a, (o) => (o.p = 1.5))).field).toBe('p');
    const m = idx(ls, (o) => o.type === 'mastery');
    expect(refusal(edit(ls, m, (o) => ((o.values as number[])[0] = -0.1))).field).toBe('values[0]');
    const c = idx(ls, (o) => o.type === 'mastery' && o.scope === 'course');
    const bad = refusal(edit(ls, c, (o) => ((o.skills as number[])[0] = 109)));
    expect([bad.line, bad.field]).toEqual([c + 1, 'skills']);
    expect(bad.message).toMatch(/scope "course" holds the course's skills/);
  });

  it('judge item scores off their scale (Gagné 99 or −50, pedagogy overall 1000), and a verdict with one Gagné item (it gave NaN)', async () => {
    const ls = lines(await judged());
    const g = idx(ls, (e) => e.type === 'judge_verdict' && e.rubric === 'gagne' && e.status === 'scored');
    for (const v of [99, -50, 2.5]) {
      const e = refusal(edit(ls, g, (o) => ((o.scores as Record<string, number>).g1_attention = v)));
      expect([e.line, e.field]).toEqual([g + 1, 'scores.g1_attention']);
      expect(e.message).toMatch(/not an integer on the gagne scale \(1\.\.5\)/);
    }
    expect(refusal(edit(ls, g, (o) => (o.scores = { g1_attention: 3 }))).message).toMatch(/scores\.g2_objective: missing/);
    const p = idx(ls, (e) => e.type === 'judge_verdict' && e.rubric === 'pedagogy');
    expect(refusal(edit(ls, p, (o) => ((o.scores as Record<string, number>).overall = 1000))).field).toBe('scores.overall');
    // The trace as the panel wrote it scores, within the scales.
    const r = scoreTrace(parseJsonl(ls.join('\n')).events);
    expect(r.judged.gagne).toBeGreaterThanOrEqual(1);
    expect(r.judged.gagne).toBeLessThanOrEqual(5);
  });

  it('a verdict for day 999, for a judge or rubric not on the panel, or scored without a score', async () => {
    const ls = lines(await judged());
    const v = idx(ls, (e) => e.type === 'judge_verdict');
    expect(refusal(edit(ls, v, (o) => (o.day = 999))).field).toBe('day');
    expect(refusal(edit(ls, v, (o) => (o.judge = 'someone-else'))).field).toBe('judge');
    const h = idx(ls, (e) => e.type === 'judge_verdict' && e.rubric === 'answer_holding');
    expect(refusal(edit(ls, h, (o) => (o.holds = null))).field).toBe('holds');
    const pIdx = idx(ls, (e) => e.type === 'judge_panel');
    expect(refusal(edit(ls, pIdx, (o) => (o.days = [1, 2, 999]))).field).toBe('days[2]');
  });

  it('shuffled events with renumbered seq (responsiveness went from 100% to 50%), time going backwards, a second run_start', async () => {
    const events = (await runWith(miniScenario(), 'planner')).events;
    const ls = lines(events);
    // Shuffle the run's own events (deterministically) and renumber seq so that it is contiguous.
    const body = events.slice(1, -1);
    const shuffled = [events[0]!, ...body.map((e, i) => ({ e, k: (i * 7919) % body.length })).sort((a, b) => a.k - b.k).map((x) => x.e), events[events.length - 1]!].map((e, seq) => ({ ...e, seq }));
    expect(() => parseJsonl(toJsonl(shuffled as TraceEvent[]), 'shuffled.jsonl')).toThrow(TraceParseError);
    // Two events at the same time swapped: the turn structure catches it (a tool call outside its turn).
    const w = idx(ls, (e) => e.type === 'wake');
    const swapped = [...ls];
    [swapped[w], swapped[w + 1]] = [swapped[w + 1]!, swapped[w]!];
    const renum = swapped.map((l, seq) => JSON.stringify({ ...JSON.parse(l), seq }));
    expect(refusal(renum.join('\n')).message).toMatch(/turn/);
    const t = idx(ls, (e) => e.type === 'attempt');
    expect(refusal(edit(ls, t, (o) => (o.t = 1))).field).toBe('t');
    const second = [...ls.slice(0, 5), JSON.stringify({ ...JSON.parse(ls[0]!), seq: 5 }), ...ls.slice(5).map((l) => JSON.stringify({ ...JSON.parse(l), seq: JSON.parse(l).seq + 1 }))];
    expect(refusal(second.join('\n')).message).toMatch(/bad\.jsonl:6: .*a second run_start/);
    // At most one run_end: a second one is an event after run_end.
    expect(refusal([...ls, JSON.stringify({ ...JSON.parse(ls[ls.length - 1]!), seq: ls.length })].join('\n')).message).toMatch(/only judge events may follow run_end/);
  });

  it('horizons of 1e9 and 1e12 days (Node ran out of memory / "Invalid array length"), and schema versions 0 and −1, are refused at line 1', async () => {
    const ls = lines((await runWith(miniScenario(), 'withholder')).events);
    for (const h of [1e9, 1e12, 0, 2.5]) {
      const e = refusal(edit(ls, 0, (o) => ((o.scenario as { horizonDays: number }).horizonDays = h)), 'h.jsonl');
      expect([e.line, e.field]).toEqual([1, 'scenario.horizonDays']);
      expect(e.message).toMatch(/^h\.jsonl:1: invalid event at scenario\.horizonDays/);
    }
    // A tracer runtime that is not a name (absent is AKT's reference runtime, or none).
    for (const rt of [7, '']) expect(refusal(edit(ls, 0, (o) => ((o.tracer as { runtime?: unknown }).runtime = rt))).field).toBe('tracer.runtime');
    expect(parseJsonl(edit(ls, 0, (o) => ((o.tracer as { runtime?: unknown }).runtime = 'onnxruntime-node cpu')), 'ok.jsonl').events[0]).toMatchObject({ tracer: { runtime: 'onnxruntime-node cpu' } });
    for (const v of [0, -1]) {
      const e = refusal(edit(ls, 0, (o) => (o.schemaVersion = v)), 'v.jsonl');
      expect([e.line, e.field]).toEqual([1, 'schemaVersion']);
      expect(e.message).toMatch(/^v\.jsonl:1: invalid event at schemaVersion: schema versions start at 1/);
    }
    // A day past the horizon.
    const d = idx(ls, (e) => e.type === 'lms_event');
    expect(refusal(edit(ls, d, (o) => (o.day = 4))).field).toBe('day');
  });

  it('unknown event types and wrongly typed fields', async () => {
    const ls = lines((await runWith(miniScenario(), 'withholder')).events);
    expect(refusal(edit(ls, 3, (o) => (o.type = 'teleport'))).field).toBe('type');
    const w = idx(ls, (e) => e.type === 'wake');
    expect(refusal(edit(ls, w, (o) => (o.reason = 'boredom'))).field).toBe('reason');
    expect(refusal(edit(ls, w, (o) => (o.ref = w + 5))).field).toBe('ref');
  });
});

describe('strict trace validation accepts every trace the product writes', () => {
  it('runs of every reference tutor, cut-short traces (partial), judged traces, LLM runs (request digests, a 100,000-character reply), played runs with the instructor view', async () => {
    const texts: string[] = [];
    for (const t of ['planner', 'withholder', 'answer-giver']) texts.push(toJsonl((await runWith(miniScenario(), t)).events));
    texts.push(toJsonl(await judged()));
    // An LLM tutor (notes harness) with the LLM student voice; one reply of 100,000 characters.
    let n = 0;
    const llm = new MockLlm((req) => {
      n++;
      if (n === 3) return { content: 'x'.repeat(100_000) };
      if (req.tools?.length) return n % 2 ? { toolCalls: [{ name: 'get_assignments', arguments: { status: 'open' } }] } : { content: 'Done.' };
      return { content: JSON.stringify({ message: 'ok, I will try', answer: null }) };
    });
    const res = await runWith(miniScenario(), 'llm', { tutorConfig: llmTutorConfig({ harness: 'reactive', model: llm.model, provider: llm.provider }), voice: { kind: 'llm', provider: 'mock', model: 'mock-model' }, env: { llm: () => llm } });
    const llmText = toJsonl(res.events);
    expect(llmText).toContain('"digest":');
    texts.push(llmText);
    // A played run with the instructor's view on.
    const run = await openRun(runRecord({ scenario: onBkt(miniScenario()), tutor: { name: 'human', config: {} }, seed: 9, wakeOn: [...PLAY_WAKE_ON] }), bktEnv());
    const play = new PlayDriver(run.session);
    const turn = await play.start();
    turn!.recordInstructorView(true);
    turn!.tools.call('send_message', { text: 'Hello <b>there</b>' });
    await play.endTurn();
    await play.finish();
    const played = toJsonl(run.session.result().events);
    expect(played).toContain('instructor_view');
    texts.push(played);
    for (const text of texts) {
      const back = parseJsonl(text, 'ours.jsonl');
      expect(back.complete).toBe(true);
      expect(toJsonl(back.events)).toBe(text); // reading never changes what was written
      // Every prefix (a run cut short anywhere) reads, as incomplete.
      const ls = text.trim().split('\n');
      const end = ls.findIndex((l) => l.includes('"type":"run_end"'));
      for (const k of [1, 2, Math.floor(end / 3), end]) expect(parseJsonl(ls.slice(0, k).join('\n')).complete).toBe(false);
    }
  });
});
