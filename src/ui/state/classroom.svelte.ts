/**
 * The classroom pages' state: which classroom the page talks to (the classroom server when it
 * serves the page, otherwise a classroom on this device in IndexedDB), the teacher's studies and
 * live view, and one student's session. Views render it; every call goes through ClassroomApi.
 *
 * Kept in the browser: the teacher secret in sessionStorage (this tab only: it is gone when the
 * tab closes); a student's device id, code and sign-in token in localStorage, so a closed laptop or
 * a reload goes back into the same session. Nothing else about a student is kept or asked for.
 */
import { strFromU8, unzipSync } from 'fflate';
import { ClassroomError, ClassroomService, type LiveParticipant, type StudentActionInput, type StudentItem, type StudentState } from '../../adapters/classroom/service';
import { LocalClassroom, type ClassroomApi, type TutorChoice } from '../../adapters/classroom/api';
import type { StudyRow } from '../../adapters/classroom/store';
import { HttpClassroom, detectClassroomServer } from '../../adapters/browser/classroom-http';
import { IdbClassroomStore } from '../../adapters/browser/classroom-store';
import { errorMessage, parseJsonl, type TraceEvent } from '../../core/index';

const SECRET_KEY = 'educlaw-teacher-secret';
const DEVICE_KEY = 'educlaw-classroom-device';
const SIGNIN_KEY = 'educlaw-classroom-signin';
/** How often the student and teacher pages ask for news (tutor messages, who is online). */
export const POLL_MS = 3000;

/** Random URL-safe text from the browser's CSPRNG. */
function randomText(bytes: number): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

let chosen: Promise<ClassroomApi> | null = null;
/** The classroom of this page, decided once: the server's when the page came from one. */
export function classroomApi(): Promise<ClassroomApi> {
  chosen ??= (async () => {
    if (await detectClassroomServer()) return new HttpClassroom(() => sessionStorage.getItem(SECRET_KEY));
    const store = new IdbClassroomStore();
    await store.init();
    return new LocalClassroom(new ClassroomService(store, { run: {}, providers: [], now: () => Date.now(), random: randomText }));
  })();
  return chosen;
}

const say = (e: unknown) => (e instanceof ClassroomError ? e.message : errorMessage(e));

// ---- teacher ---------------------------------------------------------------------------------

