import type { ItemContent } from './types';
import { checkAnswer, normalizeText } from './answer-check';
import { revealsAnswer } from './answer-forms';

/** What makes two items the same question: the stem, the figure and the options (a figure item's stem can repeat). */
export function itemKey(c: Pick<ItemContent, 'stem' | 'figure' | 'choices'>): string {
  const f = c.figure ? (c.figure.kind === 'svg' ? c.figure.svg : JSON.stringify(c.figure)) : '';
  return `${c.stem}\n${f}\n${(c.choices ?? []).join('|')}`;
}

/** Rejects markup that could run code in the page (our SVGs are plain drawings). */
export function unsafeSvg(svg: string): string | undefined {
  if (/<\s*script/i.test(svg)) return 'script element';
  if (/<\s*foreignObject/i.test(svg)) return 'foreignObject element';
  if (/\son[a-z]+\s*=/i.test(svg)) return 'event handler attribute';
  if (/javascript:/i.test(svg)) return 'javascript: URL';
  if (/(?:xlink:)?href\s*=\s*["'](?!#)/i.test(svg)) return 'external link';
  if (!/^<svg[\s>]/.test(svg.trim()) || !/<\/svg>\s*$/.test(svg)) return 'not a single <svg> element';
  return undefined;
}

/** Reasons an item is unusable, empty when it is fine. The bank never ships an item with a reason. */
export function itemProblems(c: ItemContent): string[] {
  const out: string[] = [];
  if (!c.stem.trim()) out.push('empty stem');
  if (c.hints.length < 2) out.push('fewer than two hints');
  if (c.steps.length < 1 || c.steps.some((s) => !s.trim())) out.push('no worked steps (or an empty one)');
  if (c.misconceptions.length < 1) out.push('no misconception answers');
  if (c.answerForms.numeric.length + c.answerForms.phrases.length < 1) out.push('no declared answer forms');
  if (c.answerKind === 'choice') {
    const ch = c.choices ?? [];
    if (ch.length < 2) out.push('a choice item needs at least two choices');
    const n = ch.filter((x) => normalizeText(x) === normalizeText(c.answer)).length;
    if (n !== 1) out.push(`the answer is ${n === 0 ? 'not among' : 'repeated in'} the choices`);
    if (new Set(ch.map(normalizeText)).size !== ch.length) out.push('duplicate choices');
  }
  if (c.figure?.kind === 'svg') {
    const why = unsafeSvg(c.figure.svg);
    if (why) out.push(`unsafe figure: ${why}`);
    if (!c.figure.alt.trim()) out.push('figure without alt text');
  }
  const fig = c.figure;
  if (fig?.kind === 'table' && fig.rows.some((r) => r.length !== fig.header.length && fig.header.length > 0)) out.push('table rows and header differ in length');
  try {
    if (!checkAnswer(c, c.answer)) out.push(`the checker rejects the answer "${c.answer}"`);
    for (const a of c.accepted) if (!checkAnswer(c, a)) out.push(`the checker rejects accepted form "${a}"`);
    for (const m of c.misconceptions) if (checkAnswer(c, m.answer)) out.push(`misconception answer "${m.answer}" is accepted as correct`);
  } catch (e) {
    out.push(e instanceof Error ? e.message : String(e));
  }
  c.hints.forEach((h, i) => {
    if (revealsAnswer(h, c.answerForms)) out.push(`hint ${i + 1} reveals the answer`);
  });
  if (revealsAnswer(c.stem, c.answerForms)) out.push('the stem contains the answer');
  if (!revealsAnswer(c.steps[c.steps.length - 1] ?? '', c.answerForms) && !revealsAnswer(`The answer is ${c.answer}.`, c.answerForms))
    out.push('the declared answer forms do not match a text stating the answer');
  return out;
}
