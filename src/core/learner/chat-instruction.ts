/**
 * Instruction in chat (opt-in: learner.chatInstruction, docs/learning-model.md "Instruction in
 * chat"): a tutor chat message that gives a step of the worked solution or a rung of the hint
 * ladder of an item the learner is working on counts as instruction like a hint on that item's
 * skill. Matched deterministically, by normalized token overlap with the item's own steps and hints:
 *
 *   tokens(s)  = the words and numbers of s after the answer checker's normalisation (case, LaTeX,
 *                Unicode minus, superscripts), without the STOP words below;
 *   novel(h)   = the tokens of h that the item's stem does not hold (what the step adds to the problem);
 *   a step or hint h matches message m when h has at least CHAT_MIN_TOKENS tokens, at least
 *   CHAT_MIN_NOVEL of them novel, and at least CHAT_MIN_OVERLAP of its tokens and of its novel
 *   tokens (each counted with multiplicity) occur in m.
 *
 * Short steps ("x = -4") never match (fewer than three tokens), nor do steps that only restate the
 * problem ("9x = -36" for "Solve for x: 9x = -36"; the data of a statistics item in order): fewer
 * than two novel tokens. And a message that restates the problem does not match the steps that
 * reorder its numbers: the novel tokens must be there. The figures behind the constants (how often the rule fires
 * on the reference tutors and the scripted LLM tutor, its false-positive rate on ordinary chat) are
 * in docs/learning-model.md; `scripts/chat-instruction-eval.ts` reproduces them.
 */
import type { Item } from '../course/types';
import { normalizeText } from '../course/answer-check';

export const CHAT_INSTRUCTION_VERSION = 'chat-instruction-v1';
export const CHAT_MIN_TOKENS = 3;
export const CHAT_MIN_OVERLAP = 0.8;
export const CHAT_MIN_NOVEL = 2;

/** Function words left out of the overlap (they carry no method). */
const STOP = new Set(['a', 'an', 'the', 'is', 'are', 'be', 'it', 'its', 'this', 'that', 'to', 'and', 'or', 'you', 'your', 'we', 'i', 'so', 'now', 'then', 'do', 'what', 'can', 'will', 'on', 'at', 'for', 'with']);

export function instructionTokens(s: string): string[] {
  return (normalizeText(s).match(/[a-z]+|\d+(?:\.\d+)?/g) ?? []).filter((t) => !STOP.has(t));
}

function counts(ts: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of ts) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

type Prepared = { stem: Map<string, number>; cands: { kind: 'step' | 'hint'; index: number; want: Map<string, number>; seq: string[] }[] };
/** An item's tokens, computed once per item object (items never change; tokenizing is most of a match's cost). */
const PREPARED = new WeakMap<object, Prepared>();
function prepared(item: Pick<Item, 'steps' | 'hints' | 'stem'>): Prepared {
  let p = PREPARED.get(item);
  if (!p) {
    p = {
      stem: counts(instructionTokens(item.stem)),
      cands: [
        ...item.steps.map((t, index) => ({ kind: 'step' as const, index, want: counts(instructionTokens(t)), seq: instructionTokens(t) })),
        ...item.hints.map((t, index) => ({ kind: 'hint' as const, index, want: counts(instructionTokens(t)), seq: instructionTokens(t) })),
      ],
    };
    PREPARED.set(item, p);
  }
  return p;
}

/** The step or hint of `item` that `text` gives (the first that matches), or null. */
export function chatInstructionMatch(
  text: string,
  item: Pick<Item, 'steps' | 'hints' | 'stem'>,
  /** Other thresholds, for the evaluation's sensitivity table only; runs use the constants. */
  o: { minTokens?: number; minOverlap?: number; minNovel?: number | null; skipLastStep?: boolean } = {},
): { kind: 'step' | 'hint'; index: number; overlap: number } | null {
  return chatInstructionMatchTokens(messageTokens(text), item, o);
}

/** A message's token counts, for chatInstructionMatchTokens (work them out once when one message is matched against many items). */
export function messageTokens(text: string): ReadonlyMap<string, number> {
  return counts(instructionTokens(text));
}

/** chatInstructionMatch with the message's token counts (messageTokens) worked out beforehand: the same answer. */
export function chatInstructionMatchTokens(
  have: ReadonlyMap<string, number>,
  item: Pick<Item, 'steps' | 'hints' | 'stem'>,
  o: { minTokens?: number; minOverlap?: number; minNovel?: number | null; skipLastStep?: boolean; order?: readonly string[]; numbersAgree?: boolean } = {},
): { kind: 'step' | 'hint'; index: number; overlap: number } | null {
  const minTokens = o.minTokens ?? CHAT_MIN_TOKENS;
  const minOverlap = o.minOverlap ?? CHAT_MIN_OVERLAP;
  // null: no condition on novel tokens (the evaluation's baseline).
  const minNovel = o.minNovel === undefined ? CHAT_MIN_NOVEL : o.minNovel;
  if (have.size === 0) return null;
  const { stem, cands } = prepared(item);
  for (const c of cands) {
    // The last step gives the answer: saying it is disclosure, not instruction (instruction.ts).
    if (o.skipLastStep && c.kind === 'step' && c.index === item.steps.length - 1) continue;
    const want = c.want;
    let total = 0;
    let hit = 0;
    let novel = 0;
    let novelHit = 0;
    for (const [t, n] of want) {
      const h = Math.min(n, have.get(t) ?? 0);
      total += n;
      hit += h;
      // The copies of t beyond the stem's are novel; the message covers them with what it holds beyond the stem's share.
      const inStem = stem.get(t) ?? 0;
      const nNovel = Math.max(0, n - inStem);
      novel += nNovel;
      novelHit += Math.min(nNovel, Math.max(0, (have.get(t) ?? 0) - Math.min(inStem, n)));
    }
    if (total < minTokens || (minNovel !== null && novel < minNovel)) continue;
    const overlap = hit / total;
    const novelOk = minNovel === null || novel === 0 || novelHit / novel >= minOverlap;
    if (overlap < minOverlap || !novelOk) continue;
    // In order: at least half of the step's adjacent word pairs stand side by side in the message too
    // (a shuffle of its words is not the step; a rewording that keeps its phrases is).
    if (o.order && pairShare(c.seq, o.order) < CHAT_MIN_PAIR_SHARE) continue;
    // With numbersAgree: every number of the step is in the message (its words with other numbers are another, unchecked, problem).
    if (o.numbersAgree && c.seq.some((t) => /^\d/.test(t) && !have.has(t))) continue;
    return { kind: c.kind, index: c.index, overlap };
  }
  return null;
}

/** With `order`: the share of a step's adjacent token pairs that must be adjacent in the message too. */
export const CHAT_MIN_PAIR_SHARE = 0.5;

/** Share of `want`'s adjacent token pairs that are adjacent in `have` as well (1 for a one-token `want` found in `have`). */
export function pairShare(want: readonly string[], have: readonly string[]): number {
  if (want.length === 0) return 0;
  if (want.length === 1) return have.includes(want[0]!) ? 1 : 0;
  const adjacent = new Set<string>();
  for (let k = 1; k < have.length; k++) adjacent.add(`${have[k - 1]} ${have[k]}`);
  let hit = 0;
  for (let k = 1; k < want.length; k++) if (adjacent.has(`${want[k - 1]} ${want[k]}`)) hit++;
  return hit / (want.length - 1);
}
