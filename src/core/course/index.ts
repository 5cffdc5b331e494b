export type { Item, ItemContent, ItemGenerator, Level, AnswerKind, Figure, Misconception, ResponseFormat } from './types';
export { LEVELS } from './types';
export { skillInfo, allSkills, SKILL_CATALOGUE_VERSION, type SkillInfo } from './skills';
export { checkAnswer, normalizeText, parseNumber, parseRelation } from './answer-check';
export { findAnswerForms, revealsAnswer, normalizeForPhrase, plainForMatching } from './answer-forms';
export { toPlain, splitMath, texToPlain, type TextPart } from './math-text';
export { itemKey, unsafeSvg } from './validate';
export { buildItemBank, itemProblems, type ItemBank, type ItemBankSpec } from './item-bank';
export { GENERATORS } from './generators/index';
