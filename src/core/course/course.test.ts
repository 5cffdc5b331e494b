/**
 * The whole item bank: every one of the 110 skills has a generator whose items are valid at every
 * level for many seeds, whose levels differ measurably, whose figures are safe well-formed SVG,
 * and the bank built over all skills is deterministic with held-out probes.
 * (Per-domain files under generators/ check each stated answer against an independent oracle.)
 */
import { describe, expect, it } from 'vitest';
import { buildItemBank, findAnswerForms, GENERATORS, itemKey, itemProblems, LEVELS, allSkills, toPlain } from './index';
import { Rng } from '../rng';
import type { ItemContent } from './types';

const SEEDS = 80;

function sample(skill: number, level: 1 | 2 | 3, n: number, label = 'bank-test'): ItemContent[] {
  const gen = GENERATORS.get(skill)!;
  const rng = new Rng(2024).fork(`${label}:${skill}:${level}`);
  return Array.from({ length: n }, () => gen.generate(rng, level));
}

describe('coverage of the 110 skills', () => {
  it('has a generator for every skill in the catalogue, with three level descriptions', () => {
    const skills = allSkills();
    expect(skills).toHaveLength(110);
    const missing = skills.filter((s) => !GENERATORS.has(s.id)).map((s) => `${s.id} ${s.name}`);
    expect(missing).toEqual([]);
    for (const [id, gen] of GENERATORS) {
      expect(gen.skillId).toBe(id);
      expect(gen.levels).toHaveLength(3);
      for (const d of gen.levels) expect(d.length).toBeGreaterThan(5);
    }
  });
});

