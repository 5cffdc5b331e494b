/**
 * The shipped AKT model through the TypeScript tracer (onnxruntime-web in Node, wasm, the reference
 * runtime; native onnxruntime-node against it: akt-runtimes.test.ts): parity with
 * PyTorch on the fixture made by training/akt/make_fixture.py, the future-leak and padding
 * properties, the context window, and clear errors.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { importOrt, loadNodeAkt } from './akt';
import { AktTracer } from '../../core/learner/kt/index';
import { CANDIDATE_SETS, createOrtAktBackend, type OrtAktBackend } from '../ort/akt-backend';
import { executeRun, loadPersonaSeeds, masteryQueries, runRecord, toJsonl, unpackHistory, type Interaction } from '../../core/index';
import { loadScenarioFile } from './files';
import { nodeRunEnv } from './run-env';

interface FullCase { name: string; lengths: number[]; skills: number[][]; questions: number[][]; responses: number[][]; p_correct: number[][] }
interface ReadoutCase { name: string; hist_len: number[]; skills: number[][]; questions: number[][]; responses: number[][]; cand_skills: number[][]; cand_questions: number[][]; p_readout: number[][]; p_full_last_row: number[][] }
const fx = JSON.parse(readFileSync(new URL('../../../training/akt/fixtures/akt_parity.json', import.meta.url), 'utf8')) as { tolerance: number; max_history: number; full: FullCase[]; readout: ReadoutCase[] };

let tracer: AktTracer;
let backend: OrtAktBackend;
beforeAll(async () => {
  ({ tracer, backend } = await loadNodeAkt(undefined, true, 'wasm'));
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

  it('keeps the most recent rows of a longer history, sliding by blocks of 16', async () => {
    const c = fx.full.find((x) => x.name === 'long')!;
    const n = c.lengths[0]!;
    const max = fx.max_history;
    expect(n).toBeGreaterThan(max + 16);
    const h = rows(c.skills[0]!, c.questions[0]!, c.responses[0]!, n);
    for (let len = 1; len <= n; len++) {
      const w = tracer.window(h.slice(0, len));
      // A suffix of the history: all of it up to max rows, then max - 15 .. max rows starting at a multiple of 16.
      if (len <= max) expect([w.start, w.length]).toEqual([0, len]);
      else {
        expect(w.start % 16, `${len} rows`).toBe(0);
        expect(w.length, `${len} rows`).toBeGreaterThanOrEqual(max - 15);
        expect(w.length, `${len} rows`).toBeLessThanOrEqual(max);
      }
      expect(w.start + w.length).toBe(len);
      expect(w.skills[w.length - 1]).toBe(h[len - 1]!.skill);
    }
    const q = [{ skill: 5, question: 0, level: 0 }, { skill: 87, question: 0, level: 0 }];
    const w = tracer.window(h);
    expect(w.start).toBe(Math.ceil((n - max) / 16) * 16);
    // The dropped rows do not matter; the kept ones do.
    expect(maxDiff(await tracer.predict(h, q), await tracer.predict(h.slice(w.start), q))).toBeLessThanOrEqual(1e-5);
    expect(maxDiff(await tracer.predict(h, q), await tracer.predict(h.slice(0, w.length), q))).toBeGreaterThan(1e-3);
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

  it('answers the same readout over the same history from the last one, with the very same numbers', async () => {
    const all = Array.from({ length: tracer.meta.n_skills }, (_, i) => ({ skill: i + 1, question: 0, level: 0 }));
    const h: Interaction[] = [{ skill: 87, question: 0, correct: true }, { skill: 12, question: 0, correct: false }];
    const first = await tracer.predict(h, all);
    const r0 = tracer.counters.readouts;
    const hits0 = tracer.counters.readoutHits;
    // A copy of the same history (a day without answers) and the same candidates: no readout.
    expect(await tracer.predict([...h], all)).toEqual(first);
    expect([tracer.counters.readouts - r0, tracer.counters.readoutHits - hits0]).toEqual([0, 1]);
    // Some of the candidates read: from the memo too, the same bits (wasm readouts are separable).
    expect(await tracer.predict(h, all.slice(0, 5))).toEqual(first.slice(0, 5));
    expect(tracer.counters.readouts - r0).toBe(0);
    // Other candidates, or one more answer: computed again.
    await tracer.predict(h, [{ skill: 5, question: 17, level: 0 }]);
    const longer = await tracer.predict([...h, { skill: 87, question: 0, correct: true }], all);
    expect(longer).not.toEqual(first);
    expect(tracer.counters.readouts - r0).toBe(2);
    // A fresh tracer computes the same numbers as the answered one.
    const { tracer: fresh } = await loadNodeAkt(undefined, false, 'wasm');
    expect(await fresh.predict(h, all)).toEqual(first);
  });

  it('remembers the last few readouts over the current history: a day\'s probe items and all skills, asked again after a day without answers', async () => {
    const all = Array.from({ length: tracer.meta.n_skills }, (_, i) => ({ skill: i + 1, question: 0, level: 0 }));
    const probes = [{ skill: 3, question: 17, level: 0 }, { skill: 40, question: 0, level: 0 }];
    const h: Interaction[] = [{ skill: 5, question: 0, correct: true }, { skill: 9, question: 0, correct: true }, { skill: 5, question: 0, correct: false }];
    const p1 = await tracer.predict(h, probes);
    const b1 = await tracer.predict(h, all);
    const r0 = tracer.counters.readouts;
    const hits0 = tracer.counters.readoutHits;
    // The next day, no answers in between: both again, alternating, from the memo with the same numbers.
    expect(await tracer.predict([...h], probes)).toEqual(p1);
    expect(await tracer.predict([...h], all)).toEqual(b1);
    expect([tracer.counters.readouts - r0, tracer.counters.readoutHits - hits0]).toEqual([0, 2]);
    // It holds four: after four other candidate sets the first is computed again (equal numbers).
    for (let k = 1; k <= 4; k++) await tracer.predict(h, [{ skill: k, question: 100 + k, level: 0 }]);
    expect(tracer.counters.readouts - r0).toBe(4);
    expect(await tracer.predict(h, probes)).toEqual(p1);
    expect(tracer.counters.readouts - r0).toBe(5);
    // One more answer: nothing remembered applies.
    await tracer.predict([...h, { skill: 9, question: 0, correct: false }], probes);
    expect(tracer.counters.readouts - r0).toBe(6);
  });

  it('extends the cached encoding of a growing history by appending rows, and stays a pure function of the history', async () => {
    const c = fx.full.find((x) => x.name === 'long')!;
    const n = c.lengths[0]!;
    const h = rows(c.skills[0]!, c.questions[0]!, c.responses[0]!, n);
    const all = Array.from({ length: tracer.meta.n_skills }, (_, i) => ({ skill: i + 1, question: 0, level: 0 }));
    const max = fx.max_history;
    expect(max).toBe(199);
    const steps = [120, 150, 151, 153, 160, 176, 190, max - 1, max, max + 1, max + 3, max + 16, max + 17, max + 20];
    const e0 = tracer.counters.encodes;
    const a0 = tracer.counters.appends;
    const inOrder: number[][] = [];
    for (const len of steps) inOrder.push(await tracer.predict(h.slice(0, len), all));
    // Blocks of 16 rows: 120 = 112 encoded + 8 appended; 150 = 144 + 6; 151, 153 append 1 and 2;
    // 160 and 176 encoded; 190 appends 14; 198 = 192 + 6; 199 appends 1. From 200 rows on the
    // window slides by 16: 200 keeps rows 16..199 (184 rows, encoded), 202 and 215 append 2 and
    // 13; 216 keeps rows 32..215 (encoded) and 219 appends 3.
    expect(tracer.counters.encodes - e0).toBe(7);
    expect(tracer.counters.appends - a0).toBe(8 + 6 + 1 + 2 + 14 + 6 + 1 + 2 + 13 + 3);
    // Any other order of calls gives the very same numbers (the cache path depends on the history only).
    const { tracer: other } = await loadNodeAkt(undefined, false, 'wasm');
    for (let i = steps.length - 1; i >= 0; i--) expect(await other.predict(h.slice(0, steps[i]), all)).toEqual(inOrder[i]);
    // ... and they equal encoding the whole history, up to float rounding.
    for (let i = 0; i < steps.length; i++) {
      const w = tracer.window(h.slice(0, steps[i]));
      const whole = await backend.readout(await backend.encode(w.skills, w.questions, w.responses), w.length, Int32Array.from(all.map((q) => q.skill)), new Int32Array(all.length));
      expect(maxDiff(inOrder[i]!, whole), `${steps[i]} rows`).toBeLessThanOrEqual(1e-5);
    }
  });

  it('recycles the memory of caches nobody reads any more, also when predictions overlap', async () => {
    const c = fx.full.find((x) => x.name === 'long')!;
    const h = rows(c.skills[0]!, c.questions[0]!, c.responses[0]!, c.lengths[0]!);
    const all = Array.from({ length: tracer.meta.n_skills }, (_, i) => ({ skill: i + 1, question: 0, level: 0 }));
    const lengths = Array.from({ length: 40 }, (_, i) => 180 + i); // appends, a slide, appends again
    const { tracer: seq } = await loadNodeAkt(undefined, false, 'wasm');
    const expected: number[][] = [];
    for (const len of lengths) expected.push(await seq.predict(h.slice(0, len), all));
    // The same histories, all asked at once: each readout must still see its own cache.
    const { tracer: overlapping } = await loadNodeAkt(undefined, false, 'wasm');
    const got = await Promise.all(lengths.map((len) => overlapping.predict(h.slice(0, len), all)));
    got.forEach((g, i) => expect(g, `${lengths[i]} rows`).toEqual(expected[i]));
    // ... and one at a time again on the same tracer, after its buffers have been recycled.
    for (let i = 0; i < lengths.length; i++) expect(await overlapping.predict(h.slice(0, lengths[i]), all)).toEqual(expected[i]);
    // A recycled cache cannot be read again.
    const w = tracer.window(h.slice(0, 150));
    const base = await backend.encode(w.skills.subarray(0, 149), w.questions.subarray(0, 149), w.responses.subarray(0, 149));
    const grown = await backend.append!(base, w.skills[149]!, w.questions[149]!, w.responses[149]!);
    backend.recycle!(grown);
    await expect(backend.readout(grown, 150, Int32Array.of(1), Int32Array.of(0))).rejects.toThrow(/recycled/);
  });

  it('the shipped initial mastery matrix and AKT ability buckets were derived from the shipped model', async () => {
    const seeds = await loadPersonaSeeds();
    const u16 = new Uint16Array(new Uint8Array(readFileSync(new URL('../../../public/models/akt/initial-mastery.u16', import.meta.url))).buffer);
    const nS = tracer.meta.n_skills;
    expect(u16.length).toBe(seeds.seeds.length * nS);
    const all = masteryQueries(Array.from({ length: nS }, (_, i) => i + 1));
    const akt = seeds.ability.akt!;
    expect(akt).toBeDefined();
    for (const i of [0, 1, 500, 1000, seeds.seeds.length - 1]) {
      const p = await tracer.predict(unpackHistory(seeds.seeds[i]!.h), all);
      const row = Array.from(u16.subarray(i * nS, (i + 1) * nS), (v) => v / 65535);
      expect(maxDiff(p, row), `seed ${i}: run npx tsx scripts/derive/akt-seeds.ts after changing the model`).toBeLessThanOrEqual(2 / 65535);
      expect(Math.abs(p.reduce((a, b) => a + b, 0) / nS - akt.initial[i]!)).toBeLessThanOrEqual(1e-4);
    }
  });

  it('says what is missing when the model cannot be loaded', async () => {
    await expect(loadNodeAkt('/nonexistent/akt', false, 'wasm')).rejects.toThrow(/cannot load the AKT model: \/nonexistent\/akt\/meta\.json/);
  });

  it('reads every cached row: a history shorter than its cache is refused, the empty one is read as no rows', async () => {
    const cache = await backend.encode(Int32Array.of(5, 9, 5), Int32Array.of(0, 0, 0), Int32Array.of(1, 1, 0));
    const cs = Int32Array.of(5, 9);
    const cq = new Int32Array(2);
    await expect(backend.readout(cache, 2, cs, cq)).rejects.toThrow(/a history of 2 rows over a cache of 3; the readout reads every cached row/);
    expect((await backend.readout(cache, 3, cs, cq)).length).toBe(2);
    // The empty history: encode's padding row is not read (the same numbers as the tracer's empty history).
    const empty = await backend.readout(await backend.encode(Int32Array.of(0), Int32Array.of(0), Int32Array.of(0)), 0, cs, cq);
    expect(Array.from(empty)).toEqual(await tracer.predict([], [{ skill: 5, question: 0, level: 0 }, { skill: 9, question: 0, level: 0 }]));
  });

  it('refuses graphs whose encode does not give the per-head cache of format 2, saying what to run', async () => {
    const dir = new URL('../../../public/models/akt/', import.meta.url);
    const read = (f: string) => new Uint8Array(readFileSync(new URL(f, dir)));
    const ort = await importOrt('wasm');
    // A graph with other outputs in encode's place (the readout's p_correct, as a stacked `cache` of format 1 would be).
    await expect(createOrtAktBackend(ort, { encode: read('akt_readout.onnx'), readout: read('akt_readout.onnx') }, ['wasm'])).rejects.toThrow(
      /encode graph's outputs \(p_correct\) are not the per-head cache of format educlaw-akt-onnx\/2.*export_onnx\.py --update-graphs/,
    );
    // Format 3's readout without the candidates graph it takes its terms from, or with another graph in its place.
    const graphs = { encode: read('akt_encode.onnx'), readout: read('akt_readout.onnx'), append: read('akt_append.onnx') };
    await expect(createOrtAktBackend(ort, graphs, ['wasm'])).rejects.toThrow(/takes the candidates' terms, but no candidates graph \(akt_candidates\.onnx\) was given/);
    await expect(createOrtAktBackend(ort, { ...graphs, candidates: read('akt_encode.onnx') }, ['wasm'])).rejects.toThrow(
      /the AKT readout graph takes "cand_x", which neither encode nor the candidates graph gives/,
    );
  });

  it('is separable on wasm: a candidate gives the same bits alone and among others (what PredictOptions.also relies on)', async () => {
    expect(backend.separable).toBe(true);
    let seed = 11;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    for (const L of [0, 1, 37, 199]) {
      const n = Math.max(L, 1);
      const cache = await backend.encode(Int32Array.from({ length: n }, () => 1 + rnd(110)), Int32Array.from({ length: n }, () => (L ? 1 + rnd(16000) : 0)), Int32Array.from({ length: n }, () => rnd(2)));
      for (const C of [2, 6, 111]) {
        const cs = Int32Array.from({ length: C }, () => 1 + rnd(110));
        const cq = Int32Array.from({ length: C }, () => (rnd(3) ? 1 + rnd(16000) : 0));
        const all = await backend.readout(cache, L, cs, cq);
        for (let k = 0; k < C; k += C > 10 ? 9 : 1) expect((await backend.readout(cache, L, cs.subarray(k, k + 1), cq.subarray(k, k + 1)))[0], `L ${L}, candidate ${k} of ${C}`).toBe(all[k]);
      }
    }
  });

  it('reads the queries it is told come next with the ones asked, and answers them from memory, with the numbers a fresh tracer gives', async () => {
    const seeds = await loadPersonaSeeds();
    const h = unpackHistory(seeds.seeds[3]!.h).slice(0, 150);
    const course = masteryQueries([12, 30, 44]);
    const next = [{ skill: 30, question: 4021, level: 0 }, { skill: 7, question: 0, level: 0 }];
    const fresh = async () => new AktTracer(backend, tracer.meta);
    const t = await fresh();
    expect(await t.predict(h, course, { also: next })).toEqual(await (await fresh()).predict(h, course));
    const reads = t.counters.readouts;
    expect(await t.predict(h, [next[0]!])).toEqual(await (await fresh()).predict(h, [next[0]!]));
    expect(await t.predict(h, [next[1]!, course[0]!])).toEqual(await (await fresh()).predict(h, [next[1]!, course[0]!]));
    expect(t.counters.readouts).toBe(reads); // both from the memo
    // A backend whose readouts are not separable reads only what is asked.
    const strict = new AktTracer({ ...backend, separable: false }, tracer.meta);
    await strict.predict(h, course, { also: next });
    await strict.predict(h, [next[0]!]);
    expect(strict.counters.readouts).toBe(2);
  });

  it('a whole run reads the item tried next with the belief after each answer: the same trace, fewer readouts', { timeout: 60_000 }, async () => {
    const scenario = loadScenarioFile('scenarios/fast-careless--after-school.yaml');
    const record = runRecord({ scenario: { ...scenario, horizonDays: 6 }, tutor: { name: 'withholder', config: {} }, seed: 42 });
    const runWith = async (t: AktTracer) => toJsonl((await executeRun(record, { ...nodeRunEnv({ ktRuntime: 'wasm' }), tracer: async () => t })).events);
    const hinted = new AktTracer(backend, tracer.meta);
    const strict = new AktTracer({ ...backend, separable: false }, tracer.meta);
    expect(await runWith(hinted)).toBe(await runWith(strict));
    expect(hinted.counters.readouts).toBeLessThan(strict.counters.readouts * 0.9);
    expect(hinted.counters.readoutHits).toBeGreaterThan(strict.counters.readoutHits);
  });

  it("keeps the candidates' terms of recent candidate sets: a set read again, after others pushed it out, gives the same bits", async () => {
    const cache = await backend.encode(Int32Array.of(5, 9, 5, 17), Int32Array.of(3, 0, 8, 0), Int32Array.of(1, 1, 0, 1));
    const set = (k: number) => [Int32Array.of(1 + (k % 110), 1 + ((k * 7) % 110)), Int32Array.of(k % 50, 0)] as const;
    const first = await backend.readout(cache, 4, ...set(0));
    // More other sets than the backend keeps, read two at a time so that some overlap.
    const others = CANDIDATE_SETS + 72;
    for (let k = 1; k <= others; k += 2) await Promise.all([backend.readout(cache, 4, ...set(k)), backend.readout(cache, 4, ...set(k + 1))]);
    const again = await Promise.all([backend.readout(cache, 4, ...set(0)), backend.readout(cache, 4, ...set(0))]);
    expect(Array.from(again[0])).toEqual(Array.from(first));
    expect(Array.from(again[1])).toEqual(Array.from(first));
    // Each set's numbers are its own: the same as a readout of that set alone in a fresh backend.
    const other = await backend.readout(cache, 4, ...set(123)); // set(13) has the same skills and other questions
    const fresh = (await loadNodeAkt(undefined, false, 'wasm')).backend;
    expect(Array.from(await fresh.readout(await fresh.encode(Int32Array.of(5, 9, 5, 17), Int32Array.of(3, 0, 8, 0), Int32Array.of(1, 1, 0, 1)), 4, ...set(123)))).toEqual(Array.from(other));
    await expect(backend.readout(cache, 4, Int32Array.of(1, 2), Int32Array.of(0))).rejects.toThrow(/2 candidate skills but 1 questions/);
  });

  it("keeps the terms of a sweep's candidate sets: a bank's items read again and again run the candidates graph once each, with the uncached bits", async () => {
    // A sweep worker reads the items of one course's bank run after run (183 sets in the planner's library sweep).
    const b = (await loadNodeAkt(undefined, false, 'wasm')).backend;
    const rows = [Int32Array.of(5, 9, 5, 17), Int32Array.of(3, 0, 8, 0), Int32Array.of(1, 1, 0, 1)] as const;
    const cache = await b.encode(...rows);
    const item = (k: number) => [Int32Array.of(1 + (k % 110)), Int32Array.of(1 + k * 37)] as const;
    const items = 200;
    expect(items).toBeLessThanOrEqual(CANDIDATE_SETS);
    const first: number[] = [];
    for (let k = 0; k < items; k++) first.push((await b.readout(cache, 4, ...item(k)))[0]!);
    expect(b.counters.candidateRuns).toBe(items);
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < items; k++) expect((await b.readout(cache, 4, ...item(k)))[0]).toBe(first[k]);
    }
    expect(b.counters.candidateRuns).toBe(items);
    // The uncached path: each item read in a backend that has not seen it gives the same bits.
    const fresh = (await loadNodeAkt(undefined, false, 'wasm')).backend;
    const freshCache = await fresh.encode(...rows);
    for (const k of [0, 57, 199]) {
      const before = fresh.counters.candidateRuns;
      expect((await fresh.readout(freshCache, 4, ...item(k)))[0]).toBe(first[k]);
      expect(fresh.counters.candidateRuns).toBe(before + 1);
    }
  });
});