export class TeacherState {
  api = $state.raw<ClassroomApi | null>(null);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);
  /** Whether the server accepted the secret (server mode); always true on this device. */
  signedIn = $state(false);
  tutors = $state.raw<TutorChoice[]>([]);
  providers = $state.raw<string[]>([]);
  /** The addresses students open, as the classroom server gives them (its network addresses, not this tab's "localhost"). */
  studentUrls = $state.raw<string[]>([]);
  studies = $state.raw<StudyRow[]>([]);
  shownId = $state<string | null>(null);
  live = $state.raw<LiveParticipant[]>([]);
  spend = $state.raw<{ calls: number; cost: number; cap: number | null } | null>(null);
  /** Codes made in this visit, per study (the live table lists every code too). */
  newCodes = $state.raw<string[]>([]);
  /** The study's field runs, read from its export, for the comparison. */
  fieldRuns = $state.raw<{ events: TraceEvent[] }[]>([]);
  busy = $state(false);
  #timer: ReturnType<typeof setInterval> | null = null;

  get shown(): StudyRow | null {
    return this.studies.find((s) => s.id === this.shownId) ?? null;
  }

  async init(): Promise<void> {
    this.api = await classroomApi();
    if (this.api.mode === 'local' || sessionStorage.getItem(SECRET_KEY)) await this.signIn(sessionStorage.getItem(SECRET_KEY) ?? '');
  }

  async signIn(secret: string): Promise<void> {
    if (!this.api) return;
    this.error = null;
    if (this.api.mode === 'server') sessionStorage.setItem(SECRET_KEY, secret.trim());
    try {
      const info = await this.api.teacherInfo();
      this.tutors = info.tutors;
      this.providers = info.providers;
      this.studentUrls = info.studentUrls ?? [];
      this.signedIn = true;
      await this.refresh();
    } catch (e) {
      if (this.api.mode === 'server') sessionStorage.removeItem(SECRET_KEY);
      this.signedIn = false;
      this.error = say(e);
    }
  }

  signOut(): void {
    sessionStorage.removeItem(SECRET_KEY);
    this.signedIn = false;
    this.studies = [];
    this.show(null);
  }

  async refresh(): Promise<void> {
    if (!this.api || !this.signedIn) return;
    try {
      this.studies = await this.api.studies();
      if (this.shownId) await this.#poll();
    } catch (e) {
      this.error = say(e);
    }
  }

  async create(spec: Parameters<ClassroomApi['createStudy']>[0]): Promise<StudyRow | null> {
    if (!this.api) return null;
    this.error = null;
    this.busy = true;
    try {
      const s = await this.api.createStudy(spec);
      this.studies = await this.api.studies();
      this.show(s.id);
      this.notice = `Created the study "${s.spec.name}". Add participant codes next.`;
      return s;
    } catch (e) {
      this.error = say(e);
      return null;
    } finally {
      this.busy = false;
    }
  }

  show(id: string | null): void {
    this.shownId = id;
    this.live = [];
    this.spend = null;
    this.newCodes = [];
    this.fieldRuns = [];
    this.watching = null;
    this.conversation = [];
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (id) {
      void this.#poll();
      this.#timer = setInterval(() => void this.#poll(), POLL_MS);
    }
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  async #poll(): Promise<void> {
    const id = this.shownId;
    if (!this.api || !id) return;
    try {
      const [live, s] = await Promise.all([this.api.live(id), this.api.study(id)]);
      if (this.shownId !== id) return;
      this.live = live;
      this.spend = s.spend;
      if (this.watching) await this.#loadConversation(this.watching);
      if (s.study.status !== this.shown?.status) this.studies = this.studies.map((x) => (x.id === id ? s.study : x));
    } catch (e) {
      this.error = say(e);
    }
  }

  /**
   * Runs a teacher's action on the shown study: nothing without a server or a study shown; the
   * last error cleared first; a failure shown as the error (nothing else is lost).
   */
  async #onShown(act: (api: ClassroomApi, id: string) => Promise<void>): Promise<void> {
    if (!this.api || !this.shownId) return;
    this.error = null;
    try {
      await act(this.api, this.shownId);
    } catch (e) {
      this.error = say(e);
    }
  }

  async addCodes(n: number): Promise<void> {
    await this.#onShown(async (api, id) => {
      this.newCodes = [...this.newCodes, ...(await api.addCodes(id, n))];
      await this.#poll();
    });
  }

  async end(): Promise<void> {
    await this.#onShown(async (api, id) => {
      await api.endStudy(id);
      this.studies = await api.studies();
      await this.#poll();
      this.notice = 'The study has ended: no new sessions; open sessions were stopped. Export it to score it.';
    });
  }

  /** The participant whose conversation the teacher reads (it follows the live view's polling). */
  watching = $state<string | null>(null);
  conversation = $state.raw<{ from: 'tutor' | 'learner'; text: string; t: number }[]>([]);

  async watch(code: string | null): Promise<void> {
    this.watching = code;
    this.conversation = [];
    if (code) await this.#loadConversation(code);
  }

  async #loadConversation(code: string): Promise<void> {
    if (!this.api || !this.shownId) return;
    try {
      const events = parseJsonl(await this.api.trace(this.shownId, code), `${code}.jsonl`).events;
      if (this.watching !== code) return;
      this.conversation = events.filter((e): e is Extract<TraceEvent, { type: 'message' }> => e.type === 'message').map((m) => ({ from: m.from, text: m.text, t: m.t }));
    } catch (e) {
      // Not started yet: nothing to read.
      if (!(e instanceof ClassroomError && e.status === 404)) this.error = say(e);
    }
  }

  /** Signs out the device holding a code (a lost or broken one): the student enters it on another device. */
  async releaseCode(code: string): Promise<void> {
    await this.#onShown(async (api, id) => {
      await api.releaseCode(id, code);
      await this.#poll();
      this.notice = `${code} is free: the student can enter it on another device now (nothing they did is lost).`;
    });
  }

  async rename(name: string): Promise<void> {
    await this.#onShown(async (api, id) => {
      const s = await api.renameStudy(id, name);
      this.studies = this.studies.map((x) => (x.id === s.id ? s : x));
    });
  }

  /** Deletes the shown (ended) study and all of its data. */
  async remove(): Promise<void> {
    await this.#onShown(async (api, id) => {
      await api.deleteStudy(id);
      this.studies = await api.studies();
      this.show(null);
      this.notice = 'The study and all of its data were deleted.';
    });
  }

  /** More time for a participant's session in progress. */
  async extend(code: string, minutes: number): Promise<void> {
    await this.#onShown(async (api, id) => {
      await api.extend(id, code, minutes);
      await this.#poll();
      this.notice = `${code}: ${minutes} more minutes for this session.`;
    });
  }

  /** Pauses a participant's session in progress (its clock stands still), or resumes it. */
  async pause(code: string, paused: boolean): Promise<void> {
    await this.#onShown(async (api, id) => {
      await api.pause(id, code, paused);
      await this.#poll();
      this.notice = paused ? `${code}'s session is paused: its clock stands still, and the student sees that it is paused.` : `${code}'s session goes on: the time it was paused is added to it.`;
    });
  }

  /** Archives the shown (ended) study: kept, with its data, but listed apart; or brings it back. */
  async archive(archived: boolean): Promise<void> {
    await this.#onShown(async (api, id) => {
      const s = await api.archiveStudy(id, archived);
      this.studies = this.studies.map((x) => (x.id === s.id ? s : x));
      this.notice = archived ? `"${s.spec.name}" is archived: it is kept with all of its data, under "Archived studies".` : `"${s.spec.name}" is back among the studies.`;
    });
  }

  /** A participant withdraws (at their request): their data are deleted, the export's log says so. */
  async withdraw(code: string): Promise<void> {
    await this.#onShown(async (api, id) => {
      await api.withdraw(id, code);
      await this.#poll();
      this.notice = `Participant ${code} withdrew: all their data were deleted (the export's log says so).`;
    });
  }

  /** The study's export (zip), and its field runs read back for the comparison. */
  async export(): Promise<{ filename: string; bytes: Uint8Array } | null> {
    if (!this.api || !this.shownId) return null;
    this.error = null;
    try {
      const x = await this.api.exportStudy(this.shownId);
      this.fieldRuns = readStudyZip(x.bytes, x.filename);
      return x;
    } catch (e) {
      this.error = say(e);
      return null;
    }
  }
}

