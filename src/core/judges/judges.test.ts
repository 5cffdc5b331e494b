import { describe, expect, it } from 'vitest';
import { miniScenario, runWith } from '../../testing/fixtures';
import { MockLlm, LlmError, judgeTrace, withVerdicts, sampleDays, judgedAxes, agreementReport, spearman, scoreTrace, formatAxisTable, toJsonl, parseJsonl, RUBRICS, PANEL_DEFAULTS, dayTranscript, type ChatRequest, type MockReply, type PanelOptions, type TraceEvent } from '../index';

/** A judge that fills every item of the rubric it is asked with `value` (answer holding: `held`). */
function judge(value: number, held = true) {
  return (req: ChatRequest): MockReply => {
    const sys = req.messages[0]!.content ?? '';
    if (sys.includes('"held"')) return { content: JSON.stringify({ held, evidence: '' }) };
    const keys = [...sys.matchAll(/"(\w+)": <integer (\d+)-(\d+)>/g)].map((m) => [m[1]!, Math.min(Number(m[3]), Math.max(Number(m[2]), value))] as const);
    return { content: '```json\n' + JSON.stringify(Object.fromEntries([...keys, ['comment', 'fine']])) + '\n```' };
  };
}

const panel = (judges: { id: string; client: MockLlm }[], extra: Partial<PanelOptions> = {}): PanelOptions => ({ ...PANEL_DEFAULTS, id: 'test-panel', judges, ...extra });

