import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { MockLlm, PANEL_DEFAULTS, judgeTrace, parseJsonl, scoreTrace, withVerdicts, type ChatRequest, type MockReply, type TraceEvent } from '../core/index';
import { ClassroomError, ClassroomService, LIMITS, type ClassroomEnv } from '../adapters/classroom/service';
import { PgliteClassroomStore } from '../adapters/node/classroom-store';

/** A clock the test moves by hand (ms). */
function clock(start = Date.UTC(2026, 10, 2, 9, 0)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const env = (c: ReturnType<typeof clock>): ClassroomEnv => ({
  run: {},
  now: c.now,
  random: (n) => randomBytes(n).toString('base64url'),
});

const SPEC = {
  name: 'Fractions, week 1',
  skills: [1, 2],
  tutor: { name: 'planner' },
  sessions: 2,
  sessionMinutes: 20,
  consent: 'I agree to take part.',
  probes: true,
  probesPerSkill: 1,
};

const refuses = async (p: Promise<unknown>, status: number, text: RegExp) => {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ClassroomError);
  expect((e as ClassroomError).status).toBe(status);
  expect((e as ClassroomError).message).toMatch(text);
};

describe('classroom service (PGlite in memory)', () => {
  let store: PgliteClassroomStore;
  beforeAll(async () => {
    store = new PgliteClassroomStore();
    await store.init();
  }, 60_000);
  afterAll(() => store.close());

  it('runs a student through two sessions with probes, items, help and chat; the trace is a valid field trace', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy(SPEC);
    const [code] = await svc.addCodes(study.id, 1);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    const { token, state } = await svc.join(code!.toLowerCase(), 'device-aaaa-1');
    expect(state.consented).toBe(false);
    await refuses(svc.act(token, { kind: 'login' }), 403, /consent/);
    await svc.consent(token);
    let s = await svc.act(token, { kind: 'login' });
    expect(s.session).toMatchObject({ number: 1, of: 2, online: true, minutesLeft: 20 });
    expect(s.probe?.phase).toBe('pre');
    const probeIds = s.probe!.items.map((i) => i.id);
    s = await svc.act(token, { kind: 'probe', phase: 'pre', answers: probeIds.map((itemId) => ({ itemId, response: 'no idea' })) });
    expect(s.probe).toBeNull();
    const first = s.assignments[0]!.items[0]!;
    // A student never sees an answer key.
    expect(JSON.stringify(s)).not.toMatch(/"answer"|"solution"/);
    c.advance(60_000);
    s = await svc.act(token, { kind: 'open', itemId: first.item.id, assignmentId: s.assignments[0]!.id });
    expect(s.current).toBe(first.item.id);
    c.advance(60_000);
    s = await svc.act(token, { kind: 'submit', itemId: first.item.id, assignmentId: s.assignments[0]!.id, response: '12' });
    expect(s.attempts).toHaveLength(1);
    s = await svc.act(token, { kind: 'help', template: s.helpRequests[0]!.id });
    s = await svc.act(token, { kind: 'say', text: '<script>alert(1)</script> how do I start?' });
    expect(s.messages.some((m) => m.from === 'learner' && m.text.includes('how do I start'))).toBe(true);
    const refused = await svc.act(token, { kind: 'open', itemId: 'no-such-item', assignmentId: null });
    expect(refused.refused).toMatch(/no item "no-such-item"/);
    c.advance(5 * 60_000);
    s = await svc.act(token, { kind: 'logout' });
    expect(s.session.online).toBe(false);
    // Session 2, the next day: the post-probe before the end.
    c.advance(24 * 3600_000);
    s = await svc.act(token, { kind: 'login' });
    expect(s.session).toMatchObject({ number: 2, online: true });
    const post = await svc.postProbe(token);
    // The parallel form: other items of the same skills and levels.
    expect(post?.map((i) => i.id)).toEqual(probeIds.map((id) => id.replace(/^p/, 'q')));
    s = await svc.act(token, { kind: 'probe', phase: 'post', answers: post!.map((i) => ({ itemId: i.id, response: '1' })) });
    s = await svc.act(token, { kind: 'logout' });
    // The run ends at the horizon once the last session is over.
    for (let i = 0; i < 50 && !s.session.allDone; i++) {
      await new Promise((r) => setTimeout(r, 20));
      s = await svc.state(token);
    }
    expect(s.session.allDone).toBe(true);
    // No session is left to start (a login now would wait for a day that never comes).
    await refuses(svc.act(token, { kind: 'login' }), 409, /sessions of this study are done/);
    // For the student all is done at once; the run finishes its last day, then the session is done.
    for (let i = 0; i < 100 && (await svc.live(study.id))[0]!.status !== 'done'; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await svc.live(study.id))[0]!.status).toBe('done');
    const exp = await svc.exportStudy(study.id);
    expect(exp.traces).toHaveLength(1);
    const parsed = parseJsonl(exp.traces[0]!.jsonl, 'field.jsonl');
    expect(parsed.complete).toBe(true);
    const events = parsed.events;
    const start = events[0] as Extract<TraceEvent, { type: 'run_start' }>;
    expect(start.learner).toMatchObject({ kind: 'real', participant: code });
    expect(events.some((e) => e.type === 'mastery')).toBe(false);
    const attempt = events.find((e) => e.type === 'attempt') as Extract<TraceEvent, { type: 'attempt' }>;
    expect(attempt.p).toBeNull();
    expect(events.filter((e) => e.type === 'probe').map((e) => (e as { day: number }).day)).toEqual([0, 2]);
    const report = scoreTrace(events);
    expect(report.complete).toBe(true);
    expect(report.endReason).toBe('horizon_reached');
    expect(report.learningGain).not.toBeNull();
    expect(report.responsiveness).not.toBeNull();
    // The script tag is stored as text (the page renders text, never HTML).
    expect(exp.traces[0]!.jsonl).toContain('<script>alert(1)</script> how do I start?');
  }, 60_000);

  it('a code is refused on a second device while in use, taken over after a minute; a wrong code is refused', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy(SPEC);
    const [code] = await svc.addCodes(study.id, 1);
    await refuses(svc.join('ZZZZZZZZ', 'device-aaaa-1'), 404, /no such code/);
    await refuses(svc.join('<b>x</b>', 'device-aaaa-1'), 400, /enter the code/);
    const a = await svc.join(code!, 'device-aaaa-1');
    await refuses(svc.join(code!, 'device-bbbb-2'), 409, /another device/);
    c.advance(LIMITS.deviceIdleMs + 1);
    const b = await svc.join(code!, 'device-bbbb-2');
    await refuses(svc.state(a.token), 401, /signed out/);
    expect((await svc.state(b.token)).consented).toBe(false);
  }, 30_000);

  it('messages are rate-limited per participant and capped in length; nothing refused is stored', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy(SPEC);
    const [code] = await svc.addCodes(study.id, 1);
    const { token } = await svc.join(code!, 'device-cccc-3');
    await svc.consent(token);
    await svc.act(token, { kind: 'login' });
    await refuses(svc.act(token, { kind: 'say', text: 'x'.repeat(5000) }), 413, /at most 2000/);
    for (let i = 0; i < LIMITS.messagesPerMinute; i++) await svc.act(token, { kind: 'say', text: `hello ${i}` });
    await refuses(svc.act(token, { kind: 'say', text: 'one too many' }), 429, /messages a minute/);
    await refuses(svc.act(token, { kind: 'frobnicate' }), 400, /unknown action/);
    c.advance(61_000);
    await svc.act(token, { kind: 'say', text: 'after a minute' });
    const events = (await store.events(code!)).map((j) => JSON.parse(j) as TraceEvent);
    const said = events.filter((e) => e.type === 'message' && e.from === 'learner').map((e) => (e as { text: string }).text);
    expect(said).toEqual([...Array.from({ length: LIMITS.messagesPerMinute }, (_, i) => `hello ${i}`), 'after a minute']);
  }, 30_000);

  it('a restart (a new service over the same store) resumes the session where it was; no stored event changes', async () => {
    const c = clock();
    const svc1 = new ClassroomService(store, env(c));
    const study = await svc1.createStudy({ ...SPEC, probes: false });
    const [code] = await svc1.addCodes(study.id, 1);
    const { token } = await svc1.join(code!, 'device-dddd-4');
    await svc1.consent(token);
    let s = await svc1.act(token, { kind: 'login' });
    const a = s.assignments[0]!;
    c.advance(120_000);
    await svc1.act(token, { kind: 'open', itemId: a.items[0]!.item.id, assignmentId: a.id });
    s = await svc1.act(token, { kind: 'submit', itemId: a.items[0]!.item.id, assignmentId: a.id, response: '3' });
    await svc1.act(token, { kind: 'say', text: 'is that right?' });
    await svc1.close();
    const before = await store.events(code!);
    // The server restarts.
    const svc2 = new ClassroomService(store, env(c));
    s = await svc2.state(token);
    expect(s.session.online).toBe(true);
    expect(s.attempts).toHaveLength(1);
    expect(s.messages.some((m) => m.text === 'is that right?')).toBe(true);
    expect((await store.events(code!)).slice(0, before.length)).toEqual(before);
    c.advance(60_000);
    s = await svc2.act(token, { kind: 'submit', itemId: a.items[1]!.item.id, assignmentId: a.id, response: '4' });
    expect(s.attempts).toHaveLength(2);
    const after = await store.events(code!);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBeGreaterThan(before.length);
    // Time up: the session logs the student out at its length.
    c.advance(SPEC.sessionMinutes * 60_000);
    s = await svc2.state(token);
    expect(s.session.online).toBe(false);
    const logout = (await store.events(code!)).map((j) => JSON.parse(j) as TraceEvent).find((e) => e.type === 'lms_event' && e.kind === 'logout');
    expect(logout).toMatchObject({ detail: { why: 'time_up' } });
    await svc2.close();
  }, 60_000);

  it('ending a study stops its runs and refuses new sessions; an export keeps what was stored', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false });
    const codes = await svc.addCodes(study.id, 2);
    const t0 = (await svc.join(codes[0]!, 'device-eeee-5')).token;
    await svc.consent(t0);
    await svc.act(t0, { kind: 'login' });
    await svc.act(t0, { kind: 'say', text: 'hi' });
    const live = await svc.live(study.id);
    expect(live.map((p) => [p.code, p.online, p.messages > 0])).toEqual([
      [codes[0], true, true],
      [codes[1], false, false],
    ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))));
    await svc.endStudy(study.id);
    await refuses(svc.act(t0, { kind: 'say', text: 'still there?' }), 409, /ended/);
    await refuses(svc.join(codes[1]!, 'device-ffff-6'), 409, /ended/);
    const exp = await svc.exportStudy(study.id);
    expect(exp.traces).toHaveLength(1);
    const parsed = parseJsonl(exp.traces[0]!.jsonl);
    expect(parsed.complete).toBe(true);
    expect(parsed.events.some((e) => e.type === 'message' && e.text === 'hi')).toBe(true);
  }, 30_000);

  it("an LLM tutor's calls are counted per study and stop at the study's cap, with the reason", async () => {
    const c = clock();
    const llm = new MockLlm(() => ({ content: 'Let us look at it together: what do you notice first?' }), { provider: 'mock', model: 'mock-model' });
    const svc = new ClassroomService(store, { ...env(c), run: { llm: () => llm }, providers: ['mock'] });
    const study = await svc.createStudy({ ...SPEC, name: 'capped', probes: false, tutor: { name: 'llm', config: { harness: 'reactive', provider: 'mock', model: 'mock-model' } }, llmCallCap: 3 });
    const [code] = await svc.addCodes(study.id, 1);
    const { token } = await svc.join(code!, 'device-cap-0001');
    await svc.consent(token);
    let s = await svc.act(token, { kind: 'login' });
    for (let i = 0; i < 8 && !s.session.ended; i++) {
      c.advance(10_000);
      s = await svc.act(token, { kind: 'say', text: `question ${i}` }).catch(async () => svc.state(token));
    }
    for (let i = 0; i < 50 && (await svc.live(study.id))[0]!.status === 'active'; i++) await new Promise((r) => setTimeout(r, 20));
    const spend = await svc.spend(study.id);
    expect(spend.cap).toBe(3);
    // The call past the cap is counted, refused before it reaches the provider.
    expect(llm.requests).toHaveLength(3);
    expect(spend.calls).toBe(4);
    const [row] = await svc.live(study.id);
    expect(row!.status).toBe('stopped');
    const events = parseJsonl(await svc.trace(study.id, code!), 'capped.jsonl').events;
    expect(events.at(-1)).toMatchObject({ type: 'run_end', reason: 'llm_error' });
    expect(JSON.stringify(events)).toContain("the study's cap of 3 LLM calls is reached");
  });

  it("a vendor's agent service (the HTTP tutor) tutors a study through the server's transport", async () => {
    const c = clock();
    const posts: { url: string; body: { kind?: string } }[] = [];
    const http = {
      async post(url: string, body: string) {
        const b = JSON.parse(body) as { kind?: string };
        posts.push({ url, body: b });
        // Every wake: one message to the student, then the turn ends.
        return { status: 200, text: JSON.stringify({ calls: [{ name: 'send_message', args: { text: 'Hello from the agent: which step is hard?' } }], end: true }) };
      },
      wait: async () => undefined,
    };
    const plain = new ClassroomService(store, env(c));
    await refuses(plain.createStudy({ ...SPEC, tutor: { name: 'http', config: { url: 'http://agent.test/tutor' } } }), 400, /needs the classroom server/);
    const svc = new ClassroomService(store, { ...env(c), run: { http } });
    const study = await svc.createStudy({ ...SPEC, name: 'agent', probes: false, tutor: { name: 'http', config: { url: 'http://agent.test/tutor', name: 'vendor-tutor' } } });
    const [code] = await svc.addCodes(study.id, 1);
    const { token } = await svc.join(code!, 'device-http-0001');
    await svc.consent(token);
    await svc.act(token, { kind: 'login' });
    const s = await svc.act(token, { kind: 'say', text: 'I am stuck' });
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((p) => p.url === 'http://agent.test/tutor')).toBe(true);
    expect(s.messages.some((m) => m.from === 'tutor' && m.text.includes('Hello from the agent'))).toBe(true);
    const start = parseJsonl(await svc.trace(study.id, code!), 'agent.jsonl').events[0] as Extract<TraceEvent, { type: 'run_start' }>;
    expect(start.tutor).toMatchObject({ name: 'http', config: { name: 'vendor-tutor', url: 'http://agent.test/tutor' } });
  });

  it('a field trace is judged by the same panel as a simulated run, and scores its judged axes', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    // Two sessions: the instruction rubrics (Gagné, Rosenshine) judge days from the second on, as for simulated runs.
    const study = await svc.createStudy({ ...SPEC, name: 'judged', sessions: 2, probes: false });
    const [code] = await svc.addCodes(study.id, 1);
    const { token } = await svc.join(code!, 'device-judge-001');
    await svc.consent(token);
    for (const text of ['what is the first step?', 'and then?']) {
      let s = await svc.act(token, { kind: 'login' });
      const a = s.assignments[0]!;
      s = await svc.act(token, { kind: 'open', itemId: a.items[0]!.item.id, assignmentId: a.id });
      s = await svc.act(token, { kind: 'help', template: s.helpRequests[0]!.id });
      s = await svc.act(token, { kind: 'say', text });
      await svc.act(token, { kind: 'logout' });
      c.advance(24 * 3600_000);
    }
    for (let i = 0; i < 100 && (await svc.live(study.id))[0]!.status !== 'done'; i++) await new Promise((r) => setTimeout(r, 20));
    const events = parseJsonl(await svc.trace(study.id, code!), 'judged.jsonl').events;
    // Judges that fill every rubric item with 3 (answer holding: held); as in the core judge tests.
    const judge = (req: ChatRequest): MockReply => {
      const sys = req.messages[0]!.content ?? '';
      if (sys.includes('"held"')) return { content: JSON.stringify({ held: true, evidence: '' }) };
      const keys = [...sys.matchAll(/"(\w+)": <integer (\d+)-(\d+)>/g)].map((m) => [m[1]!, Math.min(Number(m[3]), Math.max(Number(m[2]), 3))] as const);
      return { content: JSON.stringify(Object.fromEntries([...keys, ['comment', 'fine']])) };
    };
    const judges = ['a', 'b', 'c'].map((f) => ({ id: f, client: new MockLlm(judge, { model: `m${f}`, family: f }) }));
    const out = await judgeTrace(events, { ...PANEL_DEFAULTS, id: 'field-panel', judges, daysPerRun: null });
    expect(out.unscored).toBe(0);
    // The judges read the conversation, never a tracer's internals (there are none).
    expect(judges[0]!.client.requests.some((r) => r.messages.some((m) => (m.content ?? '').includes('what is the first step?')))).toBe(true);
    const rep = scoreTrace(withVerdicts(events, out.events));
    expect(rep.judged.helpfulness).toBeCloseTo(3, 6);
    expect(rep.judged.gagne).toBeCloseTo(3, 6);
    expect(rep.judged.answerHolding).toBe(1);
  });

  it('a failed write of an event stops the session at once, leaves what was stored, and a restart resumes it', async () => {
    const c = clock();
    let failing = false;
    // The same store, whose appends fail while `failing` (a full disk).
    const flaky = new Proxy(store, {
      get(t, k) {
        if (k === 'appendEvents') return (code: string, ev: { seq: number; json: string }[]) => (failing ? Promise.reject(new Error('ENOSPC: no space left on device')) : t.appendEvents(code, ev));
        const v = Reflect.get(t, k) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    }) as PgliteClassroomStore;
    const svc = new ClassroomService(flaky, env(c));
    const study = await svc.createStudy({ ...SPEC, name: 'disk full', probes: false });
    const [code] = await svc.addCodes(study.id, 1);
    const { token } = await svc.join(code!, 'device-full-0001');
    await svc.consent(token);
    await svc.act(token, { kind: 'login' });
    await svc.act(token, { kind: 'say', text: 'stored' });
    const stored = await store.events(code!);
    failing = true;
    const errors: unknown[] = [];
    const log = console.error;
    console.error = (...a: unknown[]) => void errors.push(a);
    try {
      await expect(svc.act(token, { kind: 'say', text: 'not stored' })).rejects.toThrow(/ENOSPC/);
    } finally {
      console.error = log;
    }
    expect(String((errors[0] as unknown[])[0])).toMatch(/the session stops/);
    // Nothing after the failure was stored, and the session is still resumable.
    expect(await store.events(code!)).toEqual(stored);
    expect((await store.getSession(code!))!.status).toBe('active');
    failing = false;
    const again = new ClassroomService(store, env(c));
    const s = await again.state(token);
    expect(s.session.online).toBe(true);
    expect(s.messages.map((m) => m.text)).toContain('stored');
    expect(s.messages.map((m) => m.text)).not.toContain('not stored');
    const more = await again.act(token, { kind: 'say', text: 'after the restart' });
    expect(more.messages.map((m) => m.text)).toContain('after the restart');
  });

  it('refuses a study it cannot run, with what is wrong', async () => {
    const svc = new ClassroomService(store, env(clock()));
    await refuses(svc.createStudy({ ...SPEC, sessions: 0 }), 400, /sessions/);
    await refuses(svc.createStudy({ ...SPEC, tutor: { name: 'human' } }), 400, /cannot tutor/);
    await refuses(svc.createStudy({ ...SPEC, tutor: { name: 'llm', config: { provider: 'x', model: 'y', harness: 'reactive' } } }), 400, /no LLM provider/);
  });
});
