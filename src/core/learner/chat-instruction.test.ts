/**
 * The opt-in chat-instruction rule (chat-instruction.ts): what it matches, and that in a run it
 * gives a chat hint the boost of a hint only when the scenario (or the record) switches it on,
 * recorded in run_start. The figures of its evaluation: scripts/chat-instruction-eval.ts.
 */
import { describe, expect, it } from 'vitest';
import { INSTRUCTION_BOOST, chatInstructionMatch, instructionTokens, toJsonl, type Item, type Tutor } from '../index';
import { miniScenario, runWith } from '../../testing/fixtures';

const item = {
  stem: 'Solve for x: 9x = -36',
  steps: ['9x = -36', 'x = -36 ÷ 9', 'x = -4'],
  hints: ['x is being multiplied by a number. What undoes multiplication?', 'Divide both sides by the number in front of x.'],
} satisfies Pick<Item, 'stem' | 'steps' | 'hints'>;
const stats = {
  stem: 'The low temperatures (in °F) for five days were 18, 5, 6, -12, -12. What is the range of the temperatures?',
  steps: ['Highest: 18; lowest: -12', 'Range = 18 - (-12) = 18 + 12 = 30'],
  hints: ['Find the highest and the lowest temperature.', 'Subtracting a negative number is the same as adding its opposite.'],
};

describe('chat-instruction matching', () => {
  it('matches a hint rung or a step given in a message, verbatim or in other words with the same tokens', () => {
    expect(chatInstructionMatch('Divide both sides by the number in front of x. What would your first step be?', item)).toMatchObject({ kind: 'hint', index: 1 });
    expect(chatInstructionMatch('Try this: in front of x there is a number; divide both sides by it.', item)).toMatchObject({ kind: 'hint', index: 1 });
    expect(chatInstructionMatch('Remember: subtracting a negative number is the same as adding its opposite!', stats)).toMatchObject({ kind: 'hint', index: 1 });
    expect(chatInstructionMatch('The highest is 18 and the lowest is -12.', stats)).toMatchObject({ kind: 'step', index: 0 });
  });

  it('does not match ordinary chat, short steps, or a restatement of the problem', () => {
    for (const t of ['Welcome back! What will you work on first?', 'Good question. What is the problem asking you to find? Try the first step.', 'Great job, keep going!', 'The answer is -4.', 'x = -4'])
      expect(chatInstructionMatch(t, item)).toBeNull();
    expect(chatInstructionMatch(`Let's read the problem again: ${item.stem}`, item)).toBeNull();
    expect(chatInstructionMatch(`Let's read the problem again: ${stats.stem}`, stats)).toBeNull();
    expect(instructionTokens('x = -36 ÷ 9')).toEqual(['x', '36', '9']);
  });
});

describe('chat instruction in runs (opt-in)', () => {
  /** Answers each help request with the item's first hint, in chat only. */
  const chatHinter: Tutor = {
    async onWake(ctx) {
      const id = ctx.wake.reason === 'help_request' ? ctx.wake.payload.item_id : null;
      if (typeof id !== 'string') {
        ctx.tools.call('stay_silent', { reason: 'nothing asked' });
        return;
      }
      const r = ctx.tools.call('get_course_map', { item_id: id });
      const hints = r.ok ? (r.value as { hints: string[] }).hints : [];
      ctx.tools.call('send_message', { text: `${hints[hints.length - 1] ?? 'Try again.'} What would your first step be?` });
    },
  };

  it('off (the default): a chat hint gives no boost; on: the next attempts at the skill get the hint boost, and run_start records the opt-in', async () => {
    const off = await runWith(miniScenario(), chatHinter, { seed: 3 });
    const on = await runWith(miniScenario(), chatHinter, { seed: 3, chatInstruction: true });
    const boosts = (ev: typeof off.events) => ev.filter((e) => e.type === 'attempt').map((e) => (e.type === 'attempt' ? e.boost : 0));
    expect(boosts(off.events).every((b) => b === 0)).toBe(true);
    expect(boosts(on.events)).toContain(INSTRUCTION_BOOST.hint);
    const start = (ev: typeof off.events) => (ev[0]!.type === 'run_start' ? ev[0]!.scenario.learner : null);
    expect(start(off.events)).not.toHaveProperty('chatInstruction');
    expect(start(on.events)).toHaveProperty('chatInstruction', true);
    expect(toJsonl(on.events)).not.toBe(toJsonl(off.events));
  });
});
