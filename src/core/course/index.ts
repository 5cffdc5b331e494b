export type { Item, ItemContent, ItemGenerator, Level, AnswerKind, Figure, Misconception } from './types';
export { LEVELS } from './types';
export { skillInfo, allSkills, SKILL_CATALOGUE_VERSION, type SkillInfo } from './skills';
export { checkAnswer, normalizeText, parseNumber } from './answer-check';
export { findAnswerForms, revealsAnswer, normalizeForPhrase } from './answer-forms';
export { buildItemBank, itemProblems, type ItemBank, type ItemBankSpec } from './item-bank';
export { GENERATORS } from './generators/index';
