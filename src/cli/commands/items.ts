import type { Command } from 'commander';
import { generatorCoverage, gradeItem, itemAsPlainText, sampleItem, selfCheck, type Level } from '../../core/index';
import { int } from './common';

const level = (v: string): Level => {
  const n = Number(v);
  if (n !== 1 && n !== 2 && n !== 3) throw new Error(`--level must be 1, 2 or 3, got "${v}"`);
  return n;
};

/** The options that name one generated item: skill, level and seed. */
const itemOptions = (c: Command): Command =>
  c
    .requiredOption('--skill <id>', 'skill id (1..110)', int('--skill'))
    .option('--level <n>', 'difficulty level 1..3', level, 2 as Level)
    .option('--seed <n>', 'seed', int('--seed'), 1);

export function registerItems(program: Command): void {
  const items = program.command('items').description('The item bank: sample items, grade answers, self-check the generators.');
  itemOptions(items.command('sample').description('Print one item of a skill at a level (plain text; --json for everything).'))
    .option('--json', 'print JSON')
    .action((o: { skill: number; level: Level; seed: number; json?: boolean }) => {
      const it = itemAsPlainText(sampleItem(o.skill, o.level, o.seed));
      if (o.json) return console.log(JSON.stringify(it, null, 2));
      console.log(`${it.skill}. ${it.skillName}, level ${it.level} (linked real question ${it.questionRef})\n`);
      console.log(it.stem);
      if (it.figure) console.log(`[figure] ${'alt' in it.figure ? it.figure.alt : JSON.stringify(it.figure)}`);
      it.choices?.forEach((c, i) => console.log(`  ${String.fromCharCode(65 + i)}. ${c}`));
      console.log(`\nanswer: ${it.answer}${it.accepted.length ? ` (also: ${it.accepted.join(', ')})` : ''}`);
      console.log(`steps:\n${it.steps.map((s, i) => `  ${i + 1}. ${s}`).join('\n')}`);
      console.log(`hints:\n${it.hints.map((s, i) => `  ${i + 1}. ${s}`).join('\n')}`);
    });
  itemOptions(items.command('grade').description('Grade an answer to a sampled item (exit status 1 when incorrect).'))
    .option('--answer <text>', 'the answer to grade')
    .option('--response <text>', 'the same as --answer')
    .option('--json', 'print JSON: correct, the answer given, the item\'s answer and id')
    .action((o: { skill: number; level: Level; seed: number; answer?: string; response?: string; json?: boolean }) => {
      const given = o.answer ?? o.response;
      if (given === undefined) throw new Error('items grade needs the answer to grade: --answer "<text>"');
      const r = gradeItem(o.skill, o.level, o.seed, given);
      if (o.json) console.log(JSON.stringify({ correct: r.correct, given, answer: r.answer, item: r.item }, null, 2));
      else console.log(`${r.correct ? 'correct' : 'incorrect'} (answer: ${r.answer}; item ${r.item})`);
      if (!r.correct) process.exitCode = 1;
    });
  items
    .command('check')
    .description('Generate items of every skill and level over several seeds and validate them all.')
    .option('--seeds <n>', 'seeds per skill and level', int('--seeds'), 20)
    .option('--json', 'print JSON')
    .action((o: { seeds: number; json?: boolean }) => {
      const cov = generatorCoverage();
      const r = selfCheck(o.seeds);
      if (o.json) return console.log(JSON.stringify({ coverage: cov, ...r }, null, 2));
      console.log(`generators: ${cov.withGenerator}/${cov.total} skills${cov.missing.length ? ` (missing: ${cov.missing.join(', ')})` : ''}`);
      console.log(JSON.stringify(r, null, 2));
      if (r.valid !== r.items || cov.missing.length) process.exitCode = 1;
    });
}