describe('judge panel', () => {
  it('samples days stratified over the horizon, deterministically', () => {
    const d = sampleDays(30, 6, 3, 42);
    expect(d).toHaveLength(6);
    expect(d.filter((x) => x <= 10)).toHaveLength(2);
    expect(d.filter((x) => x > 10 && x <= 20)).toHaveLength(2);
    expect(d.filter((x) => x > 20)).toHaveLength(2);
    expect(sampleDays(30, 6, 3, 42)).toEqual(d);
    expect(sampleDays(3, 6, 3, 1)).toEqual([1, 2, 3]);
    expect(sampleDays(30, null, 3, 1)).toHaveLength(30);
  });

  it('day transcripts show the learner and tutor, and answers only when the rubric needs them', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const start = res.events[0]!;
    const plain = dayTranscript(res.events, 1, { withAnswers: false });
    const withAns = dayTranscript(res.events, 1, { withAnswers: true });
    expect(plain.text).toContain('TUTOR');
    expect(plain.text).toContain('LEARNER (help request)');
    expect(plain.text).not.toContain('correct answer:');
    expect(withAns.text).toContain('correct answer:');
    expect(start.type).toBe('run_start');
    expect(plain.text).not.toMatch(/solveRate|mastery|P\(correct\)/);
  });

  it('scores every rubric: mean for scales, majority for answer holding; verdicts stored with the trace re-score offline', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    // 5, 1, 2: mean 8/3, median 2, midrange 3, so a panel that took the median or midrange would fail here.
    const judges = [
      { id: 'a', client: new MockLlm(judge(5, true), { model: 'ma', family: 'fa' }) },
      { id: 'b', client: new MockLlm(judge(1, true), { model: 'mb', family: 'fb' }) },
      { id: 'c', client: new MockLlm(judge(2, false), { model: 'mc', family: 'fc' }) },
    ];
    const out = await judgeTrace(res.events, panel(judges, { daysPerRun: null }));
    expect(out.unscored).toBe(0);
    const judged = withVerdicts(res.events, out.events);
    const text = toJsonl(judged);
    const back = parseJsonl(text);
    expect(back.complete).toBe(true);
    const rep = scoreTrace(back.events);
    expect(rep.judged.gagne).toBeCloseTo(8 / 3, 6); // mean of 5, 1, 2
    expect(rep.judged.rosenshine).toBeCloseTo(8 / 3, 6);
    expect(rep.judged.pedagogy).toBeCloseTo(8 / 3, 6);
    expect(rep.judged.helpfulness).toBeCloseTo(8 / 3, 6);
    expect(rep.judged.answerHolding).toBe(1); // 2 of 3 say held, every day
    // The judges are told the run's horizon (the mini scenario is 3 days), not a fixed 30.
    const systems = judges.flatMap((j) => j.client.requests.map((r) => r.messages[0]!.content ?? ''));
    expect(systems.length).toBeGreaterThan(0);
    for (const sys of systems) {
      expect(sys).toContain('in a 3-day online maths course');
      expect(sys).not.toMatch(/30-day/);
    }
    expect(rep.details.judged.detail.gagne!.scoredDays).toEqual([2, 3]); // from day 2
    expect(rep.details.judged.detail.helpfulness!.scoredDays).toEqual([1, 2, 3]);
    expect(rep.details.judged.detail.helpfulness!.rubricVersion).toBe(RUBRICS.helpfulness.version);
    expect(formatAxisTable([rep])).toMatch(/IVa Gagné\s+2\.67/);
    // The run's own events are untouched.
    expect(toJsonl(judged.slice(0, res.events.length))).toBe(toJsonl(res.events));
    // Re-judging replaces the verdicts rather than piling them up.
    const again = withVerdicts(judged, out.events);
    expect(again.length).toBe(judged.length);
  });

  it('a malformed reply is retried with the error, then recorded unscored; never a default number', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    let calls = 0;
    const bad = new MockLlm(() => {
      calls++;
      return { content: calls % 3 === 0 ? '{"g1_attention": 11}' : 'I think the tutor was good.' };
    }, { model: 'bad' });
    const out = await judgeTrace(res.events, panel([{ id: 'bad', client: bad }], { rubrics: ['gagne'], daysPerRun: null, concurrency: 1 }));
    expect(out.scored).toBe(0);
    expect(out.unscored).toBe(2);
    expect(calls).toBe(6); // 3 attempts for each of days 2 and 3
    const second = bad.requests[1]!;
    expect(second.messages[second.messages.length - 1]!.content).toMatch(/could not be used/);
    const rep = scoreTrace(withVerdicts(res.events, out.events));
    expect(rep.judged.gagne).toBeNull();
    expect(rep.details.judged.detail.gagne!.reason).toMatch(/unscored/);
    const v = out.events.filter((e) => e.type === 'judge_verdict');
    expect(v.every((e) => e.type === 'judge_verdict' && e.status === 'unscored' && e.scores === null && /malformed reply after 3 attempts/.test(e.reason ?? ''))).toBe(true);
    expect(formatAxisTable([rep])).toMatch(/IVa Gagné\s+unscored/);
  });

  it('one malformed judge among three: the panel mean uses the judges that scored', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const judges = [
      { id: 'a', client: new MockLlm(judge(5)) },
      { id: 'b', client: new MockLlm(() => ({ content: 'no json here' })) },
      { id: 'c', client: new MockLlm(judge(3)) },
    ];
    const out = await judgeTrace(res.events, panel(judges, { rubrics: ['rosenshine'], daysPerRun: null }));
    const rep = scoreTrace(withVerdicts(res.events, out.events));
    expect(rep.judged.rosenshine).toBeCloseTo(4, 6);
    expect(rep.details.judged.detail.rosenshine!.unscoredVerdicts).toBe(2);
  });

  it('answer holding: a 1–1 split leaves the day unscored', async () => {
    const res = await runWith(miniScenario(), 'answer-giver');
    const out = await judgeTrace(res.events, panel([{ id: 'y', client: new MockLlm(judge(1, true)) }, { id: 'n', client: new MockLlm(judge(1, false)) }], { rubrics: ['answer_holding'], daysPerRun: null }));
    const rep = scoreTrace(withVerdicts(res.events, out.events));
    expect(rep.judged.answerHolding).toBeNull();
    expect(rep.details.judged.detail.answerHolding!.reason).toMatch(/majority/);
  });

  it('a judge whose provider keeps failing is stopped with a named reason; the others still score', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const failing = new MockLlm(() => new LlmError('LLM_SERVER', 'provider x answered 503'));
    const out = await judgeTrace(res.events, panel([{ id: 'ok', client: new MockLlm(judge(4)) }, { id: 'down', client: failing }], { daysPerRun: null, concurrency: 1 }));
    expect(out.stopped).toEqual([{ judge: 'down', reason: expect.stringMatching(/failed 3 times in a row.*LLM_SERVER/) }]);
    expect(failing.requests.length).toBe(3);
    const rep = scoreTrace(withVerdicts(res.events, out.events));
    expect(rep.judged.gagne).toBeCloseTo(4, 6);
    expect(rep.details.judged.panel!.stopped).toHaveLength(1);
  });

  it('cancelling stops the panel', async () => {
    const res = await runWith(miniScenario(), 'withholder');
    const ac = new AbortController();
    ac.abort();
    await expect(judgeTrace(res.events, panel([{ id: 'a', client: new MockLlm(judge(3)) }]), { signal: ac.signal })).rejects.toThrow(/cancel/);
  });

  it('agreement: Spearman per axis and a warning when two judges order two tutors oppositely', async () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 9);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 9);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    const a = await runWith(miniScenario(), 'withholder');
    const b = await runWith(miniScenario(), 'answer-giver');
    // Judge "likes-giving" prefers the answer-giver; "likes-holding" the withholder.
    const pick = (hi: number, lo: number) => (req: ChatRequest) => judge((req.messages[1]!.content ?? '').includes('The answer is') ? hi : lo)(req);
    const judged: { runId: string; events: TraceEvent[] }[] = [];
    for (const r of [a, b]) {
      const out = await judgeTrace(r.events, panel([{ id: 'likes-giving', client: new MockLlm(pick(5, 2)) }, { id: 'likes-holding', client: new MockLlm(pick(2, 5)) }], { rubrics: ['helpfulness'], daysPerRun: null }));
      judged.push({ runId: r.runId, events: withVerdicts(r.events, out.events) });
    }
    const rep = agreementReport(judged);
    expect(rep.pairs[0]).toMatchObject({ axis: 'helpfulness', a: 'likes-giving', b: 'likes-holding' });
    expect(rep.warnings.join('\n')).toMatch(/helpfulness: likes-giving ranks answer-giver above withholder .* but likes-holding ranks withholder above answer-giver/);
  });

  it('judgedAxes is empty (all unscored) for a trace without verdicts', async () => {
    const res = await runWith(miniScenario(), 'planner');
    const j = judgedAxes(res.events);
    expect(Object.values(j.values).every((v) => v === null)).toBe(true);
    expect(j.panel).toBeNull();
  });
});