describe('every generator at every level', () => {
  it(`yields valid items for ${SEEDS} draws (answer and accepted forms pass, misconceptions fail, no hint or stem leak)`, () => {
    const failures: string[] = [];
    for (const gen of GENERATORS.values()) {
      for (const level of LEVELS) {
        for (const item of sample(gen.skillId, level, SEEDS)) {
          const p = itemProblems(item);
          if (p.length) failures.push(`skill ${gen.skillId} L${level}: ${p.join('; ')} — ${toPlain(item.stem)}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it('declares answer forms that a statement of the answer reveals and a hint does not', () => {
    for (const gen of GENERATORS.values()) {
      for (const level of LEVELS) {
        for (const item of sample(gen.skillId, level, 10, 'leak')) {
          expect(findAnswerForms(`The answer is ${item.answer}.`, item.answerForms).length, `skill ${gen.skillId}`).toBeGreaterThan(0);
          for (const h of item.hints) expect(findAnswerForms(h, item.answerForms), `skill ${gen.skillId} hint: ${h}`).toEqual([]);
        }
      }
    }
  });

  it('is deterministic in the seed', () => {
    for (const gen of GENERATORS.values()) {
      const a = sample(gen.skillId, 2, 3, 'det');
      const b = sample(gen.skillId, 2, 3, 'det');
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    }
  });

  it('writes stems a reader can follow: balanced $…$ math, no raw LaTeX outside it, not too long', () => {
    for (const gen of GENERATORS.values()) {
      for (const level of LEVELS) {
        for (const item of sample(gen.skillId, level, 5, 'text')) {
          const unescaped = item.stem.replace(/\\\$/g, '');
          expect((unescaped.match(/\$/g) ?? []).length % 2, `skill ${gen.skillId}: ${item.stem}`).toBe(0);
          const outside = unescaped.split('$').filter((_, i) => i % 2 === 0).join(' ');
          expect(outside, `skill ${gen.skillId}: LaTeX outside math`).not.toMatch(/\\[a-z]+/);
          expect(toPlain(item.stem).length, `skill ${gen.skillId}`).toBeLessThan(420);
        }
      }
    }
  });
});

// ---------- levels differ ----------

/** The shape of a stem with its numbers blanked ("What is # + #?"). */
const skeleton = (it: ItemContent) => toPlain(it.stem).replace(/-?\d+(\.\d+)?/g, '#').replace(/\b[A-Z]{3}\b/g, 'TRI');

/**
 * A surface measure of difficulty: worked steps, digits of the largest given number, negative or
 * non-integer answers and given numbers, and the size of the answer's denominator.
 */
export function difficultyScore(it: ItemContent): number {
  const given = `${toPlain(it.stem)} ${it.figure?.kind === 'svg' ? it.figure.alt : it.figure ? JSON.stringify(it.figure.rows) : ''} ${(it.choices ?? []).map(toPlain).join(' ')}`;
  const nums = (t: string) => [...t.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?:\/\d+)?/g)].map((m) => m[0]);
  const g = nums(given);
  const a = nums(String(it.answer));
  const digits = Math.max(0, ...g.map((n) => n.split(/[./]/)[0]!.replace('-', '').length));
  const den = Math.max(1, ...[...String(it.answer).matchAll(/\/(\d+)/g)].map((m) => Number(m[1])));
  return (
    it.steps.length +
    digits / 2 +
    (a.some((n) => n.startsWith('-')) ? 1 : 0) +
    (a.some((n) => /[./]/.test(n)) ? 1 : 0) +
    (g.some((n) => n.startsWith('-')) ? 0.5 : 0) +
    (g.some((n) => /[./]/.test(n)) ? 0.5 : 0) +
    Math.log2(den) / 2
  );
}

describe('levels', () => {
  it('differ for every skill: a different kind of item, or the same kind with a higher difficulty score', () => {
    const problems: string[] = [];
    let sums = [0, 0, 0];
    for (const gen of GENERATORS.values()) {
      const items = LEVELS.map((l) => sample(gen.skillId, l, 40, 'levels'));
      const skel = items.map((xs) => new Set(xs.map(skeleton)));
      const score = items.map((xs) => xs.reduce((s, it) => s + difficultyScore(it), 0) / xs.length);
      sums = sums.map((v, i) => v + score[i]!);
      for (const [a, b] of [
        [0, 1],
        [1, 2],
      ] as const) {
        const keysA = new Set(items[a]!.map(itemKey));
        if (items[b]!.some((it) => keysA.has(itemKey(it)))) problems.push(`skill ${gen.skillId}: a level ${b + 1} item repeats a level ${a + 1} item`);
        const shared = [...skel[a]!].some((s) => skel[b]!.has(s));
        if (shared && !(score[b]! > score[a]! + 0.1)) problems.push(`skill ${gen.skillId}: levels ${a + 1} and ${b + 1} share a template but the difficulty score does not grow (${score[a]!.toFixed(2)} → ${score[b]!.toFixed(2)})`);
      }
    }
    expect(problems).toEqual([]);
    // Across the whole bank, the measure grows with the level.
    expect(sums[0]!).toBeLessThan(sums[1]!);
    expect(sums[1]!).toBeLessThan(sums[2]!);
  });
});

// ---------- figures ----------

/** A tiny XML well-formedness check: balanced tags, quoted attributes, known entities only. */
function xmlProblems(xml: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  const tagRe = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<!--[\s\S]*?-->/g;
  let last = 0;
  for (let m = tagRe.exec(xml); m; m = tagRe.exec(xml)) {
    const between = xml.slice(last, m.index);
    if (/[<>]/.test(between)) out.push(`stray < or > before ${m[0].slice(0, 30)}`);
    if (/&(?!amp;|lt;|gt;|quot;|apos;|#\d+;)/.test(between)) out.push('unescaped &');
    last = m.index + m[0].length;
    if (m[0].startsWith('<!--')) continue;
    const [, close, name, , self] = m;
    if (close) {
      if (stack.pop() !== name) out.push(`mismatched </${name}>`);
    } else if (!self) stack.push(name!);
  }
  if (/[<>]/.test(xml.slice(last))) out.push('trailing < or >');
  if (stack.length) out.push(`unclosed ${stack.join(', ')}`);
  return out;
}

describe('figures', () => {
  it('are well-formed SVG with a title and alt text, and contain no script, event handler or external link', () => {
    let svgs = 0;
    let tables = 0;
    for (const gen of GENERATORS.values()) {
      for (const level of LEVELS) {
        for (const item of sample(gen.skillId, level, 6, 'fig')) {
          const f = item.figure;
          if (!f) continue;
          if (f.kind === 'table') {
            tables++;
            for (const r of f.rows) expect(r.length).toBe(f.header.length);
            continue;
          }
          svgs++;
          expect(xmlProblems(f.svg), `skill ${gen.skillId} L${level}`).toEqual([]);
          expect(f.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* role="img"/);
          expect(f.svg).toMatch(/<title>[^<]+<\/title>/);
          expect(f.svg).not.toMatch(/<script|<foreignObject|\son\w+=|javascript:|href=/i);
          expect(f.alt.length).toBeGreaterThan(20);
        }
      }
    }
    expect(svgs).toBeGreaterThan(200);
    expect(tables).toBeGreaterThan(20);
  });
  it('the XML check itself catches broken markup', () => {
    expect(xmlProblems('<svg><g></svg>')).not.toEqual([]);
    expect(xmlProblems('<svg><text>a < b</text></svg>')).not.toEqual([]);
    expect(xmlProblems('<svg><text x=1>a</text></svg>')).not.toEqual([]);
    expect(xmlProblems('<svg><text x="1">a &amp; b</text><line x1="0"/></svg>')).toEqual([]);
  });
});

describe('the item bank over all 110 skills', () => {
  it('reuses a bank built for the same course and seed, frozen, and depends on the seed alone (not on draws from the rng)', () => {
    const spec = { skills: [68, 70, 86, 87, 44], itemsPerLevel: 6, probesPerSkill: 4 };
    const a = buildItemBank(spec, new Rng(11));
    expect(buildItemBank({ ...spec, skills: [...spec.skills] }, new Rng(11))).toBe(a);
    expect(buildItemBank(spec, new Rng(12))).not.toBe(a);
    expect(buildItemBank({ ...spec, probesPerSkill: 5 }, new Rng(11))).not.toBe(a);
    // What the cache returns is what a fresh build gives, even from an rng already drawn from.
    const used = new Rng(11);
    used.next();
    used.int(1, 9);
    const fresh = buildItemBank(spec, used, { cache: false });
    expect(fresh.hash).toBe(a.hash);
    expect(JSON.stringify([fresh.items, fresh.probes])).toBe(JSON.stringify([a.items, a.probes]));
    // Nobody can change a bank another run holds.
    const it0 = a.items[0]!;
    expect(() => {
      (it0 as { id: string }).id = 'changed';
    }).toThrow(TypeError);
    expect(() => (a.items as unknown as unknown[]).push(it0)).toThrow(TypeError);
    expect(() => (a.practice(68, 1) as unknown as unknown[]).pop()).toThrow(TypeError);
    expect(a.get(it0.id)).toBe(it0);
  });

  it('builds deterministically, links items to real questions, and holds probes out of practice', () => {
    const skills = allSkills().map((s) => s.id);
    const spec = { skills, itemsPerLevel: 4, probesPerSkill: 3 };
    const a = buildItemBank(spec, new Rng(7), { cache: false });
    const b = buildItemBank(spec, new Rng(7), { cache: false });
    expect(a).not.toBe(b);
    expect(a.hash).toBe(b.hash);
    expect(a.items).toHaveLength(110 * 3 * 4);
    expect(a.probes).toHaveLength(110 * 3);
    expect(buildItemBank(spec, new Rng(8)).hash).not.toBe(a.hash);
    const keys = new Set(a.items.map(itemKey));
    for (const p of a.probes) expect(keys.has(itemKey(p))).toBe(false);
    for (const it of [...a.items, ...a.probes]) {
      expect(itemProblems(it)).toEqual([]);
      expect(it.questionRef).toBeGreaterThan(0);
    }
    expect(a.practice(44, 2)).toHaveLength(4);
    expect(a.get(a.items[5]!.id)).toBe(a.items[5]);
  });
  it('builds a parallel post-probe form on request: other items of the same skills and levels, held out, reproducible; without it the bank is unchanged', () => {
    const skills = allSkills().map((s) => s.id);
    const spec = { skills, itemsPerLevel: 4, probesPerSkill: 3 };
    const one = buildItemBank(spec, new Rng(7), { cache: false });
    expect(one.postProbes).toBeUndefined();
    expect(buildItemBank({ ...spec, probeForms: 1 }, new Rng(7), { cache: false }).hash).toBe(one.hash);
    const two = buildItemBank({ ...spec, probeForms: 2 }, new Rng(7), { cache: false });
    expect(buildItemBank({ ...spec, probeForms: 2 }, new Rng(7), { cache: false }).hash).toBe(two.hash);
    expect(buildItemBank({ ...spec, probeForms: 2 }, new Rng(7))).not.toBe(buildItemBank(spec, new Rng(7)));
    expect(two.hash).not.toBe(one.hash);
    // Form A is the one-form bank's probe set, item for item.
    expect(two.probes).toEqual(one.probes);
    const post = two.postProbes!;
    expect(post).toHaveLength(two.probes.length);
    expect(post.map((p) => [p.skillId, p.level])).toEqual(two.probes.map((p) => [p.skillId, p.level]));
    const formA = new Set(two.probes.map(itemKey));
    const practice = new Set(two.items.map(itemKey));
    for (const p of post) {
      expect(formA.has(itemKey(p)), p.id).toBe(false);
      expect(practice.has(itemKey(p)), p.id).toBe(false);
      expect(itemProblems(p)).toEqual([]);
      expect(two.get(p.id)).toBe(p);
      expect(p.id).toMatch(/^q\d+-\d\d$/);
    }
  });
  it('rejects an unknown skill id', () => {
    expect(() => buildItemBank({ skills: [999], itemsPerLevel: 1, probesPerSkill: 0 }, new Rng(1))).toThrow(/unknown skill id 999/);
  });
});

describe('the item bank at the largest scenario settings', () => {
  it('fills 60 practice items per level and 30 held-out probes even for skills with few distinct questions', () => {
    const small = [16, 22, 28, 84, 107, 57, 14];
    const bank = buildItemBank({ skills: small, itemsPerLevel: 60, probesPerSkill: 30 }, new Rng(3));
    expect(bank.items).toHaveLength(small.length * 180);
    expect(bank.probes).toHaveLength(small.length * 30);
    const practice = new Set(bank.items.map(itemKey));
    const probeKeys = bank.probes.map(itemKey);
    expect(new Set(probeKeys).size).toBe(probeKeys.length);
    for (const k of probeKeys) expect(practice.has(k)).toBe(false);
    expect(new Set(bank.items.map((i) => i.id)).size).toBe(bank.items.length);
  });
});
