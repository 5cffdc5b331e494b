import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { flagList, givenOptionsExcept } from './common';
import { registerRun } from './run';

describe('givenOptionsExcept', () => {
  it('lists the options given on the command line, from the command\'s own table, but the allowed ones', () => {
    const c = new Command().exitOverride().option('--tutor <name>').option('--max-steps <n>').option('--llm-config <file>').option('--quiet').option('--seed <n>', 'seed', '1');
    c.parse(['--max-steps', '3', '--llm-config', 'k.yaml', '--tutor', 'x', '--quiet'], { from: 'user' });
    expect(givenOptionsExcept(c, ['llmConfig', 'quiet'])).toEqual(['--tutor', '--max-steps']);
    expect(givenOptionsExcept(c, ['tutor', 'maxSteps', 'llmConfig', 'quiet'])).toEqual([]); // --seed has a default, not given
    expect(flagList(['llmConfig'])).toBe('--llm-config');
    expect(flagList(['llmConfig', 'ktRuntime', 'quiet'])).toBe('--llm-config, --kt-runtime and --quiet');
  });

  it('run --resume refuses every option that describes the run, and names what goes with it', async () => {
    const p = new Command().exitOverride();
    registerRun(p);
    const run = p.commands[0]!;
    const refused = run.options.filter((o) => !['resume', 'llmConfig', 'ktRuntime', 'quiet'].includes(o.attributeName()));
    expect(refused.length).toBeGreaterThanOrEqual(22);
    // Every refused option given at once (a value that parses for each), before the trace is read.
    const args = refused.flatMap((o) => (o.required || o.optional ? [o.long!, o.argChoices?.[0] ?? (o.long === '--agent-timeout' || o.long === '--agent-retries' || o.long === '--seed' || o.long === '--horizon' || o.long === '--max-steps' || o.long === '--temperature' ? '1' : 'x')] : [o.long!]));
    const err = await p.parseAsync(['run', '--resume', 'no-such.jsonl', '--quiet', ...args], { from: 'user' }).then(() => null, (e: Error) => e);
    expect(err?.message).toBe(`--resume takes the run from the trace: give no ${refused.map((o) => o.long).join(', ')} (only --llm-config, --kt-runtime and --quiet go with --resume)`);
  });
});
