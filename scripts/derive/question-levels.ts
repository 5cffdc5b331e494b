/**
 * Derives the skill catalogue and three difficulty levels per skill from real questions'
 * observed correct rates in ASSISTments 2009 (all folds: this links generated items to real
 * questions; it is not a model evaluation).
 *
 *   npx tsx scripts/derive/question-levels.ts [--data <dir>]
 *
 * Writes src/core/data/assist2009-skills.json.
 */
import { writeFileSync } from 'node:fs';
import { DATASET_CITATION, DEFAULT_DATA_DIR, readSequences, readSkillNames } from './common';

const MIN_ATTEMPTS = 5;
const PRIOR_STRENGTH = 5;
const QUESTIONS_PER_LEVEL = 40;

const logit = (p: number) => Math.log(p / (1 - p));
const clampP = (p: number) => Math.min(Math.max(p, 0.02), 0.98);

export function deriveLevels(dataDir: string) {
  const seqs = readSequences(dataDir);
  const names = readSkillNames(dataDir);
  const perSkill = new Map<number, { n: number; c: number; q: Map<number, { n: number; c: number }> }>();
  for (const s of seqs) {
    for (let i = 0; i < s.skills.length; i++) {
      const k = s.skills[i] as number;
      const q = s.questions[i] as number;
      const r = s.responses[i] as number;
      let e = perSkill.get(k);
      if (!e) perSkill.set(k, (e = { n: 0, c: 0, q: new Map() }));
      e.n++;
      e.c += r;
      let qe = e.q.get(q);
      if (!qe) e.q.set(q, (qe = { n: 0, c: 0 }));
      qe.n++;
      qe.c += r;
    }
  }
  // Pooled offsets for skills with too few questions to split into terciles.
  const pooled: number[][] = [[], [], []];
  const skills = [...names.keys()].sort((a, b) => a - b).map((id) => {
    const e = perSkill.get(id) ?? { n: 0, c: 0, q: new Map() };
    const rate = e.n > 0 ? e.c / e.n : 0.5;
    const qs = [...e.q.entries()]
      .filter(([, v]) => v.n >= MIN_ATTEMPTS)
      .map(([qid, v]) => ({ qid, n: v.n, rate: (v.c + PRIOR_STRENGTH * rate) / (v.n + PRIOR_STRENGTH) }))
      .sort((a, b) => b.rate - a.rate || a.qid - b.qid);
    let levels: { level: number; correctRate: number; logitOffset: number; questions: number[] }[] | null = null;
    if (qs.length >= 6) {
      const cut1 = Math.floor(qs.length / 3);
      const cut2 = Math.floor((2 * qs.length) / 3);
      const parts = [qs.slice(0, cut1), qs.slice(cut1, cut2), qs.slice(cut2)];
      levels = parts.map((part, i) => {
        const w = part.reduce((a, b) => a + b.n, 0);
        const r = part.reduce((a, b) => a + b.rate * b.n, 0) / w;
        const off = logit(clampP(r)) - logit(clampP(rate));
        pooled[i]?.push(off);
        const questions = part
          .slice()
          .sort((a, b) => b.n - a.n || a.qid - b.qid)
          .slice(0, QUESTIONS_PER_LEVEL)
          .map((x) => x.qid)
          .sort((a, b) => a - b);
        return { level: i + 1, correctRate: round(r), logitOffset: round(off), questions };
      });
    }
    const byAttempts = [...e.q.entries()].sort((a, b) => b[1].n - a[1].n || a[0] - b[0]).map(([qid]) => qid);
    return { id, name: names.get(id) ?? `skill ${id}`, attempts: e.n, correctRate: round(rate), levels, byAttempts };
  });
  const pooledOff = pooled.map((xs) => round(xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1)));
  return {
    version: 'assist2009-levels-1',
    provenance:
      'Derived by scripts/derive/question-levels.ts from assist2009_pid/sequences.csv.gz (all folds). ' +
      `Question correct rates smoothed toward the skill mean (prior strength ${PRIOR_STRENGTH}); questions with at least ${MIN_ATTEMPTS} attempts split into terciles ` +
      '(level 1 = easiest third). Skills with fewer than 6 such questions use offsets pooled over all skills and the most-attempted questions of the skill.',
    citation: DATASET_CITATION,
    pooledLogitOffsets: pooledOff,
    skills: skills.map(({ byAttempts, levels, ...rest }) => ({
      ...rest,
      levelsFrom: levels ? 'questions' : 'pooled',
      levels:
        levels ??
        [1, 2, 3].map((level) => ({
          level,
          correctRate: round(1 / (1 + Math.exp(-(logit(clampP(rest.correctRate)) + (pooledOff[level - 1] ?? 0))))),
          logitOffset: pooledOff[level - 1] ?? 0,
          questions: byAttempts.slice(0, QUESTIONS_PER_LEVEL).sort((a, b) => a - b),
        })),
    })),
  };
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--data');
  const dir = i > 0 ? (process.argv[i + 1] as string) : DEFAULT_DATA_DIR;
  const out = deriveLevels(dir);
  const path = new URL('../../src/core/data/assist2009-skills.json', import.meta.url).pathname;
  writeFileSync(path, JSON.stringify(out) + '\n');
  console.log(`wrote ${path}: ${out.skills.length} skills; pooled offsets ${out.pooledLogitOffsets.join(', ')}; ` +
    `${out.skills.filter((s) => s.levelsFrom === 'pooled').length} skills pooled`);
}