/** The traces of a study export, parsed (each named by its path in the zip when it is broken). */
export function readStudyZip(bytes: Uint8Array, name: string): { events: TraceEvent[] }[] {
  const files = unzipSync(bytes);
  return Object.keys(files)
    .filter((p) => /^traces\/[^/]+\.jsonl$/.test(p))
    .sort()
    .map((p) => ({ events: parseJsonl(strFromU8(files[p]!), `${name}:${p}`).events }));
}

// ---- student ---------------------------------------------------------------------------------

type Phase = 'code' | 'consent' | 'ready' | 'working' | 'done';

export class StudentSession {
  api = $state.raw<ClassroomApi | null>(null);
  state = $state.raw<StudentState | null>(null);
  code = $state('');
  error = $state<string | null>(null);
  /** The last action the LMS refused (it said why: an item not open, too many attempts…). */
  refused = $state<string | null>(null);
  /** The page cannot reach the classroom: what it tried and when it will try again. */
  offline = $state<string | null>(null);
  postProbe = $state.raw<StudentItem[] | null>(null);
  busy = $state(false);
  /** This device's student withdrew from the study just now (their data were deleted). */
  withdrawn = $state(false);
  /**
   * Answers submitted while the server could not be reached: kept in this page (not saved
   * anywhere yet) and sent, in order, once it answers again. Closing the page loses them.
   */
  queued = $state.raw<Extract<StudentActionInput, { kind: 'submit' }>[]>([]);
  #flushing = false;
  #token: string | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;

  get phase(): Phase {
    const s = this.state;
    if (!s) return 'code';
    if (!s.consented) return 'consent';
    if (s.session.allDone || s.session.ended) return 'done';
    return s.session.online ? 'working' : 'ready';
  }

  get device(): string {
    let d = localStorage.getItem(DEVICE_KEY);
    if (!d) {
      d = `dev-${randomText(12)}`;
      localStorage.setItem(DEVICE_KEY, d);
    }
    return d;
  }

  /** Back into the session this device was in (a reload, a closed laptop), if any. */
  async init(): Promise<void> {
    this.api = await classroomApi();
    const saved = localStorage.getItem(SIGNIN_KEY);
    if (!saved) return;
    let signin: { code: string; token: string };
    try {
      signin = JSON.parse(saved) as { code: string; token: string };
    } catch {
      // Not ours, or damaged: nothing to go back to; the student enters the code again.
      localStorage.removeItem(SIGNIN_KEY);
      return;
    }
    this.code = signin.code;
    this.#token = signin.token;
    // refresh and join show their own errors (the student sees why, on the code form).
    await this.refresh();
    // The token is no longer valid (a restart, another device): sign in again with the code.
    if (!this.state && typeof signin.code === 'string') await this.join(signin.code);
  }

  async join(code: string): Promise<void> {
    if (!this.api) return;
    this.error = null;
    this.busy = true;
    try {
      const r = await this.api.join(code, this.device);
      this.#token = r.token;
      this.code = code.trim().toUpperCase();
      localStorage.setItem(SIGNIN_KEY, JSON.stringify({ code: this.code, token: r.token }));
      this.#set(r.state);
    } catch (e) {
      this.error = say(e);
    } finally {
      this.busy = false;
    }
  }

