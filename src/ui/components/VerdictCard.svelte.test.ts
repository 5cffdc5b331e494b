/** A verdict card shows every judge item's full name beside its short label, not only on hover. */
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import VerdictCard from './VerdictCard.svelte';
import { RUBRICS, type EventOf } from '../../core/index';

const verdict = (rubric: string, scores: Record<string, number> | null): EventOf<'judge_verdict'> =>
  ({ type: 'judge_verdict', seq: 7, t: 0, runId: 'r', panel: 'p', rubric, rubricVersion: 'v', judge: 'j1', provider: 'x', model: 'm', day: 2, status: 'scored', scores, holds: null, attempts: 1, usage: null, cost: null, raw: '{}' }) as unknown as EventOf<'judge_verdict'>;

describe('VerdictCard', () => {
  it('writes each scored item with its rubric text visibly, the labels as before', () => {
    const help = RUBRICS.helpfulness;
    if (help.kind !== 'scale') throw new Error('helpfulness is a scale rubric');
    const { body } = render(VerdictCard, { props: { verdict: verdict('helpfulness', { al_room: 7, cl_chunks: 5 }) } });
    expect(body).toMatch(/<dt[^>]*>al room<\/dt>/);
    expect(body).toMatch(/<details class="legend[^"]*" open/);
    for (const id of ['al_room', 'cl_chunks']) {
      const text = help.items.find((i) => i.id === id)!.text;
      expect(body).toContain(`data-item="${id}"`);
      expect(body).toContain(text.replace(/'/g, '&#39;').replace(/"/g, '&quot;').slice(0, 30));
    }
  });

  it('writes no legend for items the rubric does not know (an unknown rubric)', () => {
    const { body } = render(VerdictCard, { props: { verdict: verdict('nope', { a_b: 1 }) } });
    expect(body).toMatch(/<dt[^>]*>a b<\/dt>/);
    expect(body).not.toContain('What the items mean');
  });
});
