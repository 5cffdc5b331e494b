/**
 * Small entry points over the item bank for the CLI (`items sample | grade | check`), the coverage
 * script and the Lab's item browser. Pure: no I/O.
 */
import type { Item, Level } from './types';
import { LEVELS } from './types';
import { GENERATORS } from './generators/index';
import { allSkills, skillInfo } from './skills';
import { checkAnswer } from './answer-check';
import { findAnswerForms } from './answer-forms';
import { itemProblems } from './validate';
import { toPlain } from './math-text';
import { Rng } from '../rng';
import { SimError } from '../errors';

/** One item of a skill at a level, from a seed (the same arguments always give the same item). */
export function sampleItem(skill: number, level: Level, seed: number): Item {
  const info = skillInfo(skill);
  if (!info) throw new SimError('UNKNOWN_SKILL', `unknown skill id ${skill} (skills are 1–110 as in skill.json)`);
  const gen = GENERATORS.get(skill);
  if (!gen) throw new SimError('ITEM_BANK', `no item generator for skill ${skill} (${info.name})`);
  const content = gen.generate(new Rng(seed).fork(`sample:${skill}:${level}`), level);
  const refs = info.levels[level - 1]?.questions ?? [];
  return { ...content, id: `sample-s${skill}-L${level}-${seed}`, skillId: skill, level, questionRef: refs.length ? refs[seed % refs.length]! : 0 };
}

/** The item as plain text (math converted), for terminals and prompts. */
export function itemAsPlainText(item: Item) {
  return {
    id: item.id,
    skill: item.skillId,
    skillName: skillInfo(item.skillId)?.name ?? '',
    level: item.level,
    questionRef: item.questionRef,
    stem: toPlain(item.stem),
    figure: item.figure ? (item.figure.kind === 'svg' ? { kind: 'svg', alt: item.figure.alt } : item.figure) : undefined,
    choices: item.choices?.map(toPlain),
    answerKind: item.answerKind,
    format: item.format,
    answer: item.answer,
    accepted: item.accepted,
    answerForms: item.answerForms,
    steps: item.steps.map(toPlain),
    hints: item.hints.map(toPlain),
    distractors: item.misconceptions,
  };
}

/** Grades a response to a sampled item. */
export function gradeItem(skill: number, level: Level, seed: number, response: string): { correct: boolean; answer: string; item: string } {
  const item = sampleItem(skill, level, seed);
  return { correct: checkAnswer(item, response), answer: item.answer, item: item.id };
}

export interface SelfCheckReport {
  skills: number;
  withGenerator: number;
  items: number;
  valid: number;
  /** Items whose declared answer forms a statement of the answer does not reveal (should be 0). */
  undetectedAnswers: number;
  problems: { skill: number; level: Level; seed: number; problems: string[] }[];
}

/** Runs the item self-checks (validity, leaks, misconceptions rejected) over every skill, level and `seeds` seeds. */
export function selfCheck(seeds = 20): SelfCheckReport {
  const report: SelfCheckReport = { skills: allSkills().length, withGenerator: 0, items: 0, valid: 0, undetectedAnswers: 0, problems: [] };
  for (const s of allSkills()) {
    if (!GENERATORS.has(s.id)) continue;
    report.withGenerator++;
    for (const level of LEVELS) {
      for (let seed = 1; seed <= seeds; seed++) {
        const item = sampleItem(s.id, level, seed);
        report.items++;
        const p = itemProblems(item);
        if (findAnswerForms(`The answer is ${item.answer}.`, item.answerForms).length === 0) report.undetectedAnswers++;
        if (p.length === 0) report.valid++;
        else report.problems.push({ skill: s.id, level, seed, problems: p });
      }
    }
  }
  return report;
}

/** Skills with a generator, out of the catalogue. */
export function generatorCoverage(): { withGenerator: number; total: number; missing: number[] } {
  const all = allSkills();
  const missing = all.filter((s) => !GENERATORS.has(s.id)).map((s) => s.id);
  return { withGenerator: all.length - missing.length, total: all.length, missing };
}

/** The course map of one skill: its name, level descriptions and the linked real questions' difficulty. */
export function skillLevels(skill: number) {
  const info = skillInfo(skill);
  const gen = GENERATORS.get(skill);
  if (!info) throw new SimError('UNKNOWN_SKILL', `unknown skill id ${skill}`);
  return {
    id: info.id,
    name: info.name,
    levels: info.levels.map((l) => ({ level: l.level, describes: gen?.levels[l.level - 1] ?? '', observedCorrectRate: l.correctRate, logitOffset: l.logitOffset, questions: l.questions.length })),
  };
}

/** The docs table of the 110 skills and what each level asks (docs/item-bank.md embeds it). */
export function itemBankTable(): string {
  const esc = (t: string) => t.replace(/\|/g, '\\|');
  const rows = allSkills().map((s) => {
    const g = GENERATORS.get(s.id);
    const lv = g ? g.levels.map(esc) : ['—', '—', '—'];
    const rates = s.levels.map((l) => `${Math.round(l.correctRate * 100)}%`).join(' / ');
    return `| ${s.id} | ${esc(s.name)} | ${lv[0]} | ${lv[1]} | ${lv[2]} | ${rates}${s.levelsFrom === 'pooled' ? ' (pooled)' : ''} |`;
  });
  return ["| id | Skill (ASSISTments 2009 name) | Level 1 | Level 2 | Level 3 | Real questions' correct rate L1 / L2 / L3 |", '|---:|---|---|---|---|---|', ...rows].join('\n');
}
