/**
 * The classroom store in the page (a study run on one device, without the classroom server):
 * IndexedDB through idb, in a database of its own ("educlaw-classroom"), so the run library's
 * database and its migrations are untouched. Same port and semantics as the PGlite store
 * (src/adapters/node/classroom-store.ts): events are kept as the JSON text they were recorded as,
 * and appending at a seq already stored fails the whole append (IndexedDB `add`, one transaction).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ClassroomStore, ParticipantRow, SessionRow, StudyRow } from '../classroom/store';

interface ClassroomDb extends DBSchema {
  studies: { key: string; value: StudyRow };
  participants: { key: string; value: ParticipantRow; indexes: { token: string; studyId: string } };
  sessions: { key: string; value: SessionRow };
  events: { key: [string, number]; value: { code: string; seq: number; json: string } };
  spend: { key: string; value: { studyId: string; calls: number; cost: number } };
}

export const CLASSROOM_DB = 'educlaw-classroom';

export class IdbClassroomStore implements ClassroomStore {
  #db: IDBPDatabase<ClassroomDb> | null = null;
  constructor(readonly name = CLASSROOM_DB) {}

  async init(): Promise<void> {
    this.#db = await openDB<ClassroomDb>(this.name, 1, {
      upgrade(db) {
        db.createObjectStore('studies', { keyPath: 'id' });
        const p = db.createObjectStore('participants', { keyPath: 'code' });
        p.createIndex('token', 'token', { unique: false });
        p.createIndex('studyId', 'studyId', { unique: false });
        db.createObjectStore('sessions', { keyPath: 'code' });
        db.createObjectStore('events', { keyPath: ['code', 'seq'] });
        db.createObjectStore('spend', { keyPath: 'studyId' });
      },
    });
  }

  get #d(): IDBPDatabase<ClassroomDb> {
    if (!this.#db) throw new Error('the classroom store is not open (init first)');
    return this.#db;
  }

  async close(): Promise<void> {
    this.#db?.close();
    this.#db = null;
  }

  async putStudy(s: StudyRow): Promise<void> {
    await this.#d.put('studies', s);
  }
  async getStudy(id: string): Promise<StudyRow | null> {
    return (await this.#d.get('studies', id)) ?? null;
  }
  async listStudies(): Promise<StudyRow[]> {
    return (await this.#d.getAll('studies')).sort((a, b) => b.createdAt - a.createdAt);
  }
  async addParticipants(rows: ParticipantRow[]): Promise<void> {
    const tx = this.#d.transaction('participants', 'readwrite');
    // `add` fails on an existing code, and the failure aborts the transaction: nothing is added.
    await Promise.all([...rows.map((p) => tx.store.add(p)), tx.done]);
  }
  async getParticipant(code: string): Promise<ParticipantRow | null> {
    return (await this.#d.get('participants', code)) ?? null;
  }
  async participantByToken(token: string): Promise<ParticipantRow | null> {
    return (await this.#d.getFromIndex('participants', 'token', token)) ?? null;
  }
  async listParticipants(studyId: string): Promise<ParticipantRow[]> {
    return (await this.#d.getAllFromIndex('participants', 'studyId', studyId)).sort((a, b) => a.createdAt - b.createdAt || a.code.localeCompare(b.code));
  }
  async putParticipant(p: ParticipantRow): Promise<void> {
    const tx = this.#d.transaction('participants', 'readwrite');
    const old = await tx.store.get(p.code);
    // As the SQL store: only an existing participant is updated (codes are made by addParticipants).
    if (old) await tx.store.put({ ...old, consentedAt: p.consentedAt, device: p.device, token: p.token, lastSeen: p.lastSeen, consentVersion: p.consentVersion ?? null });
    await tx.done;
  }
  async deleteStudy(id: string): Promise<void> {
    const tx = this.#d.transaction(['studies', 'participants', 'sessions', 'events', 'spend'], 'readwrite');
    const codes = (await tx.objectStore('participants').index('studyId').getAll(id)).map((p) => p.code);
    await Promise.all([
      ...codes.flatMap((code) => [tx.objectStore('events').delete(IDBKeyRange.bound([code, 0], [code, Number.MAX_SAFE_INTEGER])), tx.objectStore('sessions').delete(code), tx.objectStore('participants').delete(code)]),
      tx.objectStore('spend').delete(id),
      tx.objectStore('studies').delete(id),
      tx.done,
    ]);
  }

  async withdraw(code: string, at: number): Promise<void> {
    const tx = this.#d.transaction(['participants', 'sessions', 'events'], 'readwrite');
    const old = await tx.objectStore('participants').get(code);
    await Promise.all([
      tx.objectStore('events').delete(IDBKeyRange.bound([code, 0], [code, Number.MAX_SAFE_INTEGER])),
      tx.objectStore('sessions').delete(code),
      ...(old ? [tx.objectStore('participants').put({ ...old, withdrawnAt: at, token: null, device: null, lastSeen: null })] : []),
      tx.done,
    ]);
  }
  async getSession(code: string): Promise<SessionRow | null> {
    return (await this.#d.get('sessions', code)) ?? null;
  }
  async putSession(s: SessionRow): Promise<void> {
    await this.#d.put('sessions', s);
  }
  async appendEvents(code: string, events: { seq: number; json: string }[]): Promise<void> {
    if (events.length === 0) return;
    const tx = this.#d.transaction('events', 'readwrite');
    await Promise.all([...events.map((e) => tx.store.add({ code, seq: e.seq, json: e.json })), tx.done]);
  }
  async events(code: string): Promise<string[]> {
    const rows = await this.#d.getAll('events', IDBKeyRange.bound([code, 0], [code, Number.MAX_SAFE_INTEGER]));
    return rows.map((r) => r.json);
  }
  async truncateEvents(code: string, fromSeq: number): Promise<void> {
    const tx = this.#d.transaction('events', 'readwrite');
    await Promise.all([tx.store.delete(IDBKeyRange.bound([code, fromSeq], [code, Number.MAX_SAFE_INTEGER])), tx.done]);
  }
  async countLlmCall(studyId: string, cost: number | null): Promise<{ calls: number; cost: number }> {
    const tx = this.#d.transaction('spend', 'readwrite');
    const old = (await tx.store.get(studyId)) ?? { studyId, calls: 0, cost: 0 };
    const next = { studyId, calls: old.calls + 1, cost: old.cost + (cost ?? 0) };
    await tx.store.put(next);
    await tx.done;
    return { calls: next.calls, cost: next.cost };
  }
  async addLlmCost(studyId: string, cost: number): Promise<void> {
    const tx = this.#d.transaction('spend', 'readwrite');
    const old = await tx.store.get(studyId);
    if (old) await tx.store.put({ ...old, cost: old.cost + cost });
    await tx.done;
  }
  async llmSpend(studyId: string): Promise<{ calls: number; cost: number }> {
    const r = await this.#d.get('spend', studyId);
    return r ? { calls: r.calls, cost: r.cost } : { calls: 0, cost: 0 };
  }
}
