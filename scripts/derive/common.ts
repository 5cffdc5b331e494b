/**
 * Shared readers for the derive scripts. They read real data from `../shared/data` (or a path the
 * user gives) and write only derived, compact files into the project. Raw data never lands here.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';

export interface StudentSequence {
  fold: string; // '1'..'5' or 'train_only'
  uid: number;
  questions: number[];
  skills: number[];
  responses: number[];
}

export const DEFAULT_DATA_DIR = new URL('../../../shared/data/assist2009_pid/', import.meta.url).pathname;

function readMaybeGz(path: string): string {
  const buf = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8');
}

/** Reads the consolidated `sequences.csv.gz` layout (fold,uid,orig_user_id,seq_len,questions,concepts,responses). */
export function readSequences(dataDir: string): StudentSequence[] {
  const text = readMaybeGz(`${dataDir.replace(/\/$/, '')}/sequences.csv.gz`);
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const nums = (s: string | undefined, what: string, uid: string): number[] => {
    if (s === undefined) throw new Error(`sequences.csv: student ${uid} has no ${what} column`);
    return s.split(',').map(Number);
  };
  return rows.map((r) => {
    const uid = r.uid ?? '?';
    const seq: StudentSequence = {
      fold: r.fold ?? '',
      uid: Number(uid),
      questions: nums(r.questions, 'questions', uid),
      skills: nums(r.concepts, 'concepts', uid),
      responses: nums(r.responses, 'responses', uid),
    };
    if (seq.questions.length !== seq.skills.length || seq.skills.length !== seq.responses.length) {
      throw new Error(`sequences.csv: student ${uid} has lists of unequal length`);
    }
    return seq;
  });
}

export function readSkillNames(dataDir: string): Map<number, string> {
  const obj = JSON.parse(readFileSync(`${dataDir.replace(/\/$/, '')}/skill.json`, 'utf8')) as Record<string, number>;
  return new Map(Object.entries(obj).map(([name, id]) => [id, name.trim()]));
}

export const DATASET_CITATION =
  'ASSISTments 2009-2010 skill builder data (https://sites.google.com/site/assistmentsdata/home/assistment-2009-2010-data/skill-builder-data-2009-2010); ' +
  'Feng, M., Heffernan, N. T., & Koedinger, K. R. (2009). Addressing the assessment challenge with an online system that tutors as it assesses. User Modeling and User-Adapted Interaction, 19, 243-266. ' +
  'Preprocessed release and 5-fold split: Ghosh, Heffernan & Lan (2020), Context-Aware Attentive Knowledge Tracing, KDD (arghosh/AKT, data/assist2009_pid).';
