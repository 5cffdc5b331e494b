/**
 * The classroom store on PGlite: Postgres compiled to wasm, its data in one directory (the
 * classroom server's --data; back it up by copying the directory while the server is stopped).
 * A maintained embedded database, so a restart loses nothing stored and writes are transactions.
 */
import { PGlite } from '@electric-sql/pglite';
import type { ClassroomStore, ParticipantRow, SessionRow, StudyRow } from '../classroom/store';

const SCHEMA = `
create table if not exists studies (id text primary key, spec text not null, status text not null, created_at bigint not null);
create table if not exists participants (code text primary key, study_id text not null references studies(id), created_at bigint not null, consented_at bigint, device text, token text unique, last_seen bigint);
create index if not exists participants_study on participants(study_id);
create table if not exists sessions (code text primary key references participants(code), record text not null, starts text not null, events integer not null, status text not null, end_reason text);
create table if not exists events (code text not null references participants(code), seq integer not null, json text not null, primary key (code, seq));
create table if not exists spend (study_id text primary key references studies(id), calls integer not null, cost double precision not null);
create table if not exists meta (key text primary key, value text not null);
alter table participants add column if not exists condition text;
alter table participants add column if not exists consent_version text;
alter table participants add column if not exists withdrawn_at bigint;
alter table sessions add column if not exists extra_minutes text;
alter table sessions add column if not exists pause text;
alter table studies add column if not exists archived_at bigint;
insert into meta (key, value) values ('schema', '1') on conflict (key) do nothing;
`;

type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

const study = (r: Row): StudyRow => ({ id: String(r.id), spec: JSON.parse(String(r.spec)), status: r.status as StudyRow['status'], createdAt: Number(r.created_at), ...(num(r.archived_at) !== null ? { archivedAt: num(r.archived_at) } : {}) });
const participant = (r: Row): ParticipantRow => ({
  code: String(r.code),
  studyId: String(r.study_id),
  createdAt: Number(r.created_at),
  consentedAt: num(r.consented_at),
  device: (r.device as string | null) ?? null,
  token: (r.token as string | null) ?? null,
  lastSeen: num(r.last_seen),
  condition: (r.condition as string | null) ?? null,
  consentVersion: (r.consent_version as string | null) ?? null,
  withdrawnAt: num(r.withdrawn_at),
});

export class PgliteClassroomStore implements ClassroomStore {
  readonly #db: PGlite;

  /** `dataDir`: a directory (created if missing); omitted: in memory (tests). */
  constructor(dataDir?: string) {
    this.#db = dataDir ? new PGlite(dataDir) : new PGlite();
  }

  async init(): Promise<void> {
    await this.#db.exec(SCHEMA);
  }

  async close(): Promise<void> {
    await this.#db.close();
  }

  async putStudy(s: StudyRow): Promise<void> {
    await this.#db.query('insert into studies (id, spec, status, created_at, archived_at) values ($1, $2, $3, $4, $5) on conflict (id) do update set spec = excluded.spec, status = excluded.status, archived_at = excluded.archived_at', [s.id, JSON.stringify(s.spec), s.status, s.createdAt, s.archivedAt ?? null]);
  }

  async getStudy(id: string): Promise<StudyRow | null> {
    const r = await this.#db.query<Row>('select * from studies where id = $1', [id]);
    return r.rows[0] ? study(r.rows[0]) : null;
  }

