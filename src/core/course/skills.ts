import catalogue from '../data/assist2009-skills.json';
import type { Level } from './types';

/** A skill of the course catalogue (ASSISTments 2009 skill ids and names). */
export interface SkillInfo {
  id: number;
  name: string;
  /** Observed correct rate in the data set. */
  correctRate: number;
  levels: { level: Level; correctRate: number; logitOffset: number; questions: number[] }[];
  levelsFrom: 'questions' | 'pooled';
}

const SKILLS: ReadonlyMap<number, SkillInfo> = new Map(
  (catalogue.skills as unknown as SkillInfo[]).map((s) => [s.id, s]),
);

export const SKILL_CATALOGUE_VERSION: string = catalogue.version;

export function skillInfo(id: number): SkillInfo | undefined {
  return SKILLS.get(id);
}

export function allSkills(): SkillInfo[] {
  return [...SKILLS.values()];
}
