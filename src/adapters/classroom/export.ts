/**
 * A study's export: a zip in the layout of a benchmark bundle (traces/*.jsonl; the Lab's import
 * and `npm run cli -- report` read it as they read a page benchmark or a CLI sweep), with
 * study.json for the study itself. Nothing in it identifies a student beyond their anonymous
 * code: no device id, no sign-in token, no address.
 */
import { strToU8, zipSync } from 'fflate';
import type { StudyRow, SessionRow } from './store';
import { studyTables, type StudyExport } from './tables';
import { hashString } from '../../core/index';

export const STUDY_EXPORT_FORMAT = 'educlaw-study';
/**
 * 2: participants carry condition, sessionStarts and consentVersion; a log of withdrawals; sessions.csv, answers.csv and codebook.md beside the traces.
 * 3: participants carry extraMinutes and pausedMinutes per session (sessions.csv: extra_minutes, paused_minutes); the study its archivedAt.
 */
export const STUDY_EXPORT_VERSION = 3;

export type { StudyExport } from './tables';

export const studyTracePath = (code: string, runId: string) => `traces/${code}__${runId.replace(/[^\w.-]+/g, '_').slice(0, 150)}.jsonl`;

export function zipStudy(x: StudyExport, exportedAt: number): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const t of x.traces) files[studyTracePath(t.code, t.runId)] = strToU8(t.jsonl);
  const manifest = {
    format: STUDY_EXPORT_FORMAT,
    version: STUDY_EXPORT_VERSION,
    exportedAt,
    study: x.study,
    consentVersion: consentVersion(x.study.spec.consent),
    log: x.log,
    participants: x.participants.map((p) => ({ ...p, trace: x.traces.some((t) => t.code === p.code) ? studyTracePath(p.code, x.traces.find((t) => t.code === p.code)!.runId) : null })),
  };
  files['study.json'] = strToU8(JSON.stringify(manifest, null, 1) + '\n');
  // The same data as tables (R, SPSS), with the codebook that says what every column means.
  const t = studyTables(x);
  files['sessions.csv'] = strToU8(t.sessions);
  files['answers.csv'] = strToU8(t.answers);
  files['codebook.md'] = strToU8(t.codebook);
  return zipSync(files, { level: 6 });
}

/** The version of a consent text: a hash of its words, so a participant's agreement names the exact text they read. */
export const consentVersion = (text: string): string => `c-${hashString(text).toString(16).padStart(8, '0')}`;

export const studyZipName = (s: StudyRow) => `study-${s.spec.name.replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || s.id}-${s.id}.zip`;
