/**
 * The bank-match rule (chat-instruction.ts) that instruction.ts uses for content and chat alike:
 * what it matches. How instruction acts in runs: instruction.test.ts and simulated.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { chatInstructionMatch, instructionTokens, type Item } from '../index';

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
