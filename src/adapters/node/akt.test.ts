/**
 * The shipped AKT model through the TypeScript tracer (onnxruntime-web in Node, wasm): parity with
 * PyTorch on the fixture made by training/akt/make_fixture.py, the future-leak and padding
 * properties, the context window, and clear errors.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadNodeAkt } from './akt';
import type { AktTracer } from '../../core/learner/kt/akt';
import type { OrtAktBackend } from '../ort/akt-backend';
import type { Interaction } from '../../core/index';

interface FullCase { name: string; lengths: number[]; skills: number[][]; questions: number[][]; responses: number[][]; p_correct: number[][] }
interface ReadoutCase { name: string; hist_len: number[]; skills: number[][]; questions: number[][]; responses: number[][]; cand_skills: number[][]; cand_questions: number[][]; p_readout: number[][]; p_full_last_row: number[][] }
const fx = JSON.parse(readFileSync(new URL('../../../training/akt/fixtures/akt_parity.json', import.meta.url), 'utf8')) as { tolerance: number; max_history: number; full: FullCase[]; readout: ReadoutCase[] };

let tracer: AktTracer;
let backend: OrtAktBackend;
beforeAll(async () => {
  ({ tracer, backend } = await loadNodeAkt(undefined, true));
}, 60_000);

const rows = (s: number[], q: number[], r: number[], n: number): Interaction[] => Array.from({ length: n }, (_, i) => ({ skill: s[i]!, question: q[i]!, correct: r[i] === 1 }));
const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] as number) - (b[i] as number)));
  return m;
};

async function fullOf(s: number[], q: number[], r: number[]): Promise<Float32Array> {
  return backend.full(Int32Array.from(s), Int32Array.from(q), Int32Array.from(r), 1, s.length);
}

describe('AKT (ONNX, Node wasm)', () => {
  it('matches PyTorch on the fixture: full forward, and encode + readout for every candidate', async () => {
    for (const c of fx.full) {
      for (let b = 0; b < c.lengths.length; b++) {
        const n = c.lengths[b]!;
        const out = await fullOf(c.skills[b]!.slice(0, n), c.questions[b]!.slice(0, n), c.responses[b]!.slice(0, n));
        expect(maxDiff(out, c.p_correct[b]!.slice(0, n)), `full/${c.name}[${b}]`).toBeLessThanOrEqual(fx.tolerance);
      }
    }
    for (const c of fx.readout) {
      for (let b = 0; b < c.hist_len.length; b++) {
        const h = rows(c.skills[b]!, c.questions[b]!, c.responses[b]!, c.hist_len[b]!);
        const q = c.cand_skills[b]!.map((skill, i) => ({ skill, question: c.cand_questions[b]![i]!, level: 0 }));
        const p = await tracer.predict(h, q);
        expect(maxDiff(p, c.p_readout[b]!), `readout/${c.name}[${b}] vs torch readout`).toBeLessThanOrEqual(fx.tolerance);
        expect(maxDiff(p, c.p_full_last_row[b]!), `readout/${c.name}[${b}] vs torch full`).toBeLessThanOrEqual(fx.tolerance);
      }
    }
  });

  it('never lets a prediction see its own response or anything after it', async () => {
    const c = fx.full.find((x) => x.name === 'long')!;
    const n = 60;
    const s = c.skills[0]!.slice(0, n), q = c.questions[0]!.slice(0, n), r = c.responses[0]!.slice(0, n);
    const base = await fullOf(s, q, r);
    for (const t of [0, 1, 17, 59]) {
      const s2 = [...s], q2 = [...q], r2 = [...r];
      r2[t] = 1 - r2[t]!;
      for (let i = t + 1; i < n; i++) {
        s2[i] = (s2[i]! % 110) + 1;
        q2[i] = 0;
        r2[i] = 1 - r2[i]!;
      }
      const out = await fullOf(s2, q2, r2);
      expect(maxDiff(out.subarray(0, t + 1), base.subarray(0, t + 1)), `rows <= ${t}`).toBeLessThanOrEqual(1e-6);
    }
  });

  it('right padding never changes earlier predictions', async () => {
    const c = fx.full.find((x) => x.name === 'long')!;
    const s = c.skills[0]!.slice(0, 20), q = c.questions[0]!.slice(0, 20), r = c.responses[0]!.slice(0, 20);
    const base = await fullOf(s, q, r);
    const padded = await fullOf([...s, 0, 0, 0, 0, 0], [...q, 0, 0, 0, 0, 0], [...r, 0, 0, 0, 0, 0]);
    expect(maxDiff(padded.subarray(0, 20), base)).toBeLessThanOrEqual(1e-6);
  });

  it('keeps the most recent max_history rows of a longer history', async () => {
    const c = fx.full.find((x) => x.name === 'long')!;
    const n = c.lengths[0]!;
    expect(n).toBeGreaterThan(fx.max_history);
    const h = rows(c.skills[0]!, c.questions[0]!, c.responses[0]!, n);
    const q = [{ skill: 5, question: 0, level: 0 }, { skill: 87, question: 0, level: 0 }];
    expect(tracer.window(h).length).toBe(fx.max_history);
    expect(await tracer.predict(h, q)).toEqual(await tracer.predict(h.slice(n - fx.max_history), q));
    expect(await tracer.predict(h, q)).not.toEqual(await tracer.predict(h.slice(0, fx.max_history), q));
  });

  it('reads an empty history, caches the encoding of an unchanged history, and rejects skills it does not know', async () => {
    const all = Array.from({ length: tracer.meta.n_skills }, (_, i) => ({ skill: i + 1, question: 0, level: 0 }));
    const p = await tracer.predict([], all);
    expect(p).toHaveLength(tracer.meta.n_skills);
    for (const x of p) expect(x > 0 && x < 1).toBe(true);
    const h: Interaction[] = [{ skill: 87, question: 0, correct: true }];
    const before = tracer.counters.encodes;
    await tracer.predict(h, all);
    await tracer.predict([...h], [all[0]!]);
    expect(tracer.counters.encodes - before).toBe(1);
    await expect(tracer.predict(h, [{ skill: 999, question: 0, level: 0 }])).rejects.toThrow(/skill 999/);
  });

  it('extends the cached encoding of a growing history row by row, and re-encodes once rows leave the window', async () => {
    const c = fx.full.find((x) => x.name === 'long')!;
    const n = c.lengths[0]!;
    const h = rows(c.skills[0]!, c.questions[0]!, c.responses[0]!, n);
    const all = Array.from({ length: tracer.meta.n_skills }, (_, i) => ({ skill: i + 1, question: 0, level: 0 }));
    const { tracer: fresh } = await loadNodeAkt();
    const max = fx.max_history;
    let worst = 0;
    const e0 = tracer.counters.encodes;
    const a0 = tracer.counters.appends;
    // 120 rows, a jump of 30 (re-encoded: more than 16 rows at once), then 1, 2, 7, 16, 14, 8, 1
    // rows at a time (appended) up to the window, then past it (re-encoded: rows left the window).
    const steps = [120, 150, 151, 153, 160, 176, 190, max - 1, max, max + 1, max + 3];
    expect(max).toBe(199);
    for (const len of steps) {
      const viaTracer = await tracer.predict(h.slice(0, len), all);
      const reference = await fresh.predict(h.slice(0, len), all);
      worst = Math.max(worst, maxDiff(viaTracer, reference));
    }
    expect(tracer.counters.appends - a0).toBe(1 + 2 + 7 + 16 + 14 + 8 + 1);
    expect(tracer.counters.encodes - e0).toBe(2 + 2);
    expect(worst).toBeLessThanOrEqual(1e-5);
    // A history that is not an extension (a different answer at row 10) is encoded afresh.
    const other = h.slice(0, 152).map((r, i) => (i === 10 ? { ...r, correct: !r.correct } : r));
    const e1 = tracer.counters.encodes;
    expect(maxDiff(await tracer.predict(other, all), await fresh.predict(other, all))).toBeLessThanOrEqual(1e-5);
    expect(tracer.counters.encodes - e1).toBe(1);
  });

  it('says what is missing when the model cannot be loaded', async () => {
    await expect(loadNodeAkt('/nonexistent/akt')).rejects.toThrow(/cannot load the AKT model: \/nonexistent\/akt\/meta\.json/);
  });
});
