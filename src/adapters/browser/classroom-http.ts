/**
 * The classroom server's API from the page (src/server/app.ts has the routes). Teacher calls carry
 * the teacher secret in a header (it lives in the teacher's tab only: sessionStorage); student calls
 * carry the participant's sign-in token. A refusal comes back as ClassroomError with the server's
 * words; a network failure says that the server could not be reached, and nothing is retried
 * behind the user's back (the student view shows it and tries again on the next poll).
 */
import { ClassroomError, type StudentActionInput } from '../classroom/service';
import type { ClassroomApi } from '../classroom/api';
import type { StudySpecInput } from '../../core/index';

type Status = ClassroomError['status'];

export { detectClassroomServer } from './classroom-detect';

export class HttpClassroom implements ClassroomApi {
  readonly mode = 'server' as const;
  constructor(
    private readonly teacherSecret: () => string | null,
    private readonly base = '',
  ) {}

  async #call(method: 'GET' | 'POST', path: string, o: { body?: unknown; token?: string; teacher?: boolean } = {}): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (o.body !== undefined) headers['Content-Type'] = 'application/json';
    if (o.token) headers.Authorization = `Bearer ${o.token}`;
    if (o.teacher) {
      const s = this.teacherSecret();
      if (!s) throw new ClassroomError(401, 'enter the teacher secret (the classroom server printed it when it started)');
      headers['X-Teacher-Secret'] = s;
    }
    let r: Response;
    try {
      r = await fetch(`${this.base}${path}`, { method, headers, ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}) });
    } catch (e) {
      throw new Error(`could not reach the classroom server (${e instanceof Error ? e.message : String(e)}): check the connection`);
    }
    if (!r.ok) {
      let msg = `the classroom server answered ${r.status}`;
      try {
        const j = (await r.json()) as { error?: unknown };
        if (typeof j.error === 'string') msg = j.error;
      } catch {
        // not JSON: the status says it
      }
      const status = ([400, 401, 403, 404, 409, 413, 429, 503] as number[]).includes(r.status) ? (r.status as Status) : null;
      if (status) throw new ClassroomError(status, msg);
      throw new Error(msg);
    }
    return r;
  }
  async #json<T>(method: 'GET' | 'POST', path: string, o: { body?: unknown; token?: string; teacher?: boolean } = {}): Promise<T> {
    return (await (await this.#call(method, path, o)).json()) as T;
  }

  teacherInfo() {
    return this.#json<{ tutors: { name: string; llm: boolean }[]; providers: string[]; studentUrls?: string[] }>('GET', '/api/teacher/info', { teacher: true });
  }
  async studies() {
    return (await this.#json<{ studies: Awaited<ReturnType<ClassroomApi['studies']>> }>('GET', '/api/teacher/studies', { teacher: true })).studies;
  }
  async createStudy(spec: StudySpecInput) {
    return (await this.#json<{ study: Awaited<ReturnType<ClassroomApi['createStudy']>> }>('POST', '/api/teacher/studies', { teacher: true, body: { spec } })).study;
  }
  study(id: string) {
    return this.#json<Awaited<ReturnType<ClassroomApi['study']>>>('GET', `/api/teacher/studies/${encodeURIComponent(id)}`, { teacher: true });
  }
  async addCodes(id: string, n: number) {
    return (await this.#json<{ codes: string[] }>('POST', `/api/teacher/studies/${encodeURIComponent(id)}/codes`, { teacher: true, body: { n } })).codes;
  }
  async live(id: string) {
    return (await this.#json<{ participants: Awaited<ReturnType<ClassroomApi['live']>> }>('GET', `/api/teacher/studies/${encodeURIComponent(id)}/live`, { teacher: true })).participants;
  }
  async endStudy(id: string) {
    await this.#call('POST', `/api/teacher/studies/${encodeURIComponent(id)}/end`, { teacher: true, body: {} });
  }
  async exportStudy(id: string) {
    const r = await this.#call('GET', `/api/teacher/studies/${encodeURIComponent(id)}/export`, { teacher: true });
    const name = /filename="([^"]+)"/.exec(r.headers.get('content-disposition') ?? '')?.[1] ?? `study-${id}.zip`;
    return { filename: name, bytes: new Uint8Array(await r.arrayBuffer()) };
  }
  join(code: string, device: string) {
    return this.#json<Awaited<ReturnType<ClassroomApi['join']>>>('POST', '/api/student/join', { body: { code, device } });
  }
  consent(token: string) {
    return this.#json<Awaited<ReturnType<ClassroomApi['consent']>>>('POST', '/api/student/consent', { token, body: {} });
  }
  state(token: string) {
    return this.#json<Awaited<ReturnType<ClassroomApi['state']>>>('GET', '/api/student/state', { token });
  }
  act(token: string, action: StudentActionInput) {
    return this.#json<Awaited<ReturnType<ClassroomApi['act']>>>('POST', '/api/student/act', { token, body: { action } });
  }
  async withdraw(id: string, code: string) {
    await this.#call('POST', `/api/teacher/studies/${encodeURIComponent(id)}/participants/${encodeURIComponent(code)}/withdraw`, { teacher: true, body: {} });
  }
  async trace(id: string, code: string) {
    return (await this.#call('GET', `/api/teacher/studies/${encodeURIComponent(id)}/traces/${encodeURIComponent(code)}`, { teacher: true })).text();
  }
  async renameStudy(id: string, name: string) {
    return (await this.#json<{ study: Awaited<ReturnType<ClassroomApi['renameStudy']>> }>('POST', `/api/teacher/studies/${encodeURIComponent(id)}/rename`, { teacher: true, body: { name } })).study;
  }
  async deleteStudy(id: string) {
    await this.#call('POST', `/api/teacher/studies/${encodeURIComponent(id)}/delete`, { teacher: true, body: {} });
  }
  async releaseCode(id: string, code: string) {
    await this.#call('POST', `/api/teacher/studies/${encodeURIComponent(id)}/participants/${encodeURIComponent(code)}/release`, { teacher: true, body: {} });
  }
  async extend(id: string, code: string, minutes: number) {
    await this.#call('POST', `/api/teacher/studies/${encodeURIComponent(id)}/participants/${encodeURIComponent(code)}/extend`, { teacher: true, body: { minutes } });
  }
  async pause(id: string, code: string, paused: boolean) {
    await this.#call('POST', `/api/teacher/studies/${encodeURIComponent(id)}/participants/${encodeURIComponent(code)}/${paused ? 'pause' : 'resume'}`, { teacher: true, body: {} });
  }
  async archiveStudy(id: string, archived: boolean) {
    return (await this.#json<{ study: Awaited<ReturnType<ClassroomApi['archiveStudy']>> }>('POST', `/api/teacher/studies/${encodeURIComponent(id)}/archive`, { teacher: true, body: { archived } })).study;
  }
  async withdrawSelf(token: string) {
    await this.#call('POST', '/api/student/withdraw', { token, body: {} });
  }
  async postProbe(token: string) {
    return (await this.#json<{ items: Awaited<ReturnType<ClassroomApi['postProbe']>> }>('GET', '/api/student/post-probe', { token })).items;
  }
}
