/** Shared option parsers and checks for CLI commands. */
import type { Command } from 'commander';

export const int = (name: string) => (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${v}"`);
  return n;
};

/**
 * The options given on the command line among those `command` declares, except `allowed`
 * (attribute names, e.g. `llmConfig`), as flags (`--tutor`): read from the command's own option
 * table, so an option added to the command is covered without a list to keep in step.
 */
export function givenOptionsExcept(command: Command, allowed: readonly string[]): string[] {
  return command.options.filter((o) => !allowed.includes(o.attributeName()) && command.getOptionValueSource(o.attributeName()) === 'cli').map((o) => o.long ?? o.flags);
}

/** `--a`, `--a and --b`, `--a, --b and --c`. */
export function flagList(attributes: readonly string[]): string {
  const flags = attributes.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  return flags.length < 2 ? flags.join('') : `${flags.slice(0, -1).join(', ')} and ${flags.at(-1)}`;
}
