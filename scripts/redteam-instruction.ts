/**
 * Red team of the instruction check (docs/validity.md, "Exploits an outsider would try"): what
 * src/core/learner/instruction.ts credits of content that is garbled, wrong or keyword-stuffed,
 * over the bank of every skill (one bank, seed 1), beside genuine worked examples.
 *
 *   npx tsx scripts/redteam-instruction.ts
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
const swapNums = (s: string) => s.replace(/\d+/g, (m) => String((Number(m) * 7 + 3) % 97 + 1));
const words = (s: string) => (s.toLowerCase().match(/[a-z]{3,}/g) ?? []);
const rows: [string, number, number][] = [];
const count = (label: string, cases: [string, number][], uncheckedExamples: 'refuse' | 'rules' = 'refuse') => { const c = cases.filter(([t, s]) => instructionSubstance(t, s, vocab, [], { uncheckedExamples }).credited).length; rows.push([label, cases.length, c]); };
const we = (it: any) => `${it.stem}\n${it.steps.map((st: string, k: number) => `${k + 1}. ${st}`).join('\n')}`;
count('genuine worked example', bank.items.map((it) => [we(it), it.skillId]));
count('numbers swapped (steps do not check out)', bank.items.map((it) => [swapNums(we(it)), it.skillId]));
count('  … unchecked examples left to the other rules (the alternative)', bank.items.map((it) => [swapNums(we(it)), it.skillId]), 'rules');
count('steps only, numbers swapped, no stem', bank.items.map((it) => [swapNums(it.steps.join('\n')), it.skillId]));
count('last step answer wrong', bank.items.map((it) => [we(it).replace(/(-?\d+(?:\.\d+)?)(?!.*\d)/s, (m) => String(Number(m) + 1)), it.skillId]));
count('shuffled words of the solution, no numbers', bank.items.map((it) => [rng.shuffle(words(it.steps.join(' ') + ' ' + it.hints.join(' '))).join(' '), it.skillId]));
count('steps in reverse order', bank.items.map((it) => [[...it.steps].reverse().join('\n'), it.skillId]));
// keyword stuffing: the most frequent words of the skill's steps+hints across its items, as a tutor could compute from get_course_map
const bySkill = new Map<number, any[]>(); for (const it of bank.items) { const l = bySkill.get(it.skillId) ?? []; l.push(it); bySkill.set(it.skillId, l); }
const topWords = (sk: number, k: number) => { const f = new Map<string, number>(); for (const it of bySkill.get(sk)!) for (const w of new Set(words([...it.steps, ...it.hints].join(' ')))) f.set(w, (f.get(w) ?? 0) + 1); return [...f].sort((a, b) => b[1] - a[1]).slice(0, k).map(([w]) => w); };
for (const k of [5, 8, 12, 20]) count(`keyword salad: top ${k} words of the skill's solutions+hints`, skills.map((s) => [topWords(s, k).join(' '), s]));
count('keyword salad top 12 in a content-free sentence', skills.map((s) => [`Remember these: ${topWords(s, 12).join(', ')}. Study carefully!`, s]));
count('hint with numbers swapped', bank.items.flatMap((it) => it.hints.map((h: string) => [swapNums(h), it.skillId] as [string, number])));
console.log('| content | tried | credited | rate |\n|---|---:|---:|---:|');
for (const [l, n, c] of rows) console.log(`| ${l} | ${n} | ${c} | ${(100 * c / n).toFixed(1)}% |`);
