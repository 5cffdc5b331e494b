/**
 * Issue 34: a study's numbers a study can stand on. Each test here failed on the service before
 * its fix: a class counted as one student, one bad request breaking every export, replayed
 * quizzes, no post-quiz for a student whose time ran out, a finished student recorded as aborted.
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { parse } from 'csv-parse/sync';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatAxisTable, parseJsonl, scoreTrace } from '../core/index';
import { ClassroomError, ClassroomService, conditionOf, type ClassroomEnv } from '../adapters/classroom/service';
import { consentVersion, zipStudy } from '../adapters/classroom/export';
import { ANSWER_COLUMNS, SESSION_COLUMNS } from '../adapters/classroom/tables';
import { writeReport } from './commands/report';
import { registerScore } from './commands/score';
import { Command } from 'commander';
import { PgliteClassroomStore } from '../adapters/node/classroom-store';

function clock(start = Date.UTC(2026, 10, 2, 9, 0)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}
const env = (c: ReturnType<typeof clock>): ClassroomEnv => ({ run: {}, now: c.now, random: (n) => randomBytes(n).toString('base64url') });
const SPEC = { name: 'Study numbers', skills: [1, 2], tutor: { name: 'planner' }, sessions: 2, sessionMinutes: 20, consent: 'I agree.', probes: true, probesPerSkill: 1 };

const refuses = async (p: Promise<unknown>, status: number, text: RegExp) => {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ClassroomError);
  expect((e as ClassroomError).status).toBe(status);
  expect((e as ClassroomError).message).toMatch(text);
};

async function until(f: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await f()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('classroom study numbers (issue 34)', () => {
  let store: PgliteClassroomStore;
  let dir: string;
  beforeAll(async () => {
    store = new PgliteClassroomStore();
    await store.init();
    dir = mkdtempSync(join(tmpdir(), 'classroom-study-'));
  }, 60_000);
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function student(svc: ClassroomService, code: string, device: string) {
    const { token } = await svc.join(code, device);
    await svc.consent(token);
    return token;
  }

  it('every participant has a run id of their own, and the CLI report counts each participant', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 1 });
    const codes = await svc.addCodes(study.id, 3);
    for (const [i, code] of codes.entries()) {
      const t = await student(svc, code, `device-three-${i}`);
      const s = await svc.act(t, { kind: 'login' });
      const a = s.assignments[0]!;
      await svc.act(t, { kind: 'submit', itemId: a.items[0]!.item.id, assignmentId: a.id, response: i === 2 ? '=HYPERLINK("http://x","y")' : `-${i}` });
      await svc.act(t, { kind: 'logout' });
    }
    await until(async () => (await svc.live(study.id)).every((p) => p.status === 'done'), 'three finished runs');
    const x = await svc.exportStudy(study.id);
    const ids = x.traces.map((t) => t.runId);
    expect(new Set(ids).size).toBe(3);
    for (const t of x.traces) expect(t.runId).toMatch(new RegExp(`__p-${t.code}$`));
    const zip = join(dir, 'three.zip');
    writeFileSync(zip, zipStudy(x, c.now()));
    const log: string[] = [];
    const r = await writeReport([zip], { out: join(dir, 'report-three') }, (s) => log.push(s));
    expect(log.filter((l) => /warning/.test(l))).toEqual([]);
    expect(r.digests).toHaveLength(3);
    expect(r.digests.every((d) => d.tutor === 'planner (field)')).toBe(true);
    // `cli score` reads the export zip too, and names each column by its participant.
    const p = new Command().exitOverride();
    registerScore(p);
    let out = '';
    const print = console.log;
    console.log = (...a: unknown[]) => void (out += a.join(' ') + '\n');
    try {
      await p.parseAsync(['node', 'educlaw', 'score', zip]);
    } finally {
      console.log = print;
    }
    const head = out.split('\n')[0]!;
    for (const code of codes) expect(head).toContain(`planner ${code}`);
    // No quiz in this study: the learning gain says why it is n/a, not a solve rate that never was.
    expect(out).not.toMatch(/solve rate 0% → 0%/);
    const md = readFileSync(join(r.out, r.files.find((f) => f.endsWith('.md'))!), 'utf8');
    expect(md).toMatch(/planner \(field\) \| 3\b/);
    // The same participants as tables R or SPSS read, with a codebook naming every column.
    const files = unzipSync(new Uint8Array(readFileSync(zip)));
    const sessions = parse(strFromU8(files['sessions.csv']!), { columns: true }) as Record<string, string>[];
    expect(sessions.map((r) => r.participant).sort()).toEqual([...codes].sort());
    expect(Object.keys(sessions[0]!)).toEqual(SESSION_COLUMNS.map((c) => c[0]));
    for (const r of sessions) expect(r).toMatchObject({ session: '1', status: 'done', end_reason: 'horizon_reached', attempts: '1', session_end: 'student_ended', run_id: x.traces.find((t) => t.code === r.participant)!.runId });
    const answers = parse(strFromU8(files['answers.csv']!), { columns: true }) as Record<string, string>[];
    expect(Object.keys(answers[0]!)).toEqual(ANSWER_COLUMNS.map((c) => c[0]));
    expect(answers.map((a) => a.response).sort()).toEqual(["'=HYPERLINK(\"http://x\",\"y\")", '-0', '-1'].sort());
    const book = strFromU8(files['codebook.md']!);
    for (const [c] of [...SESSION_COLUMNS, ...ANSWER_COLUMNS]) expect(book).toContain(`| \`${c}\` |`);
  }, 60_000);

  it('a help request named after an Object property (__proto__, constructor, toString) is refused; the export stays valid', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 1 });
    const [code] = await svc.addCodes(study.id, 1);
    const t = await student(svc, code!, 'device-proto-01');
    await svc.act(t, { kind: 'login' });
    for (const template of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) await refuses(svc.act(t, { kind: 'help', template }), 400, /unknown help request/);
    const s = await svc.act(t, { kind: 'help', template: s0(await svc.state(t)) });
    expect(s.messages.some((m) => m.from === 'learner')).toBe(true);
    const parsed = parseJsonl(await svc.trace(study.id, code!), 'proto.jsonl');
    expect(parsed.events.filter((e) => e.type === 'message' && e.from === 'learner').every((e) => typeof (e as { text: unknown }).text === 'string')).toBe(true);
  }, 30_000);

  it('each quiz is taken once, at its time, over the probe set only', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy(SPEC);
    const [code] = await svc.addCodes(study.id, 1);
    const t = await student(svc, code!, 'device-quiz-001');
    let s = await svc.act(t, { kind: 'login' });
    const ids = s.probe!.items.map((i) => i.id);
    const answers = ids.map((itemId) => ({ itemId, response: '1' }));
    // The post-quiz is not for the first session; junk and unknown items are refused.
    await refuses(svc.act(t, { kind: 'probe', phase: 'post', answers }), 409, /not now|final quiz/);
    await refuses(svc.act(t, { kind: 'probe', phase: 'pre', answers: Array.from({ length: 300 }, (_, i) => ({ itemId: `junk-${i}`, response: 'x' })) }), 400, /not in the quiz/);
    await refuses(svc.act(t, { kind: 'probe', phase: 'pre', answers: [...answers, answers[0]!] }), 400, /twice/);
    c.advance(7 * 60_000);
    // Two hand-ins at once (a double tap, a retry racing the first): one is taken, the other refused.
    const both = await Promise.allSettled([svc.act(t, { kind: 'probe', phase: 'pre', answers }), svc.act(t, { kind: 'probe', phase: 'pre', answers })]);
    expect(both.map((x) => x.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(String((both.find((x) => x.status === 'rejected') as PromiseRejectedResult).reason)).toMatch(/already/);
    s = (both.find((x) => x.status === 'fulfilled') as PromiseFulfilledResult<typeof s>).value;
    expect(s.probe).toBeNull();
    // The session's clock starts once the first quiz is handed in.
    expect(s.session.minutesLeft).toBe(SPEC.sessionMinutes);
    // A second hand-in (a retry after a lost reply) is refused and records nothing.
    await refuses(svc.act(t, { kind: 'probe', phase: 'pre', answers }), 409, /already/);
    const events = parseJsonl(await svc.trace(study.id, code!), 'quiz.jsonl').events;
    expect(events.filter((e) => e.type === 'probe')).toHaveLength(1);
  }, 30_000);

  it('a student whose last session runs out of time is given the post-quiz before the session ends', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, sessions: 1 });
    const [code] = await svc.addCodes(study.id, 1);
    const t = await student(svc, code!, 'device-time-001');
    let s = await svc.act(t, { kind: 'login' });
    const ids = s.probe!.items.map((i) => i.id);
    s = await svc.act(t, { kind: 'probe', phase: 'pre', answers: ids.map((itemId) => ({ itemId, response: '0' })) });
    c.advance(SPEC.sessionMinutes * 60_000 + 1000);
    s = await svc.state(t);
    // Time is up: the session waits for the final quiz, and nothing else is taken.
    expect(s.session.online).toBe(true);
    expect(s.probe?.phase).toBe('post');
    const a = s.assignments[0]!;
    await refuses(svc.act(t, { kind: 'submit', itemId: a.items[0]!.item.id, assignmentId: a.id, response: '1' }), 409, /final quiz/);
    s = await svc.act(t, { kind: 'probe', phase: 'post', answers: s.probe!.items.map((i) => ({ itemId: i.id, response: '1' })) });
    expect(s.session.online).toBe(false);
    await until(async () => (await svc.live(study.id))[0]!.status === 'done', 'the run to finish');
    const events = parseJsonl(await svc.trace(study.id, code!), 'time.jsonl').events;
    expect(events.filter((e) => e.type === 'probe').map((e) => (e as { day: number }).day)).toEqual([0, 1]);
    expect(events.find((e) => e.type === 'lms_event' && e.kind === 'logout')).toMatchObject({ detail: { why: 'time_up' } });
    expect(scoreTrace(events).learningGain).not.toBeNull();
  }, 30_000);

  it('the final quiz is a parallel form: other items of the same skills and levels, reproducible, recorded in the trace and the tables', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, sessions: 1, probesPerSkill: 3 });
    expect(study.spec.parallelForms).toBe(true);
    const [code, second] = await svc.addCodes(study.id, 2);
    const t = await student(svc, code!, 'device-form-001');
    let s = await svc.act(t, { kind: 'login' });
    const pre = s.probe!.items;
    expect(pre.map((i) => i.id)).toEqual(['p1-01', 'p1-02', 'p1-03', 'p2-01', 'p2-02', 'p2-03']);
    s = await svc.act(t, { kind: 'probe', phase: 'pre', answers: pre.map((i) => ({ itemId: i.id, response: '0' })) });
    c.advance(SPEC.sessionMinutes * 60_000 + 1000);
    s = await svc.state(t);
    const post = s.probe!.items;
    expect(s.probe!.phase).toBe('post');
    expect(post.map((i) => i.id)).toEqual(['q1-01', 'q1-02', 'q1-03', 'q2-01', 'q2-02', 'q2-03']);
    expect(post.map((i) => [i.skill, i.level])).toEqual(pre.map((i) => [i.skill, i.level]));
    expect(post.map((i) => i.stem)).not.toEqual(pre.map((i) => i.stem));
    for (const p of post) expect(pre.some((q) => q.stem === p.stem && JSON.stringify(q.figure) === JSON.stringify(p.figure))).toBe(false);
    // The pre-quiz's items are not the final quiz's.
    await refuses(svc.act(t, { kind: 'probe', phase: 'post', answers: pre.map((i) => ({ itemId: i.id, response: '1' })) }), 400, /not in the quiz/);
    await svc.act(t, { kind: 'probe', phase: 'post', answers: post.map((i) => ({ itemId: i.id, response: '1' })) });
    await until(async () => (await svc.live(study.id)).find((p) => p.code === code)!.status === 'done', 'the run to finish');
    // Every participant of the study gets the same two forms (drawn from the study's bank, reproducibly).
    const t2 = await student(svc, second!, 'device-form-002');
    expect((await svc.act(t2, { kind: 'login' })).probe!.items.map((i) => i.stem)).toEqual(pre.map((i) => i.stem));
    const events = parseJsonl(await svc.trace(study.id, code!), 'forms.jsonl').events;
    const start = events[0]!;
    expect(start.type === 'run_start' && start.scenario.course.probeForms).toBe(2);
    expect(start.type === 'run_start' && start.itemBank.postProbes!.map((i) => i.id)).toEqual(post.map((i) => i.id));
    expect(events.filter((e) => e.type === 'probe').map((e) => (e as { items: { itemId: string }[] }).items.map((i) => i.itemId)[0])).toEqual(['p1-01', 'q1-01']);
    expect(scoreTrace(events).learningGain).not.toBeNull();
    // The validator holds the forms: an edited form-B item breaks the bank's hash; a final quiz over form A is refused.
    const lines = (await svc.trace(study.id, code!)).trimEnd().split('\n');
    const bank = JSON.parse(lines[0]!) as { itemBank: { postProbes: { stem: string }[] } };
    bank.itemBank.postProbes[0]!.stem = 'What is 1 + 1?';
    expect(() => parseJsonl([JSON.stringify(bank), ...lines.slice(1)].join('\n'), 'edited.jsonl')).toThrow(/does not match its hash/);
    const swapped = lines.map((l) => (l.includes('"type":"probe"') && l.includes('"q1-01"') ? l.replace(/"q(\d+-\d\d)"/g, '"p$1"') : l));
    expect(() => parseJsonl(swapped.join('\n'), 'swapped.jsonl')).toThrow(/parallel post-probe form/);
    const files = unzipSync(zipStudy(await svc.exportStudy(study.id), c.now()));
    const answers = parse(strFromU8(files['answers.csv']!), { columns: true }) as Record<string, string>[];
    const quiz = answers.filter((r) => r.participant === code && r.kind !== 'practice');
    expect(quiz.map((r) => `${r.kind}:${r.quiz_form}:${r.level}`)).toEqual([...pre.map((i) => `pre_quiz:A:${i.level}`), ...post.map((i) => `post_quiz:B:${i.level}`)]);
    expect(strFromU8(files['codebook.md']!)).toContain('parallel forms');
    // A study that asks for the same items both times gets them.
    const same = await svc.createStudy({ ...SPEC, sessions: 1, parallelForms: false });
    const [c3] = await svc.addCodes(same.id, 1);
    const t3 = await student(svc, c3!, 'device-form-003');
    const items3 = (await svc.act(t3, { kind: 'login' })).probe!.items;
    await svc.act(t3, { kind: 'probe', phase: 'pre', answers: items3.map((i) => ({ itemId: i.id, response: '0' })) });
    c.advance(SPEC.sessionMinutes * 60_000 + 1000);
    expect((await svc.state(t3)).probe!.items.map((i) => i.id)).toEqual(items3.map((i) => i.id));
  }, 60_000);

  it('typed answers are read as the study says (a percent for a value here), recorded as read; a study reading as typed does not', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const results: { reading: number; response: string; correct: boolean; forms: string }[] = [];
    for (const answerReading of [1, 0] as const) {
      const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 1, answerReading });
      const [code] = await svc.addCodes(study.id, 1);
      const t = await student(svc, code!, `device-read-00${answerReading}`);
      const s = await svc.act(t, { kind: 'login' });
      const a = s.assignments[0]!;
      const it = a.items[0]!.item;
      const start = parseJsonl(await svc.trace(study.id, code!), 'read.jsonl').events[0]!;
      const answer = start.type === 'run_start' ? start.itemBank.items.find((i) => i.id === it.id)!.answer : '';
      expect(answer).toMatch(/^-?\d+$/);
      expect(it.stem).not.toMatch(/decimal|fraction|percent/i);
      const after = await svc.act(t, { kind: 'submit', itemId: it.id, assignmentId: a.id, response: `${Number(answer) * 100}%` });
      const g = after.attempts.at(-1)!;
      results.push({ reading: answerReading, response: g.response, correct: g.correct, forms: it.forms });
      if (answerReading === 1) expect(g.response).toBe(String(Number(answer)));
      else expect(g.response).toBe(`${Number(answer) * 100}%`);
    }
    expect(results.map((r) => [r.reading, r.correct])).toEqual([[1, true], [0, false]]);
    expect(results[0]!.forms).toMatch(/a number: .*90%/);
  }, 30_000);

  it('a student who never hands in the final quiz is logged out once its extra time is over', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, sessions: 1 });
    const [code] = await svc.addCodes(study.id, 1);
    const t = await student(svc, code!, 'device-gone-001');
    const s = await svc.act(t, { kind: 'login' });
    await svc.act(t, { kind: 'probe', phase: 'pre', answers: s.probe!.items.map((i) => ({ itemId: i.id, response: '0' })) });
    c.advance((SPEC.sessionMinutes + 16) * 60_000);
    expect((await svc.state(t)).session.online).toBe(false);
    await until(async () => (await svc.live(study.id))[0]!.status === 'done', 'the run to finish');
    // Its learning gain is n/a, and the score table says why (not "solve rate 100% → 100%").
    const r = scoreTrace(parseJsonl(await svc.trace(study.id, code!), 'gone.jsonl').events);
    expect(r.learningGain).toBeNull();
    const table = formatAxisTable([r]);
    expect(table).not.toMatch(/solve rate \d+% → \d+%/);
    expect(table).toContain(String(r.details.learningGain.reason));
  }, 30_000);

  it('a student who finished is recorded as done when the teacher ends the study just after', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 1 });
    const [code] = await svc.addCodes(study.id, 1);
    const t = await student(svc, code!, 'device-fini-001');
    await svc.act(t, { kind: 'login' });
    await svc.act(t, { kind: 'logout' });
    await svc.endStudy(study.id);
    const x = await svc.exportStudy(study.id);
    expect(x.participants[0]).toMatchObject({ status: 'done', endReason: 'horizon_reached' });
    const events = parseJsonl(x.traces[0]!.jsonl, 'fini.jsonl').events;
    expect(events.at(-1)).toMatchObject({ type: 'run_end', reason: 'horizon_reached' });
  }, 30_000);

  it('the answer that closes an assignment keeps its feedback (the item leaves the list)', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 1, homeworkPerSession: 1, maxAttemptsPerItem: 1 });
    const [code] = await svc.addCodes(study.id, 1);
    const t = await student(svc, code!, 'device-last-001');
    let s = await svc.act(t, { kind: 'login' });
    const a = s.assignments[0]!;
    expect(a.items).toHaveLength(1);
    s = await svc.act(t, { kind: 'open', itemId: a.items[0]!.item.id, assignmentId: a.id });
    s = await svc.act(t, { kind: 'submit', itemId: a.items[0]!.item.id, assignmentId: a.id, response: '-123456' });
    expect(s.assignments.some((x) => x.id === a.id)).toBe(false);
    expect(s.lastAnswer).toMatchObject({ item: { id: a.items[0]!.item.id }, response: '-123456', correct: false, assignmentOpen: false });
    expect(JSON.stringify(s.lastAnswer)).not.toMatch(/"answer"|"solution"/);
  }, 30_000);

    it('after a restart, a session whose student never came back ends at its time (not "active" for ever)', async () => {
    const c = clock();
    const svc1 = new ClassroomService(store, env(c));
    const study = await svc1.createStudy({ ...SPEC, probes: false, sessions: 1 });
    const [code] = await svc1.addCodes(study.id, 1);
    const t = await student(svc1, code!, 'device-gone-002');
    await svc1.act(t, { kind: 'login' });
    await svc1.close();
    c.advance((SPEC.sessionMinutes + 1) * 60_000);
    const svc2 = new ClassroomService(store, env(c));
    await until(async () => (await svc2.live(study.id))[0]!.status === 'done', 'the overdue session to end');
    const events = parseJsonl(await svc2.trace(study.id, code!), 'gone.jsonl').events;
    expect(events.find((e) => e.type === 'lms_event' && e.kind === 'logout')).toMatchObject({ detail: { why: 'time_up' } });
  }, 30_000);

    it('conditions: participants assigned at random in balanced blocks, reproducibly; each runs its condition tutor; compared in the report', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    await refuses(svc.createStudy({ ...SPEC, conditions: [{ name: 'a', tutor: { name: 'planner' } }] }), 400, /conditions/);
    await refuses(svc.createStudy({ ...SPEC, conditions: [{ name: 'a', tutor: { name: 'planner' } }, { name: 'b', tutor: { name: 'human' } }] }), 400, /condition b: tutor "human" cannot tutor/);
    const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 1, conditions: [{ name: 'plan', tutor: { name: 'planner' } }, { name: 'hold', tutor: { name: 'withholder' } }] });
    expect(study.spec.tutor.name).toBe('planner');
    const first = await svc.addCodes(study.id, 3);
    c.advance(1000);
    const codes = [...first, ...(await svc.addCodes(study.id, 3))];
    const live = await svc.live(study.id);
    const byCode = new Map(live.map((p) => [p.code, p.condition]));
    // Balanced: every block of two has one of each; the assignment is re-derived from the study id.
    const ordered = (await store.listParticipants(study.id)).map((p) => p.condition);
    expect(ordered.filter((x) => x === 'plan')).toHaveLength(3);
    expect(ordered).toEqual(ordered.map((_, i) => conditionOf(study.id, i, ['plan', 'hold'])));
    for (const [i, code] of codes.slice(0, 4).entries()) {
      const t = await student(svc, code, `device-cond-${i}`);
      await svc.act(t, { kind: 'login' });
      await svc.act(t, { kind: 'logout' });
    }
    await until(async () => (await svc.live(study.id)).filter((p) => p.status === 'done').length === 4, 'four finished runs');
    const x = await svc.exportStudy(study.id);
    for (const t of x.traces) {
      const start = parseJsonl(t.jsonl, 'c.jsonl').events[0] as { tutor: { name: string } };
      expect(start.tutor.name).toBe(byCode.get(t.code) === 'plan' ? 'planner' : 'withholder');
    }
    const zip = join(dir, 'conditions.zip');
    writeFileSync(zip, zipStudy(x, c.now()));
    const r = await writeReport([zip], { out: join(dir, 'report-conditions') }, () => undefined);
    expect(new Set(r.digests.map((d) => d.tutor))).toEqual(new Set(['planner (field)', 'withholder (field)']));
    const rows = parse(strFromU8(unzipSync(new Uint8Array(readFileSync(zip)))['sessions.csv']!), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row.condition).toBe(byCode.get(row.participant!));
    expect(rows.filter((row) => row.status === 'not started').every((row) => row.tutor === (row.condition === 'plan' ? 'planner' : 'withholder'))).toBe(true);
  }, 60_000);

    it('consent is recorded with its version; a withdrawal deletes the participant data and the export log says so', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 2 });
    const [stay, leave, self] = await svc.addCodes(study.id, 3);
    const tStay = await student(svc, stay!, 'device-stay-001');
    const tLeave = await student(svc, leave!, 'device-leave-01');
    const tSelf = await student(svc, self!, 'device-self-001');
    for (const t of [tStay, tLeave, tSelf]) {
      await svc.act(t, { kind: 'login' });
      await svc.act(t, { kind: 'say', text: 'my words' });
    }
    expect((await store.events(leave!)).length).toBeGreaterThan(0);
    await svc.withdraw(study.id, leave!);
    await svc.withdrawSelf(tSelf);
    for (const code of [leave!, self!]) {
      expect(await store.events(code)).toEqual([]);
      expect(await store.getSession(code)).toBeNull();
      await refuses(svc.join(code, 'device-again-01'), 409, /withdrawn/);
    }
    await refuses(svc.state(tLeave), 401, /signed out/);
    const x = await svc.exportStudy(study.id);
    expect(x.traces.map((t) => t.code)).toEqual([stay]);
    expect(x.participants.find((p) => p.code === leave)).toMatchObject({ status: 'withdrawn', consentedAt: null });
    expect(x.log.map((l) => l.text).join('\n')).toMatch(new RegExp(`participant ${leave} withdrew.*deleted`));
    expect(x.log).toHaveLength(2);
    const kept = x.participants.find((p) => p.code === stay)!;
    expect(kept.consentVersion).toBe(consentVersion(SPEC.consent));
    expect(consentVersion('I agree, changed.')).not.toBe(kept.consentVersion);
    const zipped = unzipSync(zipStudy(x, c.now()));
    expect(strFromU8(zipped['study.json']!)).toContain(`participant ${self} withdrew`);
    expect(Object.keys(zipped).some((f) => f.includes(leave!) && f.startsWith('traces/'))).toBe(false);
    const rows = parse(strFromU8(zipped['sessions.csv']!), { columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.participant === leave)).toMatchObject({ status: 'withdrawn', run_id: '', consented_at: '' });
    expect(rows.find((r) => r.participant === stay)!.consent_version).toBe(kept.consentVersion);
  }, 30_000);

    it('the teacher extends a session in progress: its time and the time-up move with it', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 1 });
    const [code, other] = await svc.addCodes(study.id, 2);
    const t = await student(svc, code!, 'device-ext-0001');
    await svc.act(t, { kind: 'login' });
    await refuses(svc.extend(study.id, other!, 10), 409, /not in a session/);
    await refuses(svc.extend(study.id, code!, 0), 400, /minutes/);
    c.advance(15 * 60_000);
    await svc.extend(study.id, code!, 10);
    expect((await svc.state(t)).session.minutesLeft).toBe(SPEC.sessionMinutes + 10 - 15);
    c.advance(10 * 60_000);
    expect((await svc.state(t)).session.online).toBe(true);
    c.advance(6 * 60_000);
    expect((await svc.state(t)).session.online).toBe(false);
  }, 30_000);

    it('the teacher frees a code from a lost device: another device signs in at once, nothing lost', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 1 });
    const [code] = await svc.addCodes(study.id, 1);
    const t = await student(svc, code!, 'device-lost-001');
    await svc.act(t, { kind: 'login' });
    await svc.act(t, { kind: 'say', text: 'before the laptop broke' });
    await refuses(svc.join(code!, 'device-new-0001'), 409, /another device/);
    await svc.releaseCode(study.id, code!);
    await refuses(svc.state(t), 401, /signed out/);
    const { token, state } = await svc.join(code!, 'device-new-0001');
    expect(state.messages.map((m) => m.text)).toContain('before the laptop broke');
    expect((await svc.state(token)).session.online).toBe(true);
  }, 30_000);

    it('a study is renamed; deleted (once ended) with all of its data', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 1 });
    const [code] = await svc.addCodes(study.id, 1);
    const t = await student(svc, code!, 'device-del-0001');
    await svc.act(t, { kind: 'login' });
    expect((await svc.renameStudy(study.id, '  Week 2  ')).spec.name).toBe('Week 2');
    await refuses(svc.renameStudy(study.id, ' '), 400, /name/);
    await refuses(svc.deleteStudy(study.id), 409, /end the study/);
    await svc.endStudy(study.id);
    await svc.deleteStudy(study.id);
    expect(await store.getStudy(study.id)).toBeNull();
    expect(await store.getParticipant(code!)).toBeNull();
    expect(await store.getSession(code!)).toBeNull();
    expect(await store.events(code!)).toEqual([]);
    await refuses(svc.join(code!, 'device-del-0002'), 404, /no such code/);
  }, 30_000);

    it('the export records when each session started (wall clock)', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false });
    const [code] = await svc.addCodes(study.id, 1);
    const t = await student(svc, code!, 'device-when-001');
    const t0 = c.now();
    await svc.act(t, { kind: 'login' });
    await svc.act(t, { kind: 'logout' });
    c.advance(24 * 3600_000);
    await svc.act(t, { kind: 'login' });
    // The second session's clock runs from its own start.
    c.advance(5 * 60_000);
    expect((await svc.state(t)).session).toMatchObject({ number: 2, minutesLeft: SPEC.sessionMinutes - 5 });
    const x = await svc.exportStudy(study.id);
    expect(x.participants[0]!.sessionStarts).toEqual([new Date(t0).toISOString(), new Date(t0 + 24 * 3600_000).toISOString()]);
  }, 30_000);

  it('the teacher pauses a session: nothing is applied, its clock stands still (also across a restart), and resuming moves its end', async () => {
    const c = clock();
    const svc1 = new ClassroomService(store, env(c));
    const study = await svc1.createStudy({ ...SPEC, probes: false, sessions: 1 });
    const [code, other] = await svc1.addCodes(study.id, 2);
    const t = await student(svc1, code!, 'device-pause-01');
    const s = await svc1.act(t, { kind: 'login' });
    await refuses(svc1.pause(study.id, other!), 409, /not in a session/);
    await refuses(svc1.resume(study.id, code!), 409, /not paused/);
    c.advance(5 * 60_000);
    await svc1.pause(study.id, code!);
    await refuses(svc1.pause(study.id, code!), 409, /already paused/);
    expect((await svc1.live(study.id)).find((p) => p.code === code)).toMatchObject({ paused: true, inSession: true, status: 'active' });
    const a = s.assignments[0]!;
    await refuses(svc1.act(t, { kind: 'submit', itemId: a.items[0]!.item.id, assignmentId: a.id, response: '-3' }), 409, /paused your session/);
    await refuses(svc1.act(t, { kind: 'logout' }), 409, /paused/);
    c.advance(30 * 60_000);
    // Past the session's end without the pause: it is still on, with the time it had when paused.
    expect((await svc1.state(t)).session).toMatchObject({ online: true, paused: true, minutesLeft: SPEC.sessionMinutes - 5 });
    // A restart keeps the pause (the live view does not end it as overdue).
    await svc1.close();
    c.advance(10 * 60_000);
    const svc = new ClassroomService(store, env(c));
    expect((await svc.live(study.id)).find((p) => p.code === code)).toMatchObject({ paused: true, status: 'active' });
    expect((await svc.state(t)).session).toMatchObject({ online: true, paused: true, minutesLeft: SPEC.sessionMinutes - 5 });
    await svc.resume(study.id, code!);
    const after = await svc.state(t);
    expect(after.session).toMatchObject({ online: true, paused: false, minutesLeft: SPEC.sessionMinutes - 5 });
    expect((await svc.act(t, { kind: 'submit', itemId: a.items[0]!.item.id, assignmentId: a.id, response: '-3' })).attempts).toHaveLength(1);
    c.advance((SPEC.sessionMinutes - 5 - 1) * 60_000);
    expect((await svc.state(t)).session.online).toBe(true);
    c.advance(2 * 60_000);
    expect((await svc.state(t)).session.online).toBe(false);
    const x = await svc.exportStudy(study.id);
    const p = x.participants.find((q) => q.code === code)!;
    expect(p.pausedMinutes).toEqual([40]);
    expect(p.extraMinutes).toEqual([0]);
    const rows = parse(strFromU8(unzipSync(zipStudy(x, c.now()))['sessions.csv']!), { columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.participant === code)).toMatchObject({ paused_minutes: '40', extra_minutes: '0', session_end: 'time_up' });
    expect(rows.find((r) => r.participant === other)).toMatchObject({ paused_minutes: '', extra_minutes: '', session: '' });
    expect(Object.keys(rows[0]!)).toEqual(SESSION_COLUMNS.map((col) => col[0]));
  }, 30_000);

  it('an ended study is archived (kept, with its data) and brought back; an open one cannot be', async () => {
    const c = clock();
    const svc = new ClassroomService(store, env(c));
    const study = await svc.createStudy({ ...SPEC, probes: false, sessions: 1 });
    const [code] = await svc.addCodes(study.id, 1);
    const t = await student(svc, code!, 'device-arch-001');
    await svc.act(t, { kind: 'login' });
    await refuses(svc.archiveStudy(study.id, true), 409, /end the study/);
    await svc.endStudy(study.id);
    const archived = await svc.archiveStudy(study.id, true);
    expect(archived.archivedAt).toBe(c.now());
    expect((await svc.studies()).find((s) => s.id === study.id)!.archivedAt).toBe(c.now());
    expect((await svc.exportStudy(study.id)).traces).toHaveLength(1);
    expect((await svc.archiveStudy(study.id, false)).archivedAt).toBeNull();
    expect((await store.getStudy(study.id))!.archivedAt).toBeUndefined();
  }, 30_000);
});

const s0 = (s: { helpRequests: { id: string }[] }) => s.helpRequests[0]!.id;

