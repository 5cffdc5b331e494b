/**
 * Readers for knowledge-tracing data sets on disk (the same layouts training/akt/kt_data.py
 * reads): AKT fold files (`*_test{k}.csv[.gz]`, 4 lines per student, or 3 without question ids),
 * directly in the directory or in `akt_folds/`; or a `sequences.csv[.gz]` with a `fold` column.
 * Ids are 1-based; a data set with skill id 0 is 0-based and is shifted by +1.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';

export interface StudentSequence {
  fold: string;
  uid: number;
  questions: number[];
  skills: number[];
  responses: number[];
}

function readMaybeGz(path: string): string {
  const buf = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8');
}

const ints = (line: string, where: string): number[] =>
  line
    .split(',')
    .filter((p) => p.trim() !== '')
    .map((p) => {
      const n = Number(p);
      if (!Number.isFinite(n)) throw new Error(`${where}: "${p}" is not a number`);
      return Math.trunc(n);
    });

/** Reads the consolidated `sequences.csv(.gz)` layout. */
export function readSequencesCsv(path: string): StudentSequence[] {
  const rows = parse(readMaybeGz(path), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  return rows.map((r, i) => {
    const where = `${path}: row ${i + 2}`;
    if (r.concepts === undefined || r.responses === undefined) throw new Error(`${where}: needs "concepts" and "responses" columns`);
    const skills = ints(r.concepts, where);
    const responses = ints(r.responses, where);
    const questions = r.questions !== undefined ? ints(r.questions, where) : skills.map(() => 0);
    const keep = skills.map((s, k) => s !== -1 && responses[k] !== -1);
    const seq = { fold: r.fold ?? '', uid: Number(r.uid ?? i), skills: skills.filter((_, k) => keep[k]), questions: questions.filter((_, k) => keep[k]), responses: responses.filter((_, k) => keep[k]) };
    if (seq.skills.length !== seq.responses.length || seq.skills.length !== seq.questions.length) throw new Error(`${where}: lists of unequal length`);
    return seq;
  });
}

/** Reads one AKT fold file (4 lines per student with question ids, 3 without). */
export function readAktFoldFile(path: string): StudentSequence[] {
  const lines = readMaybeGz(path).split(/\r?\n/);
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  // 4-line blocks have three equal-length lists after the header line; otherwise 3 lines.
  const lps = lines.length % 4 === 0 && lines.length >= 4 && ints(lines[1]!, path).length === ints(lines[3]!, path).length ? 4 : 3;
  if (lines.length % lps !== 0) throw new Error(`${path}: ${lines.length} lines is not a multiple of ${lps}`);
  const out: StudentSequence[] = [];
  for (let i = 0; i < lines.length; i += lps) {
    const where = `${path}:${i + 1}`;
    const uid = Number(lines[i]!.split(',')[0]);
    const questions = lps === 4 ? ints(lines[i + 1]!, where) : [];
    const skills = ints(lines[i + lps - 2]!, where);
    const responses = ints(lines[i + lps - 1]!, where);
    if (skills.length !== responses.length || (lps === 4 && questions.length !== skills.length)) throw new Error(`${where}: lists of unequal length`);
    out.push({ fold: '', uid, questions: lps === 4 ? questions : skills.map(() => 0), skills, responses });
  }
  return out;
}

/** The held-out test students of fold k of a data set directory, and where they came from. */
export function readTestFold(dir: string, fold: number): { students: StudentSequence[]; source: string } {
  return readFold(dir, fold, 'test');
}

/**
 * A fold's students: the test file, or the validation file of the AKT fold files (model selection
 * only, never trained on; sequences.csv has no validation split).
 */
export function readFold(dir: string, fold: number, split: 'test' | 'valid'): { students: StudentSequence[]; source: string } {
  for (const sub of [dir, join(dir, 'akt_folds')]) {
    if (!existsSync(sub)) continue;
    const f = readdirSync(sub).find((n) => new RegExp(`_${split}${fold}\\.csv(\\.gz)?$`).test(n));
    if (f) return { students: shiftIds(readAktFoldFile(join(sub, f))), source: join(sub, f) };
  }
  if (split === 'valid') throw new Error(`no validation fold ${fold} in ${dir}: expected *_valid${fold}.csv[.gz] in the directory or akt_folds/`);
  for (const n of ['sequences.csv.gz', 'sequences.csv']) {
    const p = join(dir, n);
    if (existsSync(p)) {
      const students = readSequencesCsv(p).filter((s) => s.fold === String(fold));
      if (students.length === 0) throw new Error(`${p}: no students with fold ${fold}`);
      return { students: shiftIds(students), source: `${p} (fold == ${fold})` };
    }
  }
  throw new Error(`no test fold ${fold} in ${dir}: expected *_test${fold}.csv[.gz] (in the directory or akt_folds/) or sequences.csv[.gz]`);
}

function shiftIds(students: StudentSequence[]): StudentSequence[] {
  const zeroBased = students.some((s) => s.skills.some((k) => k === 0));
  if (!zeroBased) return students;
  return students.map((s) => ({ ...s, skills: s.skills.map((k) => k + 1), questions: s.questions.map((q) => q + 1) }));
}
