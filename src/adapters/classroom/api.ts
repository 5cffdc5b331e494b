/**
 * What the classroom pages (teacher and student) ask of a classroom, whichever runs it: the
 * classroom server over HTTP (src/adapters/browser/classroom-http.ts), or, on one device without a
 * server, a ClassroomService in the page over IndexedDB (LocalClassroom below). The pages only see
 * this interface, so both behave alike; a refusal is a ClassroomError with the words to show.
 */
import { AUTOMATED_TUTORS, TUTORS, type StudySpecInput } from '../../core/index';
import { ClassroomService, type LiveParticipant, type StudentActionInput, type StudentItem, type StudentState } from './service';
import type { StudyRow } from './store';
import { studyZipName, zipStudy } from './export';

export interface TutorChoice {
  name: string;
  /** An LLM tutor (its provider and model are chosen too). */
  llm: boolean;
  /** The HTTP tutor: an agent service at a URL the classroom server reaches. */
  http?: true;
}

export interface ClassroomApi {
  /** 'server': the classroom server (LLM tutors possible, keys on the server); 'local': this device only, built-in tutors. */
  readonly mode: 'server' | 'local';
  // teacher
  /** `studentUrls`: the addresses students open (the classroom server's network addresses); absent on one device. */
  teacherInfo(): Promise<{ tutors: TutorChoice[]; providers: string[]; studentUrls?: string[] }>;
  studies(): Promise<StudyRow[]>;
  createStudy(spec: StudySpecInput): Promise<StudyRow>;
  study(id: string): Promise<{ study: StudyRow; spend: { calls: number; cost: number; cap: number | null } }>;
  addCodes(id: string, n: number): Promise<string[]>;
  live(id: string): Promise<LiveParticipant[]>;
  endStudy(id: string): Promise<void>;
  renameStudy(id: string, name: string): Promise<StudyRow>;
  /** Deletes an ended study and all of its data. */
  deleteStudy(id: string): Promise<void>;
  /** A participant withdraws (at their request): their data are deleted; the export's log says so. */
  withdraw(id: string, code: string): Promise<void>;
  /** One participant's stored trace (JSONL), as it is now: the teacher reads their conversation live. */
  trace(id: string, code: string): Promise<string>;
  /** Signs the device holding a code out, so the student can use it on another device at once. */
  releaseCode(id: string, code: string): Promise<void>;
  /** More minutes for a participant's session in progress. */
  extend(id: string, code: string, minutes: number): Promise<void>;
  /** Pauses a participant's session in progress (its clock stands still, the student can do nothing), or resumes it. */
  pause(id: string, code: string, paused: boolean): Promise<void>;
  /** Archives an ended study (kept, listed apart), or brings it back. */
  archiveStudy(id: string, archived: boolean): Promise<StudyRow>;
  /** The study's export (a zip: study.json + traces/*.jsonl) and its file name. */
  exportStudy(id: string): Promise<{ filename: string; bytes: Uint8Array }>;
  // student
  join(code: string, device: string): Promise<{ token: string; state: StudentState }>;
  consent(token: string): Promise<StudentState>;
  state(token: string): Promise<StudentState>;
  act(token: string, action: StudentActionInput): Promise<StudentState & { refused?: string }>;
  postProbe(token: string): Promise<StudentItem[] | null>;
  /** The student withdraws from the study: everything they did is deleted. */
  withdrawSelf(token: string): Promise<void>;
}

/**
 * The tutors a study may use where it runs: built-in ones; LLM tutors where an LLM provider is
 * configured; the HTTP tutor (a vendor's agent service) where the classroom can reach one (the server).
 */
export function classroomTutors(o: { providers: readonly string[]; http: boolean }): TutorChoice[] {
  const can = (n: string) => (n === 'llm' ? o.providers.length > 0 : n === 'http' ? o.http : false);
  return AUTOMATED_TUTORS.map((n) => TUTORS.get(n)!)
    .filter((t) => t.needs.every(can))
    .map((t) => ({ name: t.name, llm: t.needs.includes('llm'), ...(t.needs.includes('http') ? { http: true } : {}) }));
}

/** A classroom on this device: the service itself, in the page (no LLM: keys never go to a shared device). */
export class LocalClassroom implements ClassroomApi {
  readonly mode = 'local' as const;
  constructor(readonly service: ClassroomService) {}
  async teacherInfo() {
    return { tutors: classroomTutors({ providers: [], http: false }), providers: [] };
  }
  studies() {
    return this.service.studies();
  }
  createStudy(spec: StudySpecInput) {
    return this.service.createStudy(spec);
  }
  async study(id: string) {
    return { study: await this.service.study(id), spend: await this.service.spend(id) };
  }
  addCodes(id: string, n: number) {
    return this.service.addCodes(id, n);
  }
  live(id: string) {
    return this.service.live(id);
  }
  endStudy(id: string) {
    return this.service.endStudy(id);
  }
  renameStudy(id: string, name: string) {
    return this.service.renameStudy(id, name);
  }
  deleteStudy(id: string) {
    return this.service.deleteStudy(id);
  }
  withdraw(id: string, code: string) {
    return this.service.withdraw(id, code);
  }
  extend(id: string, code: string, minutes: number) {
    return this.service.extend(id, code, minutes);
  }
  releaseCode(id: string, code: string) {
    return this.service.releaseCode(id, code);
  }
  pause(id: string, code: string, paused: boolean) {
    return paused ? this.service.pause(id, code) : this.service.resume(id, code);
  }
  archiveStudy(id: string, archived: boolean) {
    return this.service.archiveStudy(id, archived);
  }
  trace(id: string, code: string) {
    return this.service.trace(id, code);
  }
  withdrawSelf(token: string) {
    return this.service.withdrawSelf(token);
  }
  async exportStudy(id: string) {
    const x = await this.service.exportStudy(id);
    return { filename: studyZipName(x.study), bytes: zipStudy(x, this.service.env.now()) };
  }
  join(code: string, device: string) {
    return this.service.join(code, device);
  }
  consent(token: string) {
    return this.service.consent(token);
  }
  state(token: string) {
    return this.service.state(token);
  }
  act(token: string, action: StudentActionInput) {
    return this.service.act(token, action);
  }
  postProbe(token: string) {
    return this.service.postProbe(token);
  }
}
