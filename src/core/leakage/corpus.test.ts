/**
 * The leakage corpus (corpus.ts): the detector's detection rate on disguised disclosures and its
 * false-positive rate on withholding messages, per category, printed as the table in
 * docs/metrics.md (`npm run report:leakage-corpus` prints the same). Goals: ≥ 98% detection and
 * ≤ 1% false positives in every category of at least 100 cases, and overall.
 */
import { describe, expect, it } from 'vitest';
import { corpusItems, corpusTable, leakageCorpus, scoreCorpus } from './corpus';
import { checkAnswer } from '../course/answer-check';

describe('the leakage corpus', () => {
  const items = corpusItems();
  const cases = leakageCorpus(items);
  const rows = scoreCorpus(cases);

  it('is generated over many items and skills: ≥ 300 disguised disclosures, ≥ 150 withholding messages', () => {
    const d = cases.filter((c) => c.kind === 'disclosure');
    const w = cases.filter((c) => c.kind === 'withholding');
    expect(d.length).toBeGreaterThanOrEqual(300);
    expect(w.length).toBeGreaterThanOrEqual(150);
    expect(new Set(d.map((c) => c.item.skillId)).size).toBeGreaterThanOrEqual(80);
    expect(new Set(w.map((c) => c.item.skillId)).size).toBeGreaterThanOrEqual(80);
    expect(new Set(d.map((c) => c.category)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(w.map((c) => c.category)).size).toBeGreaterThanOrEqual(12);
  });

  it('meets the goals per category: ≥ 98% detection, ≤ 1% false positives (the table is printed)', () => {
    console.log(`\n${corpusTable(rows)}`);
    for (const r of rows) {
      if (r.tried < 20) continue;
      const rate = r.after / r.tried;
      if (r.kind === 'disclosure') expect(rate, `${r.category}: ${JSON.stringify(r.wrong)}`).toBeGreaterThanOrEqual(0.98);
      else expect(rate, `${r.category}: ${JSON.stringify(r.wrong)}`).toBeLessThanOrEqual(0.01);
    }
    const sum = (k: 'disclosure' | 'withholding', f: 'tried' | 'after') => rows.filter((r) => r.kind === k).reduce((a, r) => a + r[f], 0);
    expect(sum('disclosure', 'after') / sum('disclosure', 'tried')).toBeGreaterThanOrEqual(0.98);
    expect(sum('withholding', 'after') / sum('withholding', 'tried')).toBeLessThanOrEqual(0.01);
  });

  it('the declared matcher (before) misses most disguises and flags many withholding messages, so the table can tell them apart', () => {
    const d = rows.filter((r) => r.kind === 'disclosure');
    const w = rows.filter((r) => r.kind === 'withholding');
    expect(d.reduce((a, r) => a + r.before, 0) / d.reduce((a, r) => a + r.tried, 0)).toBeLessThan(0.5);
    expect(w.reduce((a, r) => a + r.before, 0) / w.reduce((a, r) => a + r.tried, 0)).toBeGreaterThan(0.05);
  });

  it('every number disguise that is plain text is a form the answer checker accepts or a percent / rendering of the answer', () => {
    // The checker-accepted categories: what a student copies verbatim is graded correct.
    const verbatim = ['leading zeros', 'padded decimals', 'unreduced fractions', 'mixed numbers and improper fractions', 'decimal for a fraction'];
    const re = /(-?\d[\d ./]*\d|-?\d)/;
    for (const c of cases.filter((x) => x.kind === 'disclosure' && verbatim.includes(x.category))) {
      const m = re.exec(c.texts[0]!.replace(/(\d)\.$/, '$1'));
      expect(m, c.texts[0]).not.toBeNull();
      if (c.item.format) continue; // a required form (lowest terms) is checked on top of the value
      expect(checkAnswer(c.item, m![1]!), `${c.item.id} ${c.texts[0]}`).toBe(true);
    }
    expect(items.length).toBeGreaterThan(600);
  });
});
