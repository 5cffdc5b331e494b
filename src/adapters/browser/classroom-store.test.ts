import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { parseJsonl } from '../../core/index';
import { LocalClassroom } from '../classroom/api';
import { ClassroomService } from '../classroom/service';
import { IdbClassroomStore } from './classroom-store';

/** The page's classroom (one device, no server): the same service over IndexedDB. */
describe('classroom on one device (IndexedDB)', () => {
  const env = () => ({ run: {}, providers: [], now: () => Date.now(), random: (n: number) => randomBytes(n).toString('base64url') });

  it('offers built-in tutors only and refuses an LLM tutor with the reason', async () => {
    const store = new IdbClassroomStore(`cls-${Math.random()}`);
    await store.init();
    const api = new LocalClassroom(new ClassroomService(store, env()));
    const info = await api.teacherInfo();
    expect(info.tutors.length).toBeGreaterThan(0);
    expect(info.tutors.every((t) => !t.llm)).toBe(true);
    await expect(api.createStudy({ name: 'x', skills: [1], tutor: { name: 'llm', config: { harness: 'reactive', model: 'm', provider: 'p' } }, sessions: 1, sessionMinutes: 10, consent: 'ok' })).rejects.toThrow(/no LLM provider/);
    await store.close();
  });

  it('a withdrawal deletes the participant data on this device too', async () => {
    const store = new IdbClassroomStore(`cls-${Math.random()}`);
    await store.init();
    const api = new LocalClassroom(new ClassroomService(store, env()));
    const study = await api.createStudy({ name: 'Withdraw', skills: [1], tutor: { name: 'planner' }, sessions: 1, sessionMinutes: 10, consent: 'ok' });
    const [code] = await api.addCodes(study.id, 1);
    const { token } = await api.join(code!, 'device-wd-12345');
    await api.consent(token);
    await api.act(token, { kind: 'login' });
    await api.act(token, { kind: 'say', text: 'delete me' });
    expect((await store.events(code!)).length).toBeGreaterThan(0);
    await api.withdrawSelf(token);
    expect(await store.events(code!)).toEqual([]);
    expect(await store.getSession(code!)).toBeNull();
    expect((await store.getParticipant(code!))).toMatchObject({ token: null, withdrawnAt: expect.any(Number) });
    expect((await api.live(study.id))[0]!.status).toBe('withdrawn');
    // An ended study is deleted with all of its data.
    await api.endStudy(study.id);
    await api.deleteStudy(study.id);
    expect(await store.getStudy(study.id)).toBeNull();
    expect(await store.getParticipant(code!)).toBeNull();
    await store.close();
  });

    it('keeps a session across a reload (a new service on the same database) and exports it', async () => {
    const name = `cls-${Math.random()}`;
    let store = new IdbClassroomStore(name);
    await store.init();
    let api = new LocalClassroom(new ClassroomService(store, env()));
    const study = await api.createStudy({ name: 'One device', skills: [1], tutor: { name: 'planner' }, sessions: 1, sessionMinutes: 10, consent: 'ok' });
    const [code] = await api.addCodes(study.id, 1);
    const { token } = await api.join(code!, 'device-one-1234');
    await api.consent(token);
    let s = await api.act(token, { kind: 'login' });
    const a = s.assignments[0]!;
    s = await api.act(token, { kind: 'open', itemId: a.items[0]!.item.id, assignmentId: a.id });
    s = await api.act(token, { kind: 'submit', itemId: a.items[0]!.item.id, assignmentId: a.id, response: '7' });
    s = await api.act(token, { kind: 'say', text: 'hello <b>tutor</b>' });
    const before = await store.events(code!);
    expect(before.length).toBeGreaterThan(5);
    // A reload: the page's service is gone; the database is not.
    await store.close();
    store = new IdbClassroomStore(name);
    await store.init();
    api = new LocalClassroom(new ClassroomService(store, env()));
    s = await api.state(token);
    expect(s.session.online).toBe(true);
    expect(s.attempts).toHaveLength(1);
    expect(s.messages.some((m) => m.text === 'hello <b>tutor</b>')).toBe(true);
    expect((await store.events(code!)).slice(0, before.length)).toEqual(before);
    await api.endStudy(study.id);
    const x = await api.exportStudy(study.id);
    expect(x.filename).toMatch(/^study-One-device-st-.*\.zip$/);
    const { unzipSync, strFromU8 } = await import('fflate');
    const files = unzipSync(x.bytes);
    const trace = Object.keys(files).find((f) => f.startsWith('traces/'))!;
    const events = parseJsonl(strFromU8(files[trace]!), trace).events;
    expect(events.at(-1)).toMatchObject({ type: 'run_end', reason: 'aborted' });
    await store.close();
  });

  it('an append at a stored seq fails and adds nothing', async () => {
    const store = new IdbClassroomStore(`cls-${Math.random()}`);
    await store.init();
    await store.appendEvents('C1', [{ seq: 0, json: '{"a":0}' }]);
    await expect(store.appendEvents('C1', [{ seq: 1, json: '{"a":1}' }, { seq: 0, json: '{"again":0}' }])).rejects.toThrow();
    expect(await store.events('C1')).toEqual(['{"a":0}']);
    await store.truncateEvents('C1', 0);
    expect(await store.events('C1')).toEqual([]);
    await store.close();
  });
});
