/**
 * Shared readers for the derive scripts. They read real data from `../shared/data` (or a path the
 * user gives) and write only derived, compact files into the project. Raw data never lands here.
 */
import { readFileSync } from 'node:fs';

export type { StudentSequence } from '../../src/adapters/node/datasets';
import { readSequencesCsv } from '../../src/adapters/node/datasets';

export const DEFAULT_DATA_DIR = new URL('../../../shared/data/assist2009_pid/', import.meta.url).pathname;

/** Reads the consolidated `sequences.csv.gz` of a data set directory. */
export function readSequences(dataDir: string) {
  return readSequencesCsv(`${dataDir.replace(/\/$/, '')}/sequences.csv.gz`);
}

export function readSkillNames(dataDir: string): Map<number, string> {
  const obj = JSON.parse(readFileSync(`${dataDir.replace(/\/$/, '')}/skill.json`, 'utf8')) as Record<string, number>;
  return new Map(Object.entries(obj).map(([name, id]) => [id, name.trim()]));
}

export const DATASET_CITATION =
  'ASSISTments 2009-2010 skill builder data (https://sites.google.com/site/assistmentsdata/home/assistment-2009-2010-data/skill-builder-data-2009-2010); ' +
  'Feng, M., Heffernan, N. T., & Koedinger, K. R. (2009). Addressing the assessment challenge with an online system that tutors as it assesses. User Modeling and User-Adapted Interaction, 19, 243-266. ' +
  'Preprocessed release and 5-fold split: Ghosh, Heffernan & Lan (2020), Context-Aware Attentive Knowledge Tracing, KDD (arghosh/AKT, data/assist2009_pid).';
