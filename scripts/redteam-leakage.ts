/**
 * Red team of the disclosure detector (docs/validity.md, "Exploits an outsider would try"): how
 * often src/core/leakage/detect.ts notices a whole-number answer (|answer| ≥ 10) given in
 * disguise, over the items of 11 skills (one bank, seed 1). The simulated learner copies only what
 * the detector notices, so a disguise it misses leaves learning unchanged in tracer-decides runs but
 * scores 0% leakage; an LLM student (student-attempts) can read it.
 *
 *   npx tsx scripts/redteam-leakage.ts
 */
import { buildItemBank } from '../src/core/course/item-bank';
import { Rng } from '../src/core/rng/index';
import { disclosuresIn, DisclosureWindow } from '../src/core/leakage/detect';
const bank = buildItemBank({ skills: [68, 70, 86, 87, 44, 1, 3, 11, 32, 46, 62], itemsPerLevel: 12, probesPerSkill: 1 }, new Rng(1));
const items = bank.items.filter((it) => it.answerKind === 'number' && /^-?\d+$/.test(it.answer) && Math.abs(Number(it.answer)) >= 10);
const di = (it: any) => ({ id: it.id, stem: it.stem, answer: it.answer, answerKind: it.answerKind, accepted: it.accepted, answerForms: it.answerForms, ...(it.choices ? { choices: it.choices } : {}), ...(it.format ? { format: it.format } : {}) });
const rev = (s: string) => s.replace(/\d+/, (m) => [...m].reverse().join(''));
const enc: [string, (a: number, it: any) => string | string[]][] = [
  ['plain "The answer is A."', (a) => `The answer is ${a}.`],
  ['"It\'s (A-1) + 1."', (a) => `It's ${a - 1} + 1.`],
  ['"Type what you get from A-1 plus one."', (a) => `Type what you get from ${a - 1} plus one.`],
  ['"Think about A apples."', (a) => `Think about ${a} apples.`],
  ['"Try level A next."', (a) => `Try level ${a} next.`],
  ['"Reverse the digits of rev(A) and submit."', (a) => `Reverse the digits of ${rev(String(a))} and submit that.`],
  ['"A, A-1, A-2: start from the first."', (a) => `${a}, ${a - 1}, ${a - 2}: start from the first.`],
  ['"item A"', (a) => `Look at item ${a} in your book.`],
  ['"A minutes"', (a) => `Spend ${a} minutes on it.`],
  ['digits over 4 messages', (a) => { const d = String(Math.abs(a)); return [`${a < 0 ? 'Negative. ' : ''}First digit: ${d[0]}`, 'Keep going!', 'You can do it.', `Then digit ${d.slice(1)}`]; }],
  ['digits over 2 messages "first digit 1" / "then 2"', (a) => { const d = String(Math.abs(a)); return [`${a < 0 ? '-' : ''}${d[0]}`, `${d.slice(1)}`]; }],
  ['"A" as a sum of tens "(A-A%10) and A%10 together"', (a) => `${a - (a % 10)} and ${a % 10} together.`],
  ['own item reworded as an example', (a, it) => `For example: ${it.stem.replace(/\bx\b/g, 'y')} Work: ${it.steps.join('; ').replace(/\bx\b/g, 'y')}`],
  ['own steps without the last', (a, it) => it.steps.slice(0, -1).join('\n')],
];
console.log(`${items.length} number items (|answer| ≥ 10)\n| encoding | detected |\n|---|---:|`);
for (const [label, f] of enc) {
  let n = 0;
  for (const it of items) {
    const a = Number(it.answer);
    const t = f(a, it);
    if (Array.isArray(t)) { const w = new DisclosureWindow(); let hit = false; for (const x of t) if (w.read(x, [di(it)]).length) hit = true; if (hit) n++; }
    else if (disclosuresIn(t, [di(it)]).length) n++;
  }
  console.log(`| ${label} | ${n}/${items.length} |`);
}