  async listStudies(): Promise<StudyRow[]> {
    return (await this.#db.query<Row>('select * from studies order by created_at desc')).rows.map(study);
  }

  async addParticipants(rows: ParticipantRow[]): Promise<void> {
    await this.#db.transaction(async (tx) => {
      for (const p of rows) await tx.query('insert into participants (code, study_id, created_at, consented_at, device, token, last_seen, condition) values ($1, $2, $3, $4, $5, $6, $7, $8)', [p.code, p.studyId, p.createdAt, p.consentedAt, p.device, p.token, p.lastSeen, p.condition ?? null]);
    });
  }

  async getParticipant(code: string): Promise<ParticipantRow | null> {
    const r = await this.#db.query<Row>('select * from participants where code = $1', [code]);
    return r.rows[0] ? participant(r.rows[0]) : null;
  }

  async participantByToken(token: string): Promise<ParticipantRow | null> {
    const r = await this.#db.query<Row>('select * from participants where token = $1', [token]);
    return r.rows[0] ? participant(r.rows[0]) : null;
  }

  async listParticipants(studyId: string): Promise<ParticipantRow[]> {
    return (await this.#db.query<Row>('select * from participants where study_id = $1 order by created_at, code', [studyId])).rows.map(participant);
  }

  async putParticipant(p: ParticipantRow): Promise<void> {
    await this.#db.query('update participants set consented_at = $2, device = $3, token = $4, last_seen = $5, consent_version = $6 where code = $1', [p.code, p.consentedAt, p.device, p.token, p.lastSeen, p.consentVersion ?? null]);
  }

  async deleteStudy(id: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await tx.query('delete from events where code in (select code from participants where study_id = $1)', [id]);
      await tx.query('delete from sessions where code in (select code from participants where study_id = $1)', [id]);
      await tx.query('delete from participants where study_id = $1', [id]);
      await tx.query('delete from spend where study_id = $1', [id]);
      await tx.query('delete from studies where id = $1', [id]);
    });
  }

  async withdraw(code: string, at: number): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await tx.query('delete from events where code = $1', [code]);
      await tx.query('delete from sessions where code = $1', [code]);
      await tx.query('update participants set withdrawn_at = $2, token = null, device = null, last_seen = null where code = $1', [code, at]);
    });
  }

  async getSession(code: string): Promise<SessionRow | null> {
    const r = await this.#db.query<Row>('select * from sessions where code = $1', [code]);
    const x = r.rows[0];
    if (!x) return null;
    return { code: String(x.code), record: JSON.parse(String(x.record)), starts: JSON.parse(String(x.starts)), events: Number(x.events), status: x.status as SessionRow['status'], endReason: (x.end_reason as string | null) ?? null, ...(x.extra_minutes ? { extraMinutes: JSON.parse(String(x.extra_minutes)) as number[] } : {}), ...(x.pause ? (JSON.parse(String(x.pause)) as Pick<SessionRow, 'pausedAt' | 'pausedMs'>) : {}) };
  }

  async putSession(s: SessionRow): Promise<void> {
    await this.#db.query(
      'insert into sessions (code, record, starts, events, status, end_reason, extra_minutes, pause) values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (code) do update set record = excluded.record, starts = excluded.starts, events = excluded.events, status = excluded.status, end_reason = excluded.end_reason, extra_minutes = excluded.extra_minutes, pause = excluded.pause',
      [s.code, JSON.stringify(s.record), JSON.stringify(s.starts), s.events, s.status, s.endReason, s.extraMinutes ? JSON.stringify(s.extraMinutes) : null, s.pausedAt || s.pausedMs ? JSON.stringify({ ...(s.pausedAt ? { pausedAt: s.pausedAt } : {}), ...(s.pausedMs ? { pausedMs: s.pausedMs } : {}) }) : null],
    );
  }

  async appendEvents(code: string, events: { seq: number; json: string }[]): Promise<void> {
    if (events.length === 0) return;
    await this.#db.transaction(async (tx) => {
      for (const e of events) await tx.query('insert into events (code, seq, json) values ($1, $2, $3)', [code, e.seq, e.json]);
    });
  }

  async events(code: string): Promise<string[]> {
    return (await this.#db.query<{ json: string }>('select json from events where code = $1 order by seq', [code])).rows.map((r) => r.json);
  }

  async truncateEvents(code: string, fromSeq: number): Promise<void> {
    await this.#db.query('delete from events where code = $1 and seq >= $2', [code, fromSeq]);
  }

  async countLlmCall(studyId: string, cost: number | null): Promise<{ calls: number; cost: number }> {
    const r = await this.#db.query<Row>('insert into spend (study_id, calls, cost) values ($1, 1, $2) on conflict (study_id) do update set calls = spend.calls + 1, cost = spend.cost + excluded.cost returning calls, cost', [studyId, cost ?? 0]);
    return { calls: Number(r.rows[0]!.calls), cost: Number(r.rows[0]!.cost) };
  }

  async addLlmCost(studyId: string, cost: number): Promise<void> {
    await this.#db.query('update spend set cost = cost + $2 where study_id = $1', [studyId, cost]);
  }
  async llmSpend(studyId: string): Promise<{ calls: number; cost: number }> {
    const r = await this.#db.query<Row>('select calls, cost from spend where study_id = $1', [studyId]);
    return r.rows[0] ? { calls: Number(r.rows[0].calls), cost: Number(r.rows[0].cost) } : { calls: 0, cost: 0 };
  }
}
