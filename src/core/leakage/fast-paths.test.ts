/**
 * The detector's fast paths give the answers of the straightforward detector (issue 30's sweep
 * speed): the window reads a joined text only for the items neither part disclosed, Roman
 * numerals and word tokens are worked out once per text, and every cache (by text, by item object)
 * changes nothing. The straightforward versions are written out here, as the reference.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { DISCLOSURE_WINDOW, DisclosureWindow, disclosuresIn, type DisclosableItem, type WindowDisclosure } from './detect';
import { buildItemBank } from '../course/item-bank';
import { Rng } from '../rng/index';

const FC = { seed: 30, numRuns: 150 };

/** One item of each answer kind and skill of a broad bank (numbers, choices, sets, text, lists, expressions, equations). */
const bank = buildItemBank({ skills: [1, 3, 5, 11, 18, 22, 32, 35, 46, 53, 56, 62, 68, 70, 86, 87, 92, 104], itemsPerLevel: 2, probesPerSkill: 1 }, new Rng(1));
const pool: DisclosableItem[] = bank.items.filter((_, i) => i % 3 === 0);

/** Pieces of tutor texts: the pool's answers, stems and solution phrases, numbers, number words, Roman numerals, statements and glue. */
const pieces: string[] = [
  ...pool.flatMap((it) => [it.answer, ...it.accepted, ...(it.answerForms?.phrases ?? [])]),
  ...pool.slice(0, 8).map((it) => it.stem ?? ''),
  ...['The answer is', 'so it is', '=', 'Answer:', 'For example,', 'another problem:', 'worked example', 'Try', 'You have 3 tries left.', 'level 2', 'item 4', '5, 4, 3', 'x = ', '(−2)', '2', '.25', '5.', '7', '-', '/', '1/2', '62.5%', '0.625', '1 200', '2 5', 'twenty-five', 'three fourths', 'a half', 'minus five', 'five four', 'XII', 'iv', 'the answer is V.', 'IX', 'm', 'c', 'Great job!', '\n', ' ', '$\\tfrac58$', '(b)', 'option A.', 'C, A, B', 'y = 2x + 3', '(4, 3)', '4 and 5', 'is the answer'],
];
const text = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }).map((xs) => xs.join(' '));
const glued = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }).map((xs) => xs.join(''));
const items = fc.subarray(pool, { minLength: 1, maxLength: 8 });

/** The window as it read before the fast path: every joined text read for every item not found alone. */
class ReferenceWindow {
  readonly #size: number;
  readonly #recent: string[] = [];
  constructor(size = DISCLOSURE_WINDOW) {
    this.#size = size;
  }
  read(text: string, items: readonly DisclosableItem[]): WindowDisclosure[] {
    const alone = disclosuresIn(text, items);
    const out: WindowDisclosure[] = alone.map((d) => ({ ...d, spans: 0 }));
    const found = new Set(alone.map((d) => d.itemId));
    const rest = items.filter((it) => !found.has(it.id));
    for (let k = 1; k <= this.#recent.length && rest.length; k++) {
      const earlier = this.#recent.slice(this.#recent.length - k);
      const glue = /[\d.,/-]$/.test(earlier[earlier.length - 1]!) && /^[\d.,/-]/.test(text);
      for (const sep of glue ? [' ', ''] : [' ']) {
        const before = new Set(disclosuresIn(earlier.join(sep), rest).map((d) => d.itemId));
        for (const d of disclosuresIn([...earlier, text].join(sep), rest)) {
          if (before.has(d.itemId) || found.has(d.itemId)) continue;
          found.add(d.itemId);
          out.push({ ...d, spans: k });
        }
      }
    }
    this.#recent.push(text);
    if (this.#recent.length > this.#size - 1) this.#recent.shift();
    return out;
  }
}

describe('DisclosureWindow: the joined text read only for the items neither part disclosed', () => {
  it('reports what the straightforward window reports, read by read (random texts and items, glued parts too)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(text, glued), items), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 4 }), (reads, size) => {
        const fast = new DisclosureWindow(size);
        const ref = new ReferenceWindow(size);
        for (const [t, its] of reads) expect(fast.read(t, its)).toEqual(ref.read(t, its));
      }),
      FC,
    );
  });
  it('two items of one id: the first is reported, as before', () => {
    const a: DisclosableItem = { id: 'N', answerKind: 'number', answer: '25', accepted: [], stem: 'Compute.' };
    const b: DisclosableItem = { id: 'N', answerKind: 'number', answer: '25', accepted: [], stem: 'Compute again.' };
    const fast = new DisclosureWindow();
    const ref = new ReferenceWindow();
    for (const t of ['The answer is 2', '5.', 'it is 2', '5 then']) expect(fast.read(t, [a, b])).toEqual(ref.read(t, [a, b]));
  });
});

describe("the detector's caches change no answer", () => {
  it('warm caches (texts and items asked about again, in another order, through copies of the items) answer as a fresh detector', async () => {
    const cases = fc.sample(fc.tuple(fc.oneof(text, glued), items), { seed: 31, numRuns: 120 });
    vi.resetModules();
    const cold = await import('./detect');
    // A fresh module for every case: nothing cached from one case to the next.
    const want: unknown[] = [];
    for (const [t, its] of cases) {
      vi.resetModules();
      const fresh = await import('./detect');
      want.push(fresh.disclosuresIn(t, its));
    }
    // One module for all: each case asked three times, the second through copies of the items (other objects, the same content).
    for (let round = 0; round < 3; round++) {
      const order = round === 1 ? cases.map((_, i) => cases.length - 1 - i) : cases.map((_, i) => i);
      for (const i of order) {
        const [t, its] = cases[i]!;
        expect(cold.disclosuresIn(t, round === 1 ? its.map((it) => ({ ...it })) : its)).toEqual(want[i]);
      }
    }
  });
});

describe('Roman numerals, worked out once per text', () => {
  const num = (answer: string): DisclosableItem => ({ id: 'N', answerKind: 'number', answer, accepted: [], stem: 'Compute the value.' });
  it('only a numeral of the value, stated and ending its sentence, whatever other numerals the text holds', () => {
    expect(disclosuresIn('The answer is V.', [num('5')]).map((d) => [d.span, d.rule])).toEqual([['V', 'number']]);
    expect(disclosuresIn('Read part v first, then the answer is v.', [num('5')]).map((d) => [d.span, d.at])).toEqual([['v', 38]]);
    expect(disclosuresIn('Read part v first, then the answer is x.', [num('5')])).toEqual([]);
    expect(disclosuresIn('The answer is x.', [num('10'), num('5')]).map((d) => d.span)).toEqual(['x']);
    expect(disclosuresIn('Section iv covers it.', [num('4')])).toEqual([]);
  });
});
