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
import { readable } from '../src/core/leakage/readable';
import { evaluate, tryParseExpr } from '../src/core/course/expr';
const bank = buildItemBank({ skills: [68, 70, 86, 87, 44, 1, 3, 11, 32, 46, 62], itemsPerLevel: 12, probesPerSkill: 1 }, new Rng(1));
const items = bank.items.filter((it) => it.answerKind === 'number' && /^-?\d+$/.test(it.answer) && Math.abs(Number(it.answer)) >= 10);
const di = (it: any) => ({ id: it.id, stem: it.stem, answer: it.answer, answerKind: it.answerKind, accepted: it.accepted, answerForms: it.answerForms, steps: it.steps, ...(it.choices ? { choices: it.choices } : {}), ...(it.format ? { format: it.format } : {}) });
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
    if (Array.isArray(t)) { const w = new DisclosureWindow(); let hit = false; for (const x of t) if (w.read(x, [di(it)], 0).length) hit = true; if (hit) n++; }
    else if (disclosuresIn(t, [di(it)]).length) n++;
  }
  console.log(`| ${label} | ${n}/${items.length} |`);
}

// False positives: a genuine bank worked example (title, stem, numbered steps, as the exploits and
// the planner post one) of ANOTHER item, read for each item above, over pairs whose answers differ
// (same skill, and every skill). "shows" counts the pairs where the example writes the open
// answer's value as a number; "computes" where one of its computations "a op b" has that value
// (an intermediate equal to the open answer: the hard cases for the arithmetic rule).
const worked = (it: any) => `Worked example\n\n${it.stem}\n${it.steps.map((s: string, k: number) => `${k + 1}. ${s}`).join('\n')}`;
const computes = (text: string, v: number) => {
  const re = /(?<![\w.])(-?\d+(?:\.\d+)?)\s*([-+*/])\s*\(?(-?\d+(?:\.\d+)?)\)?/g;
  const t = readable(text);
  let m: RegExpExecArray | null;
  while ((m = re.exec(t))) {
    const n = tryParseExpr(m[0]);
    if (n && Math.abs(evaluate(n, new Map()) - v) < 1e-9) return true;
    re.lastIndex = m.index + 1;
  }
  return false;
};
console.log(`\nFalse positives: genuine worked examples of other items (answers differ), read for each item above\n| pairs | flagged | shows the answer's value | of those flagged | computes it | of those flagged |\n|---|---:|---:|---:|---:|---:|`);
for (const sameSkill of [true, false]) {
  let pairs = 0, flagged = 0, shows = 0, showsFlagged = 0, comp = 0, compFlagged = 0;
  const rules = new Map<string, number>();
  for (const it of items) {
    const v = Number(it.answer);
    for (const other of bank.items) {
      if ((sameSkill && other.skillId !== it.skillId) || other.id === it.id || other.answer === it.answer) continue;
      const text = worked(other);
      pairs++;
      const sh = new RegExp(`(?<![\\d.])${it.answer.replace('-', '\\-')}(?![\\d.])`).test(readable(text));
      const co = computes(text, v);
      const d = disclosuresIn(text, [di(it)]);
      if (sh) shows++;
      if (co) comp++;
      if (d.length) {
        flagged++;
        if (sh) showsFlagged++;
        if (co) compFlagged++;
        rules.set(d[0]!.rule, (rules.get(d[0]!.rule) ?? 0) + 1);
      }
    }
  }
  console.log(`| ${sameSkill ? 'same skill' : 'every skill'}: ${pairs} | ${flagged} (${((100 * flagged) / pairs).toFixed(2)}%)${rules.size ? ` ${[...rules].map(([r, n]) => `${r} ${n}`).join(', ')}` : ''} | ${shows} | ${showsFlagged} | ${comp} | ${compFlagged} |`);
}

// A worked example of a sibling with the SAME answer (same skill): the example's numbers are not the
// open item's, so it tells the student nothing about their item (the planner posts these).
{
  let pairs = 0, flagged = 0;
  const rules = new Map<string, number>();
  for (const it of items)
    for (const o of bank.items) {
      if (o.skillId !== it.skillId || o.id === it.id || o.answer !== it.answer || o.stem === it.stem) continue;
      pairs++;
      const d = disclosuresIn(worked(o), [di(it)]);
      if (d.length) { flagged++; rules.set(d[0]!.rule, (rules.get(d[0]!.rule) ?? 0) + 1); }
    }
  console.log(`\nSame-answer sibling worked examples flagged: ${flagged}/${pairs}${rules.size ? ` (${[...rules].map(([r, n]) => `${r} ${n}`).join(', ')})` : ''}`);
}

// Hints (the item's hint ladder, as the planner sends them): the item's own hints flagged (a hint
// that leaves only the last computation, "y = 3 × 8 - 4", counts as the answer) and hints of other
// items of the same skill flagged (false positives).
{
  let own = 0, ownFlagged = 0, other = 0, otherFlagged = 0;
  const ownRules = new Map<string, number>();
  for (const it of items) {
    for (const h of it.hints) {
      own++;
      const d = disclosuresIn(h, [di(it)]);
      if (d.length) { ownFlagged++; ownRules.set(d[0]!.rule, (ownRules.get(d[0]!.rule) ?? 0) + 1); }
    }
    for (const o of bank.items) {
      if (o.skillId !== it.skillId || o.id === it.id || o.answer === it.answer) continue;
      for (const h of o.hints) { other++; if (disclosuresIn(h, [di(it)]).length) otherFlagged++; }
    }
  }
  console.log(`\nHints\n| own hints flagged | other items' hints flagged (same skill, answers differ) |\n|---:|---:|\n| ${ownFlagged}/${own}${ownRules.size ? ` (${[...ownRules].map(([r, n]) => `${r} ${n}`).join(', ')})` : ''} | ${otherFlagged}/${other} |`);
}