  /** Leaves this device (the next student enters their own code). The session stays on the server. */
  signOut(): void {
    this.#stopPolling();
    localStorage.removeItem(SIGNIN_KEY);
    this.#token = null;
    this.state = null;
    this.code = '';
    this.postProbe = null;
    this.refused = null;
  }

  /** The student withdraws from the study (they confirmed): everything they did is deleted, and this device forgets the code. */
  async withdraw(): Promise<void> {
    if (!this.api || !this.#token) return;
    try {
      await this.api.withdrawSelf(this.#token);
      this.signOut();
      this.withdrawn = true;
    } catch (e) {
      this.error = say(e);
    }
  }

  async agree(): Promise<void> {
    if (!this.api || !this.#token) return;
    try {
      this.#set(await this.api.consent(this.#token));
    } catch (e) {
      this.error = say(e);
    }
  }

  async refresh(): Promise<void> {
    if (!this.api || !this.#token) return;
    try {
      this.#set(await this.api.state(this.#token));
      this.offline = null;
      await this.#flush();
      if (this.state && this.state.session.online && this.state.session.number === this.state.session.of && this.state.study.probes) this.postProbe = await this.api.postProbe(this.#token);
    } catch (e) {
      if (e instanceof ClassroomError) {
        if (e.status === 401) {
          // Signed out (the code was opened elsewhere): back to the code form, with the reason.
          this.signOut();
        }
        this.error = e.message;
      } else this.offline = this.#offlineNotice(say(e));
    }
  }

  #offlineNotice(why: string): string {
    const n = this.queued.length;
    const list = this.queued.map((q) => `“${q.response}”`).join(', ');
    const waiting = n ? ` ${n === 1 ? `Your answer ${list} is` : `${n} answers (${list}) are`} waiting on this page and will be sent when the connection is back: not saved until then, so keep this page open.` : '';
    return `${why}. Only what the server confirmed before is saved; nothing else reaches it until the connection is back (trying again every ${POLL_MS / 1000} s).${waiting}`;
  }

  /** Sends the answers kept while offline, in order; one the server refuses (the item closed, the time is up) is dropped with why. */
  async #flush(): Promise<void> {
    if (!this.api || !this.#token || this.#flushing || this.queued.length === 0) return;
    this.#flushing = true;
    try {
      while (this.queued.length > 0) {
        const next = this.queued[0]!;
        try {
          const s = await this.api.act(this.#token, next);
          this.queued = this.queued.slice(1);
          this.#set(s);
          if (s.refused) this.refused = `Your answer “${next.response}”, sent when the connection came back, was not taken: ${s.refused}`;
        } catch (e) {
          if (!(e instanceof ClassroomError)) {
            this.offline = this.#offlineNotice(say(e));
            return;
          }
          this.queued = this.queued.slice(1);
          this.error = `Your answer “${next.response}”, sent when the connection came back, was refused: ${e.message}`;
        }
      }
      this.offline = null;
    } finally {
      this.#flushing = false;
    }
  }

  /** One action; the state the classroom answers with replaces ours (the server is the record). */
  async act(action: StudentActionInput): Promise<boolean> {
    if (!this.api || !this.#token) return false;
    if (action.kind === 'submit' && this.queued.length > 0) {
      // Answers waiting from an outage go first: this one joins them, in order.
      this.queued = [...this.queued, action];
      await this.#flush();
      return true;
    }
    this.error = null;
    this.refused = null;
    this.busy = true;
    try {
      const s = await this.api.act(this.#token, action);
      this.offline = null;
      this.#set(s);
      if (s.refused) this.refused = s.refused;
      if (action.kind === 'login' || action.kind === 'probe') await this.refresh();
      return !s.refused;
    } catch (e) {
      if (e instanceof ClassroomError) {
        this.error = e.message;
        // Refused because the page was behind (a quiz already handed in, the time up): show where things are.
        if (e.status === 409) await this.refresh();
      } else if (action.kind === 'submit') {
        // An answer typed while offline is kept in this page and sent when the server answers again.
        this.queued = [...this.queued, action];
        this.offline = this.#offlineNotice(say(e));
        return true;
      } else this.offline = `${say(e)}. That last step was not saved: what you typed stays in its box; send it again once the connection is back.`;
      return false;
    } finally {
      this.busy = false;
    }
  }

  #set(s: StudentState): void {
    this.state = s;
    // News can come at any time while signed in (a tutor's message, the time being up, the study ending).
    if (!s.session.allDone && !s.session.ended) this.#startPolling();
    else this.#stopPolling();
  }

  #startPolling(): void {
    this.#timer ??= setInterval(() => void this.refresh(), POLL_MS);
  }
  #stopPolling(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
  stop(): void {
    this.#stopPolling();
  }
}
