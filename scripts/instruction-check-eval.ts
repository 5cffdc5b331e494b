/**
 * How the instruction check (src/core/learner/instruction.ts) decides, measured over the item bank
 * of every skill the generators cover (one bank, seed 1): what it credits on the right skill, what
 * it credits on a wrong skill (off-skill), and what it credits that carries no method.
 *
 *   npx tsx scripts/instruction-check-eval.ts
 */
import { buildItemBank } from '../src/core/course/item-bank';
import { GENERATORS } from '../src/core/course/generators/index';
import { skillInfo } from '../src/core/course/skills';
import { Rng } from '../src/core/rng/index';
import { MethodVocabulary, instructionSubstance } from '../src/core/learner/instruction';

const skills = [...GENERATORS.keys()].sort((a, b) => a - b);
const bank = buildItemBank({ skills, itemsPerLevel: 12, probesPerSkill: 3 }, new Rng(1));
const vocab = new MethodVocabulary(bank.items, (s) => skillInfo(s)?.name ?? '');
const rng = new Rng(2);
const CONTENT_FREE = [
  'Study this method carefully.', 'Read each step and make sure you understand it before you move on.', 'Great job! Keep practising, you can do it!',
  'Remember what we studied and keep going.', 'Take your time and check your work.', 'This is an important skill. Practise it until you get it.',
  'Here is a worked example. Follow it closely.', 'You are doing well. Try the next one.', 'Think carefully about the problem.', 'Let me know if you get stuck.',
];
type Row = { label: string; tried: number; credited: number };
const rows: Row[] = [];
const count = (label: string, cases: [string, number][], uncheckedExamples: 'refuse' | 'rules' = 'refuse') => {
  const r = { label, tried: cases.length, credited: cases.filter(([t, s]) => instructionSubstance(t, s, vocab, [], { uncheckedExamples }).credited).length };
  rows.push(r);
};
const other = (s: number) => {
  let o = s;
  while (o === s) o = rng.pick(skills);
  return o;
};
const worked = bank.items.map((it) => [`${it.stem}\n${it.steps.map((st, k) => `${k + 1}. ${st}`).join('\n')}`, it.skillId] as [string, number]);
const hints = bank.items.flatMap((it) => it.hints.map((h) => [h, it.skillId] as [string, number]));
count('bank worked solution, its own skill', worked);
count('bank hint, its own skill', hints);
// An LLM tutor's own correct worked examples, stood in for by another bank's (seed 2): the same
// skills and forms, correct, but numbers this run's bank does not hold (docs/validity.md, "Instruction check v3").
const bank2 = buildItemBank({ skills, itemsPerLevel: 12, probesPerSkill: 3 }, new Rng(2));
const own = bank2.items.map((it) => [`${it.stem}\n${it.steps.map((st, k) => `${k + 1}. ${st}`).join('\n')}`, it.skillId] as [string, number]);
count('correct worked example with its own numbers (bank seed 2), its own skill', own);
count('  … the same, unchecked examples left to the other rules (the alternative)', own, 'rules');
count('bank worked solution, declared on another skill', worked.map(([t, s]) => [t, other(s)]));
count('bank hint, declared on another skill', hints.map(([t, s]) => [t, other(s)]));
count('the problem restated (stem only)', bank.items.map((it) => [it.stem, it.skillId]));
count('the skill named, nothing else', skills.map((s) => [`This is ${skillInfo(s)?.name}. It is important. Practise ${skillInfo(s)?.name} until you get it.`, s]));
count('content-free lines × every skill', skills.flatMap((s) => CONTENT_FREE.map((t) => [t, s] as [string, number])));
count('numbers only (the answer and the stem numbers)', bank.items.map((it) => [`${(it.stem.match(/-?\d+(?:\.\d+)?/g) ?? []).join(', ')}, ${it.answer}`, it.skillId]));
console.log(`${skills.length} skills, ${bank.items.length} items (bank seed 1)\n`);
console.log('| content | tried | credited | rate |\n|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.label} | ${r.tried} | ${r.credited} | ${((100 * r.credited) / r.tried).toFixed(1)}% |`);
if (process.argv.includes('--examples')) {
  const r2 = new Rng(5);
  for (const [t, s] of worked.slice(0, 4000)) { const o = r2.pick(skills); if (o === s) continue; const v = instructionSubstance(t, o, vocab); if (v.credited && r2.next() < 0.03) console.log('OFF', o, JSON.stringify(v), t.replace(/\n/g, ' | ').slice(0, 160)); }
  for (const it of bank.items) { const t = `${(it.stem.match(/-?\d+(?:\.\d+)?/g) ?? []).join(', ')}, ${it.answer}`; const v = instructionSubstance(t, it.skillId, vocab); if (v.credited && r2.next() < 0.05) console.log('NUM', JSON.stringify(v), t, '||', it.steps.join(' | ')); }
}
