/**
 * The CLI's lazy command table (command-table.ts) against the command modules: every command
 * module is in the table with its name, arguments and the opening of its description, and the
 * program gets exactly the command being run (fully, from its module) or the list of all of them.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { COMMANDS, commandNameIn, registerCommands } from './command-table';

const argsOf = (c: Command) => c.registeredArguments.map((a) => (a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`)).join(' ');

describe('the command table', () => {
  it('names each command as its module registers it', async () => {
    for (const entry of COMMANDS) {
      const p = new Command();
      await entry.register(p);
      expect(p.commands.map((c) => c.name()), entry.name).toEqual([entry.name]);
      const cmd = p.commands[0]!;
      expect(argsOf(cmd), `${entry.name}: arguments`).toBe(entry.args);
      expect(cmd.description().startsWith(entry.summary), `${entry.name}: the summary opens its description`).toBe(true);
    }
  }, 60_000);

  it('lists every command module under ./commands', () => {
    const dir = fileURLToPath(new URL('./commands/', import.meta.url));
    const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && /export function register[A-Z]\w*\(program: Command\)/.test(readFileSync(dir + f, 'utf8')));
    const table = readFileSync(fileURLToPath(new URL('./command-table.ts', import.meta.url)), 'utf8');
    for (const f of modules) expect(table, `commands/${f} is not in COMMANDS`).toContain(`import('./commands/${f.replace(/\.ts$/, '')}')`);
    expect(modules.length).toBe(COMMANDS.length);
  });

  it('finds the command in the arguments', () => {
    expect(commandNameIn(['run', '--tutor', 'planner'])).toBe('run');
    expect(commandNameIn(['help', 'sweep'])).toBe('sweep');
    expect(commandNameIn(['--help'])).toBeNull();
    expect(commandNameIn([])).toBeNull();
    expect(commandNameIn(['help'])).toBeNull();
  });

  it('registers only the command being run, or every command for the list', async () => {
    const one = new Command();
    await registerCommands(one, ['score', 'x.jsonl']);
    expect(one.commands.map((c) => c.name())).toEqual(['score']);
    expect(one.commands[0]!.options.map((o) => o.long)).toContain('--json');

    const all = new Command();
    await registerCommands(all, ['--help']);
    expect(all.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c.name));
    expect(all.helpInformation()).toContain('export-trajectories <runs...>');

    // A command registered already (eagerly, by main.ts) is left as it is.
    const eager = new Command();
    eager.command('score').description('mine');
    await registerCommands(eager, ['score']);
    expect(eager.commands.map((c) => c.description())).toEqual(['mine']);
  });
});
